"""Sewing kits: what a seat's finished kits allow her in this turn, and the dice as she sees them.

Kits work only when finished. Each finished kit gives one use per turn (of whichever seat is
active), so two finished thimbles give two uses. Thimble and dye bath are private: the changed
die lives in the owner's adjustments and nobody else sees it.
"""

from __future__ import annotations

import contextlib
from collections import Counter
from collections.abc import Iterator
from contextvars import ContextVar

from .model import Colour, Die, KitKind
from .moves import Dye, Thimble
from .options import Context
from .state import GameState, TurnKind, TurnState, snapshot

MAX_PIPS = 6

__all__ = [
    "adjustable",
    "apply_adjust",
    "dice_seen_by",
    "die_seen_by",
    "finished_kits",
    "one_position",
    "reason_adjust",
    "spend_use",
    "stand_ins",
    "uses_left",
]


class _Listing:
    """What the checks of one position ask again and again, each worked out once: every seat's
    finished kits and the dice as she sees them."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.kits: dict[int, Counter[KitKind]] = {}
        self.dice: dict[int | None, dict[Colour, Die]] = {}


_listing: ContextVar[_Listing | None] = ContextVar("speedquilt_listing", default=None)


@contextlib.contextmanager
def one_position(state: GameState) -> Iterator[None]:
    """While every candidate move of ``state`` is checked (``Speedquilt.legal_moves``: about a
    hundred, each asking for the seat's finished kits and the dice as she sees them), those are
    worked out once. The checks only read the position; the memo holds for this state object
    and its turn alone (a copy is another object), and ends with the block. A context variable,
    not a global: a computer may check moves in a thread beside the event loop's."""
    token = _listing.set(_Listing(state))
    try:
        yield
    finally:
        _listing.reset(token)


def finished_kits(ctx: Context, state: GameState, seat: int) -> Counter[KitKind]:
    """How many finished kits of each kind lie in the seat's quilt (not to be changed: within
    :func:`one_position` every caller gets the same count)."""
    listing = _listing.get()
    if listing is None or listing.state is not state:
        return _finished_kits(ctx, state, seat)
    kinds = listing.kits.get(seat)
    if kinds is None:
        kinds = listing.kits[seat] = _finished_kits(ctx, state, seat)
    return kinds


def _finished_kits(ctx: Context, state: GameState, seat: int) -> Counter[KitKind]:
    kinds: Counter[KitKind] = Counter()
    for placed in state.seats[seat].quilt.values():
        kind = ctx.block(placed.block_id).kit
        if kind is not None and placed.finished:
            kinds[kind] += 1
    return kinds


def uses_left(ctx: Context, state: GameState, seat: int, kind: KitKind) -> int:
    """How many more times the seat may use kits of ``kind`` in this turn."""
    turn = state.turn
    used = turn.kit_uses.get(seat, {}).get(kind, 0) if turn is not None else 0
    return finished_kits(ctx, state, seat)[kind] - used


def spend_use(turn: TurnState, seat: int, kind: KitKind, count: int = 1) -> None:
    """Count ``count`` uses of a kit of ``kind`` by ``seat`` in this turn."""
    uses = turn.kit_uses.setdefault(seat, {})
    uses[kind] = uses.get(kind, 0) + count


def die_seen_by(turn: TurnState, seat: int | None, colour: Colour) -> Die:
    """The die of ``colour`` as ``seat`` sees it: her own adjustment, else as rolled."""
    adjusted = turn.adjustments.get(seat, {}).get(colour) if seat is not None else None
    return adjusted if adjusted is not None else Die(colour, turn.dice[colour])


def dice_seen_by(turn: TurnState, seat: int | None) -> dict[Colour, Die]:
    """Every rolled die as ``seat`` sees it (not to be changed: within :func:`one_position`
    every caller gets the same dict)."""
    listing = _listing.get()
    if listing is None or listing.state.turn is not turn:
        return {colour: die_seen_by(turn, seat, colour) for colour in turn.dice}
    seen = listing.dice.get(seat)
    if seen is None:
        seen = listing.dice[seat] = {
            colour: die_seen_by(turn, seat, colour) for colour in turn.dice
        }
    return seen


def stand_ins(values: list[int]) -> int:
    """How many dice must be stood in for (by scissors) to make ``values`` all equal."""
    return len(values) - max(Counter(values).values()) if values else 0


# -- the private adjustments: thimble and dye bath ---------------------------------------------


def adjustable(state: GameState, seat: int) -> list[Colour]:
    """The dice ``seat`` may adjust now: her unused dice in her turn (or giving turn), else the
    dice offered in her open giving window that she has not taken."""
    turn = state.turn
    if turn is None:
        return []
    if turn.seat == seat:
        return [c for c in turn.dice if c not in turn.used]
    window = turn.windows.get(seat)
    return [c for c in window.offered if c not in window.taken] if window is not None else []


def reason_adjust(ctx: Context, state: GameState, move: Thimble | Dye, seat: int) -> str | None:
    """Why the thimble or dye bath cannot change that die now, or ``None``."""
    kind = KitKind.THIMBLE if isinstance(move, Thimble) else KitKind.DYE_BATH
    if uses_left(ctx, state, seat, kind) < 1:
        return f"you have no finished {kind.replace('_', ' ')} left to use in this turn"
    if move.colour not in adjustable(state, seat):
        return f"you cannot adjust the {move.colour} die now"
    turn = state.turn
    assert turn is not None
    die = die_seen_by(turn, seat, move.colour)
    if isinstance(move, Thimble) and not 1 <= die.value + move.delta <= MAX_PIPS:
        return f"a thimble does not wrap: {die.value} {move.delta:+d} is no die value"
    if isinstance(move, Dye) and die.colour == move.to:
        return f"the {move.colour} die counts as {move.to} already"
    return None


def apply_adjust(state: GameState, move: Thimble | Dye, seat: int) -> None:
    """Change the die in ``seat``'s own view only."""
    turn = state.turn
    assert turn is not None
    if turn.seat == seat and turn.kind is TurnKind.OWN:
        turn.undo.append(snapshot(state, turn))
    die = die_seen_by(turn, seat, move.colour)
    if isinstance(move, Thimble):
        changed, kind = Die(die.colour, die.value + move.delta), KitKind.THIMBLE
    else:
        changed, kind = Die(move.to, die.value), KitKind.DYE_BATH
    turn.adjustments.setdefault(seat, {})[move.colour] = changed
    spend_use(turn, seat, kind)
