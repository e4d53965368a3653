"""Helpers of the lobby tests: several accounts on one server, lobby tables, people at seats,
and a hand on the clock (the app's clock is the test's FakeClock; ``wake`` makes the table look).
"""

from __future__ import annotations

import hashlib
import itertools
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from spielcenter.bots import get_bot
from spielcenter.games.base import GameError
from spielcenter.games.seeds import SecretSeed
from spielcenter.server.deps import SESSION_COOKIE
from spielcenter.server.tables import TableActor

from .conftest import FakeClock, csrf
from .tables_helpers import engine_of, other_account, receive_until, socket_as

Cookies = dict[str, str]
_names = itertools.count(1)


@contextmanager
def as_account(device: TestClient, cookies: Cookies) -> Iterator[TestClient]:
    """HTTP requests of another account on ``device``'s server."""
    own = dict(device.cookies)
    device.cookies = cookies
    try:
        yield device
    finally:
        device.cookies = own


def post(device: TestClient, cookies: Cookies, path: str, body: Any = None) -> Any:
    """A ``POST`` of that account, with its CSRF token."""
    with as_account(device, cookies):
        return device.post(path, json=body or {}, headers=csrf(device))


def get(device: TestClient, cookies: Cookies, path: str) -> Any:
    """A ``GET`` of that account; the JSON body."""
    with as_account(device, cookies):
        return device.get(path).json()


def accounts(device: TestClient, count: int) -> list[Cookies]:
    """The device's own account and ``count - 1`` new guests on its server."""
    return [dict(device.cookies)] + [other_account(device) for _ in range(count - 1)]


def claimed_accounts(device: TestClient, count: int) -> list[Cookies]:
    """Like :func:`accounts`, each account claimed with a name of its own: guests play for
    nothing, only a claimed account has taler to stake (docs/ledger.md)."""
    people = accounts(device, count)
    for index, cookies in enumerate(people):
        with as_account(device, cookies):
            body = {"name": f"Zahler{next(_names)}", "password": "geheim-1234"}
            answer = device.post("/api/account/claim", json=body, headers=csrf(device))
            assert answer.status_code == 200, answer.text
            # A claim issues a new session (docs/security.md): she goes on with that one.
            people[index] = {SESSION_COOKIE: answer.cookies[SESSION_COOKIE]}
    device.cookies = people[0]
    return people


def seed_of(number: int) -> SecretSeed:
    """A fixed secret seed for a test that needs the same game every time."""
    return SecretSeed(hashlib.sha256(f"spielcenter test seed {number}".encode()).digest())


def fix_seed(device: TestClient, number: int) -> SecretSeed:
    """The server deals its next tables from :func:`seed_of` (a lobby table refuses a chosen
    deal, so a test fixes what the server draws instead)."""
    seed = seed_of(number)
    registry = device.app.state.tables  # type: ignore[attr-defined]
    registry.lobby.fresh_seed = registry.service.fresh_seed = lambda: seed
    return seed


def lobby_table(
    device: TestClient, cookies: Cookies, seed: int | None = None, **fields: Any
) -> dict[str, Any]:
    """``POST /api/lobby`` by that account; the summary. ``seed`` fixes the table's secret seed
    (:func:`fix_seed`)."""
    if seed is not None:
        fix_seed(device, seed)
    body = {"players": 2, "tempo": "fast", **fields}
    response = post(device, cookies, "/api/lobby", body)
    assert response.status_code == 201, response.text
    summary: dict[str, Any] = response.json()
    return summary


def join(device: TestClient, cookies: Cookies, table_id: str, **body: Any) -> Any:
    """``POST /api/lobby/{id}/join`` by that account (the response)."""
    return post(device, cookies, f"/api/lobby/{table_id}/join", body)


def actor_of(device: TestClient, table_id: str) -> TableActor:
    """The live actor of a table."""
    actor: TableActor = device.app.state.tables.actors[table_id]  # type: ignore[attr-defined]
    return actor


def wake(device: TestClient, table_id: str) -> None:
    """Let the table handle its clocks now (after the test moved the FakeClock), and wait."""
    device.portal.call(actor_of(device, table_id).wake)  # type: ignore[union-attr]


def until_gone(device: TestClient, table_id: str, account_id: str) -> None:
    """Wait until the server has noticed that the account's sockets at the table closed."""
    hub = device.app.state.platform.hub  # type: ignore[attr-defined]
    for _ in range(500):
        watching = hub.watchers.get(f"table:{table_id}", set())
        if all(c.login.account_id != account_id for c in watching):
            return
        time.sleep(0.01)
    raise AssertionError("the socket did not close")


def later(device: TestClient, clock: FakeClock, table_id: str, seconds: float) -> None:
    """``seconds`` pass, and the table notices."""
    clock.advance(seconds)
    wake(device, table_id)


def ledger(device: TestClient, cookies: Cookies) -> dict[str, Any]:
    """``GET /api/ledger`` of that account."""
    statement: dict[str, Any] = get(device, cookies, "/api/ledger")
    return statement


def until_type(ws: WebSocketTestSession, kind: str) -> list[dict[str, Any]]:
    """Every message up to and including the first of type ``kind``."""
    return receive_until(ws, lambda m: m.get("type") == kind)


class Person:
    """A seat played through its own socket: an easy computer decides from the seat's view."""

    def __init__(self, ws: WebSocketTestSession, table: dict[str, Any], seat: int) -> None:
        self.ws = ws
        self.table_id = table["id"]
        self.seat = seat
        self.engine = engine_of(table)
        self.bot = get_bot("easy")
        self.memory: dict[str, Any] = {}
        self.messages: list[dict[str, Any]] = []
        self.sent = 0

    def send(self, kind: str, **fields: Any) -> dict[str, Any]:
        """Send one ``table.*`` message; its answer (messages meanwhile are kept)."""
        self.sent += 1
        ref = f"{self.seat}-{self.sent}"
        self.ws.send_json({"type": kind, "table_id": self.table_id, "id": ref, **fields})
        answers = receive_until(self.ws, lambda m: m.get("ref") == ref)
        self.messages.extend(answers)
        answer: dict[str, Any] = answers[-1]
        return answer

    def open(self, last_seq: int | None = None) -> dict[str, Any]:
        """``table.open``; the ``table.state``."""
        fields = {} if last_seq is None else {"last_seq": last_seq}
        state = self.send("table.open", **fields)
        assert state["type"] == "table.state", state
        return state

    def decide(self, latest: dict[str, Any]) -> str:
        """The computer's choice from the seat's view (the first simple legal move if none)."""
        try:
            move: str = self.bot.decide(self.engine, latest["view"], self.seat, self.memory)
            return move
        except GameError:
            legal: list[str] = latest["legal"]
            simple = [m for m in ("pass", "end", "roll", "bin return") if m in legal]
            return (simple or legal)[0]

    def play(
        self, latest: dict[str, Any], stop: Callable[[dict[str, Any]], bool] | None = None
    ) -> dict[str, Any]:
        """Play the seat until the game is over (or ``stop`` holds); the last view message."""
        while latest["view"]["status"] == "playing" and not (stop and stop(latest)):
            if self.seat in latest["to_act"] and latest["legal"]:
                answer = self.send("table.move", move=self.decide(latest))
                if answer["type"] == "error":  # the computer's picture was off: a simple move
                    legal = latest["legal"]
                    simple = [m for m in ("pass", "end", "roll", "bin return") if m in legal]
                    answer = self.send("table.move", move=(simple or legal)[0])
                    assert answer["type"] != "error", answer
                latest = [m for m in self.messages if "view" in m][-1]
            else:
                message = self.ws.receive_json()
                self.messages.append(message)
                if "view" in message:
                    latest = message
        return latest


__all__ = [
    "Person",
    "accounts",
    "actor_of",
    "as_account",
    "claimed_accounts",
    "fix_seed",
    "get",
    "join",
    "later",
    "ledger",
    "lobby_table",
    "post",
    "seed_of",
    "socket_as",
    "until_gone",
    "until_type",
    "wake",
]
