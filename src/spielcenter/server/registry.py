"""The live tables of one server process: their actors created, loaded (replayed from the
store), found and let go (docs/tables.md).

With several processes ``cluster.py`` extends the registry with leases and routing.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Mapping
from typing import Any

from spielcenter.games.base import JSON
from spielcenter.games.speedquilt.rules import Speedquilt
from spielcenter.services.common import ServiceError
from spielcenter.services.table_play import TableServices
from spielcenter.services.tables import StoredTable

from .hub import Hub, Watcher
from .logging import log
from .tables import STARTED, TEMPO_SECONDS, Command, TableActor, speedquilt_engine, table_command
from .websocket import TableMessage

__all__ = ["IDLE_SECONDS", "TableRegistry"]

IDLE_SECONDS = 60.0
"""How long a table in play may wait for a person, with no clock running and no socket of this
process watching, before its actor is let go (opening it again replays it)."""


class TableRegistry:
    """The live actors of this server process: created, loaded (replayed) and stopped here."""

    def __init__(
        self,
        services: TableServices,
        hub: Hub,
        delays: Mapping[str, float] | None = None,
        engine_for: Callable[[str, dict[str, Any]], Speedquilt] = speedquilt_engine,
    ) -> None:
        self.services = services
        self.service = services.tables
        self.lobby, self.chat, self.ledger = services.lobby, services.chat, services.ledger
        self.hub = hub
        self.clock = services.tables.clock
        self.delays = dict(TEMPO_SECONDS if delays is None else delays)
        self.engine_for = engine_for
        self.actors: dict[str, TableActor] = {}
        self.idle_seconds = IDLE_SECONDS
        self._loading = asyncio.Lock()

    async def start(self) -> None:
        """Replay every open table and restart its actor (its computers go on playing)."""
        for table_id in await self.service.open_ids():
            await self.get(table_id)
        log.info("tables_restarted", tables=len(self.actors))

    async def close(self) -> None:
        """Stop every actor (shutdown)."""
        for actor in list(self.actors.values()):
            await actor.stop()

    async def create(self, account_id: str, **fields: Any) -> TableActor:
        """A new table with its actor running (its computers start choosing at once)."""
        stored = await self.service.create(account_id, **fields)
        return self._activate(stored)

    def forget_finished(self) -> None:
        """Drop the actors of finished tables that no socket of this process watches.

        A finished actor holds its whole game (entries, views) and nothing else ever drops it,
        so a long-running process would grow with every table it ever ran; opening such a table
        again replays it from the database.
        """
        for table_id, actor in list(self.actors.items()):
            idle = actor.task is None or actor.task.done()
            if not actor.playing and idle and actor.key not in self.hub.watchers:
                del self.actors[table_id]

    def forget_idle(self) -> None:
        """Drop the actors of tables in play that have waited ``idle_seconds`` for a person no
        socket of this process watches, with no clock running (a table without a lobby whose
        person closed her browser waits for her for ever).

        Such an actor holds its game and its computers' caches and would never end by itself;
        her ``table.open`` replays it from the database and its computers go on. (With several
        processes the leases keep every open table driven: ``server/cluster.py`` does not call
        this.)
        """
        now = time.monotonic()
        for table_id, actor in list(self.actors.items()):
            since = actor.parked_since
            if since is None or now - since < self.idle_seconds or not actor.queue.empty():
                continue
            if actor.key not in self.hub.watchers:
                actor.retire()
                del self.actors[table_id]

    async def get(self, table_id: str) -> TableActor:
        """The live actor of ``table_id``, replaying its log if needed; ``not_found`` if none."""
        async with self._loading:
            self.forget_finished()
            self.forget_idle()
            actor = self.actors.get(table_id)
            if actor is not None:
                return actor
            stored = await self.service.load(table_id)
            if stored is None:
                raise ServiceError("not_found", f"no table {table_id!r}")
            if stored.record.status not in (STARTED, "finished"):
                raise ServiceError("not_started", f"the table is {stored.record.status}")
            return self._activate(stored)

    async def summary(self, table_id: str, viewer: str | None = None) -> JSON:
        """The summary of any table as ``viewer`` (an account) may see it: a live one from its
        actor, a lobby one from the store."""
        actor = self.actors.get(table_id)
        if actor is not None:
            return actor.stored.summary(viewer)
        stored = await self.service.load(table_id)
        if stored is None:
            raise ServiceError("not_found", f"no table {table_id!r}")
        if stored.record.status in (STARTED, "finished"):
            return (await self.get(table_id)).stored.summary(viewer)
        return stored.summary(viewer)

    def _actor(self, stored: StoredTable, chat: bool = True) -> TableActor:
        """A new actor of ``stored`` (not started; ``chat``: it takes chat lines)."""
        engine = self.engine_for(stored.record.variant, dict(stored.record.options))
        return TableActor(self.services.live(stored, engine, chat), self.hub, self.delays)

    def _activate(self, stored: StoredTable) -> TableActor:
        actor = self._actor(stored)
        self.actors[stored.record.id] = actor
        actor.start()
        return actor

    async def dispatch(self, table_id: str, command: Command) -> None:
        """Have the table's actor handle a socket's command (another process's, when that one
        owns the table: ``server/cluster.py``)."""
        actor = await self.get(table_id)
        await actor.submit(command)

    async def handle(self, message: TableMessage, connection: Watcher, ref: Any) -> None:
        """Answer one validated ``table.*`` message; refusals are raised (the socket turns them
        into errors)."""
        await self.dispatch(message.table_id, table_command(message, connection, ref))

    async def closed(self, connection: Watcher) -> None:
        """A socket of this process closed (the hub already forgot it)."""
        self.forget_finished()
        self.forget_idle()

    async def follow_game(self, game_id: str) -> None:
        """A socket of this process opens a patience game (other processes may write it)."""

    async def summaries(self, account_id: str, state: str | None) -> list[JSON]:
        """Summaries of the tables ``account_id`` sits at, newest first."""
        return [
            await self.summary(i, account_id)
            for i in await self.service.of_account(account_id, state)
        ]
