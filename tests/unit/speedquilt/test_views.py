"""Views (speedquilt.md §9, architecture "hidden information never leaves the server")."""

from __future__ import annotations

import json

import pytest

from spielcenter.games.base import StateFormatError
from spielcenter.games.speedquilt.model import Deck, KitKind
from spielcenter.games.speedquilt.state import Window

from .engine_helpers import COLOURS, chosen, clear_quilt, game, kit, lay, play, rolled


def test_no_view_holds_the_deal_number() -> None:
    engine = game(2)
    state = chosen(engine, 987654321)
    for seat in (0, 1, None):
        assert "987654321" not in json.dumps(engine.view_for(state, seat))


def test_deck_orders_are_hidden_and_only_their_sizes_shown() -> None:
    engine = game(2)
    state = chosen(engine, 3)
    view = engine.view_for(state, 0)
    assert view["decks"] == {
        "pattern": len(state.decks[Deck.PATTERN]),
        "kit": len(state.decks[Deck.KIT]),
    }
    text = json.dumps(view)
    shown = {cell["block"] for seat in view["seats"] for cell in seat["quilt"]}
    shown |= {b for shelf in view["shop"].values() for b in shelf if b}
    for block_id in state.decks[Deck.PATTERN] + state.decks[Deck.KIT]:
        assert block_id not in shown and f'"{block_id}"' not in text


def test_the_dealt_four_are_seen_only_by_their_seat() -> None:
    engine = game(2)
    state = engine.start(5)
    mine, theirs = engine.view_for(state, 0), engine.view_for(state, 1)
    assert mine["seats"][0]["hand"] == state.seats[0].hand
    assert "hand" not in theirs["seats"][0]
    assert not any(f'"{b}"' in json.dumps(theirs) for b in state.seats[0].hand)


def test_an_undecided_start_choice_is_seen_only_by_its_seat() -> None:
    engine = game(2)
    state = engine.start(5)
    state = engine.apply(state, engine.legal_moves(state, 0)[0], 0)
    theirs = engine.view_for(state, 1)
    assert theirs["seats"][0]["chosen"] is True
    assert not any(f'"{b}"' in json.dumps(theirs) for b in state.seats[0].hand)
    assert engine.view_for(state, 0)["seats"][0]["row"] == state.seats[0].row


def test_the_choice_of_all_is_shown_once_everyone_has_chosen() -> None:
    engine = game(2)
    state = chosen(engine, 5)
    view = engine.view_for(state, 1)
    assert [cell["block"] for cell in view["seats"][0]["quilt"]] == [
        state.seats[0].quilt[(x, 0)].block_id for x in range(3)
    ]


def test_private_adjustments_of_a_passive_seat_are_hidden_from_the_others() -> None:
    engine = game(3)
    state = chosen(engine, 4)
    assert state.turn is not None
    me = state.turn.seat
    other, third = (me + 1) % 3, (me + 2) % 3
    clear_quilt(state, other)
    lay(state, other, (0, 0), "P04")
    lay(state, other, (1, 0), kit(KitKind.DYE_BATH), finished=True)
    state = rolled(state, me, [1, 2, 3, 4, 5], rolls=2)
    assert state.turn is not None
    state.turn.windows = {other: Window(list(COLOURS)), third: Window(list(COLOURS))}
    state = engine.play(state, "dye red->blue", other)
    for viewer in (me, third, None):
        red = engine.view_for(state, viewer)["turn"]["dice"][0]
        assert (red["colour"], red["adjusted"]) == ("red", False)
    assert engine.view_for(state, other)["turn"]["dice"][0]["colour"] == "blue"


def test_no_view_shows_undo_snapshots_or_future_dice() -> None:
    engine = game(2)
    state = chosen(engine, 4)
    assert state.turn is not None
    me = state.turn.seat
    state = play(engine, state, me, "roll")
    view = engine.view_for(state, me)
    assert set(view["turn"]) == {
        "seat", "kind", "rolls", "dice", "basket", "used", "acted", "bin_used", "windows",
        "can_undo", "allowance", "kit_uses",
    }  # fmt: skip
    assert '"undo"' not in json.dumps(view) and "deal" not in json.dumps(view)


def test_a_view_shows_her_own_kit_uses_of_this_turn_and_nobody_elses() -> None:
    """The shop's buy sentence needs to know whether her scissors are still unused this turn."""
    engine = game(2)
    state = chosen(engine, 4)
    assert state.turn is not None
    me = state.turn.seat
    other = 1 - me
    state = play(engine, state, me, "roll")
    assert state.turn is not None
    state.turn.kit_uses = {me: {KitKind.SCISSORS: 1}, other: {KitKind.THIMBLE: 1}}
    assert engine.view_for(state, me)["turn"]["kit_uses"] == {"scissors": 1}
    assert engine.view_for(state, other)["turn"]["kit_uses"] == {"thimble": 1}
    assert engine.view_for(state, None)["turn"]["kit_uses"] == {}


def test_a_spectator_sees_the_public_table() -> None:
    engine = game(2)
    state = chosen(engine, 4)
    view = engine.view_for(state, None)
    assert view["you"] is None and len(view["seats"]) == 2
    assert view["to_act"] == sorted(engine.to_act(state))


def test_the_full_state_survives_its_json_codec() -> None:
    engine = game(3)
    state = chosen(engine, 4)
    assert state.turn is not None
    state = play(engine, state, state.turn.seat, "roll", "keep red", "reroll")
    data = json.loads(json.dumps(engine.encode(state)))
    assert engine.decode(data) == state


def test_a_malformed_state_is_refused_with_a_clear_error() -> None:
    engine = game(2)
    data = engine.encode(chosen(engine, 4))
    with pytest.raises(StateFormatError, match="not a Speedquilt state"):
        engine.decode({**data, "format": "cruel/1"})
    with pytest.raises(StateFormatError, match="unknown block id 'P99'"):
        engine.decode({**data, "removed": ["P99"]})
    with pytest.raises(StateFormatError, match="malformed"):
        engine.decode({**data, "round": "soon"})
    with pytest.raises(StateFormatError, match="2 seats"):
        game(3).decode(data)
