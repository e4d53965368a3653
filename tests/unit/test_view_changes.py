"""What changed between two views (docs/protocol.md, "What changed"): the fields that changed
with their new values, single items of lists that kept their length, and the whole view when
that would be no larger."""

from __future__ import annotations

import gc
import json
from typing import Any

from spielcenter.games.base import get_game
from spielcenter.services.common import compact_json, json_items
from spielcenter.services.games import (
    changes_between,
    event_head_text,
    frozen_view,
    thawed_view,
    view_changes,
)
from tests.protocol import apply_changes


def cruel_views() -> tuple[dict[str, Any], dict[str, Any]]:
    cruel = get_game("cruel")
    state = cruel.start(1)
    move = cruel.legal_moves(state)[0]
    before = {**cruel.view_for(state, 0), "elapsed_ms": 0}
    after = {**cruel.view_for(cruel.apply(state, move), 0), "elapsed_ms": 0}
    return before, after


def test_the_changes_turn_the_view_before_into_the_view_after() -> None:
    before, after = cruel_views()
    changes = changes_between(before, after)
    assert changes is not None
    assert apply_changes(before, changes) == after


def test_a_list_that_kept_its_length_sends_only_the_items_that_changed() -> None:
    # A Cruel move changes two of the twelve piles (or one and a foundation).
    before, after = cruel_views()
    changes = changes_between(before, after)
    assert changes is not None
    pairs = enumerate(zip(before["piles"], after["piles"], strict=True))
    changed = {str(i) for i, (a, b) in pairs if a != b}
    assert set(changes["items"]["piles"]) == changed
    assert "piles" not in changes["fields"]


def test_fields_that_did_not_change_are_not_sent_but_the_clock_always_is() -> None:
    before, after = cruel_views()
    changes = changes_between(before, after)
    assert changes is not None
    assert "game" not in changes["fields"] and "deal" not in changes["fields"]
    assert changes["fields"]["elapsed_ms"] == 0  # unchanged, yet the clock's field is sent


def test_when_every_field_changed_there_are_no_changes_the_whole_view_goes() -> None:
    assert changes_between({"a": 1, "b": [1, 2]}, {"a": 2, "b": [3, 4]}) is None


def test_views_of_different_fields_have_no_changes() -> None:
    assert changes_between({"a": 1}, {"a": 1, "b": 2}) is None


def test_the_view_kept_for_the_next_changes_is_nothing_the_garbage_collector_walks() -> None:
    # One kept view per live game, replaced every entry: as lists and dicts a thousand of them
    # a second reached the collector's oldest generation and brought full collections.
    before, after = cruel_views()
    changes, _, kept = view_changes(frozen_view(before), after)
    assert changes == changes_between(before, after)
    assert not gc.is_tracked(kept)
    assert all(isinstance(text, str) for text in kept.values())


def test_a_frozen_view_thaws_into_the_same_view() -> None:
    # A reconnect's missed events carry their views thawed from the frozen ones kept.
    before, after = cruel_views()
    for view in (before, after, {"a": [], "b": [{"c": "x\ny"}, [1, 2.5, None]], "d": [True]}):
        assert thawed_view(frozen_view(view)) == view


def test_a_frozen_view_holds_each_field_as_compact_json_and_a_longer_list_item_by_item() -> None:
    # frozen_view writes each field by its type, lists of lists of strings kept by their items
    # or in one call of the C encoder split where the items join: whatever the way, a field is
    # its compact JSON, and a list of two or more items its items' texts each after a newline
    # (strings that hold "],[" or a newline, empty and mixed lists included).
    quilt = get_game("crazy-quilt")
    tricky = {
        "text": "Kreuz\nBube ü",
        "number": 3,
        "flag": True,
        "nothing": None,
        "fraction": 2.5,
        "foundations": {"S": "A"},
        "one": [["5S"]],
        "piles": [["JS", "],["], ["5C"], []],
        "rows": [["6H", None], [], [None, "],[", "x\ny"]],
        "lists_then_text": [["x"], "y"],
        "text_then_number": ["x", 1],
        "flags": [True, False],
        "empty": [],
    }
    for view in (*cruel_views(), quilt.view_for(quilt.start(1), 0), tricky):
        expected = {
            key: "\n" + "\n".join(map(compact_json, value))
            if isinstance(value, list) and len(value) > 1
            else compact_json(value)
            for key, value in view.items()
        }
        assert frozen_view(view) == expected
        assert thawed_view(frozen_view(view)) == view


def test_an_events_text_without_its_view_is_written_as_compact_json_writes_it() -> None:
    # Kept for reconnects and sent with the changes: written by hand (services/games.py).
    heads = [
        ("0123456789abcdef0123456789abcdef", 1, "move", "2f"),
        ('a"b\\c', 10**20, "undo", "Kreuz\nBube ü\u2028"),
        ("", 0, "redo", ""),
    ]
    for game_id, seq, kind, move in heads:
        event = {
            "type": "event",
            "game_id": game_id,
            "seq": seq,
            "event": {"kind": kind, "move": move},
        }
        assert event_head_text(game_id, seq, kind, move) == compact_json(event)


def test_compact_json_is_what_json_dumps_writes_without_spaces_or_ascii_escapes() -> None:
    for value in (1, 2.5, None, True, "Kreuz\nBube ü", [1, "x", {"a": [None, False]}], {}, []):
        assert compact_json(value) == json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def test_the_items_of_a_list_are_written_as_compact_json_writes_each() -> None:
    # json_items writes lists of strings in C (a pile, the legal moves); anything else as before.
    values = ["7H", "Kreuz\nBube ü", ["5S", "6S"], ["x", 1], [1, "x"], 3, None, True, {"S": "A"}]
    assert json_items(values) == [compact_json(value) for value in values]
    assert json_items([]) == []


def tricky_views() -> list[dict[str, Any]]:
    """Views whose fields break shortcuts: strings holding newlines, brackets and quotes, lists
    of lists with other things inside, numbers equal to booleans, dicts of strings and not."""
    quilt = get_game("crazy-quilt")
    played = quilt.apply(quilt.start(1), quilt.legal_moves(quilt.start(1))[0])
    views: list[dict[str, Any]] = [*cruel_views()]
    views += [quilt.view_for(quilt.start(1), 0), quilt.view_for(played, 0)]
    for piles in (
        [["JS", "],["], ["5C"], []],
        [["1"], ["true"], ["x\ny", 'a"b']],
        [[1], [True], [1.0]],
        [[True], [1], [1.0]],
        [["6H", None], [], [None, "],[", "x\ny"]],
        [["a", "b"], ["c"], [["nested"]]],
        [["a"], {"b": "c"}, ["d"]],
        [["a"], "ab", ["b"]],
    ):
        for tops in ({"S": "A", "H": "2"}, {"S": 1, "H": True}, {"S": True, "H": 1}, {"S": ["A"]}):
            views.append({"piles": piles, "foundations": tops, "n": len(views), "legal": ["2f"]})
    return views


def test_a_frozen_view_is_its_definition_when_texts_are_kept_by_their_items() -> None:
    # The texts of lists and dicts of strings are kept by their items (a pile that did not
    # change is not written again): a list or dict equal to a kept one but of other types —
    # [1] and [True], {"S": 1} and {"S": True} — must still get its own text, in any order.
    views = tricky_views()
    for view in [*views, *reversed(views), *views]:
        expected = {
            key: "\n" + "\n".join(map(compact_json, value))
            if isinstance(value, list) and len(value) > 1
            else compact_json(value)
            for key, value in view.items()
        }
        assert frozen_view(view) == expected
        assert thawed_view(frozen_view(view)) == view


def test_the_changes_text_is_the_compact_json_of_the_changes() -> None:
    # Written from the frozen texts (services/games.py, view_changes), not by the encoder: it
    # must be the encoder's text of the changes, for every pair of views.
    views = tricky_views()
    pairs = [(views[k], views[k + 1]) for k in range(len(views) - 1)]
    pairs += [(after, before) for before, after in pairs]
    pairs += [({"a": 1, "b": "x", "c": [1, 2]}, {"a": 2, "b": "x", "c": [1, 3]})]
    pairs += [({1: "x", "b": [1, 2, 3]}, {1: "y", "b": [1, 2, 4]})]  # type: ignore[dict-item]
    seen_items = False
    for before, after in pairs:
        changes, text, _ = view_changes(frozen_view(before), after)
        if changes is None:
            assert text is None
            continue
        seen_items = seen_items or "items" in changes
        assert text == compact_json(changes)
        assert apply_changes(before, changes) == after
    assert seen_items  # the items' text was written at least once
