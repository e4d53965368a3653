"""Who drives a table when several processes share a database (server/cluster.py).

Two apps on one database, each with Redis configured, stand for two processes (each its own
event loop); their registries are called directly where a test needs a moment no request makes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient

from spielcenter.server.cluster import ClusteredRegistry
from spielcenter.server.registry import TableRegistry

from ..backends import RedisServer
from ..server.conftest import csrf

TABLE = {"players": 2, "bots": ["easy"], "tempo": "slow"}


def _registry(client: TestClient) -> Any:
    return client.app.state.tables  # type: ignore[attr-defined]


def test_without_redis_each_process_drives_its_tables_alone(client: TestClient) -> None:
    registry = _registry(client)
    assert type(registry) is TableRegistry


def test_a_new_table_is_driven_by_the_process_that_created_it(
    make_client: Callable[..., TestClient], make_app: Callable[..., FastAPI], redis: RedisServer
) -> None:
    first = make_client(make_app(REDIS_URL=redis.url))
    second = make_client(make_app(REDIS_URL=redis.url))
    created = first.post("/api/tables", json=TABLE, headers=csrf(first)).json()
    creator, other = _registry(first), _registry(second)
    assert isinstance(creator, ClusteredRegistry) and isinstance(other, ClusteredRegistry)
    second.portal.call(other.sweep)
    second.portal.call(other.sweep)
    owner = first.portal.call(creator.leases.owner_of, created["id"])
    assert owner == creator.me
    assert creator.actors[created["id"]].running
    assert created["id"] not in other.actors


def test_a_table_without_an_owner_is_taken_over_once_it_stayed_so_for_a_whole_sweep(
    make_client: Callable[..., TestClient], make_app: Callable[..., FastAPI], redis: RedisServer
) -> None:
    first = make_client(make_app(REDIS_URL=redis.url))
    second = make_client(make_app(REDIS_URL=redis.url))
    account = first.get("/api/me").json()["id"]
    writer, sweeper = _registry(first), _registry(second)
    # Committed, but its lease not yet taken: the moment between a table's start and its lease.
    stored = first.portal.call(lambda: writer.service.create(account, **TABLE))
    table_id = stored.record.id
    second.portal.call(sweeper.sweep)
    assert table_id not in sweeper.actors
    second.portal.call(sweeper.sweep)
    assert sweeper.actors[table_id].running
    assert second.portal.call(sweeper.leases.owner_of, table_id) == sweeper.me
