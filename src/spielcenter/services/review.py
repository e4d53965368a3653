"""The game review of a stored Speedquilt table (issue 42): her decisions against the strong player.

The review itself is pure (:mod:`spielcenter.bots.review`); this reads a finished table's log
from the store and runs the review off the request path:

* :func:`review_stored_table` reviews one seat of a finished table (the command line waits for it);
* :class:`ReviewService` starts a review as a background task of this process (in a worker thread,
  so the event loop keeps serving), tells its progress while it runs, and keeps the finished
  review (the last :data:`KEPT` of them) so that opening it again costs nothing. A seat may
  review only her own decisions, and only once the table is over: a review never shows anything
  of a running game.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from dataclasses import dataclass, field

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from spielcenter.bots.review import ReviewError, review
from spielcenter.games.base import JSON, Deal, Seat
from spielcenter.games.speedquilt.rules import Speedquilt
from spielcenter.store.repositories import TableRepository

from .common import ServiceError
from .fairness import dealt_from
from .history import table_engine

__all__ = ["KEPT", "ReviewService", "review_stored_table"]

LOG = logging.getLogger(__name__)
FINISHED = "finished"
KEPT = 128
"""Finished reviews kept in memory (a review is some 20–60 kB of JSON)."""


@dataclass(frozen=True)
class _Game:
    """What a review needs of a stored table."""

    engine: Speedquilt
    deal: Deal
    log: list[tuple[int, str]]
    seats: dict[Seat, str | None]
    """Who sits at each seat (an account id; ``None`` for a computer)."""


async def _load(sessionmaker: async_sessionmaker[AsyncSession], table_id: str) -> _Game:
    """A finished table's engine, deal and log, or a clear refusal."""
    async with sessionmaker() as db:
        tables = TableRepository(db)
        row = await tables.get(table_id)
        if row is None:
            raise ServiceError("not_found", f"no table {table_id!r}")
        log = await tables.log_of(table_id)
        seats = {seat.seat: seat.account_id for seat in await tables.seats_of(table_id)}
    engine = table_engine(row)
    if engine is None:
        raise ServiceError("bad_request", f"table {table_id!r} cannot be replayed here")
    if row.status != FINISHED:
        raise ServiceError("not_over", "the game is not over: a review comes only after the end")
    return _Game(engine, dealt_from(row), log, seats)


def _reviewed(game: _Game, table_id: str, seat: Seat, progress: _Progress | None = None) -> JSON:
    try:
        reviewed = review(game.engine, game.deal, game.log, seat, progress)
    except ReviewError as refusal:
        raise ServiceError("bad_request", str(refusal)) from None
    return {"table": table_id, **reviewed.to_json(game.engine)}


async def review_stored_table(
    sessionmaker: async_sessionmaker[AsyncSession], table_id: str, seat: Seat
) -> JSON:
    """The review of ``seat``'s decisions at the finished table ``table_id``."""
    game = await _load(sessionmaker, table_id)
    return await asyncio.to_thread(_reviewed, game, table_id, seat)


@dataclass
class _Progress:
    """A review under way: how far it is (written by the worker thread, read by requests)."""

    done: int = 0
    total: int = 0
    result: JSON | None = None
    failed: str | None = None
    task: asyncio.Task[None] | None = field(default=None, repr=False)

    def __call__(self, done: int, total: int) -> None:
        self.done, self.total = done, total

    def to_json(self) -> JSON:
        if self.result is not None:
            return {"state": "done", "progress": 1.0, "review": self.result}
        if self.failed is not None:
            return {"state": "failed", "message": self.failed}
        share = self.done / self.total if self.total else 0.0
        return {"state": "running", "progress": round(share, 3)}


class ReviewService:
    """Reviews of finished tables for the seats who played them, off the request path."""

    def __init__(self, sessionmaker: async_sessionmaker[AsyncSession]) -> None:
        self.sessionmaker = sessionmaker
        self._reviews: OrderedDict[tuple[str, Seat], _Progress] = OrderedDict()

    async def _seat_of(self, account_id: str, table_id: str) -> tuple[_Game, Seat]:
        game = await _load(self.sessionmaker, table_id)
        mine = [seat for seat, account in sorted(game.seats.items()) if account == account_id]
        if not mine:
            raise ServiceError("not_found", f"no table {table_id!r} of this account to review")
        return game, mine[0]

    async def start(self, account_id: str, table_id: str) -> JSON:
        """Start reviewing her seat of the table (once: a review under way or done is kept);
        where it stands."""
        game, seat = await self._seat_of(account_id, table_id)
        key = (table_id, seat)
        known = self._reviews.get(key)
        if known is None or known.failed is not None:
            known = _Progress()
            self._reviews[key] = known
            known.task = asyncio.create_task(self._run(game, table_id, seat, known))
            while len(self._reviews) > KEPT:
                self._reviews.popitem(last=False)
        self._reviews.move_to_end(key)
        return known.to_json()

    async def status(self, account_id: str, table_id: str) -> JSON:
        """Where her review of the table stands: ``none`` (not started), ``running`` with its
        progress (0–1), ``done`` with the review, or ``failed`` with the reason."""
        _, seat = await self._seat_of(account_id, table_id)
        known = self._reviews.get((table_id, seat))
        return {"state": "none"} if known is None else known.to_json()

    @staticmethod
    async def _run(game: _Game, table_id: str, seat: Seat, progress: _Progress) -> None:
        try:
            progress.result = await asyncio.to_thread(_reviewed, game, table_id, seat, progress)
        except ServiceError as refusal:
            progress.failed = refusal.message
        except Exception:  # a fault of the review must not leave it "running" for ever
            LOG.exception("review of table %s, seat %s failed", table_id, seat)
            progress.failed = "the review could not be computed"
        finally:
            progress.task = None
