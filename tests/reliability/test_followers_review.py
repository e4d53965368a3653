"""Review of pair40 (d3fd7e4): a patience event goes to Redis only while the writer knows of
another follower. Each test here is a sequence in which a window on the second process misses
an entry the first process committed after the window was shown the position (docs/deploy.md,
section 3: the events of a patience game go to the other processes holding a socket for it).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from spielcenter.server import cluster
from spielcenter.server.scaleout import Bus

from ..backends import RedisServer
from ..server.conftest import new_game
from ..server.test_websocket import opened, play, send
from .test_one_writer import DEAL, QUIET_S, _two_processes


def test_a_socket_opening_while_the_last_other_socket_closes_hears_the_game(
    make_client: Callable[..., TestClient], make_app: Callable[..., FastAPI], redis: RedisServer
) -> None:
    """Followed before the position is read (d3fd7e4): a window opening the game on a process
    where another window of it is still open returns from ``follow_game`` at once; if that other
    window closes before the new one is watching (``hub.watch`` runs inside ``catch_up``), the
    process unsubscribes and says ``bye`` although the new window watches the game: the
    first process's next entry never reaches it."""
    first, second = _two_processes(make_client, make_app, redis)
    game = new_game(first, deal=DEAL)
    platform = second.app.state.platform  # type: ignore[attr-defined]
    games, hub = platform.games, platform.hub
    real_catch_up = games.catch_up

    async def catch_up_after_the_close(*args: Any) -> None:
        # The close lands while the opening reads the database (a few ms in production).
        while len(hub.connections) > 1:
            await asyncio.sleep(0.01)
        await asyncio.sleep(QUIET_S)
        await real_catch_up(*args)

    with first.websocket_connect("/ws") as here:
        opened(here, game["id"])
        old = second.websocket_connect("/ws")
        old.__enter__()
        opened(old, game["id"])
        games.catch_up = catch_up_after_the_close
        with second.websocket_connect("/ws") as new:
            new.send_json({"type": "open", "game_id": game["id"]})
            old.__exit__(None, None, None)
            state = new.receive_json()
            [event] = play(here, game["id"], ["d"])
            time.sleep(QUIET_S)
            heard = send(new, type="ping")  # the relayed event comes first, if it came
    assert state["type"] == "state" and state["seq"] == 0
    assert heard == event


def test_a_follower_slow_to_answer_hello_still_publishes_what_the_opening_missed(
    make_client: Callable[..., TestClient],
    make_app: Callable[..., FastAPI],
    redis: RedisServer,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``HELLO_WAIT_S`` ran out (the first process's bus reader is behind, e.g. blocked on a
    slow socket's send for up to SEND_TIMEOUT_S): the second process shows the stored position
    anyway, but the first one does not know of it yet and publishes nothing: the entry it
    commits between that read and handling the ``hello`` is lost for the new window."""
    monkeypatch.setattr(cluster, "HELLO_WAIT_S", 0.2)
    first, second = _two_processes(make_client, make_app, redis)
    game = new_game(first, deal=DEAL)
    tables = first.app.state.tables  # type: ignore[attr-defined]
    real_greeted = tables._greeted

    async def reader_behind(message: Any) -> None:
        if message["from"] != tables.me:
            await asyncio.sleep(1.0)  # the reader busy elsewhere: the hello waits in line
        await real_greeted(message)

    tables._greeted = reader_behind
    with first.websocket_connect("/ws") as here, second.websocket_connect("/ws") as there:
        opened(here, game["id"])
        state = opened(there, game["id"])  # after HELLO_WAIT_S, from the database
        [event] = play(here, game["id"], ["d"])  # before the first process heard the hello
        time.sleep(1.5)  # it has by now
        heard = send(there, type="ping")
    assert state["seq"] == 0
    # The event itself, or (told late) the stored position with it.
    assert heard["seq"] == event["seq"] and heard["view"] == event["view"]


def test_a_follower_whose_subscription_blinked_is_not_forgotten_for_good(
    make_client: Callable[..., TestClient], make_app: Callable[..., FastAPI], redis: RedisServer
) -> None:
    """fc8697b: the sweep forgets a follower while nobody listens on its process channel. A
    living process is not listening for a moment while its pub/sub connection reconnects
    (redis-py subscribes again), or after a Redis restart: forgotten then, it is never told of
    again, and its window misses every later entry of the other process."""
    first, second = _two_processes(make_client, make_app, redis)
    game = new_game(first, deal=DEAL)
    writer, reader = first.app.state.tables, second.app.state.tables  # type: ignore[attr-defined]
    own = reader.bus.prefix + Bus.process_channel(reader.me)

    async def blink() -> None:
        await reader.bus.pubsub.unsubscribe(own)

    async def back() -> None:
        await reader.bus.pubsub.subscribe(own)

    with first.websocket_connect("/ws") as here, second.websocket_connect("/ws") as there:
        opened(here, game["id"])
        opened(there, game["id"])
        second.portal.call(blink)  # type: ignore[union-attr]  # the reconnect's gap
        time.sleep(QUIET_S)
        first.portal.call(writer.sweep)  # type: ignore[union-attr]
        second.portal.call(back)  # type: ignore[union-attr]
        time.sleep(QUIET_S)
        first.portal.call(writer.sweep)  # type: ignore[union-attr]  # a later sweep
        [event] = play(here, game["id"], ["d"])
        time.sleep(QUIET_S)
        heard = send(there, type="ping")
    assert heard == event
