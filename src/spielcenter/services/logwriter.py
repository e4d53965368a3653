"""Group commit of game log entries: one transaction for every entry waiting at that moment.

A player's entry is acknowledged only after its commit, and a commit costs the same for one
entry as for fifty; so while one batch is being written the next one gathers. With many players
this multiplies the entries a single SQLite writer can take per second.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from spielcenter.store.models import GameEntry
from spielcenter.store.repositories import GameRepository

Pending = tuple[GameEntry, dict[str, Any], "asyncio.Future[None]"]


class LogWriter:
    """Writes log entries in batches; :meth:`write` returns once its entry is committed."""

    def __init__(self, sessionmaker: async_sessionmaker[AsyncSession]) -> None:
        self.sessionmaker = sessionmaker
        self._pending: list[Pending] = []
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    async def write(self, entry: GameEntry, summary: dict[str, Any]) -> None:
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
        try:
            async with self.sessionmaker.begin() as db:
                await GameRepository(db).append([(entry, summary) for entry, summary, _ in batch])
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
        for _, _, done in batch:
            if not done.done():
                done.set_result(None)

    async def close(self) -> None:
        """Stop the writer (at shutdown, after the last entry was acknowledged)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task


def _fail(batch: list[Pending], exc: Exception) -> None:
    for _, _, done in batch:
        if not done.done():
            done.set_exception(exc)
