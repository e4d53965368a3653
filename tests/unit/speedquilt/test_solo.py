"""Solo: the giving turn, the shrinking shop, 12 rounds, the round bonus, campaign stages
(seed 003 "Kampagne allein", speedquilt.md §6)."""

from __future__ import annotations

import pytest

from spielcenter.games.base import IllegalMoveError, Status
from spielcenter.games.speedquilt.dice import DiceKey, giving_turn
from spielcenter.games.speedquilt.model import Deck, KitKind
from spielcenter.games.speedquilt.rules import Speedquilt
from spielcenter.games.speedquilt.state import GameState, Phase

from .engine_helpers import chosen, clear_quilt, game, kit, lay, play, rolled, shelf_block


def _solo(**options: object) -> tuple[Speedquilt, GameState]:
    engine = game(1, "solo", **options)
    return engine, chosen(engine, 12)


def _to_giving_turn(engine: Speedquilt, state: GameState, rerolls: int) -> GameState:
    state = engine.play(state, "roll", 0)
    for _ in range(rerolls):
        state = engine.play(state, "reroll", 0)
    return engine.play(state, "end", 0)


def test_after_each_own_turn_the_dice_are_rolled_once_for_the_giving_turn() -> None:
    engine, state = _solo()
    state = _to_giving_turn(engine, state, 0)
    assert state.phase is Phase.GIVING_TURN
    assert state.turn is not None
    assert state.turn.dice == DiceKey.for_deal(12).roll(giving_turn(), 1, 1)


@pytest.mark.parametrize(("rerolls", "dice"), [(0, 3), (1, 2), (2, 1)])
def test_the_giving_turn_places_3_dice_without_reroll_2_after_one_1_after_two(
    rerolls: int, dice: int
) -> None:
    engine, state = _solo()
    state = _to_giving_turn(engine, state, rerolls)
    assert state.turn is not None and state.turn.allowance == dice


def test_the_giving_turn_places_one_die_after_more_than_two_rerolls() -> None:
    engine, state = _solo()
    lay(state, 0, (0, 1), kit(KitKind.SEWING_MACHINE), finished=True)
    state = _to_giving_turn(engine, state, 3)
    assert state.turn is not None and state.turn.allowance == 1


def _giving_turn(values: list[int], rerolls: int, *extra: str) -> tuple[Speedquilt, GameState]:
    """The giving turn after an own turn with ``rerolls``; the quilt is P11 ("<", four open)."""
    engine, state = _solo()
    clear_quilt(state, 0)
    lay(state, 0, (0, 0), "P11")
    for x, kit_id in enumerate(extra, start=1):
        lay(state, 0, (x, 0), kit_id, finished=True)
    state = rolled(state, 0, [1, 1, 1, 1, 1], rolls=rerolls + 1)
    state = engine.play(state, "end", 0)
    assert state.turn is not None
    state.turn.dice = dict(zip(state.turn.dice, values, strict=True))
    return engine, state


def test_giving_turn_dice_need_no_completion() -> None:
    engine, state = _giving_turn([1, 2, 3, 4, 5], 0)
    state = engine.play(state, "give blue to P11:2", 0)
    assert state.seats[0].quilt[(0, 0)].filled == (None, 2, None, None)


def test_giving_turn_dice_must_leave_the_block_finishable() -> None:
    engine, state = _giving_turn([6, 2, 3, 4, 5], 0)
    with pytest.raises(IllegalMoveError, match="could not be finished"):
        engine.play(state, "give red to P11:1", 0)


def test_the_giving_turn_ends_when_its_dice_are_placed() -> None:
    engine, state = _giving_turn([1, 2, 3, 4, 5], 1)
    state = play(engine, state, 0, "give red to P11:1", "give blue to P11:2")
    assert state.phase is Phase.SHOP_REMOVE
    with pytest.raises(IllegalMoveError):
        engine.play(state, "give green to P11:3", 0)


def test_pins_place_one_more_die_in_the_giving_turn() -> None:
    engine, state = _giving_turn([1, 2, 3, 4, 5], 2, kit(KitKind.PINS))
    state = play(engine, state, 0, "give red to P11:1", "give blue to P11:2")
    assert state.seats[0].quilt[(0, 0)].filled == (1, 2, None, None)
    assert state.phase is Phase.SHOP_REMOVE


def test_then_the_rightmost_block_of_a_shelf_of_her_choice_leaves_the_shop() -> None:
    engine, state = _giving_turn([1, 2, 3, 4, 5], 0)
    a, b, c, d = state.shelves[Deck.KIT]
    top = state.decks[Deck.KIT][0]
    state = play(engine, state, 0, "pass", "remove kit")
    assert state.shelves[Deck.KIT] == [top, a, b, c]
    assert state.removed == [d]


def test_the_removal_ends_the_round() -> None:
    engine, state = _giving_turn([1, 2, 3, 4, 5], 0)
    state = play(engine, state, 0, "pass", "remove pattern")
    assert state.round == 2 and state.phase is Phase.TURN


def test_a_solo_game_has_12_rounds() -> None:
    engine, state = _solo()
    state.round = 12
    state = play(engine, state, 0, "roll", "end", "pass")
    assert engine.status(state) is Status.FINISHED and state.final_round == 12


def test_the_ninth_block_ends_the_game_after_that_rounds_giving_turn() -> None:
    engine, state = _solo()
    clear_quilt(state, 0)
    for i, block_id in enumerate(["P01", "P02", "P03", "P05", "P06", "P07", "P08", "P09"]):
        lay(state, 0, (i % 3, i // 3), block_id)
    state.round = 7
    state = rolled(state, 0, [4, 4, 4, 1, 2])
    bought = shelf_block(state, Deck.KIT, 0)
    state = play(engine, state, 0, f"buy {bought} at 2,2 with red blue green", "end")
    assert state.phase is Phase.GIVING_TURN
    state = engine.play(state, "pass", 0)
    assert engine.status(state) is Status.FINISHED and state.final_round == 7


def test_every_round_left_after_the_ninth_block_is_worth_2_points() -> None:
    engine, state = _solo()
    clear_quilt(state, 0)
    for i, block_id in enumerate(["P05", "P02", "P03", "P01", "P06", "P07", "P08", "P09", "P10"]):
        lay(state, 0, (i % 3, i // 3), block_id, finished=block_id == "P05")
    state.round = 7
    state = play(engine, rolled(state, 0, [1, 1, 1, 1, 1]), 0, "end", "pass")
    quilt_points = engine.quilt_scores(state)[0].total
    assert engine.scores(state) == [quilt_points + 2 * (12 - 7)]


def test_a_campaign_stage_is_configuration_of_the_same_engine() -> None:
    engine, state = _solo(rounds=3, top_shelf=2, target=1)
    assert len(state.shelves[Deck.PATTERN]) == 2
    for _ in range(2):
        state = play(engine, state, 0, "roll", "end", "pass", "remove kit")
    state = play(engine, state, 0, "roll", "end", "pass")
    assert state.final_round == 3
    assert engine.status(state) is (Status.WON if engine.scores(state)[0] >= 1 else Status.LOST)


def test_missing_the_target_loses_the_stage() -> None:
    engine, state = _solo(rounds=1, target=500)
    state = play(engine, state, 0, "roll", "end", "pass")
    assert engine.status(state) is Status.LOST


def test_a_block_leaves_only_a_shelf_that_has_one() -> None:
    engine, state = _giving_turn([1, 2, 3, 4, 5], 0)
    state.shelves[Deck.KIT] = [None, None, None, None]
    state = engine.play(state, "pass", 0)
    with pytest.raises(IllegalMoveError, match="shelf is empty"):
        engine.play(state, "remove kit", 0)
