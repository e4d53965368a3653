"""A turn (seed 003 "Dein Zug", speedquilt.md §3): rolling, the basket, sewing, buying, the end."""

from __future__ import annotations

import pytest

from spielcenter.games.base import IllegalMoveError, MoveSyntaxError
from spielcenter.games.speedquilt.dice import DiceKey, own_turn
from spielcenter.games.speedquilt.model import COLOURS, Deck
from spielcenter.games.speedquilt.rules import MAX_DECISIONS_PER_TURN, Speedquilt
from spielcenter.games.speedquilt.state import GameState

from .engine_helpers import B, G, P, R, Y, chosen, clear_quilt, game, lay, play, rolled, shelf_block


def _my_turn(players: int = 2, deal: int = 1) -> tuple[Speedquilt, GameState, int]:
    engine = game(players)
    state = chosen(engine, deal)
    assert state.turn is not None
    return engine, state, state.turn.seat


def _quilt_of(state: GameState, seat: int, *blocks: tuple[tuple[int, int], str]) -> GameState:
    clear_quilt(state, seat)
    for cell, block_id in blocks:
        lay(state, seat, cell, block_id)
    return state


# -- rolling ------------------------------------------------------------------------------------


def test_a_turn_begins_by_rolling_all_five_dice() -> None:
    engine, state, me = _my_turn()
    with pytest.raises(IllegalMoveError, match="roll first"):
        engine.play(state, "end", me)
    state = engine.play(state, "roll", me)
    assert state.turn is not None and sorted(state.turn.dice) == sorted(COLOURS)


def test_the_dice_come_from_the_counter_based_stream_of_the_seed() -> None:
    engine, state, me = _my_turn(deal=33)
    state = engine.play(state, "roll", me)
    assert state.turn is not None
    assert state.turn.dice == DiceKey.for_deal(33).roll(own_turn(me), 1, 1)


def test_basket_dice_are_not_rerolled() -> None:
    engine, state, me = _my_turn(deal=5)
    state = play(engine, state, me, "roll", "keep red green")
    assert state.turn is not None
    before = dict(state.turn.dice)
    state = engine.play(state, "reroll", me)
    after = state.turn.dice
    assert after[R] == before[R] and after[G] == before[G]
    key = DiceKey.for_deal(5)
    assert [after[c] for c in (B, Y, P)] == [key.value(own_turn(me), 1, 2, c) for c in (B, Y, P)]


def test_dice_may_come_out_of_the_basket_again_before_the_next_roll() -> None:
    engine, state, me = _my_turn(players=1, deal=5)
    state = play(engine, state, me, "roll", "keep red green", "reroll", "keep green", "reroll")
    assert state.turn is not None
    key = DiceKey.for_deal(5)
    assert state.turn.dice[R] == key.value(own_turn(me), 1, 3, R)


def test_there_are_up_to_two_rerolls() -> None:
    engine, state, me = _my_turn(players=1)
    state = play(engine, state, me, "roll", "reroll", "reroll")
    with pytest.raises(IllegalMoveError, match="no reroll left"):
        engine.play(state, "reroll", me)


def test_a_reroll_needs_a_die_outside_the_basket() -> None:
    engine, state, me = _my_turn(players=1)
    state = play(engine, state, me, "roll", "keep red blue green yellow purple")
    with pytest.raises(IllegalMoveError, match="nothing would be rolled"):
        engine.play(state, "reroll", me)


def test_the_first_action_ends_rolling() -> None:
    engine, state, me = _my_turn()
    state = _quilt_of(state, me, ((0, 0), "P01"))
    state = rolled(state, me, [6, 2, 3, 1, 1])
    state = engine.play(state, "sew P01 red:1 blue:2 green:3", me)
    with pytest.raises(IllegalMoveError, match="rolling is over"):
        engine.play(state, "reroll", me)


# -- sewing -------------------------------------------------------------------------------------


def test_sewing_fills_every_empty_patch_and_finishes_the_block() -> None:
    engine, state, me = _my_turn()
    state = _quilt_of(state, me, ((0, 0), "P01"))
    state = rolled(state, me, [6, 2, 3, 1, 1])
    state = engine.play(state, "sew P01 red:1 blue:2 green:3", me)
    placed = state.seats[me].quilt[(0, 0)]
    assert placed.filled == (6, 2, 3) and placed.finished


def test_a_block_is_sewn_only_when_all_its_empty_patches_are_filled_at_once() -> None:
    engine, state, me = _my_turn()
    state = _quilt_of(state, me, ((0, 0), "P01"))
    state = rolled(state, me, [6, 2, 3, 1, 1])
    with pytest.raises(IllegalMoveError, match="all its empty patches"):
        engine.play(state, "sew P01 red:1 blue:2", me)


def test_a_number_patch_takes_exactly_that_value() -> None:
    engine, state, me = _my_turn()
    state = _quilt_of(state, me, ((0, 0), "P01"))  # patch 1 shows a 6
    state = rolled(state, me, [5, 2, 3, 1, 1])
    with pytest.raises(IllegalMoveError, match="does not fit patch 1"):
        engine.play(state, "sew P01 red:1 blue:2 green:3", me)


def test_a_coloured_patch_takes_only_the_die_of_that_colour() -> None:
    engine, state, me = _my_turn()
    state = _quilt_of(state, me, ((0, 0), "P02"))  # red border, blue border, any
    state = rolled(state, me, [1, 2, 3, 4, 5])
    with pytest.raises(IllegalMoveError, match="does not fit patch 1"):
        engine.play(state, "sew P02 green:1 blue:2 red:3", me)
    state = engine.play(state, "sew P02 red:1 blue:2 green:3", me)
    assert state.seats[me].quilt[(0, 0)].finished


def test_the_ascending_rule_must_hold_when_sewing() -> None:
    engine, state, me = _my_turn()
    state = _quilt_of(state, me, ((0, 0), "P04"))  # remnant, "<", three open patches
    state = rolled(state, me, [3, 2, 5, 1, 1])
    with pytest.raises(IllegalMoveError, match="could not be finished"):
        engine.play(state, "sew P04 red:1 blue:2 green:3", me)
    state = engine.play(state, "sew P04 blue:1 red:2 green:3", me)
    assert state.seats[me].quilt[(0, 0)].filled == (2, 3, 5)


def test_every_die_is_used_only_once_per_turn() -> None:
    engine, state, me = _my_turn()
    state = _quilt_of(state, me, ((0, 0), "P01"), ((1, 0), "K10"))
    state = rolled(state, me, [6, 2, 2, 2, 1])
    state = engine.play(state, "sew P01 red:1 blue:2 green:3", me)
    with pytest.raises(IllegalMoveError, match="blue die is used already"):
        engine.play(state, "sew K10 blue:1 yellow:2", me)


def test_only_own_blocks_are_sewn() -> None:
    engine, state, me = _my_turn()
    other = state.seats[1 - me].quilt[(0, 0)].block_id
    state = rolled(state, me, [6, 2, 3, 1, 1])
    with pytest.raises(IllegalMoveError, match="not in your quilt"):
        engine.play(state, f"sew {other} red:1", me)


# -- buying -------------------------------------------------------------------------------------


def _buying(values: list[int]) -> tuple[Speedquilt, GameState, int]:
    engine, state, me = _my_turn()
    state = _quilt_of(state, me, ((0, 0), "P01"))
    return engine, rolled(state, me, values), me


def test_three_equal_dice_buy_a_kit_from_the_bottom_shelf() -> None:
    engine, state, me = _buying([4, 4, 4, 1, 2])
    kit = shelf_block(state, Deck.KIT, 2)
    state = engine.play(state, f"buy {kit} at 1,0 with red blue green", me)
    assert state.seats[me].quilt[(1, 0)].block_id == kit


def test_four_equal_dice_buy_a_pattern_block_from_the_top_shelf() -> None:
    engine, state, me = _buying([3, 3, 3, 3, 2])
    pattern = shelf_block(state, Deck.PATTERN, 0)
    with pytest.raises(IllegalMoveError, match="costs 4 dice"):
        engine.play(state, f"buy {pattern} at 1,0 with red blue green", me)
    state = engine.play(state, f"buy {pattern} at 1,0 with red blue green yellow", me)
    assert state.seats[me].quilt[(1, 0)].block_id == pattern


def test_buying_needs_equal_values() -> None:
    engine, state, me = _buying([4, 4, 5, 1, 2])
    kit = shelf_block(state, Deck.KIT, 0)
    with pytest.raises(IllegalMoveError, match="equal value"):
        engine.play(state, f"buy {kit} at 1,0 with red blue green", me)


def test_only_blocks_in_the_shop_can_be_bought() -> None:
    engine, state, me = _buying([4, 4, 4, 1, 2])
    hidden = state.decks[Deck.KIT][0]
    with pytest.raises(IllegalMoveError, match="not in the shop"):
        engine.play(state, f"buy {hidden} at 1,0 with red blue green", me)


def test_placement_at_an_edge_is_allowed() -> None:
    engine, state, me = _buying([4, 4, 4, 1, 2])
    kit = shelf_block(state, Deck.KIT, 0)
    state = engine.play(state, f"buy {kit} at 0,1 with red blue green", me)
    assert (0, 1) in state.seats[me].quilt


def test_placement_by_corner_is_allowed() -> None:
    engine, state, me = _buying([4, 4, 4, 1, 2])
    kit = shelf_block(state, Deck.KIT, 0)
    state = engine.play(state, f"buy {kit} at -1,-1 with red blue green", me)
    assert (-1, -1) in state.seats[me].quilt


def test_a_block_that_touches_nothing_is_refused() -> None:
    engine, state, me = _buying([4, 4, 4, 1, 2])
    kit = shelf_block(state, Deck.KIT, 0)
    with pytest.raises(IllegalMoveError, match="would not touch"):
        engine.play(state, f"buy {kit} at 2,0 with red blue green", me)


def test_the_quilt_never_exceeds_3x3() -> None:
    engine, state, me = _my_turn()
    state = _quilt_of(state, me, ((0, 0), "P01"), ((1, 0), "P02"), ((2, 0), "P03"))
    state = rolled(state, me, [4, 4, 4, 1, 2])
    kit = shelf_block(state, Deck.KIT, 0)
    with pytest.raises(IllegalMoveError, match="larger than 3 × 3"):
        engine.play(state, f"buy {kit} at 3,0 with red blue green", me)
    assert all(x <= 2 for x, _ in (c for m in engine.legal_moves(state, me) for c in _cells(m)))


def _cells(move: object) -> list[tuple[int, int]]:
    cell = getattr(move, "cell", None)
    return [cell] if cell is not None else []


def test_a_taken_cell_is_refused() -> None:
    engine, state, me = _buying([4, 4, 4, 1, 2])
    kit = shelf_block(state, Deck.KIT, 0)
    with pytest.raises(IllegalMoveError, match="is taken"):
        engine.play(state, f"buy {kit} at 0,0 with red blue green", me)


def test_blocks_never_move() -> None:
    engine, state, me = _buying([4, 4, 4, 1, 2])
    before = dict(state.seats[me].quilt)
    kit = shelf_block(state, Deck.KIT, 0)
    state = engine.play(state, f"buy {kit} at -1,1 with red blue green", me)
    assert all(state.seats[me].quilt[cell] == placed for cell, placed in before.items())


def test_the_shelf_slides_right_and_a_new_block_enters_at_the_left() -> None:
    engine, state, me = _buying([4, 4, 4, 1, 2])
    a, b, c, d = state.shelves[Deck.KIT]
    top = state.decks[Deck.KIT][0]
    state = engine.play(state, f"buy {c} at 1,0 with red blue green", me)
    assert state.shelves[Deck.KIT] == [top, a, b, d]
    assert top not in state.decks[Deck.KIT]


def test_an_empty_deck_leaves_a_gap() -> None:
    engine, state, me = _buying([4, 4, 4, 1, 2])
    state.decks[Deck.KIT].clear()
    a, b, c, d = state.shelves[Deck.KIT]
    state = engine.play(state, f"buy {b} at 1,0 with red blue green", me)
    assert state.shelves[Deck.KIT] == [None, a, c, d]


def test_a_bought_block_may_be_sewn_in_the_same_turn() -> None:
    engine, state, me = _buying([4, 4, 4, 1, 1])
    state.shelves[Deck.KIT][0] = "K02"  # thimble with patches 1 and 1
    state.decks[Deck.KIT].remove("K02") if "K02" in state.decks[Deck.KIT] else None
    state = engine.play(state, "buy K02 at 1,0 with red blue green", me)
    state = engine.play(state, "sew K02 yellow:1 purple:2", me)
    assert state.seats[me].quilt[(1, 0)].finished


def test_actions_may_be_mixed_in_any_order() -> None:
    engine, state, me = _my_turn()
    state = _quilt_of(state, me, ((0, 0), "K10"))  # 2, 2
    state = rolled(state, me, [2, 5, 5, 5, 2])
    state = engine.play(state, "sew K10 red:1 purple:2", me)
    kit = shelf_block(state, Deck.KIT, 0)
    state = engine.play(state, f"buy {kit} at 1,0 with blue green yellow", me)
    assert state.turn is not None and sorted(state.turn.used) == sorted(COLOURS)


# -- undo and the end of the turn ---------------------------------------------------------------


def test_sewing_can_be_undone() -> None:
    engine, state, me = _my_turn()
    state = _quilt_of(state, me, ((0, 0), "P01"))
    state = rolled(state, me, [6, 2, 3, 1, 1])
    before = state.seats[me].quilt[(0, 0)]
    state = play(engine, state, me, "sew P01 red:1 blue:2 green:3", "undo")
    assert state.seats[me].quilt[(0, 0)] == before
    assert state.turn is not None and state.turn.used == []


def test_buying_can_be_undone_and_the_shop_is_restored() -> None:
    engine, state, me = _buying([4, 4, 4, 1, 2])
    shelves, decks = state.shelves, state.decks
    kit = shelf_block(state, Deck.KIT, 1)
    state = play(engine, state, me, f"buy {kit} at 1,0 with red blue green", "undo")
    assert state.shelves == shelves and state.decks == decks
    assert (1, 0) not in state.seats[me].quilt


def test_undo_does_not_bring_back_rolling() -> None:
    engine, state, me = _my_turn()
    state = _quilt_of(state, me, ((0, 0), "P01"))
    state = rolled(state, me, [6, 2, 3, 1, 1])
    state = play(engine, state, me, "sew P01 red:1 blue:2 green:3", "undo")
    with pytest.raises(IllegalMoveError, match="rolling is over"):
        engine.play(state, "reroll", me)


def test_nothing_is_undone_after_a_reroll() -> None:
    engine, state, me = _my_turn(players=1)
    state = play(engine, state, me, "roll", "reroll")
    with pytest.raises(IllegalMoveError, match="nothing to undo"):
        engine.play(state, "undo", me)


def test_the_turn_ends_only_by_an_explicit_end() -> None:
    engine, state, me = _my_turn()
    state = _quilt_of(state, me, ((0, 0), "K10"))
    state = rolled(state, me, [2, 5, 5, 5, 2])
    kit = shelf_block(state, Deck.KIT, 0)
    state = play(
        engine, state, me, "sew K10 red:1 purple:2", f"buy {kit} at 1,0 with blue green yellow"
    )
    assert state.turn is not None and state.turn.seat == me
    state = engine.play(state, "end", me)
    assert state.turn is not None and state.turn.seat == 1 - me


def test_a_seat_cannot_act_in_anothers_turn() -> None:
    engine, state, me = _my_turn()
    with pytest.raises(IllegalMoveError, match="not seat"):
        engine.play(state, "roll", 1 - me)


def test_a_keep_that_leaves_the_basket_as_it_is_is_refused() -> None:
    """A move must change something (issue 37, attack 7: a hundred "keep none" were a hundred
    entries in the log and a hundred events for the others)."""
    engine, state, me = _my_turn()
    state = engine.play(state, "roll", me)
    with pytest.raises(IllegalMoveError, match="holds exactly these dice already"):
        engine.play(state, "keep none", me)
    state = engine.play(state, "keep red green", me)
    with pytest.raises(IllegalMoveError, match="holds exactly these dice already"):
        engine.play(state, "keep green red", me)
    assert "keep red green" not in [engine.format_move(m) for m in engine.legal_moves(state, me)]


def test_a_turn_takes_a_bounded_number_of_decisions_and_can_always_end() -> None:
    """Sewing and undoing again and again changes the position each time, so no single move is
    a no-op; a turn is capped at MAX_DECISIONS_PER_TURN of the active seat's decisions, after
    which only ending the turn is left (the log of a table cannot grow without end)."""
    engine, state, me = _my_turn()
    state = _quilt_of(state, me, ((0, 0), "P01"))
    state = rolled(state, me, [6, 2, 3, 1, 1])
    assert MAX_DECISIONS_PER_TURN % 2 == 0
    for _ in range(MAX_DECISIONS_PER_TURN // 2):
        state = play(engine, state, me, "sew P01 red:1 blue:2 green:3", "undo")
    with pytest.raises(IllegalMoveError, match="decisions in one turn"):
        engine.play(state, "sew P01 red:1 blue:2 green:3", me)
    assert [engine.format_move(m) for m in engine.legal_moves(state, me)] == ["end"]
    state = engine.play(state, "end", me)
    assert state.turn is not None and state.turn.seat == 1 - me


# -- notation and bad input ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "choose P03 K07 P12 return K02",
        "roll",
        "keep red blue",
        "keep none",
        "reroll",
        "sew P03 red:1 blue:2 green:3",
        "buy P07 at -1,0 with red blue green yellow",
        "bin red to P03:2",
        "bin red to P03:2 blue to P05:1",
        "bin draw pattern",
        "bin draw kit",
        "bin place at 1,2",
        "bin return",
        "give red to P03:2",
        "pass",
        "thimble red +1",
        "thimble purple -1",
        "dye red->blue",
        "undo",
        "end",
        "remove pattern",
        "remove kit",
    ],
)
def test_every_move_has_one_canonical_notation(text: str) -> None:
    engine = game(2)
    assert engine.format_move(engine.parse_move(text)) == text


@pytest.mark.parametrize(
    "text",
    [
        "",
        "jump",
        "keep orange",
        "keep red red",
        "sew P03 red:0",
        "sew P3 red:1",
        "buy P07 at 1;0 with red",
        "bin red to P03:1 blue to P04:1 green to P05:1",
        "thimble red +2",
        "dye red",
        "choose P01 P02 P03 return P01",
        "remove shop",
    ],
)
def test_text_that_is_no_move_is_a_syntax_error(text: str) -> None:
    with pytest.raises(MoveSyntaxError):
        game(2).parse_move(text)


def test_an_illegal_move_changes_nothing() -> None:
    engine, state, me = _buying([4, 4, 5, 1, 2])
    before = engine.encode(state)
    kit = shelf_block(state, Deck.KIT, 0)
    with pytest.raises(IllegalMoveError):
        engine.play(state, f"buy {kit} at 1,0 with red blue green", me)
    assert engine.encode(state) == before
