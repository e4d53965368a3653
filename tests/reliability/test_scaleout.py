"""Several processes (architecture.md, "Running"): a table is owned by one process at a time
through a lease in Redis; commands reach the owner through Redis; events fan out to every
process that holds a socket for the table; a process that dies has its tables taken over.

Each "process" here is its own Redis connection with its own id, against the test process's
private redis-server (tests/backends.py); each test uses keys and channels of its own.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator
from typing import Any

import pytest
from redis.asyncio import Redis

from spielcenter.server.scaleout import Bus, Leases, process_id

from ..backends import RedisServer

SHORT_LEASE_MS = 300


@pytest.fixture
def prefix() -> str:
    """Keys and channels of this test only."""
    return f"test-{secrets.token_hex(4)}:"


@pytest.fixture
async def connections(redis: RedisServer) -> AsyncIterator[list[Redis]]:
    """Three processes' connections to Redis."""
    opened = [Redis.from_url(redis.url) for _ in range(3)]
    yield opened
    for connection in opened:
        await connection.aclose()


def _leases(connection: Redis, prefix: str, lease_ms: int = 10_000) -> Leases:
    return Leases(connection, process_id(), lease_ms=lease_ms, prefix=prefix)


async def test_a_table_is_owned_by_one_process_at_a_time(
    connections: list[Redis], prefix: str
) -> None:
    first, second = (_leases(c, prefix) for c in connections[:2])
    results = await asyncio.gather(*(p.acquire("T1") for p in (first, second, first, second)))
    owner = await first.owner_of("T1")
    assert sorted(results) == [False, False, True, True]
    assert owner in {first.owner, second.owner}
    winner = first if owner == first.owner else second
    assert results[0 if winner is first else 1] is True


async def test_only_the_owner_renews_or_releases_a_lease(
    connections: list[Redis], prefix: str
) -> None:
    owner, other = (_leases(c, prefix) for c in connections[:2])
    assert await owner.acquire("T2")
    assert not await other.renew("T2") and not await other.release("T2")
    assert await owner.owner_of("T2") == owner.owner
    assert await owner.renew("T2") and await owner.release("T2")
    assert await owner.owner_of("T2") is None


async def _acquired(leases: Leases, table_ids: list[str]) -> list[str]:
    """The tables ``leases`` takes, as a process taking over ownerless tables does."""
    return [table_id for table_id in table_ids if await leases.acquire(table_id)]


async def test_a_dead_process_s_tables_are_taken_over_when_its_lease_runs_out(
    connections: list[Redis], prefix: str
) -> None:
    dead, alive = (_leases(c, prefix, SHORT_LEASE_MS) for c in connections[:2])
    assert await dead.acquire("T3") and await dead.acquire("T4")
    assert await _acquired(alive, ["T3", "T4"]) == []
    # The dead process renews nothing any more.
    await asyncio.sleep(SHORT_LEASE_MS * 2 / 1000)
    assert await _acquired(alive, ["T3", "T4"]) == ["T3", "T4"]
    assert await dead.renew_all(["T3", "T4"]) == {"T3", "T4"}
    assert await alive.owner_of("T3") == alive.owner


async def test_a_renewed_lease_does_not_run_out(connections: list[Redis], prefix: str) -> None:
    owner, other = (_leases(c, prefix, SHORT_LEASE_MS) for c in connections[:2])
    assert await owner.acquire("T5")
    for _ in range(4):
        await asyncio.sleep(SHORT_LEASE_MS / 3 / 1000)
        assert await owner.renew_all(["T5"]) == set()
    assert await _acquired(other, ["T5"]) == []


async def _collector(bus: Bus) -> list[tuple[str, dict[str, Any]]]:
    received: list[tuple[str, dict[str, Any]]] = []

    async def deliver(channel: str, message: dict[str, Any]) -> None:
        received.append((channel, message))

    bus.start(deliver)
    return received


async def _until(condition: Any, seconds: float = 5.0) -> None:
    for _ in range(int(seconds / 0.02)):
        if condition():
            return
        await asyncio.sleep(0.02)


async def test_events_fan_out_to_every_process_that_watches_the_table(
    connections: list[Redis], prefix: str
) -> None:
    owner_bus, watcher_a, watcher_b = (Bus(c, prefix) for c in connections)
    a, b = await _collector(watcher_a), await _collector(watcher_b)
    channel = Bus.table_channel("T6")
    await watcher_a.subscribe(channel)
    try:
        events = [{"type": "table.event", "table_id": "T6", "seq": s} for s in (1, 2, 3)]
        for event in events:
            assert await owner_bus.publish(channel, event) == 1
        await _until(lambda: len(a) == 3)
        await asyncio.sleep(0.1)
    finally:
        for bus in (owner_bus, watcher_a, watcher_b):
            await bus.close()
    assert a == [(channel, e) for e in events]
    assert b == []


async def test_a_command_reaches_the_owner_of_the_table(
    connections: list[Redis], prefix: str
) -> None:
    owner_leases, sender_leases = (_leases(c, prefix) for c in connections[:2])
    owner_bus, sender_bus = Bus(connections[0], prefix), Bus(connections[1], prefix)
    inbox = await _collector(owner_bus)
    await owner_bus.subscribe(Bus.process_channel(owner_leases.owner))
    assert await owner_leases.acquire("T7")
    try:
        target = await sender_leases.owner_of("T7")
        assert target is not None
        command = {"type": "table.move", "table_id": "T7", "move": "roll", "account": "a1"}
        delivered = await sender_bus.publish(Bus.process_channel(target), command)
        await _until(lambda: len(inbox) == 1)
    finally:
        await owner_bus.close()
        await sender_bus.close()
    assert delivered == 1
    assert inbox == [(Bus.process_channel(owner_leases.owner), command)]
