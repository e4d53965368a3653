"""Helpers of the table tests: an app whose computers move at once, tables, a scripted human."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from spielcenter.bots import get_bot
from spielcenter.games.base import GameError
from spielcenter.games.speedquilt.rules import Speedquilt
from spielcenter.server.app import create_app
from spielcenter.server.tables import speedquilt_engine
from spielcenter.settings import Settings

from .conftest import CHEAP, FakeClock, csrf, me
from .ladder import resolve

NO_PAUSE = {"slow": 0.0, "normal": 0.0, "fast": 0.0}
"""Computer players move at once in the tests."""


@pytest.fixture
def make_table_app(settings: Settings, clock: FakeClock) -> Callable[[], FastAPI]:
    """A new app on the test's database whose computers do not pause (twice: a restart)."""

    # The scripted human answers at once: more than a person's 20 messages a second.
    fast = settings.model_copy(update={"SOCKET_MESSAGE_LIMIT": "10000/second"})

    def new_app() -> FastAPI:
        return create_app(
            fast, resolve=resolve, clock=clock, password_hasher=CHEAP, table_delays=NO_PAUSE
        )

    return new_app


@pytest.fixture
def devices(make_table_app: Callable[[], FastAPI]) -> Iterator[Callable[..., TestClient]]:
    """Clients ("devices"), each with a guest and a server of its own (a second one on the same
    database is a restart; for a second account on the same server use :func:`other_account`)."""
    opened: list[TestClient] = []

    def open_device() -> TestClient:
        device = TestClient(make_table_app())
        device.__enter__()
        opened.append(device)
        me(device)
        return device

    yield open_device
    for device in reversed(opened):
        device.__exit__(None, None, None)


def other_account(device: TestClient) -> dict[str, str]:
    """The cookies of a new guest on the same server (and the same event loop as ``device``)."""
    own = dict(device.cookies)
    device.cookies.clear()
    me(device)
    guest = dict(device.cookies)
    device.cookies = own
    return guest


@contextmanager
def socket_as(device: TestClient, cookies: dict[str, str]) -> Iterator[WebSocketTestSession]:
    """A WebSocket of another account on ``device``'s server."""
    own = dict(device.cookies)
    device.cookies = cookies
    try:
        with device.websocket_connect("/ws") as ws:
            device.cookies = own
            yield ws
    finally:
        device.cookies = own


def new_table(device: TestClient, **fields: Any) -> dict[str, Any]:
    """POST /api/tables; the summary."""
    body = {"players": 4, "bots": ["easy", "easy", "easy"], "tempo": "fast", **fields}
    response = device.post("/api/tables", json=body, headers=csrf(device))
    assert response.status_code == 201, response.text
    summary: dict[str, Any] = response.json()
    return summary


def engine_of(summary: dict[str, Any]) -> Speedquilt:
    """The engine the table plays."""
    return speedquilt_engine(summary["variant"], summary["options"])


def receive_until(ws: WebSocketTestSession, done: Callable[[dict[str, Any]], bool]) -> list[Any]:
    """Every message up to and including the first for which ``done`` holds."""
    messages: list[dict[str, Any]] = []
    while True:
        message = ws.receive_json()
        messages.append(message)
        assert message.get("type") != "error" or "ref" in message, message
        if done(message):
            return messages


class ScriptedHuman:
    """Seat 0 played through the socket: an easy computer decides from the seat's own view.

    ``stop`` ends the script early (e.g. at a moment a test wants to look at).
    """

    def __init__(self, ws: WebSocketTestSession, table: dict[str, Any]) -> None:
        self.ws = ws
        self.table_id = table["id"]
        self.engine = engine_of(table)
        self.bot = get_bot("easy")
        self.memory: dict[str, Any] = {}
        self.messages: list[dict[str, Any]] = []
        self.sent = 0

    def open(self, last_seq: int | None = None) -> dict[str, Any]:
        """``table.open``; the ``table.state`` answer."""
        message: dict[str, Any] = {"type": "table.open", "table_id": self.table_id}
        if last_seq is not None:
            message["last_seq"] = last_seq
        self.ws.send_json(message)
        state: dict[str, Any] = self.ws.receive_json()
        self.messages.append(state)
        assert state["type"] == "table.state", state
        return state

    def decide(self, latest: dict[str, Any]) -> str:
        """The computer's choice from the seat's view; the server's first simple legal move
        when the computer's picture of the table leaves it nothing."""
        try:
            move: str = self.bot.decide(self.engine, latest["view"], 0, self.memory)
            return move
        except GameError:
            legal: list[str] = latest["legal"]
            simple = [m for m in ("pass", "end", "roll", "bin return") if m in legal]
            return (simple or legal)[0]

    def play(
        self, latest: dict[str, Any], stop: Callable[[dict[str, Any]], bool] | None = None
    ) -> dict[str, Any]:
        """Play seat 0 until the game is over (or ``stop`` holds); the last message seen."""
        while latest["view"]["status"] == "playing" and not (stop and stop(latest)):
            if 0 in latest["to_act"] and latest["legal"]:
                move = self.decide(latest)
                self.sent += 1
                self.ws.send_json(
                    {"type": "table.move", "table_id": self.table_id, "move": move, "id": self.sent}
                )
                # Computers may move meanwhile: read until our own answer (event or error).
                answers = receive_until(self.ws, lambda m: m.get("ref") == self.sent)
                self.messages.extend(answers)
                found = [m for m in answers if "view" in m]
                latest = found[-1] if found else latest
            else:
                message = self.ws.receive_json()
                self.messages.append(message)
                if "view" in message:
                    latest = message
        return latest
