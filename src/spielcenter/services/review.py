"""The game review of a stored Speedquilt table (issue 42): her decisions against the strong player.

The review itself is pure (:mod:`spielcenter.bots.review`); this reads a finished table's log
from the store and runs the review off the request path:

* :func:`review_stored_table` reviews one seat of a finished table (the command line waits for it);
* :class:`ReviewService` starts a review (of a table, or of her solo game: a campaign stage, a
  daily quilt) as a background task of this process (in a worker thread,
  so the event loop keeps serving), tells its progress while it runs, and stores the finished
  review with the game (``game_reviews``), so that opening it again — after a restart, or on
  another process — costs nothing. A seat may review only her own decisions, and only once the
  table is over: a review never shows anything of a running game.

A review costs about a second of CPU and every review of the process waits in one queue, so one
account may have at most :data:`REVIEWS_PER_ACCOUNT` of its reviews queued or running in a process
at once (more are refused with ``too_many_reviews``: nothing is queued), and the server may limit
how many it starts in a while (``admit``: the route's rate limit). A stored review is answered
from the store and counts against neither (docs/security.md, "Reviews").

Several processes share the work through the same rows: the process that asks first claims the
review and computes it; the others say it is running (with no progress they could know) until
the stored review is there. A claim older than :data:`CLAIM_TIMEOUT` belongs to a process that
is gone: the next one asked takes it over.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import timedelta

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from spielcenter.bots.review import VERSION, ReviewError, review
from spielcenter.games.base import JSON, Deal, Seat, Status
from spielcenter.games.speedquilt.rules import Speedquilt
from spielcenter.store.models import GameReview
from spielcenter.store.repositories import GameRepository, ReviewRepository, TableRepository

from .common import Clock, ServiceError, as_utc, utcnow
from .fairness import dealt_from
from .games import GameResolver, GameService
from .history import table_engine

__all__ = [
    "CLAIM_TIMEOUT",
    "REVIEWS_PER_ACCOUNT",
    "ReviewService",
    "review_stored_game",
    "review_stored_table",
]

LOG = logging.getLogger(__name__)
FINISHED = "finished"
NOT_OVER = "the game is not over: a review comes only after the end"
CLAIM_TIMEOUT = timedelta(minutes=2)
"""How long a process's claim on a review holds: a 12-round game is reviewed in a few seconds
(docs/bots.md), so a claim this old was left by a process that stopped."""
FAILURE_CHARS = 200
"""The longest reason of a failure that is stored (the column's width)."""
NOT_STARTED: JSON = {"state": "none"}
REVIEWS_AT_ONCE = 1
"""Reviews computed at once by one process. A review is a second or so of pure Python: more
threads would not finish sooner (one interpreter lock) but would take it from the event loop
that serves every game, so many reviews asked for at once only lengthen the queue (and one
account has at most :data:`REVIEWS_PER_ACCOUNT` in it)."""
REVIEWS_PER_ACCOUNT = 2
"""Reviews of one account queued or running in one process at once (the default of the setting
``REVIEWS_PER_ACCOUNT``): enough to ask for the last two games, too few to fill the queue that
every other player's review waits in."""
TOO_MANY = "too many reviews under way: wait until one is finished"
RATE_LIMITED = "too many reviews asked for: wait a minute"
Admit = Callable[[], Awaitable[bool]]
"""Asked before a review is queued (never for a stored one): ``False`` refuses it."""
Key = tuple[str, str, Seat]
"""A review: ``table`` or ``game``, its id, the seat."""


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
    """A review under way in this process: how far it is (written by the worker thread, read
    by requests). Once it ends it is stored, and the store says how it ended."""

    done: int = 0
    total: int = 0
    task: asyncio.Task[None] | None = field(default=None, repr=False)

    def __call__(self, done: int, total: int) -> None:
        self.done, self.total = done, total

    def to_json(self) -> JSON:
        share = self.done / self.total if self.total else 0.0
        return {"state": "running", "progress": round(share, 3)}


def _done(review: JSON) -> JSON:
    return {"state": "done", "progress": 1.0, "review": review}


def _process_name() -> str:
    """Who holds a claim: this host and process, and a random part for a reused process id."""
    return f"{socket.gethostname()[:40]}:{os.getpid()}:{secrets.token_hex(4)}"


class ReviewService:
    """Reviews of finished games for the seats who played them, off the request path: tables
    she sat at, and her solo games (a campaign stage, a daily quilt, a practice game)."""

    def __init__(
        self,
        sessionmaker: async_sessionmaker[AsyncSession],
        games: GameService | None = None,
        clock: Clock = utcnow,
        per_account: int = REVIEWS_PER_ACCOUNT,
    ) -> None:
        self.sessionmaker = sessionmaker
        self.games = games
        self.clock = clock
        self.per_account = per_account
        self.owner = _process_name()
        self._running: dict[Key, _Progress] = {}
        self._gate = asyncio.Semaphore(REVIEWS_AT_ONCE)
        self._queued: Counter[str] = Counter()
        """Reviews of each account queued or running here (or being claimed: counted before
        the claim's await, so requests at once cannot all slip under the cap)."""

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

    async def start(self, account_id: str, table_id: str, admit: Admit | None = None) -> JSON:
        """Start reviewing her seat of the table (once: a review under way or stored is not
        started again); where it stands. A new review is refused (``too_many_reviews``,
        ``rate_limited``) when she has :attr:`per_account` under way or ``admit`` says no."""
        game, seat = await self._seat_of(account_id, table_id)
        key = ("table", table_id, seat)
        return await self._begin(account_id, key, game, {"table": table_id}, admit)

    async def status(self, account_id: str, table_id: str) -> JSON:
        """Where her review of the table stands: ``none`` (not started, or its process is gone),
        ``running`` with its progress (0–1, or ``None`` while another process computes it),
        ``done`` with the review, or ``failed`` with the reason."""
        _, seat = await self._seat_of(account_id, table_id)
        return await self._state(("table", table_id, seat))

    async def start_game(self, account_id: str, game_id: str, admit: Admit | None = None) -> JSON:
        """:meth:`start` for her solo Speedquilt game."""
        game = await self._solo(account_id, game_id)
        return await self._begin(account_id, ("game", game_id, 0), game, {"game": game_id}, admit)

    async def status_game(self, account_id: str, game_id: str) -> JSON:
        """:meth:`status` for her solo Speedquilt game."""
        await self._solo(account_id, game_id)
        return await self._state(("game", game_id, 0))

    async def _stored(self, key: Key) -> GameReview | None:
        async with self.sessionmaker() as db:
            return await ReviewRepository(db).get(*key)

    def _told(self, row: GameReview | None) -> JSON | None:
        """What a stored row says, or ``None`` if the review is to be computed (again)."""
        if row is None or row.version != VERSION:
            return None
        if row.state == ReviewRepository.DONE and row.review is not None:
            return _done(row.review)
        if row.state == ReviewRepository.FAILED:
            return {"state": "failed", "message": row.failure}
        if as_utc(row.claimed_at) < self.clock() - CLAIM_TIMEOUT:
            return None  # its process is gone
        return {"state": "running", "progress": None}  # another process computes it

    async def _state(self, key: Key) -> JSON:
        mine = self._running.get(key)
        if mine is not None:
            return mine.to_json()
        return self._told(await self._stored(key)) or NOT_STARTED

    async def _begin(
        self, account_id: str, key: Key, game: _Game, label: JSON, admit: Admit | None
    ) -> JSON:
        mine = self._running.get(key)
        if mine is not None:
            return mine.to_json()
        told = self._told(await self._stored(key))
        if told is not None and told["state"] != "failed":
            return told  # stored, or computed by another process right now
        # Only a review that would be computed counts: the cap first (no await between the
        # count and the place it takes), then the rate, so a refused flood uses up no rate.
        if self._queued[account_id] >= self.per_account:
            raise ServiceError("too_many_reviews", TOO_MANY)
        self._queued[account_id] += 1
        try:
            if admit is not None and not await admit():
                raise ServiceError("rate_limited", RATE_LIMITED)
            ours = await self._claim(key)
        except BaseException:
            self._release(account_id)
            raise
        if not ours:  # another process was quicker
            self._release(account_id)
            return self._told(await self._stored(key)) or NOT_STARTED
        progress = _Progress()
        self._running[key] = progress
        progress.task = asyncio.create_task(self._run(account_id, key, game, label, progress))
        return progress.to_json()

    async def _claim(self, key: Key) -> bool:
        """Claim the review for this process; ``False`` if another process was quicker."""
        now = self.clock()
        async with self.sessionmaker.begin() as db:
            return await ReviewRepository(db).claim(
                *key, version=VERSION, owner=self.owner, at=now, stale_before=now - CLAIM_TIMEOUT
            )

    def _release(self, account_id: str) -> None:
        self._queued[account_id] -= 1
        if self._queued[account_id] <= 0:
            del self._queued[account_id]

    async def _run(
        self, account_id: str, key: Key, game: _Game, label: JSON, progress: _Progress
    ) -> None:
        try:
            await self._compute_and_store(key, game, label, progress)
        finally:
            # Until it is stored it is "running" here; from now on the store tells. (Also when
            # the task is cancelled in the queue: its place in the account's cap is given back.)
            self._running.pop(key, None)
            self._release(account_id)
            progress.task = None

    async def _compute_and_store(
        self, key: Key, game: _Game, label: JSON, progress: _Progress
    ) -> None:
        result: JSON | None = None
        failure: str | None = None
        try:
            async with self._gate:
                result = await asyncio.to_thread(_reviewed, game, label, key[2], progress)
        except ServiceError as refusal:
            failure = refusal.message[:FAILURE_CHARS]
        except Exception:  # a fault of the review must not leave it "running" for ever
            LOG.exception("review of %s, seat %s failed", label, key[2])
            failure = "the review could not be computed"
        try:
            async with self.sessionmaker.begin() as db:
                await ReviewRepository(db).finish(
                    *key, owner=self.owner, at=self.clock(), review=result, failure=failure
                )
        except Exception:  # the claim goes stale and the review is computed again when asked
            LOG.exception("review of %s, seat %s could not be stored", label, key[2])
