"""Sewing kits (speedquilt.md §1): they work once finished, once per turn each, and stack."""

from __future__ import annotations

import pytest

from spielcenter.games.base import IllegalMoveError
from spielcenter.games.speedquilt.kits import die_seen_by
from spielcenter.games.speedquilt.model import COLOURS, Deck, Die, KitKind
from spielcenter.games.speedquilt.rules import Speedquilt
from spielcenter.games.speedquilt.state import GameState, Window

from .engine_helpers import B, R, Y, chosen, clear_quilt, game, kit, lay, play, rolled, shelf_block


def _with_kits(
    players: int, values: list[int], *kits: tuple[str, bool]
) -> tuple[Speedquilt, GameState, int]:
    """The active seat's quilt is P01 then the given kits (finished or not) in a row."""
    engine = game(players)
    state = chosen(engine, 2)
    assert state.turn is not None
    me = state.turn.seat
    clear_quilt(state, me)
    lay(state, me, (0, 0), "P01")
    for x, (kit_id, finished) in enumerate(kits, start=1):
        lay(state, me, (x, 0), kit_id, finished=finished)
    return engine, rolled(state, me, values), me


THIMBLE, THIMBLE_2 = kit(KitKind.THIMBLE, 0), kit(KitKind.THIMBLE, 1)


def test_kits_work_only_when_finished() -> None:
    engine, state, me = _with_kits(2, [3, 1, 1, 1, 1], (THIMBLE, False))
    with pytest.raises(IllegalMoveError, match="no finished thimble"):
        engine.play(state, "thimble red +1", me)


def test_a_thimble_changes_a_die_by_one() -> None:
    engine, state, me = _with_kits(2, [3, 1, 1, 1, 1], (THIMBLE, True))
    state = engine.play(state, "thimble red -1", me)
    assert state.turn is not None and die_seen_by(state.turn, me, R) == Die(R, 2)


def test_a_thimble_does_not_wrap() -> None:
    engine, state, me = _with_kits(2, [6, 1, 1, 1, 1], (THIMBLE, True))
    with pytest.raises(IllegalMoveError, match="does not wrap"):
        engine.play(state, "thimble red +1", me)
    with pytest.raises(IllegalMoveError, match="does not wrap"):
        engine.play(state, "thimble blue -1", me)


def test_a_kit_is_used_once_per_turn() -> None:
    engine, state, me = _with_kits(2, [3, 3, 1, 1, 1], (THIMBLE, True))
    state = engine.play(state, "thimble red +1", me)
    with pytest.raises(IllegalMoveError, match="no finished thimble left"):
        engine.play(state, "thimble blue +1", me)


def test_two_finished_kits_of_a_kind_give_two_uses() -> None:
    engine, state, me = _with_kits(2, [3, 3, 1, 1, 1], (THIMBLE, True), (THIMBLE_2, True))
    state = play(engine, state, me, "thimble red +1", "thimble blue +1")
    assert state.turn is not None
    assert [die_seen_by(state.turn, me, c).value for c in (R, B)] == [4, 4]


def test_a_thimbled_die_is_used_with_its_new_value() -> None:
    engine, state, me = _with_kits(2, [5, 2, 3, 1, 1], (THIMBLE, True))
    state = play(engine, state, me, "thimble red +1", "sew P01 red:1 blue:2 green:3")
    assert state.seats[me].quilt[(0, 0)].filled == (6, 2, 3)


def test_a_dye_bath_lets_a_die_count_as_any_colour() -> None:
    dye = kit(KitKind.DYE_BATH)
    engine, state, me = _with_kits(2, [1, 2, 3, 4, 5], (dye, True))
    clear_quilt(state, me)
    lay(state, me, (0, 0), "P02")  # red border, blue border, any
    lay(state, me, (1, 0), dye, finished=True)
    with pytest.raises(IllegalMoveError, match="does not fit"):
        engine.play(state, "sew P02 green:1 blue:2 red:3", me)
    state = play(engine, state, me, "dye green->red", "sew P02 green:1 blue:2 red:3")
    assert state.seats[me].quilt[(0, 0)].filled == (3, 2, 1)


def test_an_adjustment_is_seen_only_by_its_owner() -> None:
    engine, state, me = _with_kits(2, [3, 1, 1, 1, 1], (THIMBLE, True))
    state = engine.play(state, "thimble red +1", me)
    mine = engine.view_for(state, me)["turn"]["dice"][0]
    theirs = engine.view_for(state, 1 - me)["turn"]["dice"][0]
    assert (mine["value"], mine["adjusted"]) == (4, True)
    assert (theirs["value"], theirs["adjusted"]) == (3, False)


def test_scissors_let_one_die_of_any_value_stand_in_when_buying() -> None:
    scissors = kit(KitKind.SCISSORS)
    engine, state, me = _with_kits(2, [4, 4, 1, 2, 6], (scissors, True))
    target = shelf_block(state, Deck.KIT, 0)
    state = engine.play(state, f"buy {target} at 0,1 with red blue green", me)
    assert state.seats[me].quilt[(0, 1)].block_id == target


def test_scissors_stand_in_for_only_one_die() -> None:
    scissors = kit(KitKind.SCISSORS)
    engine, state, me = _with_kits(2, [4, 1, 2, 3, 6], (scissors, True))
    target = shelf_block(state, Deck.KIT, 0)
    with pytest.raises(IllegalMoveError, match="equal value"):
        engine.play(state, f"buy {target} at 0,1 with red blue green", me)


def test_a_sewing_machine_gives_one_extra_reroll() -> None:
    machine = kit(KitKind.SEWING_MACHINE)
    engine, state, me = _with_kits(1, [1, 1, 1, 1, 1], (machine, True))
    state = play(engine, state, me, "reroll", "reroll", "reroll")
    assert state.turn is not None and state.turn.rolls == 4
    with pytest.raises(IllegalMoveError, match="no reroll left"):
        engine.play(state, "reroll", me)


def _window_for(state: GameState, me: int, other: int) -> GameState:
    assert state.turn is not None
    state.turn.rolls = 2
    state.turn.windows = {other: Window(list(COLOURS))}
    return state


def test_pins_let_a_seat_take_one_more_die_when_giving() -> None:
    engine, state, me = _with_kits(2, [1, 2, 3, 4, 5])
    other = 1 - me
    clear_quilt(state, other)
    lay(state, other, (0, 0), "P11")  # "<", four open patches
    lay(state, other, (1, 0), kit(KitKind.PINS), finished=True)
    state = _window_for(state, me, other)
    state = engine.play(state, "give red to P11:1", other)
    state = engine.play(state, "give blue to P11:2", other)
    assert state.seats[other].quilt[(0, 0)].filled == (1, 2, None, None)
    assert engine.to_act(state) == {me}


def test_a_passive_seat_may_thimble_the_die_she_takes_while_giving() -> None:
    engine, state, me = _with_kits(2, [1, 2, 3, 4, 5])
    other = 1 - me
    clear_quilt(state, other)
    lay(state, other, (0, 0), "P06")  # 5, 5, 5
    lay(state, other, (1, 0), THIMBLE, finished=True)
    state = _window_for(state, me, other)
    state = engine.play(state, "thimble yellow +1", other)
    assert state.turn is not None and state.turn.dice[Y] == 4  # as rolled, for everyone else
    state = engine.play(state, "give yellow to P06:1", other)
    assert state.seats[other].quilt[(0, 0)].filled == (5, None, None)


def test_kit_uses_renew_in_every_turn() -> None:
    engine, state, me = _with_kits(2, [3, 3, 1, 1, 1], (THIMBLE, True))
    state = play(engine, state, me, "thimble red +1", "end")
    assert state.turn is not None
    state = play(engine, state, 1 - me, "roll", "end")
    state = engine.play(state, "roll", me)
    assert state.turn is not None
    state = engine.play(state, "thimble red " + ("-1" if state.turn.dice[R] > 1 else "+1"), me)
    assert state.turn is not None and state.turn.kit_uses[me][KitKind.THIMBLE] == 1


def test_undo_takes_back_an_adjustment_of_the_active_seat() -> None:
    engine, state, me = _with_kits(2, [3, 1, 1, 1, 1], (THIMBLE, True))
    state = play(engine, state, me, "thimble red +1", "undo")
    assert state.turn is not None and die_seen_by(state.turn, me, R) == Die(R, 3)
    state = engine.play(state, "thimble red +1", me)
    assert die_seen_by(state.turn, me, R) == Die(R, 4)


def test_an_adjustment_after_a_blind_draw_is_not_undone_past_the_returned_block() -> None:
    """The blind draw ends undo (speedquilt.md §3.3); a thimble used after it may be undone, but
    once the drawn block is placed or put back, undo must not restore the decks as they were
    while it was out, or the block would vanish from the game (found by a random playout)."""
    engine, state, me = _with_kits(2, [3, 1, 1, 1, 1], (THIMBLE, True))
    assert state.turn is not None
    state.turn.rolls = 3
    drawn = state.decks[Deck.KIT][0]
    state = play(engine, state, me, "bin draw kit", "thimble red +1", "bin return")
    assert state.decks[Deck.KIT][-1] == drawn
    with pytest.raises(IllegalMoveError, match="nothing to undo"):
        engine.play(state, "undo", me)
