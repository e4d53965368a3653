"""The easy computer player as seed 003 describes it: "takes what fits now, keeps dice by feel,
never uses thimble or dye bath, prefers buying kits" — by feel, never by reckoning."""

from __future__ import annotations

from typing import Any

from spielcenter.bots import get_bot
from spielcenter.games.speedquilt.model import Deck

from ..speedquilt.engine_helpers import chosen, clear_quilt, game, lay, rolled


def _four_fives_after_the_last_roll() -> tuple[Any, Any]:
    """Four fives and a two after the last roll; the quilt holds only P05 (yellow 1 1 any), the
    pattern shelf P41 P36 P21 P30, the kit shelf K12 K09 K14 K11."""
    engine = game(2)
    state = clear_quilt(chosen(engine, 35), 0)
    lay(state, 0, (0, 0), "P05")
    assert state.shelves[Deck.PATTERN] == ["P41", "P36", "P21", "P30"]
    assert state.shelves[Deck.KIT] == ["K12", "K09", "K14", "K11"]
    return engine, rolled(state, 0, [5, 5, 5, 5, 2], rolls=3)


def _decide(level: str, engine: Any, state: Any) -> str:
    return str(get_bot(level).decide(engine, engine.view_for(state, 0), 0, {}))


def test_easy_buys_a_kit_even_when_a_pattern_block_is_worth_more() -> None:
    engine, state = _four_fives_after_the_last_roll()
    # The players who reckon buy the pattern block P21 with the four fives ...
    assert _decide("normal", engine, state).startswith("buy P21 ")
    # ... easy prefers a kit, with three of them.
    assert _decide("easy", engine, state).endswith("with red blue green")
    assert _decide("easy", engine, state).startswith("buy K")


def test_easy_takes_the_first_kit_on_the_shelf() -> None:
    engine, state = _four_fives_after_the_last_roll()
    assert _decide("easy", engine, state).startswith("buy K12 ")


def test_easy_lays_a_new_block_in_the_first_free_cell_in_reading_order() -> None:
    engine, state = _four_fives_after_the_last_roll()
    # Around P05 at 0,0 the free cells are read row by row from the top left: -1,-1 comes first.
    assert _decide("easy", engine, state) == "buy K12 at -1,-1 with red blue green"


def test_easy_passes_over_blocks_one_turn_could_never_sew() -> None:
    engine, state = _four_fives_after_the_last_roll()
    state.shelves[Deck.KIT] = [None, None, None, None]  # no kit to prefer
    # P41 and P36 repeat a colour (they need a die given first): easy takes P21, the first
    # block on the shelf it could sew from empty.
    assert _decide("easy", engine, state).startswith("buy P21 ")


def test_easy_stops_rolling_as_soon_as_the_dice_do_something() -> None:
    engine, state = _four_fives_after_the_last_roll()
    state.turn.rolls = 1  # two rerolls left; three fives already buy a kit
    assert _decide("easy", engine, state).startswith("buy K")


def test_easy_keeps_the_largest_group_of_equal_values_when_nothing_fits() -> None:
    engine = game(2)
    state = clear_quilt(chosen(engine, 35), 0)
    lay(state, 0, (0, 0), "P05")  # yellow 1 1 any: a one fits a patch
    state.shelves[Deck.KIT] = [None, None, None, None]
    state.shelves[Deck.PATTERN] = [None, None, None, None]
    state = rolled(state, 0, [4, 4, 6, 3, 2])  # nothing to sew or buy; the two fours belong
    assert _decide("easy", engine, state) == "keep red blue"


def test_easy_keeps_a_blind_drawn_block_in_the_first_free_cell() -> None:
    engine = game(2)
    state = clear_quilt(chosen(engine, 35), 0)
    lay(state, 0, (0, 0), "P05")
    # P21 lies on the pattern shelf; take it from there as if it had been drawn blind.
    state.shelves[Deck.PATTERN][2] = None
    state = rolled(state, 0, [5, 5, 5, 5, 2], rolls=3, drawn=(Deck.PATTERN, "P21"))
    assert _decide("easy", engine, state) == "bin place at -1,-1"
