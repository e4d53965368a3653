"""Group commit of game log entries: one transaction for every entry waiting at that moment.

A player's entry is acknowledged only after its commit, and a commit costs the same for one
entry as for fifty; so while one batch is being written the next one gathers. With many players
this multiplies the entries a single SQLite writer can take per second.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from spielcenter.store.repositories import NewEntry, append_entries
from spielcenter.store.sqlite_log import SqliteLogAppender

from .common import StageTimer, no_timing

Pending = tuple[NewEntry, dict[str, Any], "asyncio.Future[None]"]


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
        self._pending: list[Pending] = []
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.timing: StageTimer = no_timing

    async def write(self, entry: NewEntry, summary: dict[str, Any]) -> None:
        """Commit ``entry`` and its game's new ``summary``; raises if the commit failed."""
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
            entries = [(entry, summary) for entry, summary, _ in batch]
            if self.sqlite is not None:
                await self.sqlite.append(entries)
            else:
                async with self.engine.begin() as connection:
                    await append_entries(connection, entries)
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


def _fail(batch: list[Pending], exc: Exception) -> None:
    for _, _, done in batch:
        if not done.done():
            done.set_exception(exc)
