"""The kits the players plan with (scissors, dye bath) and the caches that make games fast."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from spielcenter.bots import get_bot
from spielcenter.bots.easy import Easy
from spielcenter.bots.evaluation import ease
from spielcenter.bots.expectimax import SHAPE, buy_table, index_of
from spielcenter.bots.memo import block_cache
from spielcenter.bots.strong import Strong
from spielcenter.games.speedquilt.model import Block, Colour, Deck, Patch, Rule
from spielcenter.games.speedquilt.state import Window

from ..speedquilt.engine_helpers import chosen, clear_quilt, game, lay, rolled


def _masks(table: Any, values: tuple[int, ...]) -> list[int]:
    at = int(np.ravel_multi_index(index_of(values), SHAPE))
    return [m for m in range(32) if int(table[at]) >> m & 1]


def test_finished_scissors_let_one_die_of_any_value_stand_in_when_buying() -> None:
    values = (4, 4, 4, 2, 1)
    assert _masks(buy_table(4), values) == []
    assert _masks(buy_table(4, 1), values) == [0b01111, 0b10111]
    # Three equal dice still buy a kit without scissors, and never with two strangers.
    assert 0b00111 in _masks(buy_table(3), values)
    assert 0b11001 not in _masks(buy_table(3, 1), values)


def _two_blocks_want_the_red_die() -> tuple[Any, Any]:
    engine = game(2)
    state = clear_quilt(chosen(engine, 37), 0)
    lay(state, 0, (0, 0), "K06", finished=True)  # a finished dye bath
    lay(state, 0, (1, 0), "P02", filled=(None, 2, 5))  # only the red patch is empty
    lay(state, 0, (2, 0), "P07", filled=(None, 2, 4))  # red patch, rule <: it must be a 1
    return engine, rolled(state, 0, [1, 1, 6, 6, 6], rolls=3)


def test_strong_dyes_a_die_when_two_blocks_ask_for_the_same_colour() -> None:
    engine, state = _two_blocks_want_the_red_die()
    bot, memory = get_bot("strong"), {}
    moves = []
    for _ in range(3):
        text = bot.decide(engine, engine.view_for(state, 0), 0, memory)
        moves.append(text)
        state = engine.play(state, text, 0)
    assert moves[0].startswith("dye ") and moves[0].endswith("->red")
    assert state.seats[0].quilt[(1, 0)].finished and state.seats[0].quilt[(2, 0)].finished


@pytest.mark.parametrize("level", ["easy", "normal"])
def test_easy_and_normal_leave_the_dye_bath_alone(level: str) -> None:
    engine, state = _two_blocks_want_the_red_die()
    text = get_bot(level).decide(engine, engine.view_for(state, 0), 0, {})
    assert not text.startswith("dye")


def test_ease_is_the_share_of_fillings_that_keep_the_rule() -> None:
    stairs = Block("X", Deck.PATTERN, Colour.RED, (Patch(), Patch(), Patch()), Rule.ASCENDING)
    # Three ascending values out of 1..6: C(6, 3) = 20 of 216 fillings; 0.85 per empty patch.
    assert ease(stairs, (None, None, None)) == pytest.approx(20 / 216 * 0.85**3)
    assert ease(stairs, (1, 2, 3)) == 1.0


def test_the_block_cache_tells_two_blocks_of_the_same_name_apart() -> None:
    @block_cache(maxsize=4)
    def patches(block: Block, filled: tuple[int | None, ...]) -> int:
        return len(block.patches)

    short = Block("X", Deck.PATTERN, Colour.RED, (Patch(), Patch(), Patch()))
    long = Block("X", Deck.PATTERN, Colour.RED, (Patch(),) * 4)
    assert patches(short, (None,) * 3) == 3
    assert patches(long, (None,) * 3) == 4


def _eight_blocks_behind_on_points() -> tuple[Any, Any]:
    engine = game(2)
    state = clear_quilt(clear_quilt(chosen(engine, 38), 0), 1)
    cells = [(x, y) for y in range(3) for x in range(3)][:8]
    blocks = ["P10", "P11", "P12", "P13", "P14", "P15", "P16", "P17"]
    for cell, block_id in zip(cells, blocks, strict=True):
        lay(state, 0, cell, block_id)  # eight unfinished blocks: no points yet
    lay(state, 1, (0, 0), "P05", finished=True)
    return engine, rolled(state, 0, [3, 3, 3, 3, 1], rolls=3)


def test_strong_lays_its_ninth_block_only_while_leading() -> None:
    engine, state = _eight_blocks_behind_on_points()
    view = engine.view_for(state, 0)
    strong, easy = Strong(), Easy()
    assert not strong.may_grow(view, strong.outlook(engine, view, 0), 0)
    assert easy.may_grow(view, easy.outlook(engine, view, 0), 0)


def test_once_the_end_is_set_a_ninth_block_ends_nothing_and_strong_may_lay_it() -> None:
    engine, state = _eight_blocks_behind_on_points()
    state.end_round = state.round + 1
    view = engine.view_for(state, 0)
    strong = Strong()
    assert strong.may_grow(view, strong.outlook(engine, view, 0), 0)


@pytest.mark.parametrize("level", ["easy", "normal", "strong"])
def test_finished_scissors_buy_a_pattern_block_with_three_equal_dice(level: str) -> None:
    engine = game(2)
    state = clear_quilt(chosen(engine, 39), 0)
    lay(state, 0, (0, 0), "K12", finished=True)  # scissors
    state.shelves[Deck.KIT] = [None] * len(state.shelves[Deck.KIT])
    state = rolled(state, 0, [4, 4, 4, 2, 1], rolls=3)
    text = get_bot(level).decide(engine, engine.view_for(state, 0), 0, {})
    assert text.startswith("buy P") and len(text.split(" with ")[1].split()) == 4


def _a_window_with_a_one_and_a_six() -> tuple[Any, Any]:
    engine = game(2)
    state = clear_quilt(chosen(engine, 40), 0)
    lay(state, 0, (0, 0), "P05")  # yellow 1 1 any: a 1 helps a little
    lay(state, 0, (1, 0), "P01", filled=(None, 3, 4))  # only the 6 is missing: a 6 finishes it
    window = Window([Colour.RED, Colour.BLUE])
    return engine, rolled(state, 1, [1, 6, 2, 2, 2], rolls=2, windows={0: window})


def test_easy_takes_the_first_die_that_fits_while_giving() -> None:
    engine, state = _a_window_with_a_one_and_a_six()
    text = get_bot("easy").decide(engine, engine.view_for(state, 0), 0, {})
    assert text == "give red to P05:1"


@pytest.mark.parametrize("level", ["normal", "strong"])
def test_normal_and_strong_take_the_die_that_helps_most_while_giving(level: str) -> None:
    engine, state = _a_window_with_a_one_and_a_six()
    text = get_bot(level).decide(engine, engine.view_for(state, 0), 0, {})
    assert text == "give blue to P01:1"


def test_normal_likes_to_reroll_once_more_even_when_its_dice_sew_a_block() -> None:
    engine = game(2)
    state = clear_quilt(chosen(engine, 41), 0)
    lay(state, 0, (0, 0), "P05")  # yellow 1 1 any
    state = rolled(state, 0, [1, 1, 4, 3, 2], rolls=1)
    text = get_bot("normal").decide(engine, engine.view_for(state, 0), 0, {})
    assert text.startswith("keep") and {"red", "blue"} <= set(text.split())
