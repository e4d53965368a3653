"""The game review of a stored Speedquilt table (issue 42): her decisions against the strong player.

The review itself is pure (:mod:`spielcenter.bots.review`); this reads a finished table's log
from the store and runs the review off the request path:

* :func:`review_stored_table` reviews one seat of a finished table (the command line waits for it);
* :class:`ReviewService` starts a review (of a table, or of her solo game: a campaign stage, a
  daily quilt) as a background task of this process (in a worker thread,
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
from spielcenter.games.base import JSON, Deal, Seat, Status
from spielcenter.games.speedquilt.rules import Speedquilt
from spielcenter.store.repositories import GameRepository, TableRepository

from .common import ServiceError
from .fairness import dealt_from
from .games import GameResolver, GameService
from .history import table_engine

__all__ = ["KEPT", "ReviewService", "review_stored_game", "review_stored_table"]

LOG = logging.getLogger(__name__)
FINISHED = "finished"
NOT_OVER = "the game is not over: a review comes only after the end"
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
        raise ServiceError("not_over", NOT_OVER)
    return _Game(engine, dealt_from(row), log, seats)


def _reviewed(game: _Game, label: JSON, seat: Seat, progress: _Progress | None = None) -> JSON:
    try:
        reviewed = review(game.engine, game.deal, game.log, seat, progress)
    except ReviewError as refusal:
        raise ServiceError("bad_request", str(refusal)) from None
    return {**label, **reviewed.to_json(game.engine)}


async def review_stored_game(
    sessionmaker: async_sessionmaker[AsyncSession], resolve: GameResolver, game_id: str
) -> JSON:
    """The review of a finished solo Speedquilt game of the store (a campaign stage, a daily
    quilt: ``resolve`` knows their variants, see :func:`.progress.progress_resolver`)."""
    async with sessionmaker() as db:
        games = GameRepository(db)
        row = await games.get(game_id)
        entries = await games.entries(game_id) if row is not None else []
    if row is None:
        raise ServiceError("not_found", f"no game {game_id!r}")
    engine = resolve(row.game, row.variant)
    if not isinstance(engine, Speedquilt) or any(e.kind != "move" for e in entries):
        raise ServiceError("bad_request", f"game {game_id!r} is no Speedquilt game to review")
    log = [(0, entry.move) for entry in entries if entry.move is not None]
    game = _Game(engine, dealt_from(row), log, {0: row.account_id})
    return await asyncio.to_thread(_reviewed, game, {"game": game_id}, 0)


async def review_stored_table(
    sessionmaker: async_sessionmaker[AsyncSession], table_id: str, seat: Seat
) -> JSON:
    """The review of ``seat``'s decisions at the finished table ``table_id``."""
    game = await _load(sessionmaker, table_id)
    return await asyncio.to_thread(_reviewed, game, {"table": table_id}, seat)


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
    """Reviews of finished games for the seats who played them, off the request path: tables
    she sat at, and her solo games (a campaign stage, a daily quilt, a practice game)."""

    def __init__(
        self, sessionmaker: async_sessionmaker[AsyncSession], games: GameService | None = None
    ) -> None:
        self.sessionmaker = sessionmaker
        self.games = games
        self._reviews: OrderedDict[tuple[str, str, Seat], _Progress] = OrderedDict()

    async def _seat_of(self, account_id: str, table_id: str) -> tuple[_Game, Seat]:
        game = await _load(self.sessionmaker, table_id)
        mine = [seat for seat, account in sorted(game.seats.items()) if account == account_id]
        if not mine:
            raise ServiceError("not_found", f"no table {table_id!r} of this account to review")
        return game, mine[0]

    async def _solo(self, account_id: str, game_id: str) -> _Game:
        """Her finished solo Speedquilt game (another account's game is not found)."""
        if self.games is None:
            raise ServiceError("not_found", f"no game {game_id!r} for this account")
        live = await self.games.open(account_id, game_id)
        if not isinstance(live.engine, Speedquilt):
            raise ServiceError("bad_request", "only Speedquilt games are reviewed")
        if live.engine.status(live.record.state) is Status.PLAYING:
            raise ServiceError("not_over", NOT_OVER)
        log = [(0, move) for move in live.record.moves]
        return _Game(live.engine, live.deal, log, {0: account_id})

    async def start(self, account_id: str, table_id: str) -> JSON:
        """Start reviewing her seat of the table (once: a review under way or done is kept);
        where it stands."""
        game, seat = await self._seat_of(account_id, table_id)
        return self._begin(("table", table_id, seat), game, {"table": table_id})

    async def status(self, account_id: str, table_id: str) -> JSON:
        """Where her review of the table stands: ``none`` (not started), ``running`` with its
        progress (0–1), ``done`` with the review, or ``failed`` with the reason."""
        _, seat = await self._seat_of(account_id, table_id)
        return self._state(("table", table_id, seat))

    async def start_game(self, account_id: str, game_id: str) -> JSON:
        """:meth:`start` for her solo Speedquilt game."""
        game = await self._solo(account_id, game_id)
        return self._begin(("game", game_id, 0), game, {"game": game_id})

    async def status_game(self, account_id: str, game_id: str) -> JSON:
        """:meth:`status` for her solo Speedquilt game."""
        await self._solo(account_id, game_id)
        return self._state(("game", game_id, 0))

    def _state(self, key: tuple[str, str, Seat]) -> JSON:
        known = self._reviews.get(key)
        return {"state": "none"} if known is None else known.to_json()

    def _begin(self, key: tuple[str, str, Seat], game: _Game, label: JSON) -> JSON:
        known = self._reviews.get(key)
        if known is None or known.failed is not None:
            known = _Progress()
            self._reviews[key] = known
            known.task = asyncio.create_task(self._run(game, label, key[2], known))
            while len(self._reviews) > KEPT:
                self._reviews.popitem(last=False)
        self._reviews.move_to_end(key)
        return known.to_json()

    @staticmethod
    async def _run(game: _Game, label: JSON, seat: Seat, progress: _Progress) -> None:
        try:
            progress.result = await asyncio.to_thread(_reviewed, game, label, seat, progress)
        except ServiceError as refusal:
            progress.failed = refusal.message
        except Exception:  # a fault of the review must not leave it "running" for ever
            LOG.exception("review of %s, seat %s failed", label, seat)
            progress.failed = "the review could not be computed"
        finally:
            progress.task = None
