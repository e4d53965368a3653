"""The command line: deal, replay and play for Cruel and Crazy Quilt."""

from __future__ import annotations

import io
import json

import pytest

from spielcenter.cli import main
from spielcenter.cli.patience import play_loop
from spielcenter.games import get_game


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_deal_prints_the_cruel_layout_as_json_in_the_documented_shape(capsys):
    status, out, _ = run(capsys, "deal", "cruel", "--deal", "1", "--json")
    view = json.loads(out)
    assert status == 0
    assert set(view) >= {"game", "variant", "deal", "piles", "foundations", "status", "redeals"}
    assert view["game"] == "cruel" and view["deal"] == 1 and view["status"] == "playing"
    assert [len(pile) for pile in view["piles"]] == [4] * 12
    assert view["foundations"] == {"S": "A", "H": "A", "D": "A", "C": "A"}
    assert view["legal"] == [m for m in view["legal"] if isinstance(m, str)]


def test_deal_never_prints_the_crazy_quilt_stock_order_unless_revealed(capsys):
    _, hidden, _ = run(capsys, "deal", "crazy-quilt", "--deal", "1", "--json")
    _, shown, _ = run(capsys, "deal", "crazy-quilt", "--deal", "1", "--json", "--reveal")
    view, revealed = json.loads(hidden), json.loads(shown)
    assert "stock" not in view and view["stock_count"] == 32
    assert len(revealed["stock"]) == 32
    assert len(view["quilt"]) == 8 and all(len(row) == 8 for row in view["quilt"])
    assert len(view["available"]) == 16


def test_deal_prints_text_for_people_with_status_and_legal_moves(capsys):
    status, out, _ = run(capsys, "deal", "cruel", "--deal", "1000", "--variant", "perseverance")
    assert status == 0
    assert "status: playing" in out and "legal:" in out


def test_replay_applies_the_moves_and_prints_the_result(capsys):
    game = get_game("cruel")
    state = game.start(2)
    first = game.format_move(game.legal_moves(state)[0])
    status, out, _ = run(capsys, "replay", "cruel", "--deal", "2", "--moves", first, "--json")
    assert status == 0
    assert json.loads(out) == game.view_for(game.play(state, first), 0)


def test_replay_stops_at_the_first_illegal_move_with_exit_status_2(capsys):
    status, _, err = run(capsys, "replay", "cruel", "--deal", "1", "--moves", "r 1f")
    assert status == 2
    assert "move 1 ('r')" in err


def test_replay_stops_at_an_unreadable_move_with_exit_status_2(capsys):
    status, _, err = run(capsys, "replay", "crazy-quilt", "--deal", "1", "--moves", "s zz s")
    assert status == 2
    assert "move 2 ('zz')" in err


def test_a_bad_deal_number_is_refused_with_exit_status_2(capsys):
    status, _, err = run(capsys, "deal", "cruel", "--deal", "0")
    assert status == 2 and "deal number" in err


def test_an_unknown_variant_is_refused_with_exit_status_2(capsys):
    status, _, err = run(capsys, "deal", "cruel", "--deal", "1", "--variant", "easy")
    assert status == 2 and "variant" in err


def test_the_terminal_player_takes_moves_undo_redo_help_and_hint():
    game = get_game("crazy-quilt")
    out = io.StringIO()
    status = play_loop(game, 5, io.StringIO("?\ns\nu\ny\nh\nzz\nq\n"), out)
    text = out.getvalue()
    assert status == 0
    assert "played s" in text and "undone" in text and "redone" in text
    assert "hint:" in text and "refused:" in text and "u  undo" in text
