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
        self.turn: asyncio.Lock | None = asyncio.Lock() if self.sqlite is not None else None
        """SQLite's one writer's turn in this process: a batch and a table's own transaction
        (services/tables.py) take it in order, instead of meeting in SQLite's busy handler."""
        self._pending: list[Pending] = []
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.timing: StageTimer = no_timing

    async def write(self, entry: NewEntry, summary: dict[str, Any]) -> None:
        """Commit ``entry`` and its game's new ``summary``; raises if the commit failed."""
        await self._queue(entry, summary)

    async def write_table(self, entry: NewTableEntry) -> None:
        """Commit a table's decision with the seat clocks it changed; raises if it failed."""
        await self._queue(entry, {})

    async def _queue(self, entry: NewEntry | NewTableEntry, summary: dict[str, Any]) -> None:
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append((entry, summary, done))
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run(), name="spielcenter-log-writer")
        self._wake.set()
        await done

    async def _run(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            batch, self._pending = self._pending, []
            if batch:
                await self._commit(batch)

    async def _commit(self, batch: list[Pending]) -> None:
        began = time.perf_counter()
        try:
            entries = [(e, summary) for e, summary, _ in batch if isinstance(e, NewEntry)]
            tables = [e for e, _, _ in batch if isinstance(e, NewTableEntry)]
            if self.sqlite is not None:
                assert self.turn is not None
                async with self.turn:
                    self.timing("db_turn_wait", (time.perf_counter() - began) * 1000)
                    await self.sqlite.append(entries, tables)
            elif self.postgres is not None:
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


def _fail(batch: list[Pending], exc: Exception) -> None:
    for _, _, done in batch:
        if not done.done():
            done.set_exception(exc)
