"""Real ``spielcenter serve`` processes for the crash tests, and players that talk to them over
real sockets (httpx for HTTP, websockets for the WebSocket).

A ``Server(..., forked=True)`` is forked from a server of forks (``multiprocessing``'s
forkserver) that imported the server once for the whole test process: most of a cold start is
importing (docs/performance.md, "Crash"). Each fork is a process of its own that runs
``spielcenter serve`` (``cli.main``) on its own environment: it migrates, replays every open
table, listens, and dies of SIGKILL like any other; only the imports are warm. The crash and
several-process tests fork their servers; the cold start of ``python -m spielcenter serve`` is
tested by tests/server/test_settings_and_serve.py.
"""

from __future__ import annotations

import contextlib
import json
import multiprocessing
import os
import re
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.exceptions import WebSocketException
from websockets.sync.client import ClientConnection, connect

from ..backends import free_port

START_TIMEOUT_S = 120.0
"""A start migrates and replays every open table; slow on a busy machine."""
SESSION = "spielcenter_session"
HEALTH_POLL_S = 0.05
"""How often a starting server is asked whether it answers (a start takes about a second)."""

FORKS = multiprocessing.get_context("forkserver")
FORKS.set_forkserver_preload(
    ["spielcenter.cli", "spielcenter.cli.serve", "spielcenter.server.app", __name__]
)


def serve(env: dict[str, str], port: int, log: str) -> None:
    """The forked process: ``spielcenter serve --port PORT`` with ``env`` as its environment and
    its output appended to ``log``."""
    from spielcenter.cli import main

    out = os.open(log, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
    os.dup2(out, 1)
    os.dup2(out, 2)
    os.environ.clear()
    os.environ.update(env)
    sys.exit(main(["serve", "--port", str(port)]))


class Server:
    """One ``spielcenter serve`` process on a loopback port, on a given database."""

    def __init__(
        self, env: dict[str, str], log: Path, forked: bool = False, wrap: list[str] | None = None
    ) -> None:
        self.env = {**os.environ, **env}
        self.log = log
        self.port = free_port()
        self.forked = forked
        self.wrap = wrap or []
        """A command the (not forked) server runs under, as ``valgrind --tool=callgrind``."""
        self.process: multiprocessing.process.BaseProcess | subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """Its HTTP address."""
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        """Start it and wait until ``/health`` answers."""
        if self.forked:
            fork = FORKS.Process(
                target=serve, args=(self.env, self.port, str(self.log)), name=f"serve-{self.port}"
            )
            fork.start()
            self.process = fork
        else:
            with self.log.open("ab") as log:
                self.process = subprocess.Popen(
                    [
                        *self.wrap,
                        *(sys.executable, "-m", "spielcenter", "serve", "--port", str(self.port)),
                    ],
                    env=self.env,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                )
        # Under valgrind a start takes some 50 times as long.
        deadline = time.monotonic() + START_TIMEOUT_S * (5 if self.wrap else 1)
        # One client for all the polls: each ``httpx.get`` builds a client with its TLS
        # context, about 50 ms of CPU, half a core taken from the starting server at 10 polls/s.
        with httpx.Client(timeout=1) as client:
            while time.monotonic() < deadline:
                if not self.running:
                    raise RuntimeError(f"the server exited: {self.log.read_text()[-2000:]}")
                with contextlib.suppress(httpx.HTTPError):
                    if client.get(f"{self.url}/health").status_code == 200:
                        return
                time.sleep(HEALTH_POLL_S)
        raise RuntimeError(f"the server did not answer: {self.log.read_text()[-2000:]}")

    @property
    def process_id(self) -> str | None:
        """Its id among several processes (``server/cluster.py``), from its start line."""
        text = re.sub(r"\x1b\[[0-9;]*m", "", self.log.read_text(errors="replace"))
        found = re.findall(r"tables_restarted.*?process=([0-9a-f]{16})", text)
        return found[-1] if found else None

    @property
    def running(self) -> bool:
        """Whether its process runs."""
        if isinstance(self.process, subprocess.Popen):
            return self.process.poll() is None
        return self.process is not None and self.process.is_alive()

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flush, nothing but what was committed survives."""
        assert self.process is not None and self.process.pid is not None
        os.kill(self.process.pid, signal.SIGKILL)
        self._wait(None)

    def stop(self) -> None:
        """End it, if it still runs."""
        if self.process is not None and self.running:
            self.process.terminate()
            self._wait(120 if self.wrap else 10)  # callgrind writes its counts as it ends
            if self.running:
                self.kill()

    def _wait(self, timeout: float | None) -> None:
        if isinstance(self.process, subprocess.Popen):
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout)
        elif self.process is not None:
            self.process.join(timeout)


def start_together(servers: list[Server]) -> None:
    """Start several servers at once (each start mostly waits for imports and migration)."""
    failures: list[BaseException] = []

    def start(server: Server) -> None:
        try:
            server.start()
        except BaseException as exc:
            failures.append(exc)

    threads = [threading.Thread(target=start, args=(s,)) for s in servers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if failures:
        raise failures[0]


@dataclass
class Player:
    """One account with a browser's cookie, playing Cruel over its own WebSocket."""

    name: str
    token: str = ""
    csrf: str = ""
    game_id: str = ""
    acked: dict[str, list[tuple[int, str, str]]] = field(default_factory=dict)
    """Per game, every entry the server acknowledged: (seq, kind, move)."""

    def http(self, server: Server) -> httpx.Client:
        """An HTTP client with this player's cookie."""
        cookies = {SESSION: self.token} if self.token else {}
        return httpx.Client(base_url=server.url, cookies=cookies, timeout=10)

    def sign_in(self, server: Server) -> None:
        """Become a guest (the first time) and learn the CSRF token."""
        with self.http(server) as client:
            body = client.get("/api/me").json()
            self.token = client.cookies.get(SESSION) or self.token
            self.csrf = body["csrf"]

    def claim(self, server: Server) -> None:
        """Give the account a name: only a claimed account has taler to stake (docs/ledger.md).
        Keeps the session and CSRF token the claim leaves it with."""
        body = {"name": f"Zahler-{self.name}", "password": "geheim-1234"}
        headers = {"X-CSRF-Token": self.csrf}
        with self.http(server) as client:
            answer = client.post("/api/account/claim", json=body, headers=headers)
            assert answer.status_code == 200, answer.text
            self.token = answer.cookies.get(SESSION) or self.token  # the new session
            self.csrf = answer.json()["csrf"]

    def post(self, server: Server, path: str, body: dict[str, Any]) -> httpx.Response:
        """A state-changing request of this player."""
        with self.http(server) as client:
            return client.post(path, json=body, headers={"X-CSRF-Token": self.csrf})

    def new_game(self, server: Server, deal: int) -> None:
        """Deal a new Cruel game."""
        response = self.post(server, "/api/games", {"game": "cruel", "deal": deal})
        assert response.status_code == 201, response.text
        self.game_id = response.json()["id"]
        self.acked[self.game_id] = []

    def socket(self, server: Server) -> ClientConnection:
        """A WebSocket with this player's cookie."""
        return connect(
            f"ws://127.0.0.1:{server.port}/ws",
            additional_headers={"Cookie": f"{SESSION}={self.token}"},
            open_timeout=10,
        )

    def play(
        self, server: Server, stop: threading.Event, deal: int, limit: int | None = None
    ) -> None:
        """Play legal moves, one at a time, until the server goes away, ``stop`` is set or
        ``limit`` moves were sent."""
        try:
            with self.socket(server) as ws:
                view = self._open(ws)
                sent = 0
                while not stop.is_set() and (limit is None or sent < limit):
                    if view["status"] != "playing" or not view["legal"]:
                        self.new_game(server, deal + len(self.acked))
                        view = self._open(ws)
                        continue
                    sent += 1
                    move = view["legal"][sent % len(view["legal"])]
                    ws.send(
                        json.dumps(
                            {"type": "move", "game_id": self.game_id, "move": move, "id": sent}
                        )
                    )
                    reply = self._reply(ws, sent)
                    if reply["type"] == "event":
                        self.acked[self.game_id].append((reply["seq"], "move", move))
                        view = reply["view"]
        except (WebSocketException, OSError, httpx.HTTPError):
            return  # the server was killed: what was acknowledged is recorded

    def table_clocks(self, server: Server, table_id: str) -> list[dict[str, Any]]:
        """The clocks of a table, as ``table.state`` shows them to this player."""
        with self.socket(server) as ws:
            ws.send(json.dumps({"type": "table.open", "table_id": table_id, "id": "clocks"}))
            state = self._reply(ws, "clocks")
        assert state["type"] == "table.state", state
        clocks: list[dict[str, Any]] = state["clocks"]
        return clocks

    def _open(self, ws: ClientConnection) -> dict[str, Any]:
        ws.send(json.dumps({"type": "open", "game_id": self.game_id, "id": "open"}))
        state = self._reply(ws, "open")
        assert state["type"] == "state", state
        view: dict[str, Any] = state["view"]
        return view

    @staticmethod
    def _reply(ws: ClientConnection, ref: Any) -> dict[str, Any]:
        while True:
            message: dict[str, Any] = json.loads(ws.recv(timeout=10))
            if message.get("ref") == ref:
                return message
