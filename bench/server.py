"""Issue 4's server benchmark: N players on loopback, each playing a patience move every second.

For each N (default 100, 500, 1000) the script starts ``spielcenter serve`` on a fresh data
folder, creates N guest accounts with a Cruel game each, opens N WebSockets and lets every
player send one entry per second (a legal move, then its undo, and so on: the game never ends and
every entry is a committed log entry). It measures the round trip from sending a message to
receiving its ``event`` (p50, p99, max), errors, and the server process's CPU and peak memory.

In the same run a bare uvicorn WebSocket echo server gets the same load; its round trip is the
limit of this machine and this client (the client itself is one Python process), to compare with.

Loopback only; every phase is bounded in time. Usage::

    uv run python bench/server.py                 # N = 100, 500, 1000; 10 s each
    uv run python bench/server.py --players 100 --seconds 5
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets
from tqdm import tqdm

from spielcenter.games.base import get_game

HOST = "127.0.0.1"
ECHO_APP = """
async def app(scope, receive, send):
    if scope["type"] == "lifespan":
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            else:
                await send({"type": "lifespan.shutdown.complete"})
                return
    elif scope["type"] == "websocket":
        await receive()  # websocket.connect
        await send({"type": "websocket.accept"})
        while True:
            message = await receive()
            if message["type"] == "websocket.disconnect":
                return
            await send({"type": "websocket.send", "text": message.get("text")})
    else:  # plain HTTP: the readiness probe
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})
"""


@dataclass
class Sample:
    """What one load phase measured."""

    target: str
    players: int
    round_trips_ms: list[float] = field(default_factory=list)
    errors: int = 0
    error_kinds: Counter[str] = field(default_factory=Counter)
    cpu_s: float = 0.0
    seconds: float = 0.0
    peak_rss_mb: float = 0.0

    def summary(self) -> dict[str, Any]:
        trips = sorted(self.round_trips_ms)

        def pct(p: float) -> float | None:
            return round(trips[min(len(trips) - 1, int(p * len(trips)))], 2) if trips else None

        return {
            "target": self.target,
            "players": self.players,
            "messages": len(trips),
            "errors": self.errors,
            "error_kinds": dict(self.error_kinds),
            "p50_ms": round(statistics.median(trips), 2) if trips else None,
            "p99_ms": pct(0.99),
            "max_ms": round(trips[-1], 2) if trips else None,
            "server_cpu_pct": round(100 * self.cpu_s / self.seconds, 1) if self.seconds else None,
            "server_peak_rss_mb": round(self.peak_rss_mb, 1),
        }


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of a process (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int) -> float:
    """Resident memory of a process in MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


async def wait_until_up(url: str, deadline_s: float = 30) -> None:
    end = time.monotonic() + deadline_s
    async with httpx.AsyncClient() as client:
        while time.monotonic() < end:
            try:
                await client.get(url, timeout=1)
                return
            except httpx.TransportError:
                await asyncio.sleep(0.1)
    raise RuntimeError(f"{url} did not come up within {deadline_s} s")


def start_spielcenter(port: int, data_dir: str) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "SPIELCENTER_ENV": "benchmark",
        "SPIELCENTER_SECRET_KEY": "benchmark-only",
        # Outside development the server refuses to start without the daily quilt's key; a fresh
        # random one per run, since no daily quilt of this throw-away server is ever compared.
        "SPIELCENTER_DAILY_SECRET": secrets.token_hex(32),
        # Every player comes from 127.0.0.1; the benchmark measures play, not the limiter.
        "SPIELCENTER_SOCKET_MESSAGE_LIMIT": "100/second",
        "SPIELCENTER_GUEST_LIMIT": "1000000/hour",
        "SPIELCENTER_SOCKETS_PER_ADDRESS": "1000000",
    }
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "spielcenter",
            "serve",
            "--host",
            HOST,
            "--port",
            str(port),
            "--data-dir",
            data_dir,
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def start_echo(port: int, folder: str) -> subprocess.Popen[bytes]:
    Path(folder, "echo_app.py").write_text(ECHO_APP)
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "echo_app:app",
            "--host",
            HOST,
            "--port",
            str(port),
            "--log-level",
            "warning",
            "--app-dir",
            folder,
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def deals(count: int) -> list[int]:
    """The first ``count`` Cruel deals that have a legal move at the start."""
    cruel, found, deal = get_game("cruel"), [], 0
    while len(found) < count:
        deal += 1
        if cruel.legal_moves(cruel.start(deal)):
            found.append(deal)
    return found


async def new_player(client: httpx.AsyncClient, base: str, deal: int) -> tuple[str, str]:
    """A guest with a Cruel game: its cookie header and game id."""
    me = (await client.get(f"{base}/api/me")).json()
    cookie = f"spielcenter_session={client.cookies['spielcenter_session']}"
    created = await client.post(
        f"{base}/api/games",
        json={"game": "cruel", "deal": deal},
        headers={"X-CSRF-Token": me["csrf"], "Cookie": cookie},
    )
    client.cookies.clear()
    return cookie, created.json()["id"]


async def play_spielcenter(
    port: int, cookie: str, game_id: str, stop: float, sample: Sample, start_in: float
) -> None:
    """One player: open the game, then one entry a second until ``stop``."""
    await asyncio.sleep(start_in)
    async with websockets.connect(
        f"ws://{HOST}:{port}/ws", additional_headers={"Cookie": cookie}, max_queue=None
    ) as ws:
        await ws.send(json.dumps({"type": "open", "game_id": game_id}))
        view = json.loads(await ws.recv())["view"]
        undo_next, number = False, 0
        while time.monotonic() < stop:
            number += 1
            if undo_next:
                message = {"type": "undo", "game_id": game_id, "id": number}
            else:
                message = {"type": "move", "game_id": game_id, "move": view["legal"][0]}
                message["id"] = number
            sent = time.perf_counter()
            await ws.send(json.dumps(message))
            reply = json.loads(await ws.recv())
            if reply.get("type") == "event":
                sample.round_trips_ms.append((time.perf_counter() - sent) * 1000)
                view, undo_next = reply["view"], not undo_next
            else:
                sample.errors += 1
                sample.error_kinds[str(reply.get("code"))] += 1
            await asyncio.sleep(max(0.0, 1.0 - (time.perf_counter() - sent)))


async def play_echo(port: int, stop: float, sample: Sample, start_in: float) -> None:
    """One echo client: the same rhythm against the bare server."""
    await asyncio.sleep(start_in)
    async with websockets.connect(f"ws://{HOST}:{port}/", max_queue=None) as ws:
        payload = json.dumps({"type": "move", "game_id": "x" * 32, "move": "3f", "id": 1})
        while time.monotonic() < stop:
            sent = time.perf_counter()
            await ws.send(payload)
            await ws.recv()
            sample.round_trips_ms.append((time.perf_counter() - sent) * 1000)
            await asyncio.sleep(max(0.0, 1.0 - (time.perf_counter() - sent)))


async def measure(
    target: str, players: int, seconds: float, pid: int, runs: list[Any], bar: tqdm[Any]
) -> Sample:
    """Run the players (staggered over the first second) and watch the server process."""
    sample = Sample(target, players)
    ramp = 1.0
    stop = time.monotonic() + ramp + seconds
    tasks = [
        asyncio.create_task(run(sample, stop, i * ramp / players)) for i, run in enumerate(runs)
    ]
    await asyncio.sleep(ramp)  # connections are made; measure the steady state
    cpu_before, started = cpu_seconds(pid), time.monotonic()
    while time.monotonic() < stop:
        await asyncio.sleep(0.5)
        sample.peak_rss_mb = max(sample.peak_rss_mb, rss_mb(pid))
        bar.update(0.5)
    sample.cpu_s, sample.seconds = cpu_seconds(pid) - cpu_before, time.monotonic() - started
    results = await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), 30)
    for result in results:
        if isinstance(result, BaseException):
            sample.errors += 1
            sample.error_kinds[type(result).__name__] += 1
    return sample


async def bench(players_list: list[int], seconds: float) -> list[dict[str, Any]]:
    summaries = []
    bar = tqdm(total=2 * len(players_list) * seconds, unit="s", desc="server bench")
    for players in players_list:
        with tempfile.TemporaryDirectory() as folder:
            port = free_port()
            echo = start_echo(port, folder)
            try:
                await wait_until_up(f"http://{HOST}:{port}/")
                runs = [
                    lambda sample, stop, start_in, p=port: play_echo(p, stop, sample, start_in)
                ] * players
                echoed = await measure("uvicorn echo", players, seconds, echo.pid, runs, bar)
            finally:
                echo.terminate()
                echo.wait(10)
            port = free_port()
            server = start_spielcenter(port, folder)
            try:
                base = f"http://{HOST}:{port}"
                await wait_until_up(f"{base}/health")
                async with httpx.AsyncClient() as client:
                    logins = [await new_player(client, base, deal) for deal in deals(players)]
                runs = [
                    lambda sample, stop, start_in, p=port, c=cookie, g=game: play_spielcenter(
                        p, c, g, stop, sample, start_in
                    )
                    for cookie, game in logins
                ]
                served = await measure("spielcenter", players, seconds, server.pid, runs, bar)
            finally:
                server.terminate()
                server.wait(10)
        summaries += [echoed.summary(), served.summary()]
    bar.close()
    return summaries


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, nargs="+", default=[100, 500, 1000])
    parser.add_argument("--seconds", type=float, default=10.0, help="steady state per phase")
    parser.add_argument("--json", type=Path, help="also write the results to this file")
    args = parser.parse_args()
    summaries = asyncio.run(bench(args.players, args.seconds))
    columns = list(summaries[0])
    print(" | ".join(columns))
    for row in summaries:
        print(" | ".join(str(row[column]) for column in columns))
    if args.json:
        args.json.write_text(json.dumps(summaries, indent=1) + "\n")


if __name__ == "__main__":
    main()
