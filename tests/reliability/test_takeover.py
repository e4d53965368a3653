"""Who drives a table when several processes share a database (server/cluster.py).

Two apps on one database, each with Redis configured, stand for two processes (each its own
event loop); their registries are called directly where a test needs a moment no request makes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
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


def _dies_before_saying_done(registry: ClusteredRegistry, monkeypatch: pytest.MonkeyPatch) -> None:
    """The owner is killed (SIGKILL) right after its actor answered a routed move: the answer
    reached the socket's process, the "done" never goes out, and nothing of it runs any more."""
    serve, publish = registry._serve, registry.bus.publish
    moves: set[str] = set()

    async def serve_noting_moves(request: dict[str, Any]) -> None:
        if request["message"]["type"] == "table.move":
            moves.add(request["cid"])
        await serve(request)

    async def publish_or_die(channel: str, message: dict[str, Any]) -> int:
        if message.get("op") != "done" or message["cid"] not in moves:
            return await publish(channel, message)
        for task in (registry.sweeper, registry.renewer):
            if task is not None:
                task.cancel()  # its leases run out
        for actor in list(registry.actors.values()):
            await actor.stop()
        await registry.bus.close()  # nobody listens on its channel any more
        return 0

    monkeypatch.setattr(registry, "_serve", serve_noting_moves)
    monkeypatch.setattr(registry.bus, "publish", publish_or_die)


def _reply(ws: Any, ref: int) -> dict[str, Any]:
    """The next message answering ``ref``; any answer to another command is wrong here."""
    while True:
        message: dict[str, Any] = ws.receive_json()
        if message.get("ref") is not None:
            assert message["ref"] == ref, message
            return message


def test_her_socket_goes_on_at_once_when_the_owner_dies_after_answering_her_move(
    make_client: Callable[..., TestClient],
    make_app: Callable[..., FastAPI],
    redis: RedisServer,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A socket takes one message at a time: waiting for a dead owner's "done" (ROUTE_TIMEOUT_S)
    # held her next moves back until her clock and its grace had run out.
    owning = make_client(make_app(REDIS_URL=redis.url, REDIS_LEASE_MS=1000))
    near = make_client(make_app(REDIS_URL=redis.url, REDIS_LEASE_MS=1000))
    table_id = owning.post("/api/tables", json=TABLE, headers=csrf(owning)).json()["id"]
    near.cookies = owning.cookies  # the same person, her socket on the other process
    owner, other = _registry(owning), _registry(near)
    with near.websocket_connect("/ws") as ws:
        _dies_before_saying_done(owner, monkeypatch)
        ws.send_json({"type": "table.open", "table_id": table_id, "id": 1})
        state = _reply(ws, 1)
        move = {"type": "table.move", "table_id": table_id, "move": state["legal"][0]}
        ws.send_json({**move, "seq": state["seq"], "id": 2})
        assert _reply(ws, 2)["type"] == "table.event"  # the owner's answer, before it died
        ws.send_json({"type": "ping", "id": 3})
        assert _reply(ws, 3)["type"] == "pong"  # no "table_unavailable" for her answered move
        # Her next command is the table's new owner's, once the dead one's lease has run out.
        ws.send_json({"type": "table.open", "table_id": table_id, "id": 4})
        reopened = _reply(ws, 4)
    assert reopened["type"] == "table.state" and reopened["seq"] > state["seq"]  # her move kept
    assert near.portal.call(other.leases.owner_of, table_id) == other.me
