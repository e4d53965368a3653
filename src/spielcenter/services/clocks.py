"""The clocks of a table with people (speedquilt.md §7, docs/tables.md "Clocks").

A clock is an absolute deadline per seat, stored with the table (``table_seat_clocks``), so a
restarted server re-arms it. A *decision* is each point where the game waits for a person; her
clock starts there and again after each of her own accepted moves while the game still waits for
her. At the deadline she is warned (a beep) and has :data:`GRACE` more; then the computer decides
for her — the rest of her turn, or her start blocks; while giving she gets nothing.

This module is pure: it says which clocks run after a position, and what is due at a moment.
The live table (``services/table_play.py``) keeps the clocks and persists them; the server's
table actor (``server/tables.py``) wakes up when they fall due and has the live table act.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from spielcenter.games.speedquilt.rules import Speedquilt
from spielcenter.games.speedquilt.state import GameState, Phase

__all__ = [
    "ABSENCE",
    "AUTO_CONTINUE",
    "GIVING_SECONDS",
    "GRACE",
    "THINK_SECONDS",
    "ClockKind",
    "Due",
    "Timing",
    "Waiting",
    "due",
    "next_deadlines",
    "waiting_for",
]

GRACE = timedelta(seconds=10)
"""After the deadline: the beep, then 10 s more before the computer decides."""
AUTO_CONTINUE = timedelta(seconds=2)
""""Wenn kein Würfel passt: automatisch weiter" passes after 2 s."""
ABSENCE = timedelta(minutes=2)
"""Disconnected this long at a table without a think clock: a computer plays the seat."""
THINK_SECONDS = (30, 60, 90, 120)
"""The think times a table may have per decision (or none)."""
GIVING_SECONDS = (15, 20, 30)
"""The giving clocks a table may have (or none)."""


class ClockKind(StrEnum):
    """What the game waits for."""

    START = "start"
    """Her start blocks (all seats choose at once)."""
    TURN = "turn"
    """A decision in her own turn."""
    GIVING = "giving"
    """Her giving window after someone else's reroll."""
    AUTO = "auto"
    """Her giving window offers nothing that fits and she asked to continue automatically."""


@dataclass(frozen=True)
class Timing:
    """A table's clocks in seconds (``None``: no clock).

    ``scale`` shortens every length, the grace included (the setting ``CLOCK_SCALE``: a browser
    test lets a clock run out in seconds instead of half a minute); it is 1 in play.
    """

    think: int | None
    giving: int | None
    scale: float = 1.0

    def length(self, kind: ClockKind) -> timedelta | None:
        """How long a decision of that kind may take (``None``: no clock)."""
        match kind:
            case ClockKind.START | ClockKind.TURN:
                seconds = self.think
            case ClockKind.GIVING:
                seconds = self.giving
            case ClockKind.AUTO:
                return AUTO_CONTINUE * self.scale
        return None if seconds is None else timedelta(seconds=seconds) * self.scale

    @property
    def grace(self) -> timedelta:
        """The grace after a deadline."""
        return GRACE * self.scale


@dataclass(frozen=True)
class Waiting:
    """A seat's running clock: what it waits for, the absolute deadline, and the grace after it."""

    kind: ClockKind
    deadline: datetime
    grace: timedelta = GRACE

    @property
    def grace_until(self) -> datetime:
        """When the grace ends (the auto-continue clock has none)."""
        return self.deadline if self.kind is ClockKind.AUTO else self.deadline + self.grace


def waiting_for(
    engine: Speedquilt,
    state: GameState,
    people: Collection[int],
    auto_continue: Collection[int] = (),
) -> dict[int, ClockKind]:
    """The people the game waits for now and for what.

    The active seat is not waited for while giving windows are open: her next reroll and her end
    wait for them, so her clock pauses until the last one closes.
    """
    kinds: dict[int, ClockKind] = {}
    turn = state.turn
    for seat in sorted(engine.to_act(state) & set(people)):
        if state.phase is Phase.CHOOSING:
            kinds[seat] = ClockKind.START
        elif turn is not None and seat in turn.windows:
            kinds[seat] = ClockKind.GIVING
            if seat in auto_continue and not _something_fits(engine, state, seat):
                kinds[seat] = ClockKind.AUTO
        elif turn is None or not turn.windows:
            kinds[seat] = ClockKind.TURN
    return kinds


def _something_fits(engine: Speedquilt, state: GameState, seat: int) -> bool:
    return any(engine.format_move(m).startswith("give") for m in engine.legal_moves(state, seat))


def next_deadlines(
    kinds: Mapping[int, ClockKind],
    running: Mapping[int, Waiting],
    mover: int | None,
    timing: Timing,
    now: datetime,
) -> dict[int, Waiting]:
    """The clocks after a decision of ``mover`` (``None``: none, e.g. the table starts).

    A seat still waited for in the same way keeps its deadline, unless she just moved: each
    decision starts her clock again. Seats without a clock of that kind are left out.
    """
    clocks: dict[int, Waiting] = {}
    for seat, kind in kinds.items():
        before = running.get(seat)
        if before is not None and before.kind is kind and seat != mover:
            clocks[seat] = before
            continue
        length = timing.length(kind)
        if length is not None:
            clocks[seat] = Waiting(kind, now + length, timing.grace)
    return clocks


@dataclass(frozen=True)
class Due:
    """What a clock asks for at a moment: the warning (``grace``) or the end (``expired``)."""

    seat: int
    waiting: Waiting
    phase: str


def due(
    clocks: Mapping[int, Waiting], warned: Collection[int], now: datetime
) -> tuple[list[Due], datetime | None]:
    """The clock events due at ``now``, and when the next one falls due (``None``: never).

    A clock first warns (at the deadline), then expires (at the end of the grace); the
    auto-continue clock expires at its deadline without a warning.
    """
    events: list[Due] = []
    upcoming: list[datetime] = []
    for seat, waiting in sorted(clocks.items()):
        silent = waiting.kind is ClockKind.AUTO
        if silent or seat in warned:
            moment, phase = waiting.grace_until, "expired"
        else:
            moment, phase = waiting.deadline, "grace"
        if moment <= now:
            events.append(Due(seat, waiting, phase))
        else:
            upcoming.append(moment)
    return events, min(upcoming, default=None)
