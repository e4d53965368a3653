"""One writer per patience game with several server processes (docs/deploy.md, section 3).

Patience games have no owner process: a person's two windows may reach two processes. The
database refuses the second writer of an entry, a process whose cached position is behind shows
and plays the stored one, and each event reaches the sockets on the other processes too. Two
apps on one database with Redis configured stand for two processes here (each its own event
loop, cache and log writer).
"""

from __future__ import annotations

from collections.abc import Callable

from fastapi import FastAPI
from fastapi.testclient import TestClient

from ..backends import RedisServer
from ..server.conftest import new_game
from ..server.test_websocket import opened, play, send

DEAL = 7


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
