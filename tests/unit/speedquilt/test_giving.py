"""Giving — Garn abgeben (seed 003, speedquilt.md §4): the others take newly rolled dice."""

from __future__ import annotations

import pytest

from spielcenter.games.base import IllegalMoveError
from spielcenter.games.speedquilt.model import COLOURS, Colour
from spielcenter.games.speedquilt.rules import Speedquilt
from spielcenter.games.speedquilt.state import GameState, Window

from .engine_helpers import B, G, P, R, Y, chosen, clear_quilt, game, lay, play, rolled


def _rerolled(
    players: int, values: list[int], offered: tuple[Colour, ...] = COLOURS
) -> tuple[Speedquilt, GameState, int]:
    """Seat ``me`` has just rerolled ``offered`` (the rest lay in the basket); windows are open.

    Every other seat's quilt is one empty ascending block of open patches: the first other seat
    has P04 (three patches), the next P11 (four), the next P33 (five).
    """
    engine = game(players)
    state = chosen(engine, 3)
    assert state.turn is not None
    me = state.turn.seat
    basket = [c for c in COLOURS if c not in offered]
    state = rolled(state, me, values, rolls=2, basket=basket)
    spare = iter(["P04", "P11", "P33"])
    for seat in range(players):
        if seat != me:
            clear_quilt(state, seat)
            lay(state, seat, (0, 0), next(spare))
    assert state.turn is not None
    state.turn.windows = {s: Window(list(offered)) for s in range(players) if s != me}
    return engine, state, me


def test_after_a_reroll_every_other_seat_may_take_a_new_die() -> None:
    engine = game(3)
    state = chosen(engine, 3)
    assert state.turn is not None
    me = state.turn.seat
    state = play(engine, state, me, "roll", "keep red", "reroll")
    assert state.turn is not None
    assert set(state.turn.windows) == {0, 1, 2} - {me}
    assert all(w.offered == [B, G, Y, P] for w in state.turn.windows.values())


def test_no_reroll_no_giving() -> None:
    engine = game(2)
    state = chosen(engine, 3)
    assert state.turn is not None
    me = state.turn.seat
    state = engine.play(state, "roll", me)
    assert engine.to_act(state) == {me}
    with pytest.raises(IllegalMoveError):
        engine.play(state, "give red to P04:1", 1 - me)


def test_basket_dice_are_not_offered_while_giving() -> None:
    engine, state, me = _rerolled(2, [1, 2, 3, 4, 5], offered=(B, G, Y, P))
    with pytest.raises(IllegalMoveError, match="basket dice are not offered"):
        engine.play(state, "give red to P04:1", 1 - me)


def test_a_taken_die_need_not_complete_the_block() -> None:
    engine, state, me = _rerolled(2, [1, 2, 3, 4, 5])
    other = 1 - me
    state = engine.play(state, "give blue to P04:1", other)
    assert state.seats[other].quilt[(0, 0)].filled == (2, None, None)


def test_a_taken_die_must_leave_the_block_finishable() -> None:
    engine, state, me = _rerolled(2, [6, 2, 3, 4, 5])
    with pytest.raises(IllegalMoveError, match="could not be finished"):
        engine.play(state, "give red to P04:1", 1 - me)


def test_several_seats_may_take_the_same_die() -> None:
    engine, state, me = _rerolled(4, [1, 2, 3, 4, 5])
    others = [s for s in range(4) if s != me]
    for seat in others:
        state = engine.play(state, f"give green to {_only_block(state, seat)}:2", seat)
    assert all(state.seats[s].quilt[(0, 0)].filled[:3] == (None, 3, None) for s in others)


def _only_block(state: GameState, seat: int) -> str:
    return state.seats[seat].quilt[(0, 0)].block_id


def test_the_dice_stay_with_the_active_seat() -> None:
    engine, state, me = _rerolled(2, [6, 2, 3, 1, 1])
    clear_quilt(state, me)
    lay(state, me, (0, 0), "P01")
    state = engine.play(state, "give blue to P04:1", 1 - me)
    state = engine.play(state, "sew P01 red:1 blue:2 green:3", me)
    assert state.seats[me].quilt[(0, 0)].filled == (6, 2, 3)


def test_a_seat_takes_one_die_per_reroll() -> None:
    engine, state, me = _rerolled(3, [1, 2, 3, 4, 5])
    other = (me + 1) % 3
    mine = _only_block(state, other)
    state = engine.play(state, f"give red to {mine}:1", other)
    assert state.turn is not None and other not in state.turn.windows
    with pytest.raises(IllegalMoveError):
        engine.play(state, f"give blue to {mine}:2", other)


def test_a_seat_may_pass() -> None:
    engine, state, me = _rerolled(2, [1, 2, 3, 4, 5])
    state = engine.play(state, "pass", 1 - me)
    assert engine.to_act(state) == {me}
    assert state.seats[1 - me].quilt[(0, 0)].filled == (None, None, None)


def test_a_seat_may_pass_when_no_die_fits() -> None:
    engine, state, me = _rerolled(2, [6, 6, 6, 6, 6])
    clear_quilt(state, 1 - me)
    lay(state, 1 - me, (0, 0), "P06")  # 5, 5, 5
    assert [engine.format_move(m) for m in engine.legal_moves(state, 1 - me)] == ["pass"]


def test_the_passive_seats_decide_independently_in_any_order() -> None:
    engine, state, me = _rerolled(4, [1, 2, 3, 4, 5])
    others = [s for s in range(4) if s != me]
    assert engine.to_act(state) == {me, *others}
    state = engine.play(state, "pass", others[2])
    state = engine.play(state, f"give red to {_only_block(state, others[0])}:1", others[0])
    assert engine.to_act(state) == {me, others[1]}


def test_the_active_seat_may_keep_acting_while_windows_are_open() -> None:
    engine, state, me = _rerolled(2, [6, 2, 3, 1, 1])
    clear_quilt(state, me)
    lay(state, me, (0, 0), "P01")
    state = engine.play(state, "sew P01 red:1 blue:2 green:3", me)
    assert state.turn is not None and 1 - me in state.turn.windows


def test_the_next_reroll_waits_until_all_windows_are_closed() -> None:
    engine, state, me = _rerolled(2, [1, 2, 3, 4, 5])
    with pytest.raises(IllegalMoveError, match="wait until the others"):
        engine.play(state, "reroll", me)
    state = engine.play(state, "pass", 1 - me)
    state = engine.play(state, "reroll", me)
    assert state.turn is not None and state.turn.rolls == 3


def test_the_end_of_the_turn_waits_until_all_windows_are_closed() -> None:
    engine, state, me = _rerolled(2, [1, 2, 3, 4, 5])
    with pytest.raises(IllegalMoveError, match="wait until the others"):
        engine.play(state, "end", me)


def test_the_active_seat_does_not_give_to_herself() -> None:
    engine, state, me = _rerolled(2, [1, 2, 3, 4, 5])
    with pytest.raises(IllegalMoveError, match="giving is for the others"):
        engine.play(state, "give red to P01:1", me)


def test_giving_counts_the_dice_a_seat_received() -> None:
    engine, state, me = _rerolled(2, [1, 2, 3, 4, 5])
    state = engine.play(state, "give red to P04:1", 1 - me)
    assert state.seats[1 - me].gifts == 1


def test_undo_never_takes_back_what_another_seat_took() -> None:
    engine, state, me = _rerolled(2, [6, 2, 3, 1, 1])
    clear_quilt(state, me)
    lay(state, me, (0, 0), "P01")
    state = engine.play(state, "sew P01 red:1 blue:2 green:3", me)
    state = engine.play(state, "give yellow to P04:1", 1 - me)
    state = engine.play(state, "undo", me)
    assert state.seats[1 - me].quilt[(0, 0)].filled == (1, None, None)
    assert state.seats[me].quilt[(0, 0)].filled == (None, None, None)


def test_the_colour_names_of_dice_stay_the_same_for_every_seat() -> None:
    _, state, me = _rerolled(2, [1, 2, 3, 4, 5], offered=(R, B))
    assert state.turn is not None
    assert state.turn.windows[1 - me].offered == [R, B]


def test_a_block_whose_last_patch_is_filled_while_giving_is_finished() -> None:
    engine, state, me = _rerolled(2, [1, 2, 3, 4, 5])
    other = 1 - me
    clear_quilt(state, other)
    lay(state, other, (0, 0), "P04", filled=(1, 2, None))
    state = engine.play(state, "give yellow to P04:3", other)
    assert state.seats[other].quilt[(0, 0)].finished
