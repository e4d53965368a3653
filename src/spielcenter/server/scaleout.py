"""Several server processes on one database: table ownership and fan-out through Redis.

The building blocks of ``docs/deploy.md`` ("Several processes"), tested against a real
redis-server; ``server/cluster.py`` wires them into the table registry.

- :class:`Leases`: a table is owned by one process at a time. The lease is a Redis key
  ``<prefix>lease:<table>`` holding the owner's id with an expiry; only the owner renews or
  releases it (compare-and-set in a Lua script, so a process whose lease already ran out cannot
  touch its successor's). A process that dies stops renewing; when the lease runs out another
  process acquires it (:meth:`Leases.acquire`, called by ``ClusteredRegistry.get`` on demand and
  by its periodic sweep of ownerless tables) and replays the table from the database — clock
  deadlines are stored there as absolute times.
- :class:`Bus`: publish/subscribe. Every process listens on its own channel
  ``<prefix>process:<id>``: commands for the tables it owns arrive there, and the messages the
  owners send to its sockets. A table's channel ``<prefix>table:<id>``, which every process
  holding a socket for that table subscribes to, announces a new owner. A patience game's
  channel ``<prefix>game:<id>`` carries its events to the processes holding a socket for it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from redis.asyncio import Redis
from redis.asyncio.client import PubSub
from redis.exceptions import RedisError

from .logging import log

READ_RETRY_S = 0.5
"""How long the bus reader waits before trying again when Redis is away."""
LEASE_MS = 10_000
"""How long a lease lasts unless renewed; owners renew at a third of it."""

# Only the owner may extend or drop its lease: compare the value, then act, atomically.
_RENEW = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('pexpire', KEYS[1], ARGV[2])
end
return 0
"""
_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('del', KEYS[1])
end
return 0
"""

Deliver = Callable[[str, dict[str, Any]], Awaitable[None]]
"""Receives ``(channel name without prefix, message)``."""


def process_id() -> str:
    """A new, unique id for this server process."""
    return secrets.token_hex(8)


class Leases:
    """The leases of one process (``owner``) on tables."""

    def __init__(
        self, redis: Redis, owner: str, lease_ms: int = LEASE_MS, prefix: str = "spielcenter:"
    ) -> None:
        self.redis = redis
        self.owner = owner
        self.lease_ms = lease_ms
        self.prefix = prefix
        self._renew = redis.register_script(_RENEW)
        self._release = redis.register_script(_RELEASE)

    def _key(self, table_id: str) -> str:
        return f"{self.prefix}lease:{table_id}"

    async def acquire(self, table_id: str) -> bool:
        """Take the table if nobody owns it; True if this process owns it now."""
        key = self._key(table_id)
        if await self.redis.set(key, self.owner, nx=True, px=self.lease_ms):
            return True
        return await self.owner_of(table_id) == self.owner

    async def renew(self, table_id: str) -> bool:
        """Extend the lease; False if it is no longer this process's (it ran out, and perhaps
        another process took the table): then this process must stop driving the table."""
        return bool(await self._renew(keys=[self._key(table_id)], args=[self.owner, self.lease_ms]))

    async def release(self, table_id: str) -> bool:
        """Give the table up (a finished table, a shutdown); False if it was not ours."""
        return bool(await self._release(keys=[self._key(table_id)], args=[self.owner]))

    async def owner_of(self, table_id: str) -> str | None:
        """The process that owns the table, or None."""
        value = await self.redis.get(self._key(table_id))
        return value.decode() if isinstance(value, bytes) else value

    async def renew_all(self, table_ids: Iterable[str]) -> set[str]:
        """Renew every lease this process holds (one round trip); the tables it has lost."""
        ids = list(table_ids)
        if not ids:
            return set()
        async with self.redis.pipeline(transaction=False) as pipe:
            for table_id in ids:
                await self._renew(
                    keys=[self._key(table_id)], args=[self.owner, self.lease_ms], client=pipe
                )
            renewed = await pipe.execute()
        return {t for t, ok in zip(ids, renewed, strict=True) if not ok}

    async def owners_of(self, table_ids: list[str]) -> list[str | None]:
        """The owners of several tables (one round trip), ``None`` where nobody owns one."""
        if not table_ids:
            return []
        values = await self.redis.mget([self._key(t) for t in table_ids])
        return [v.decode() if isinstance(v, bytes) else v for v in values]


class Bus:
    """Publish/subscribe for events of tables and commands to processes."""

    def __init__(self, redis: Redis, prefix: str = "spielcenter:") -> None:
        self.redis = redis
        self.prefix = prefix
        self.pubsub: PubSub = redis.pubsub(ignore_subscribe_messages=True)
        self._reader: asyncio.Task[None] | None = None
        self.gaps = 0
        """How often reading failed (Redis away): messages may have gone by unheard."""

    @staticmethod
    def table_channel(table_id: str) -> str:
        """The channel of a table's events."""
        return f"table:{table_id}"

    @staticmethod
    def game_channel(game_id: str) -> str:
        """The channel of a patience game's events (to the other processes' sockets)."""
        return f"game:{game_id}"

    @staticmethod
    def process_channel(owner: str) -> str:
        """The channel of the commands for one process."""
        return f"process:{owner}"

    async def publish(self, channel: str, message: dict[str, Any]) -> int:
        """Send a message to every process subscribed to ``channel``; how many got it."""
        return int(await self.redis.publish(self.prefix + channel, json.dumps(message)))

    async def publish_counted(self, channel: str, message: dict[str, Any]) -> int:
        """Publish as :meth:`publish` does; how many connections were subscribed to the channel
        itself at that moment (one transaction: a pattern's subscriber, a monitoring tool's
        ``PSUBSCRIBE``, is not counted, as :meth:`publish`'s answer would)."""
        name = self.prefix + channel
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.pubsub_numsub(name)
            pipe.publish(name, json.dumps(message))
            [(_, count)], _ = await pipe.execute()
        return int(count)

    async def listeners(self, channel: str) -> int:
        """How many processes are subscribed to ``channel`` now (0: its process is gone)."""
        [(_, count)] = await self.redis.pubsub_numsub(self.prefix + channel)
        return int(count)

    async def listeners_of(self, channels: list[str]) -> list[int]:
        """How many processes are subscribed to each of ``channels`` now (one round trip)."""
        if not channels:
            return []
        counts = await self.redis.pubsub_numsub(*(self.prefix + c for c in channels))
        return [int(count) for _, count in counts]

    async def subscribe(self, *channels: str) -> None:
        """Receive the messages of these channels from now on."""
        await self.pubsub.subscribe(*(self.prefix + c for c in channels))

    async def unsubscribe(self, *channels: str) -> None:
        """Stop receiving these channels (the last socket of a table closed)."""
        await self.pubsub.unsubscribe(*(self.prefix + c for c in channels))

    def start(self, deliver: Deliver) -> None:
        """Hand every message received to ``deliver``, in order, until :meth:`close`."""
        self._reader = asyncio.create_task(self._read(deliver))

    async def _read(self, deliver: Deliver) -> None:
        while True:
            if not self.pubsub.subscribed:
                await asyncio.sleep(0.05)
                continue
            try:
                message = await self.pubsub.get_message(timeout=1.0)
            except (RedisError, OSError):  # redis-py gave up reconnecting: try again later
                self.gaps += 1
                log.warning("bus_read_failed", gaps=self.gaps)
                await asyncio.sleep(READ_RETRY_S)
                continue
            if message is None or message.get("type") != "message":
                continue
            channel = message["channel"]
            name = channel.decode() if isinstance(channel, bytes) else str(channel)
            try:
                await deliver(name.removeprefix(self.prefix), json.loads(message["data"]))
            except Exception:  # one bad message must not stop the reader of all the others
                log.exception("bus_message_failed", channel=name)

    async def close(self) -> None:
        """Stop reading and leave every channel."""
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader
        await self.pubsub.aclose()  # type: ignore[no-untyped-call]  # redis-py leaves it untyped
