"""Giving (Garn abgeben): the other seats' windows after each reroll, and the solo giving turn.

After a reroll every other seat may take one of the newly rolled dice — never a basket die — onto
one of her own patches (the block need not be finished, but must stay finishable), or pass.
Several seats may take the same die; the dice stay with the active seat. Finished pins let a
seat take one more die. In the solo giving turn the same move places the dice of that turn.
"""

from __future__ import annotations

from .kits import dice_seen_by, spend_use, uses_left
from .model import Colour, KitKind
from .moves import Give
from .options import Context
from .placing import fill, fill_reason
from .solo import finish_giving_turn
from .state import GameState, TurnKind, TurnState, Window

__all__ = [
    "apply_give",
    "apply_pass",
    "may_take",
    "open_windows",
    "reason_give",
    "reason_pass",
]


def open_windows(state: GameState, rolled: list[Colour]) -> None:
    """After a reroll: a window on the newly rolled dice for every other seat."""
    turn = state.turn
    assert turn is not None
    turn.windows = {
        seat: Window(offered=list(rolled)) for seat in range(len(state.seats)) if seat != turn.seat
    }


def _offer(turn: TurnState, seat: int) -> tuple[list[Colour], list[Colour], int] | None:
    """What ``seat`` may take from: (offered dice, dice taken, takes before pins are needed)."""
    if turn.kind is TurnKind.GIVING:
        return (list(turn.dice), turn.used, turn.allowance) if seat == turn.seat else None
    window = turn.windows.get(seat)
    return (window.offered, window.taken, 1) if window is not None else None


def may_take(turn: TurnState, seat: int) -> bool:
    """Whether ``seat`` has dice to take from now (an open window, or her giving turn): without,
    every :class:`Give` of hers is refused."""
    return _offer(turn, seat) is not None


def reason_give(ctx: Context, state: GameState, move: Give, seat: int) -> str | None:
    """Why ``seat`` may not take this die onto this patch now, or ``None``."""
    turn = state.turn
    offer = _offer(turn, seat) if turn is not None else None
    if turn is None or offer is None:
        if turn is not None and turn.seat == seat and turn.kind is TurnKind.OWN:
            return "the dice are yours this turn; giving is for the others"
        return "you have no open giving window (no reroll, no giving)"
    offered, taken, free = offer
    colour = move.placement.colour
    if colour not in offered:
        return f"the {colour} die was not newly rolled (basket dice are not offered)"
    if colour in taken:
        return f"you have taken the {colour} die already"
    if len(taken) >= free and uses_left(ctx, state, seat, KitKind.PINS) < 1:
        return "you have taken all the dice you may (finished pins give one more)"
    p = move.placement
    planned = [(colour, p.block_id, p.patch)]
    return fill_reason(ctx, state.seats[seat].quilt, planned, dice_seen_by(turn, seat))


def apply_give(ctx: Context, state: GameState, move: Give, seat: int) -> None:
    """Put the die on the patch; close the window (or the giving turn) when nothing is left."""
    turn = state.turn
    assert turn is not None
    offer = _offer(turn, seat)
    assert offer is not None
    offered, taken, free = offer
    p = move.placement
    fill(state.seats[seat].quilt, [(p.colour, p.block_id, p.patch)], dice_seen_by(turn, seat))
    if len(taken) >= free:
        spend_use(turn, seat, KitKind.PINS)
    taken.append(p.colour)
    if turn.kind is TurnKind.OWN:
        state.seats[seat].gifts += 1
    more = len(taken) < free or uses_left(ctx, state, seat, KitKind.PINS) > 0
    if not more or len(taken) == len(offered):
        _close(ctx, state, seat)


def reason_pass(state: GameState, seat: int) -> str | None:
    """Passing closes one's window (or ends the solo giving turn)."""
    turn = state.turn
    if turn is None or _offer(turn, seat) is None:
        return "there is nothing to pass on: you have no open giving window"
    return None


def apply_pass(ctx: Context, state: GameState, seat: int) -> None:
    """Close the window without taking (more)."""
    _close(ctx, state, seat)


def _close(ctx: Context, state: GameState, seat: int) -> None:
    turn = state.turn
    assert turn is not None
    if turn.kind is TurnKind.GIVING:
        finish_giving_turn(ctx, state)
    else:
        del turn.windows[seat]
