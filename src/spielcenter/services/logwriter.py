"""Group commit of log entries: one transaction for every entry waiting at that moment.

A player's entry is acknowledged only after its commit, and a commit costs the same for one
entry as for fifty; so while one batch is being written the next one gathers. With many players
this multiplies the entries a single SQLite writer can take per second.

The decisions of Speedquilt tables (``services/tables.py``) go into the same batches as the
patience entries: SQLite has one write lock, and two writers taking turns at it — the tables'
transactions through SQLAlchemy, each holding the lock across several trips to the driver's
thread, and this writer's thread — starved each other at 100 tables and 500 players
(docs/performance.md, "One writer for tables and patience"). A table's last decision, which
records the result and pays the pot with it, keeps its own transaction.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque
from collections.abc import AsyncIterator
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from spielcenter.store.postgres_log import PostgresLogAppender
from spielcenter.store.repositories import (
    NewEntry,
    NewTableEntry,
    append_entries,
    append_table_entries,
)
from spielcenter.store.sqlite_log import SqliteLogAppender

from .common import StageTimer, no_timing

Pending = tuple[NewEntry | NewTableEntry, dict[str, Any], "asyncio.Future[None]"]
"""A patience entry with its game's new summary, or a table's decision (no summary)."""


class LogWriter:
    """Writes log entries in batches; :meth:`write` returns once its entry is committed."""

    def __init__(self, sessionmaker: async_sessionmaker[AsyncSession]) -> None:
        # A bare connection: the batch is two Core statements, and a session's bookkeeping
        # cost more than they do (docs/performance.md, "CPU per entry").
        engine: AsyncEngine = sessionmaker.kw["bind"]
        self.engine = engine
        # A SQLite file: each batch in one trip to a thread of its own (store/sqlite_log.py).
        path = engine.url.database if engine.dialect.name == "sqlite" else None
        self.sqlite = (
            SqliteLogAppender(path, engine.dialect) if path and path != ":memory:" else None
        )
        # PostgreSQL: each batch in one statement on a connection of its own
        # (store/postgres_log.py).
        postgres = engine.dialect.name == "postgresql" and engine.dialect.driver == "asyncpg"
        self.postgres = PostgresLogAppender(engine) if postgres else None
        self._pending: list[Pending] = []
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.timing: StageTimer = no_timing
        # The SQLite file's writer has no task: a batch starts in the loop's next round after an
        # entry came while none was in the log thread (every entry queued until then joins it,
        # as they joined a task woken by the first), or when the thread's callback says the one
        # in it is over.
        self._busy = False
        """A batch is in the log thread, or one is about to start."""
        self._in_thread: list[Pending] = []
        self._began = 0.0
        self._one_by_one: deque[list[Pending]] = deque()
        """Batches of one entry each, before anything newer: a batch refused for a taken seq."""
        # SQLite's one writer's turn in this process: the log thread's batches and the tables'
        # own transactions (services/tables.py, :meth:`turn`) take it in turns, instead of
        # meeting in SQLite's busy handler.
        self._table_turn = False
        """A table's own transaction holds the file: no batch starts until it is over."""
        self._turn_waiters: deque[asyncio.Future[None]] = deque()
        self._held_since: float | None = None
        """When entries began to wait for a table's transaction to end."""

    @property
    def takes_turns(self) -> bool:
        """Whether a table's own transaction takes :meth:`turn` (a SQLite file: one writer)."""
        return self.sqlite is not None

    @contextlib.asynccontextmanager
    async def turn(self) -> AsyncIterator[None]:
        """A table's own transaction's turn at SQLite's one write lock: after the batch in the
        log thread (if any), and before the batch that gathers meanwhile. Anywhere but a SQLite
        file, at once (PostgreSQL's writers do not wait for each other this way)."""
        if self.sqlite is None:
            yield
            return
        if self._busy or self._table_turn:
            waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self._turn_waiters.append(waiter)
            try:
                await waiter
            except asyncio.CancelledError:
                if waiter.done() and not waiter.cancelled():  # given the turn, then cancelled
                    self._end_turn()
                raise
        else:
            self._table_turn = True
        try:
            yield
        finally:
            self._end_turn()

    def _end_turn(self) -> None:
        """A table's transaction is over: the entries that gathered meanwhile go first, then
        the next table's transaction."""
        self._table_turn = False
        if self._pending or self._one_by_one:
            self._busy = True
            self._write_next()
        else:
            self._give_turn()

    def _give_turn(self) -> bool:
        """Give the turn to the first table's transaction still waiting, if any."""
        while self._turn_waiters:
            waiter = self._turn_waiters.popleft()
            if not waiter.done():
                self._table_turn = True
                waiter.set_result(None)
                return True
        return False

    async def write(self, entry: NewEntry, summary: dict[str, Any]) -> None:
        """Commit ``entry`` and its game's new ``summary``; raises if the commit failed."""
        await self._queue(entry, summary)

    async def write_table(self, entry: NewTableEntry) -> None:
        """Commit a table's decision with the seat clocks it changed; raises if it failed."""
        await self._queue(entry, {})

    async def _queue(self, entry: NewEntry | NewTableEntry, summary: dict[str, Any]) -> None:
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append((entry, summary, done))
        if self.sqlite is not None:
            if self._table_turn:
                if self._held_since is None:
                    self._held_since = time.perf_counter()
            elif not self._busy:
                self._busy = True
                asyncio.get_running_loop().call_soon(self._write_next)
        else:
            if self._task is None or self._task.done():
                self._task = asyncio.create_task(self._run(), name="spielcenter-log-writer")
            self._wake.set()
        await done

    def _write_next(self) -> None:
        """Hand the next batch to the SQLite log thread (none is in it), if one is waiting."""
        assert self.sqlite is not None
        while True:
            if self._one_by_one:
                batch = self._one_by_one.popleft()
            else:
                batch, self._pending = self._pending, []
            if not batch:
                self._busy = False
                self._give_turn()
                return
            self._in_thread, self._began = batch, time.perf_counter()
            held, self._held_since = self._held_since, None
            self.timing("db_turn_wait", (self._began - held) * 1000 if held is not None else 0.0)
            entries, tables = _parts(batch)
            try:
                self.sqlite.start_append(entries, tables, self._written)
                return
            except Exception as exc:  # its statements could not be made: nothing was written
                _fail(batch, exc)

    def _written(self, error: BaseException | None) -> None:
        """The log thread's callback: the batch in it is committed (``error`` ``None``) or not."""
        batch, self._in_thread = self._in_thread, []
        if error is None:
            self._committed(batch, self._began)
        elif isinstance(error, IntegrityError) and len(batch) > 1:
            # As _commit does: only the entry whose seq was taken is refused.
            self._one_by_one.extend([pending] for pending in batch)
        else:
            _fail(batch, error)
        # A table's transaction that waited goes before the batch that gathered meanwhile.
        if self._give_turn():
            self._busy = False
            if self._pending and self._held_since is None:
                self._held_since = time.perf_counter()
        else:
            self._write_next()

    async def _run(self) -> None:
        """The writer's task, through the engine (any database but a SQLite file)."""
        while True:
            await self._wake.wait()
            self._wake.clear()
            batch, self._pending = self._pending, []
            if batch:
                await self._commit(batch)

    async def _commit(self, batch: list[Pending]) -> None:
        began = time.perf_counter()
        try:
            entries, tables = _parts(batch)
            if self.postgres is not None:
                await self.postgres.append(entries, tables)
            else:
                async with self.engine.begin() as connection:
                    if entries:
                        await append_entries(connection, entries)
                    if tables:
                        await append_table_entries(connection, tables)
        except IntegrityError as exc:
            # An entry whose seq another server process wrote first (services/games.py, "one
            # writer"): only that one is refused, so write the batch one entry at a time.
            if len(batch) > 1:
                for pending in batch:
                    await self._commit([pending])
                return
            _fail(batch, exc)
            return
        except Exception as exc:  # every entry of the batch failed alike (disk, database gone)
            _fail(batch, exc)
            return
        self._committed(batch, began)

    def _committed(self, batch: list[Pending], began: float) -> None:
        """Tell the waiters of a committed batch."""
        self.timing("db_commit", (time.perf_counter() - began) * 1000)
        self.timing("batch_entries", len(batch))
        if self.sqlite is not None:
            while self.sqlite.checkpoints_ms:
                self.timing("wal_checkpoint", self.sqlite.checkpoints_ms.pop(0))
        # The waiters resume in the order they are woken, each patience entry's to build and
        # send its event (about half a millisecond): the tables' decisions are woken first. A
        # table's decision holds up its whole table (its actor takes the next command, a
        # person's move queued behind a computer's turn, only once it is told), a patience entry
        # only its own player, who loses the telling of the few table decisions of its batch
        # (docs/performance.md, "A table's decision told first").
        for entry, _, done in batch:
            if isinstance(entry, NewTableEntry) and not done.done():
                done.set_result(None)
        for _, _, done in batch:
            if not done.done():
                done.set_result(None)

    async def close(self) -> None:
        """Stop the writer (at shutdown, after the last entry was acknowledged)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self.sqlite is not None:
            self.sqlite.close()
        if self.postgres is not None:
            await self.postgres.close()


def _parts(
    batch: list[Pending],
) -> tuple[list[tuple[NewEntry, dict[str, Any]]], list[NewTableEntry]]:
    """A batch's patience entries with their summaries, and its tables' decisions."""
    entries = [(e, summary) for e, summary, _ in batch if isinstance(e, NewEntry)]
    tables = [e for e, _, _ in batch if isinstance(e, NewTableEntry)]
    return entries, tables


def _fail(batch: list[Pending], exc: BaseException) -> None:
    for _, _, done in batch:
        if not done.done():
            done.set_exception(exc)
