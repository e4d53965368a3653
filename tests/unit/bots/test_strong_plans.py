"""What the strong player reckons with beyond the others: what a block will count by the end, and
how often a block with more patches than dice gets finished once dice are given onto it."""

from __future__ import annotations

from typing import Any

import pytest

from spielcenter.bots import get_bot
from spielcenter.bots.evaluation import ease, needs_dice_first, sewable_from_empty
from spielcenter.bots.strong import Strong
from spielcenter.games.speedquilt.catalogue import load_catalogue
from spielcenter.games.speedquilt.model import Deck, PlacedBlock

from ..speedquilt.engine_helpers import (
    chosen,
    clear_quilt,
    completion,
    game,
    lay,
    out_of_play,
    rolled,
)

CATALOGUE = load_catalogue()
NEEDS_PREFILLS = "P13"  # eight patches summing to at least 40: five dice never sew it at once
REPEATED_COLOUR = "P41"  # yellow yellow 6: one die given onto a yellow patch removes the obstacle
SEWABLE = "P06"  # 5 5 5: one turn may sew it
PER_FINISHED_LINE = "P44"  # 2 · 2 · 2, 5 points per row or column of three finished blocks
GREEN = "P15"  # a green block, finished: P13 counts it as a finished neighbour


def test_a_block_with_more_patches_than_dice_is_not_sewable_from_empty() -> None:
    assert not sewable_from_empty(CATALOGUE.block(NEEDS_PREFILLS))
    assert sewable_from_empty(CATALOGUE.block(SEWABLE))


def _four_fours_and_only(block_id: str) -> tuple[Any, Any]:
    """Four equal dice after the last roll; the top shelf holds only ``block_id``."""
    engine = game(2)
    state = clear_quilt(chosen(engine, 41), 0)
    lay(state, 0, (0, 0), GREEN, finished=True)
    out_of_play(state, block_id)
    state.shelves[Deck.PATTERN] = [block_id, None, None, None]
    state.shelves[Deck.KIT] = [None] * len(state.shelves[Deck.KIT])
    return engine, rolled(state, 0, [4, 4, 4, 4, 1], rolls=3)


def test_a_block_with_a_repeated_colour_does_not_need_dice_first_like_a_sum_block() -> None:
    assert needs_dice_first(CATALOGUE.block(NEEDS_PREFILLS))
    assert not needs_dice_first(CATALOGUE.block(REPEATED_COLOUR))
    assert not sewable_from_empty(CATALOGUE.block(REPEATED_COLOUR))


def test_strong_buys_a_sum_forty_block_it_reckons_to_finish_at_the_measured_rate() -> None:
    engine, state = _four_fours_and_only(NEEDS_PREFILLS)
    strong = Strong()
    view = engine.view_for(state, 0)
    hopeless = strong.outlook(engine, view, 0)
    hopeless.prefill_finish = 0.02  # the old reckoning: hardly ever finished, never worth buying
    assert hopeless.buy_value(NEEDS_PREFILLS)[0] < 0
    assert strong.outlook(engine, view, 0).buy_value(NEEDS_PREFILLS)[0] > 0
    assert strong.decide(engine, view, 0, {}).startswith(f"buy {NEEDS_PREFILLS}")


def test_strong_reckons_a_block_with_a_repeated_colour_like_any_hard_block() -> None:
    engine, state = _four_fours_and_only(REPEATED_COLOUR)
    strong = Strong()
    view = engine.view_for(state, 0)
    plain = strong.outlook(engine, view, 0)
    plain.prefill_finish = None  # no special rate at all
    assert strong.outlook(engine, view, 0).buy_value(REPEATED_COLOUR) == plain.buy_value(
        REPEATED_COLOUR
    )


def test_a_six_on_a_sum_forty_block_makes_it_easier_and_a_two_makes_it_harder() -> None:
    block = CATALOGUE.block(NEEDS_PREFILLS)
    empty = (None,) * len(block.patches)
    six, two = (6, *empty[1:]), (2, *empty[1:])
    assert ease(block, six) > ease(block, empty) > ease(block, two)


def test_a_sum_forty_block_with_too_few_pips_left_to_reach_forty_is_hopeless() -> None:
    block = CATALOGUE.block(NEEDS_PREFILLS)
    low = (1, 1, 1, None, None, None, None, None)  # 3 + at most 30 < 40
    assert ease(block, low) == 0.0


def test_strong_buys_a_block_for_what_its_line_will_count_by_the_end() -> None:
    engine, state = _four_fours_and_only(PER_FINISHED_LINE)
    strong = Strong()
    view = engine.view_for(state, 0)
    today = strong.outlook(engine, view, 0)
    today.final_counts = None  # valued by what it would count today: no line is finished yet
    assert today.buy_value(PER_FINISHED_LINE)[0] <= 0
    assert strong.outlook(engine, view, 0).buy_value(PER_FINISHED_LINE)[0] > 0
    assert strong.decide(engine, view, 0, {}).startswith(f"buy {PER_FINISHED_LINE}")


def test_what_a_block_will_still_count_needs_rounds_left_to_come() -> None:
    engine, state = _four_fours_and_only(PER_FINISHED_LINE)
    strong = Strong()
    outlook = strong.outlook(engine, engine.view_for(state, 0), 0)
    done = {(0, 0): PlacedBlock(PER_FINISHED_LINE, completion(PER_FINISHED_LINE))}
    assert outlook.still_to_count(done, (0, 0)) > 0
    outlook.rounds_left = 0.0
    assert outlook.still_to_count(done, (0, 0)) == 0


@pytest.mark.parametrize("deal", [42, 43])
def test_strong_puts_back_the_block_that_needs_pre_filled_patches(deal: int) -> None:
    engine = game(2)
    state = engine.start(deal)
    hand = [NEEDS_PREFILLS, SEWABLE, *[b for b in state.seats[0].hand if b.startswith("K")]]
    for block_id in hand:
        out_of_play(state, block_id)
    state.seats[0].hand = hand
    text = get_bot("strong").decide(engine, engine.view_for(state, 0), 0, {})
    assert text.endswith(f"return {NEEDS_PREFILLS}")
