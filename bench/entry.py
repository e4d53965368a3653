"""CPU and instructions per patience entry of the socket's answer path, in one process.

    uv run python bench/entry.py [--players 1000] [--rounds 6] [--in-flight 2]
    uv run python bench/entry.py --database postgresql      # a private, durable PostgreSQL
    uv run python bench/entry.py --database postgresql --database-url URL   # a running one
    uv run valgrind --tool=callgrind --instr-atstart=no python bench/entry.py \\
        --players 100 --rounds 4 --in-flight 1 --callgrind     # instructions, from the window

Everything an entry costs the server but uvicorn's and websockets' part: the app's lifespan on a
fresh SQLite folder (or a fresh database of a private PostgreSQL, run as an operator runs it:
``--database postgresql``; the PostgreSQL server's own CPU is not counted), ``--players`` guests
with a Cruel game each (through the HTTP API, as ``bench/server.py`` makes them), and each
player's message (a legal move, then its undo) given to the socket's answer
(``server/websocket.py``) with a socket that keeps what it is sent: the rate limit, the parse
and validation, the engine, the group commit and its log thread, the view, its changes, the
encoding. ``--in-flight`` entries at a time (1: every batch of the group commit holds one entry,
as on a quiet server). Prints the process's CPU per entry (every thread) over the measured
rounds; with ``--callgrind`` (under valgrind) it turns callgrind's counting on for those rounds
only, whose instruction count moves far less with a busy host than CPU time does
(docs/performance.md, "CPU per entry after the batches").
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
from starlette.websockets import WebSocketState
from tqdm import tqdm

from server import deals  # bench/server.py: the same first Cruel deals with a move
from spielcenter.server import websocket
from spielcenter.server.app import create_app
from spielcenter.server.deps import Platform
from spielcenter.server.hub import Connection
from spielcenter.settings import Settings


class KeptSocket:
    """A socket that keeps the last message sent to it (and the ``state`` of its game)."""

    application_state = WebSocketState.CONNECTED

    def __init__(self, app: Any) -> None:
        self.app = app
        self.last = ""
        self.state = ""

    async def send_text(self, text: str) -> None:
        if text.startswith('{"type":"state"'):
            self.state = text
        self.last = text

    async def close(self, code: int) -> None:
        raise RuntimeError(f"the server closed a player's socket ({code})")


class Player:
    """One guest with one Cruel game, playing its first legal move and taking it back."""

    def __init__(self, connection: Connection, game_id: str, move: str) -> None:
        self.connection, self.game_id, self.move, self.number = connection, game_id, move, 0

    def message(self, undo: bool) -> dict[str, Any]:
        self.number += 1
        message: dict[str, Any] = {"type": "undo" if undo else "move", "id": self.number}
        if not undo:
            message["move"] = self.move
        frame = json.dumps({**message, "game_id": self.game_id})
        return {"type": "websocket.receive", "text": frame}


async def new_players(app: Any, platform: Platform, count: int) -> list[Player]:
    """Guests with a game each, their sockets added to the hub and their games opened."""
    players = []
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
        for deal in tqdm(deals(count), desc="players", leave=False):
            client.cookies.clear()
            me = await client.get("/api/me")
            cookie = {"spielcenter_session": me.cookies["spielcenter_session"]}
            made = await client.post(
                "/api/games",
                json={"game": "cruel", "deal": deal},
                headers={"X-CSRF-Token": me.json()["csrf"]},
                cookies=cookie,
            )
            game_id = made.json()["id"]
            login = await platform.sessions.resolve(cookie["spielcenter_session"])
            assert login is not None
            socket = KeptSocket(app)
            connection = Connection(socket, login, "127.0.0.1")  # type: ignore[arg-type]
            platform.hub.add(connection)
            opening = {"type": "open", "game_id": game_id, "changes": True}
            await websocket._answer(
                platform, connection, {"type": "websocket.receive", "text": json.dumps(opening)}
            )
            players.append(
                Player(connection, game_id, json.loads(socket.state)["view"]["legal"][0])
            )
    return players


async def play_round(platform: Platform, players: list[Player], undo: bool, in_flight: int) -> None:
    """Every player's next entry, ``in_flight`` of them at a time."""

    async def one_after_another(some: list[Player]) -> None:
        for player in some:
            await websocket._answer(platform, player.connection, player.message(undo))
            answer = player.connection.socket.last  # type: ignore[attr-defined]
            assert answer.startswith('{"type":"event"'), answer

    await asyncio.gather(*(one_after_another(players[k::in_flight]) for k in range(in_flight)))


def callgrind(on: bool) -> None:
    """Turn valgrind's callgrind counting on or off for this process."""
    state = "on" if on else "off"
    subprocess.run(["callgrind_control", "-i", state, str(os.getpid())], capture_output=True)


@contextmanager
def database_url(kind: str, url: str | None = None) -> Iterator[str | None]:
    """None (SQLite in the data folder), ``url``, or a fresh database of a private PostgreSQL
    run as an operator runs it (every commit flushed to the disk: tests/backends.py, DURABLE)."""
    if kind == "sqlite" or url is not None:
        yield url
        return
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tests.backends import postgres_cluster

    with postgres_cluster(durable=True) as cluster:
        yield cluster.new_database()


async def measure(args: argparse.Namespace, url: str | None) -> dict[str, Any]:
    os.environ.setdefault("SPIELCENTER_ENV", "benchmark")
    os.environ.setdefault("SPIELCENTER_SECRET_KEY", "benchmark-only")
    os.environ.setdefault("SPIELCENTER_DAILY_SECRET", "b" * 64)
    # Every player comes from one address; the benchmark measures play, not the limiter.
    os.environ.setdefault("SPIELCENTER_GUEST_LIMIT", "1000000/hour")
    os.environ.setdefault("SPIELCENTER_SOCKETS_PER_ADDRESS", "1000000")
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(DATA_DIR=folder, DATABASE_URL=url)
        app = create_app(settings, freeze_startup_heap=True)
        async with app.router.lifespan_context(app):
            platform: Platform = app.state.platform
            players = await new_players(app, platform, args.players)
            for undo in (False, True):  # warm: every game played and taken back once
                await play_round(platform, players, undo, args.in_flight)
            gc.collect()
            if args.callgrind:
                callgrind(True)
            cpu, wall = time.process_time(), time.perf_counter()
            for number in tqdm(range(args.rounds), desc="rounds", leave=False):
                await play_round(platform, players, number % 2 == 1, args.in_flight)
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
            if args.callgrind:
                callgrind(False)
    entries = args.rounds * args.players
    return {
        "database": args.database,
        "players": args.players,
        "in_flight": args.in_flight,
        "entries": entries,
        "cpu_ms_per_entry": round(1000 * cpu / entries, 4),
        "wall_ms_per_entry": round(1000 * wall / entries, 4),
        "load_avg": round(os.getloadavg()[0], 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=6, help="measured entries per player")
    parser.add_argument("--in-flight", type=int, default=2, help="entries answered at a time")
    parser.add_argument("--callgrind", action="store_true", help="count only the measured rounds")
    parser.add_argument("--database", choices=["sqlite", "postgresql"], default="sqlite")
    parser.add_argument(
        "--database-url", metavar="URL", help="with --database postgresql: a running one's database"
    )
    args = parser.parse_args()
    if args.database_url and args.database != "postgresql":
        parser.error("--database-url: a PostgreSQL database, with --database postgresql")
    import uvloop  # as uvicorn runs the server

    uvloop.install()
    with database_url(args.database, args.database_url) as url:
        print(json.dumps(asyncio.run(measure(args, url))))


if __name__ == "__main__":
    main()
