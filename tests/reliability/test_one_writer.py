"""One writer per patience game with several server processes (docs/deploy.md, section 3).

Patience games have no owner process: a person's two windows may reach two processes. The
database refuses the second writer of an entry, a process whose cached position is behind shows
and plays the stored one, and each event reaches the sockets on the other processes too. Two
apps on one database with Redis configured stand for two processes here (each its own event
loop, cache and log writer).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient
from redis import Redis

from ..backends import RedisServer
from ..server.conftest import new_game
from ..server.test_websocket import opened, play, send

DEAL = 7
QUIET_S = 0.5
"""A game's channels quiet this long: every message of what came before has been heard."""
HELLO_LAG_S = 1.0
"""How long the first process takes to hear a ``hello`` in the test of two opening windows."""


def _two_processes(
    make_client: Callable[..., TestClient], make_app: Callable[..., FastAPI], redis: RedisServer
) -> tuple[TestClient, TestClient]:
    """The same person (one cookie) on two processes of one database."""
    first = make_client(make_app(REDIS_URL=redis.url))
    first.get("/api/me")
    second = make_client(make_app(REDIS_URL=redis.url))
    second.cookies = first.cookies
    return first, second


def test_opening_a_game_on_another_process_shows_the_stored_position(
    make_client: Callable[..., TestClient], make_app: Callable[..., FastAPI], redis: RedisServer
) -> None:
    first, second = _two_processes(make_client, make_app, redis)
    game = new_game(first, deal=DEAL)
    with first.websocket_connect("/ws") as here, second.websocket_connect("/ws") as there:
        opened(here, game["id"])
        # A hint caches seq 0 on the second process, which does not follow the game's events.
        assert send(there, type="hint", game_id=game["id"])["type"] == "hint"
        [event] = play(here, game["id"], ["d"])
        state = opened(there, game["id"])
    assert state["type"] == "state" and state["seq"] == 1
    assert state["view"] == event["view"]


def test_a_second_writer_behind_the_log_is_refused_and_changes_nothing(
    make_client: Callable[..., TestClient], make_app: Callable[..., FastAPI], redis: RedisServer
) -> None:
    first, second = _two_processes(make_client, make_app, redis)
    game = new_game(first, deal=DEAL)
    with first.websocket_connect("/ws") as here, second.websocket_connect("/ws") as there:
        opened(here, game["id"])
        # A hint caches the position on the second process without following the game: its
        # events do not reach it, as when a move crosses an event on its way.
        assert send(there, type="hint", game_id=game["id"])["type"] == "hint"
        play(here, game["id"], ["d"])
        refused = send(there, type="move", game_id=game["id"], move="d")
        replay = first.get(f"/api/my-games/{game['id']}/replay").json()["steps"]
        state = opened(there, game["id"])
        [event] = play(there, game["id"], ["d"])
    assert refused["type"] == "error" and refused["code"] == "stale"
    assert len(replay) == 2  # the deal and the one move: the refused one is not there
    assert state["seq"] == 1 and event["seq"] == 2


def test_a_move_on_one_process_reaches_the_sockets_on_the_other(
    make_client: Callable[..., TestClient], make_app: Callable[..., FastAPI], redis: RedisServer
) -> None:
    first, second = _two_processes(make_client, make_app, redis)
    game = new_game(first, deal=DEAL)
    with first.websocket_connect("/ws") as here, second.websocket_connect("/ws") as there:
        opened(here, game["id"])
        opened(there, game["id"])
        [event] = play(here, game["id"], ["d"])
        relayed = there.receive_json()
        [answer] = play(there, game["id"], ["d"])  # the other process plays on from seq 1
        echoed = here.receive_json()
    assert relayed == event
    assert answer["seq"] == 2 and echoed == answer


@contextmanager
def _game_channels(redis: RedisServer) -> Iterator[Callable[[], list[str]]]:
    """Listen to every patience game's channel; the function returns the ops heard since it was
    last called, once the channels have been quiet for a moment."""
    listener = Redis.from_url(redis.url).pubsub(ignore_subscribe_messages=True)
    listener.psubscribe("spielcenter:game:*")
    listener.get_message(timeout=1)  # the subscription's confirmation

    def heard() -> list[str]:
        ops = []
        while (message := listener.get_message(timeout=QUIET_S)) is not None:
            ops.append(json.loads(message["data"])["op"])
        return ops

    try:
        yield heard
    finally:
        listener.close()


def _followers(client: TestClient, game_id: str) -> dict[str, str] | None:
    followers: dict[str, str] | None = client.app.state.tables.followers.get(game_id)  # type: ignore[attr-defined]
    return followers


def test_an_entry_goes_to_redis_only_while_another_process_follows_the_game(
    make_client: Callable[..., TestClient], make_app: Callable[..., FastAPI], redis: RedisServer
) -> None:
    """docs/deploy.md, section 3: a patience event goes to the other processes holding a socket
    for the game, and only to them: with one window, no Redis message per entry."""
    first, second = _two_processes(make_client, make_app, redis)
    game = new_game(first, deal=DEAL)
    with _game_channels(redis) as heard, first.websocket_connect("/ws") as here:
        opened(here, game["id"])
        play(here, game["id"], ["d"])
        assert send(here, type="undo", game_id=game["id"])["seq"] == 2
        alone = heard()  # its hello, nobody answering; neither entry
        with second.websocket_connect("/ws") as there:
            state = opened(there, game["id"])  # the entries nobody was told of: from the database
            [event] = play(here, game["id"], ["d"])
            relayed = there.receive_json()
            together = heard()
        deadline = time.monotonic() + 10
        while _followers(first, game["id"]) and time.monotonic() < deadline:
            time.sleep(0.01)  # the second process's bye on its way
        assert send(here, type="undo", game_id=game["id"])["seq"] == 4
        alone_again = heard()
    assert alone == ["hello"]
    assert state["seq"] == 2 and relayed == event and event["seq"] == 3
    assert together == ["hello", "game"]
    assert alone_again == ["bye"]


def test_a_process_that_does_not_follow_a_game_publishes_its_entries(
    make_client: Callable[..., TestClient], make_app: Callable[..., FastAPI], redis: RedisServer
) -> None:
    """A process that does not know who follows a game (no socket of its opened it) publishes:
    the window on the other process hears of the entry."""
    first, second = _two_processes(make_client, make_app, redis)
    game = new_game(first, deal=DEAL)
    with first.websocket_connect("/ws") as here, second.websocket_connect("/ws") as there:
        opened(here, game["id"])
        [event] = play(there, game["id"], ["d"])  # never opened there
        relayed = here.receive_json()
    assert _followers(second, game["id"]) is None
    assert relayed == event and event["seq"] == 1


def test_a_follower_that_died_is_forgotten_after_two_sweeps(
    make_client: Callable[..., TestClient], make_app: Callable[..., FastAPI], redis: RedisServer
) -> None:
    """A process that dies says no ``bye``: the sweep drops a follower whose process channel
    nobody listened on at two sweeps in a row (its games' events are not published for it for
    ever), and keeps a living one."""
    first, second = _two_processes(make_client, make_app, redis)
    game = new_game(first, deal=DEAL)
    dead = "0123456789abcdef"  # a process id nobody listens for
    with first.websocket_connect("/ws") as here, second.websocket_connect("/ws") as there:
        opened(here, game["id"])
        opened(there, game["id"])
        followers = _followers(first, game["id"])
        assert followers is not None
        followers[dead] = "0" * 16
        for _ in range(2):
            first.portal.call(first.app.state.tables.sweep)  # type: ignore[attr-defined,union-attr]
        after = set(followers)
    assert after == {second.app.state.tables.me}  # type: ignore[attr-defined]


def test_a_second_socket_opening_the_game_meanwhile_waits_for_the_same_answers(
    make_client: Callable[..., TestClient], make_app: Callable[..., FastAPI], redis: RedisServer
) -> None:
    """Two windows of the second process open the game at once while the first process, slow
    to hear the ``hello``, commits an entry it does not publish: both are shown it, since each
    socket's position is read only once every other follower has answered."""
    first, second = _two_processes(make_client, make_app, redis)
    game = new_game(first, deal=DEAL)
    registry = first.app.state.tables  # type: ignore[attr-defined]
    greeted = registry._greeted

    async def slowly(message: dict[str, Any]) -> None:
        await asyncio.sleep(HELLO_LAG_S)
        await greeted(message)

    with first.websocket_connect("/ws") as here:
        opened(here, game["id"])
        registry._greeted = slowly
        with second.websocket_connect("/ws") as one, second.websocket_connect("/ws") as other:
            for socket in (one, other):
                socket.send_json({"type": "open", "game_id": game["id"]})
            time.sleep(HELLO_LAG_S / 4)
            [event] = play(here, game["id"], ["d"])  # nobody known to follow it: not published
            states = [one.receive_json(), other.receive_json()]
    assert event["seq"] == 1
    assert [state["seq"] for state in states] == [1, 1]
    assert all(state["view"] == event["view"] for state in states)
