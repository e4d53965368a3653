"""The computer players: whole games at every seat count, views only, the strong basket."""

from __future__ import annotations

import json
from typing import Any

import pytest

from spielcenter.bots import LEVELS, get_bot
from spielcenter.bots.player import fallback
from spielcenter.bots.position import rebuild
from spielcenter.bots.tournament import run_tournament, wilson
from spielcenter.games.base import UnknownGameError
from spielcenter.games.speedquilt.catalogue import load_catalogue
from spielcenter.games.speedquilt.model import Deck

from ..speedquilt.engine_helpers import chosen, clear_quilt, game, lay, rolled

CATALOGUE = load_catalogue()


def test_a_bot_decides_the_same_whatever_the_hidden_decks_hold() -> None:
    engine = game(2)
    state = chosen(engine, 31)
    seat = state.turn.seat if state.turn else 0
    state = engine.play(state, "roll", seat)
    other = state.copy()
    for deck in Deck:
        other.decks[deck] = list(reversed(other.decks[deck]))
    assert engine.view_for(state, seat) == engine.view_for(other, seat)
    for level in LEVELS:
        first = get_bot(level).decide(engine, engine.view_for(state, seat), seat, {})
        second = get_bot(level).decide(engine, engine.view_for(other, seat), seat, {})
        assert first == second


def test_a_bot_needs_nothing_but_the_view_of_its_seat() -> None:
    engine = game(2)
    state = chosen(engine, 32)
    seat = state.turn.seat if state.turn else 0
    state = engine.play(state, "roll", seat)
    view = json.loads(json.dumps(engine.view_for(state, seat)))  # plain JSON, no objects
    text = get_bot("strong").decide(engine, view, seat, {})
    engine.check(state, engine.parse_move(text), seat)


def test_the_rebuilt_decks_hold_only_blocks_the_seat_has_not_seen() -> None:
    engine = game(2)
    state = chosen(engine, 33)
    view = engine.view_for(state, 0)
    belief = rebuild(view, CATALOGUE, {})
    shown = {b for shelf in view["shop"].values() for b in shelf if b}
    shown |= {e["block"] for s in view["seats"] for e in s["quilt"]}
    for deck in Deck:
        assert len(belief.decks[deck]) == len(state.decks[deck])
        assert not shown & set(belief.decks[deck])


def _five_five_position() -> tuple[Any, Any, int]:
    engine = game(2)
    state = clear_quilt(chosen(engine, 34), 0)
    lay(state, 0, (0, 0), "P06")  # purple frame, patches 5 5 5
    state = rolled(state, 0, [5, 5, 2, 3, 1])
    return engine, state, 0


def test_strong_keeps_the_dice_a_block_asks_for() -> None:
    engine, state, seat = _five_five_position()
    text = get_bot("strong").decide(engine, engine.view_for(state, seat), seat, {})
    assert text == "keep red blue"


def test_strong_rerolls_once_the_basket_is_right() -> None:
    engine, state, seat = _five_five_position()
    state = engine.play(state, "keep red blue", seat)
    text = get_bot("strong").decide(engine, engine.view_for(state, seat), seat, {})
    assert text == "reroll"


def _three_fives_after_the_last_roll() -> tuple[Any, Any]:
    engine = game(2)
    state = clear_quilt(chosen(engine, 35), 0)
    lay(state, 0, (0, 0), "P06")
    return engine, rolled(state, 0, [5, 5, 5, 3, 1], rolls=3)


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_every_bot_sews_a_block_its_dice_fill_after_the_last_roll(level: str) -> None:
    engine = game(2)
    state = clear_quilt(chosen(engine, 35), 0)
    lay(state, 0, (0, 0), "P05")  # yellow, patches 1 1 any, 3 points
    state = rolled(state, 0, [1, 1, 4, 3, 2], rolls=3)
    text = get_bot(level).decide(engine, engine.view_for(state, 0), 0, {})
    assert text.startswith("sew P05 red:1 blue:2 ")


def test_easy_prefers_buying_a_kit_with_three_equal_dice() -> None:
    engine, state = _three_fives_after_the_last_roll()
    text = get_bot("easy").decide(engine, engine.view_for(state, 0), 0, {})
    assert text.startswith("buy K") and text.endswith("with red blue green")


def test_the_fallback_always_finds_a_legal_move() -> None:
    engine = game(2)
    state = chosen(engine, 36)
    seat = state.turn.seat if state.turn else 0
    belief = rebuild(engine.view_for(state, seat), CATALOGUE, {})
    text = fallback(engine, belief, seat)
    engine.check(state, engine.parse_move(text), seat)


def test_an_unknown_level_is_a_clear_error() -> None:
    with pytest.raises(UnknownGameError, match="known: easy, normal, strong"):
        get_bot("grandmaster")


def test_a_quick_tournament_rotates_seats_and_shares_the_wins() -> None:
    summaries, results = run_tournament(["strong", "easy"], 2, 50)
    assert [s.games for s in summaries] == [2, 2]
    assert [r.levels for r in results] == [["strong", "easy"], ["easy", "strong"]]
    assert sum(s.wins for s in summaries) == pytest.approx(2)
    low, high = wilson(summaries[0].wins, 2)
    assert 0 <= low <= summaries[0].wins / 2 <= high <= 1
