"""The hello/here/bye handshake of a patience game's followers (server/cluster.py): a window on
another process hears every entry committed after it was shown the position (docs/deploy.md,
section 3), also when a ``bye`` arrives late, a follower was forgotten, a subscription takes
effect late, a follow failed, or the bus reader lost Redis for a moment. Each test here fails
without the part of the handshake its name states."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from redis.exceptions import ConnectionError as RedisConnectionError
from starlette.testclient import WebSocketTestSession

from spielcenter.server import cluster
from spielcenter.server.scaleout import Bus

from ..backends import RedisServer
from ..server.conftest import new_game
from ..server.test_websocket import opened, play
from .test_one_writer import DEAL, QUIET_S, _two_processes


def _until_pong(ws: WebSocketTestSession) -> list[dict[str, Any]]:
    """Ping; what the socket was sent before the pong."""
    ws.send_json({"type": "ping"})
    heard = []
    while (message := ws.receive_json()) != {"type": "pong"}:
        heard.append(message)
    return heard


def test_a_bye_of_an_earlier_follow_does_not_drop_the_follower(
    make_client: Callable[..., TestClient], make_app: Callable[..., FastAPI], redis: RedisServer
) -> None:
    """A process closing its last window on a game and opening it again says ``bye``, then
    ``hello``; the other process can get them in either order. A ``bye`` names its follow:
    one of an earlier follow leaves the new one known, and its window hears the next entry."""
    first, second = _two_processes(make_client, make_app, redis)
    game = new_game(first, deal=DEAL)
    writer, reader = first.app.state.tables, second.app.state.tables  # type: ignore[attr-defined]
    stale = {"op": "bye", "from": reader.me, "game": game["id"], "follow": "an earlier one"}
    with first.websocket_connect("/ws") as here, second.websocket_connect("/ws") as there:
        opened(here, game["id"])
        opened(there, game["id"])
        first.portal.call(writer.bus.publish, Bus.game_channel(game["id"]), stale)  # type: ignore[union-attr]
        time.sleep(QUIET_S)
        [event] = play(here, game["id"], ["d"])
        time.sleep(QUIET_S)
        heard = _until_pong(there)
    assert heard == [event]


def test_the_sweep_greets_again_where_more_processes_listen_than_are_known(
    make_client: Callable[..., TestClient], make_app: Callable[..., FastAPI], redis: RedisServer
) -> None:
    """A follower forgotten (say Redis was away for two sweeps) is not told of the entries.
    The sweep counts the processes on the game's channel: one more than known is greeted
    again; greeted a second time by the same follow, it shows its window the stored position
    (with the entry it was not told of), and hears the next one."""
    first, second = _two_processes(make_client, make_app, redis)
    game = new_game(first, deal=DEAL)
    writer = first.app.state.tables  # type: ignore[attr-defined]

    async def forget() -> None:
        writer.followers[game["id"]].clear()

    with first.websocket_connect("/ws") as here, second.websocket_connect("/ws") as there:
        opened(here, game["id"])
        opened(there, game["id"])
        first.portal.call(forget)  # type: ignore[union-attr]
        [missed] = play(here, game["id"], ["d"])
        time.sleep(QUIET_S)
        before = _until_pong(there)
        first.portal.call(writer.sweep)  # type: ignore[union-attr]
        time.sleep(QUIET_S)
        shown = _until_pong(there)
        [event] = play(here, game["id"], ["d"])
        time.sleep(QUIET_S)
        after = _until_pong(there)
    assert before == []  # not published: nobody known to follow
    [state] = shown
    assert state["type"] == "state" and state["seq"] == missed["seq"] == 1
    assert state["view"] == missed["view"]
    assert after == [event]


def test_a_window_is_shown_the_game_only_once_its_process_listens_on_it(
    make_client: Callable[..., TestClient],
    make_app: Callable[..., FastAPI],
    redis: RedisServer,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A subscription can take effect after the ``hello`` went out: its count of listeners
    then misses the greeting process, and the answers it waits for are one too few. The count
    is trusted only once the ``hello`` came back to its own process; else the opening waits
    ``HELLO_WAIT_S`` (the game stays unsure, its entries published) and the window hears
    the entry committed right after it was shown the game."""
    monkeypatch.setattr(cluster, "HELLO_WAIT_S", 1.0)
    first, second = _two_processes(make_client, make_app, redis)
    game = new_game(first, deal=DEAL)
    reader = second.app.state.tables  # type: ignore[attr-defined]
    subscribe = reader.bus.subscribe

    async def late(*channels: str) -> None:
        async def later() -> None:
            await asyncio.sleep(0.3)
            await subscribe(*channels)

        reader._spawn(later())

    reader.bus.subscribe = late
    with first.websocket_connect("/ws") as here, second.websocket_connect("/ws") as there:
        opened(here, game["id"])
        state = opened(there, game["id"])
        [event] = play(here, game["id"], ["d"])
        time.sleep(QUIET_S)
        heard = _until_pong(there)
    assert state["seq"] == 0
    assert event in heard


def test_an_opening_whose_follow_failed_does_not_fail_the_next(
    make_client: Callable[..., TestClient], make_app: Callable[..., FastAPI], redis: RedisServer
) -> None:
    """A follow that failed (the subscription raised) is not kept: the socket is told of the
    failure, and the next opening of the game follows it afresh and hears its entries."""
    first, second = _two_processes(make_client, make_app, redis)
    game = new_game(first, deal=DEAL)
    reader = second.app.state.tables  # type: ignore[attr-defined]
    subscribe, failed = reader.bus.subscribe, []

    async def fails_once(*channels: str) -> None:
        if not failed:
            failed.append(channels)
            raise RuntimeError("the subscription failed")
        await subscribe(*channels)

    reader.bus.subscribe = fails_once
    with first.websocket_connect("/ws") as here, second.websocket_connect("/ws") as there:
        opened(here, game["id"])
        refused = opened(there, game["id"])
        state = opened(there, game["id"])
        [event] = play(here, game["id"], ["d"])
        time.sleep(QUIET_S)
        heard = _until_pong(there)
    assert refused["type"] == "error" and refused["code"] == "server_error"
    assert state["type"] == "state" and state["seq"] == 0
    assert heard == [event]


def test_the_bus_reader_outlives_a_failed_read(
    make_client: Callable[..., TestClient], make_app: Callable[..., FastAPI], redis: RedisServer
) -> None:
    """Reading from Redis failed (it was away longer than redis-py's retries): the reader
    tries again instead of ending for the process's life, and the window hears the entry."""
    first, second = _two_processes(make_client, make_app, redis)
    game = new_game(first, deal=DEAL)
    pubsub = second.app.state.tables.bus.pubsub  # type: ignore[attr-defined]
    get_message, failed = pubsub.get_message, []

    async def fails_once(**options: Any) -> Any:
        if not failed:
            failed.append(options)
            raise RedisConnectionError("Redis is away")
        return await get_message(**options)

    with first.websocket_connect("/ws") as here, second.websocket_connect("/ws") as there:
        opened(here, game["id"])
        opened(there, game["id"])
        pubsub.get_message = fails_once
        deadline = time.monotonic() + 5
        while not failed and time.monotonic() < deadline:
            time.sleep(0.01)  # the read under way when it was patched ends first
        [event] = play(here, game["id"], ["d"])
        time.sleep(QUIET_S)
        heard = _until_pong(there)
    assert failed
    assert heard == [event]


def test_a_socket_slow_to_take_an_event_holds_up_only_its_own_game(
    make_client: Callable[..., TestClient], make_app: Callable[..., FastAPI], redis: RedisServer
) -> None:
    """The bus reader hands another process's patience events to the sockets without waiting
    for them: a socket that does not take its event (a client that stopped reading, up to
    ``SEND_TIMEOUT_S``) does not hold up the events of another game, nor the ``here`` that
    other openings wait for."""
    first, second = _two_processes(make_client, make_app, redis)
    stuck, free = new_game(first, deal=DEAL), new_game(first, deal=DEAL)
    hub = second.app.state.platform.hub  # type: ignore[attr-defined]
    release = threading.Event()

    async def block(game_id: str) -> None:
        [connection] = [c for c in hub.connections if game_id in c.games]
        send_text = connection.send_text

        async def slowly(text: str) -> None:
            while not release.is_set():
                await asyncio.sleep(0.01)
            await send_text(text)

        connection.send_text = slowly

    with (
        first.websocket_connect("/ws") as here,
        second.websocket_connect("/ws") as slow,
        second.websocket_connect("/ws") as there,
    ):
        opened(here, stuck["id"])
        opened(here, free["id"])
        opened(slow, stuck["id"])
        opened(there, free["id"])
        second.portal.call(block, stuck["id"])  # type: ignore[union-attr]
        play(here, stuck["id"], ["d"])
        [event] = play(here, free["id"], ["d"])
        time.sleep(QUIET_S)
        heard = _until_pong(there)
        release.set()
    assert heard == [event]


def test_an_event_arriving_while_a_socket_opens_the_game_is_not_lost(
    make_client: Callable[..., TestClient], make_app: Callable[..., FastAPI], redis: RedisServer
) -> None:
    """An opening checks that its process's cached position is the stored one, then shows it;
    an event of another process arriving in between drops the cache and goes to the sockets
    watching the game, the opening one not yet among them: the opening reads the position
    again, and its window ends at the entry."""
    first, second = _two_processes(make_client, make_app, redis)
    game = new_game(first, deal=DEAL)
    games = second.app.state.platform.games  # type: ignore[attr-defined]
    current, checked, played = games._current, threading.Event(), threading.Event()

    async def then_an_event(live: Any) -> bool:
        answer = await current(live)
        if not checked.is_set():
            checked.set()
            while not played.is_set():
                await asyncio.sleep(0.01)
            await asyncio.sleep(QUIET_S)  # the event handed on meanwhile
        return bool(answer)

    with (
        first.websocket_connect("/ws") as here,
        second.websocket_connect("/ws") as old,
        second.websocket_connect("/ws") as new,
    ):
        opened(here, game["id"])
        opened(old, game["id"])
        games._current = then_an_event
        new.send_json({"type": "open", "game_id": game["id"]})
        assert checked.wait(10)
        [event] = play(here, game["id"], ["d"])
        played.set()
        shown = [new.receive_json()]
        time.sleep(QUIET_S)
        shown += _until_pong(new)
    assert shown[-1]["seq"] == event["seq"] == 1
    assert shown[-1]["view"] == event["view"]
