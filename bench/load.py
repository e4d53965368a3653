"""Load on one and on two server processes (issue 10): tables, players, latency, memory.

For each configuration — one ``spielcenter serve`` on PostgreSQL, and two processes on the same
PostgreSQL with Redis (``server/cluster.py``) — and each load level ``TABLES:PLAYERS``:

- ``TABLES`` Speedquilt tables, each with one scripted person and three computers (``--bots``,
  normal tempo). The person decides as the easy computer would, from her own view, as soon as the
  game waits for her; each decision's round trip (send → the ``table.event`` acknowledging it) is
  measured. With two processes a table is created on one process and half of the people's
  sockets are on the other one (as a load balancer would place them): their commands are routed
  to the owner and the events relayed back.
- ``PLAYERS`` patience players (Cruel), one entry a second each (a move, then its undo …), each
  round trip measured to its ``event``; with two processes spread over both.

The same run measures a bare uvicorn WebSocket echo with as many connections, one message a
second each: the limit of this machine and of this one-process client. Per level it reports p50,
p95 and p99 of both round trips, errors, each server process's CPU (100 % = one core) and peak
memory, this client's CPU (a level where it used most of a core is marked ``client_saturated``)
and the machine's load average (the machine is shared). The servers'
logs are kept; their folder is printed.

``--soak SECONDS`` instead keeps one level running on one process (``--soak 600``: the 10
minutes of the issue), with new clients every ``--every`` seconds, and samples memory and
latency per window. ``--tracemalloc FRAMES`` has the server trace its allocations
(``SPIELCENTER_TRACEMALLOC``, server/memwatch.py) and write a report after every window: which
allocation sites and object types grew (the report's path is in the row).

PostgreSQL and Redis are private servers on loopback ports, started from Debian's packages as in
the tests (tests/backends.py). Usage::

    uv run python bench/load.py                          # levels 5:25 10:50 20:100, 20 s each
    uv run python bench/load.py --levels 5:20 --seconds 5 --processes 2
    uv run python bench/load.py --soak 600 --every 60 --levels 5:25 --figure docs/load-soak.png
    uv run python bench/load.py --soak 720 --every 120 --levels 5:25 --tracemalloc 6
    uv run python bench/load.py --from-json docs/load.json --figure docs/load.png   # redraw
    uv run python bench/load.py --soak 1 --from-json docs/load-soak-30min-after.json \
        --before docs/load-soak-30min.json --figure docs/load-soak-30min-after.png
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets
from tqdm import tqdm

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the private PostgreSQL and Redis of the tests

from bench.server import (  # noqa: E402
    SATURATED_PCT,
    cpu_seconds,
    rss_mb,
    start_echo,
    wait_until_up,
)
from tests.backends import free_port, postgres_cluster, redis_server  # noqa: E402
from tests.reliability.servers import Server, start_together  # noqa: E402

from spielcenter.bots import get_bot  # noqa: E402
from spielcenter.games.base import get_game  # noqa: E402
from spielcenter.server.tables import speedquilt_engine  # noqa: E402

SESSION = "spielcenter_session"
ENGINE = speedquilt_engine("table", {"players": 4})


# -- what is measured -------------------------------------------------------------------------


@dataclass
class Sample:
    """Round trips and errors of one phase (or one soak window); ``stop`` ends the clients
    (set once every client is connected), ``ready`` counts the connected ones."""

    stop: float = float("inf")
    ready: int = 0

    decisions_ms: list[float] = field(default_factory=list)
    patience_ms: list[float] = field(default_factory=list)
    echo_ms: list[float] = field(default_factory=list)
    computer_events: int = 0
    errors: Counter[str] = field(default_factory=Counter)

    def reset(self) -> None:
        """Start a new window (the ramp-up is not measured)."""
        self.decisions_ms, self.patience_ms, self.echo_ms = [], [], []
        self.computer_events = 0
        self.errors = Counter()


def percentiles(values: list[float]) -> dict[str, float | None]:
    """p50, p95, p99 of round trips in ms."""
    ordered = sorted(values)

    def at(p: float) -> float | None:
        return round(ordered[min(len(ordered) - 1, int(p * len(ordered)))], 1) if ordered else None

    return {
        "n": len(ordered),
        "p50": round(statistics.median(ordered), 1) if ordered else None,
        "p95": at(0.95),
        "p99": at(0.99),
    }


# -- the clients ------------------------------------------------------------------------------


@dataclass
class Login:
    """A guest account: the cookie header and the CSRF token."""

    cookie: str
    csrf: str


async def guest(base: str) -> Login:
    """A new guest account (a client of its own: the shared one never keeps cookies)."""
    async with httpx.AsyncClient(timeout=30) as own:
        response = await own.get(f"{base}/api/me")
        response.raise_for_status()
        return Login(f"{SESSION}={response.cookies[SESSION]}", response.json()["csrf"])


async def post(client: httpx.AsyncClient, base: str, login: Login, path: str, body: Any) -> Any:
    response = await client.post(
        f"{base}{path}", json=body, headers={"X-CSRF-Token": login.csrf, "Cookie": login.cookie}
    )
    if response.status_code >= 400:
        raise RuntimeError(f"{path}: {response.status_code} {response.text[:200]}")
    return response.json()


def her_turn(seen: dict[str, Any]) -> bool:
    """Whether the game waits for the person (in her own turn once no window is open)."""
    me, acting = seen.get("seat"), seen.get("to_act", [])
    if me not in acting or not seen.get("legal"):
        return False
    turn = seen["view"].get("turn") or {}
    return bool(acting == [me] or turn.get("seat") != me)


async def person(
    owner: str, near: int, client: httpx.AsyncClient, bots: str, sample: Sample
) -> None:
    """One person at a Speedquilt table with three computers, table after table until
    ``stop``: the table is created on ``owner``, her socket is on the process at port ``near``."""
    login = await guest(owner)
    bot, memory = get_bot("easy"), {}  # type: ignore[var-annotated]
    body = {"players": 4, "bots": [bots] * 3, "tempo": "normal"}
    async with websockets.connect(
        f"ws://127.0.0.1:{near}/ws", additional_headers={"Cookie": login.cookie}, max_queue=None
    ) as ws:
        first = True
        while time.monotonic() < sample.stop:
            table = await post(client, owner, login, "/api/tables", body)
            memory.clear()
            await ws.send(json.dumps({"type": "table.open", "table_id": table["id"], "id": 0}))
            if first:
                sample.ready, first = sample.ready + 1, False
            await _play_table(ws, table["id"], bot, memory, sample)


async def _play_table(
    ws: Any, table_id: str, bot: Any, memory: dict[str, Any], sample: Sample
) -> None:
    seen: dict[str, Any] = {}
    number, sent = 0, 0.0
    pending, refused_at = False, -1
    while time.monotonic() < sample.stop:
        # After a refusal (``stale``: an event is on its way) she waits for news, as a browser.
        if seen and not pending and seen["seq"] != refused_at and her_turn(seen):
            move = await asyncio.to_thread(bot.decide, ENGINE, seen["view"], seen["seat"], memory)
            number += 1
            message = {"type": "table.move", "table_id": table_id, "move": move, "id": number}
            sent, pending = time.perf_counter(), True
            await ws.send(json.dumps({**message, "seq": seen["seq"]}))
        try:
            reply = json.loads(await asyncio.wait_for(ws.recv(), _left(sample)))
        except TimeoutError:
            return
        kind = reply.get("type")
        if kind in ("table.state", "table.event"):
            seen = reply
            if reply.get("ref") == number and pending:
                sample.decisions_ms.append((time.perf_counter() - sent) * 1000)
                pending = False
            elif kind == "table.event":
                sample.computer_events += 1
        elif kind == "table.end":
            return
        elif kind == "error":
            sample.errors[str(reply.get("code"))] += 1
            pending, refused_at = False, seen.get("seq", -1)


def _left(sample: Sample) -> float:
    return max(min(sample.stop - time.monotonic(), 60.0), 0.0)


async def ramp_up(sample: Sample, clients: int, seconds: float) -> None:
    """Wait until every client is connected (at most a minute), then measure ``seconds``."""
    give_up = time.monotonic() + 60
    while sample.ready < clients and time.monotonic() < give_up:
        await asyncio.sleep(0.2)
    await asyncio.sleep(2)  # the first decisions and entries are not measured
    sample.reset()
    sample.stop = time.monotonic() + seconds


def cruel_deals(count: int) -> Iterator[int]:
    """Cruel deals that have a legal move at the start."""
    cruel, deal, found = get_game("cruel"), 0, 0
    while found < count:
        deal += 1
        if cruel.legal_moves(cruel.start(deal)):
            found += 1
            yield deal


async def patience(
    base: str, port: int, client: httpx.AsyncClient, deal: int, sample: Sample
) -> None:
    """One patience player: one entry a second (a move, then its undo …) until ``stop``."""
    login = await guest(base)
    game = await post(client, base, login, "/api/games", {"game": "cruel", "deal": deal})
    async with websockets.connect(
        f"ws://127.0.0.1:{port}/ws", additional_headers={"Cookie": login.cookie}, max_queue=None
    ) as ws:
        await ws.send(json.dumps({"type": "open", "game_id": game["id"]}))
        view = json.loads(await ws.recv())["view"]
        undo, number = False, 0
        sample.ready += 1
        await asyncio.sleep(random.random())  # spread over the second
        while time.monotonic() < sample.stop:
            number += 1
            message: dict[str, Any] = {"type": "undo" if undo else "move", "id": number}
            if not undo:
                message["move"] = view["legal"][0]
            sent = time.perf_counter()
            await ws.send(json.dumps({**message, "game_id": game["id"]}))
            reply = json.loads(await ws.recv())
            if reply.get("type") == "event":
                sample.patience_ms.append((time.perf_counter() - sent) * 1000)
                view, undo = reply["view"], not undo
            else:  # refused: look at the game again, as a browser does
                sample.errors[str(reply.get("code"))] += 1
                await ws.send(json.dumps({"type": "open", "game_id": game["id"]}))
                view = json.loads(await ws.recv())["view"]
                undo = view["can_undo"]
            await asyncio.sleep(max(0.0, 1.0 - (time.perf_counter() - sent)))


async def echo(port: int, sample: Sample) -> None:
    """One connection to the bare echo server, one message a second."""
    async with websockets.connect(f"ws://127.0.0.1:{port}/", max_queue=None) as ws:
        sample.ready += 1
        await asyncio.sleep(random.random())
        payload = json.dumps({"type": "table.move", "table_id": "x" * 32, "move": "roll", "id": 1})
        while time.monotonic() < sample.stop:
            sent = time.perf_counter()
            await ws.send(payload)
            await ws.recv()
            sample.echo_ms.append((time.perf_counter() - sent) * 1000)
            await asyncio.sleep(max(0.0, 1.0 - (time.perf_counter() - sent)))


# -- running a phase --------------------------------------------------------------------------


@dataclass
class Watch:
    """CPU and peak memory of server processes over a window."""

    pids: list[int]
    cpu: list[float] = field(default_factory=list)
    started: float = 0.0
    peak_mb: list[float] = field(default_factory=list)

    def begin(self) -> None:
        self.cpu = [cpu_seconds(p) for p in self.pids]
        self.peak_mb = [rss_mb(p) for p in self.pids]
        self.started = time.monotonic()

    def look(self) -> None:
        self.peak_mb = [max(m, rss_mb(p)) for m, p in zip(self.peak_mb, self.pids, strict=True)]

    def result(self) -> dict[str, Any]:
        seconds = time.monotonic() - self.started
        used = [cpu_seconds(p) - c for p, c in zip(self.pids, self.cpu, strict=True)]
        return {
            "cpu_pct": [round(100 * u / seconds, 1) for u in used],
            "rss_mb": [round(m, 1) for m in self.peak_mb],
        }


async def phase(
    servers: list[Server], tables: int, players: int, bots: str, seconds: float, bar: tqdm[Any]
) -> dict[str, Any]:
    """One load level on running servers: every client connected, then ``seconds`` measured."""
    sample = Sample()
    ports = [s.port for s in servers]
    urls = [s.url for s in servers]
    async with httpx.AsyncClient(timeout=30, limits=httpx.Limits(max_connections=50)) as client:
        tasks = [
            # Table i is created on process i % n; the person's socket is on (i // 2) % n.
            asyncio.create_task(
                person(urls[i % len(urls)], ports[(i // 2) % len(ports)], client, bots, sample)
            )
            for i in range(tables)
        ]
        tasks += [
            asyncio.create_task(
                patience(urls[j % len(urls)], ports[j % len(ports)], client, deal, sample)
            )
            for j, deal in enumerate(cruel_deals(players))
        ]
        await ramp_up(sample, tables + players, seconds)
        usage = await watch([s.process.pid for s in servers if s.process is not None], sample, bar)
        failures = await asyncio.gather(*tasks, return_exceptions=True)
    for failure in failures:
        if isinstance(failure, BaseException):
            sample.errors[f"{type(failure).__name__}: {str(failure)[:80]}"] += 1
    return {
        "processes": len(servers),
        "tables": tables,
        "players": players,
        "connected": sample.ready,
        "decision_ms": percentiles(sample.decisions_ms),
        "patience_ms": percentiles(sample.patience_ms),
        "computer_events_per_s": round(sample.computer_events / seconds, 1),
        "errors": dict(sample.errors),
        **usage,
    }


async def watch(pids: list[int], sample: Sample, bar: tqdm[Any]) -> dict[str, Any]:
    """The servers' CPU and peak memory, this client's CPU and the machine's load average
    while the measured window runs."""
    watching = Watch(pids)
    watching.begin()
    client_cpu, loads = time.process_time(), []
    while time.monotonic() < sample.stop:
        await asyncio.sleep(0.5)
        watching.look()
        loads.append(os.getloadavg()[0])
        bar.update(0.5)
    seconds = time.monotonic() - watching.started
    client_pct = round(100 * (time.process_time() - client_cpu) / seconds, 1)
    return {
        **watching.result(),
        "client_cpu_pct": client_pct,
        # A client using most of a core measures itself (bench/server.py, SATURATED_PCT).
        "client_saturated": client_pct >= SATURATED_PCT,
        "load_avg": round(statistics.mean(loads), 1) if loads else None,
    }


async def echo_phase(connections: int, seconds: float, bar: tqdm[Any]) -> dict[str, Any]:
    """The bare echo server with ``connections`` sockets, one message a second each."""
    sample = Sample()
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        server = start_echo(port, folder)
        try:
            await wait_until_up(f"http://127.0.0.1:{port}/")
            tasks = [asyncio.create_task(echo(port, sample)) for _ in range(connections)]
            await ramp_up(sample, connections, seconds)
            usage = await watch([server.pid], sample, bar)
            await asyncio.gather(*tasks, return_exceptions=True)
        finally:
            server.terminate()
            server.wait(10)
    return {"connections": connections, "echo_ms": percentiles(sample.echo_ms), **usage}


@contextlib.contextmanager
def spielcenter(
    count: int, database: str, redis: str, tracemalloc: int = 0
) -> Iterator[list[Server]]:
    """``count`` server processes on one database (with Redis when more than one); with
    ``tracemalloc`` frames, tracing allocations (server/memwatch.py)."""
    folder = Path(tempfile.mkdtemp(prefix="spielcenter-load-"))
    env = {
        "SPIELCENTER_ENV": "benchmark",
        "SPIELCENTER_SECRET_KEY": "benchmark-only",
        "SPIELCENTER_DAILY_SECRET": "benchmark-only",
        "SPIELCENTER_DATABASE_URL": database,
        "SPIELCENTER_DATA_DIR": str(folder),
        # Every client comes from one address; the benchmark measures play, not the limiter.
        "SPIELCENTER_SOCKET_MESSAGE_LIMIT": "1000/second",
        "SPIELCENTER_GUEST_LIMIT": "1000000/hour",
        "SPIELCENTER_SOCKETS_PER_ADDRESS": "1000000",
    }
    if count > 1:
        env["SPIELCENTER_REDIS_URL"] = redis
    if tracemalloc:
        env["SPIELCENTER_TRACEMALLOC"] = str(tracemalloc)
    servers = [Server(env, folder / f"server-{i}.log") for i in range(count)]
    try:
        start_together(servers)
        yield servers
    finally:
        for server in servers:
            server.stop()
        print(f"server logs: {folder}", file=sys.stderr)


def levels(text: list[str]) -> list[tuple[int, int]]:
    """``TABLES:PLAYERS`` pairs."""
    return [(int(a), int(b)) for a, b in (t.split(":") for t in text)]


async def load(args: argparse.Namespace) -> list[dict[str, Any]]:
    pairs = levels(args.levels)
    rows: list[dict[str, Any]] = []
    total = args.seconds * len(pairs) * (len(args.processes) + 1)
    bar = tqdm(total=total, unit="s", desc="load")
    for tables, players in pairs:
        echoed = await echo_phase(tables + players, args.seconds, bar)
        rows.append({"target": "uvicorn echo", "tables": tables, "players": players, **echoed})
    with postgres_cluster() as cluster, redis_server() as redis:
        for count in args.processes:
            with spielcenter(count, cluster.new_database(), redis.url) as servers:
                for tables, players in pairs:
                    row = await phase(servers, tables, players, args.bots, args.seconds, bar)
                    rows.append({"target": "spielcenter", **row})
                    bar.write(json.dumps(rows[-1]))
    bar.close()
    return rows


async def soak(args: argparse.Namespace) -> list[dict[str, Any]]:
    """One level on one process for ``--soak`` seconds; a row per ``--every`` seconds."""
    [(tables, players)] = levels(args.levels)
    rows: list[dict[str, Any]] = []
    bar = tqdm(total=args.soak, unit="s", desc="soak")
    with (
        postgres_cluster() as cluster,
        spielcenter(1, cluster.new_database(), "", args.tracemalloc) as servers,
    ):
        started = time.monotonic()
        for _ in range(int(args.soak // args.every)):
            # New people and tables each window: what leaks on arrival and departure shows.
            row = await phase(servers, tables, players, args.bots, args.every, bar)
            row["minute"] = round((time.monotonic() - started) / 60, 1)
            if args.tracemalloc:
                row["memory_report"] = await memory_report(servers[0])
            rows.append(row)
            bar.write(json.dumps(row))
    bar.close()
    return rows


async def memory_report(server: Server) -> str:
    """Have a traced server write its allocation report (``SIGUSR1``); the report's path."""
    assert server.process is not None
    folder = Path(server.env["SPIELCENTER_DATA_DIR"])
    before = set(folder.glob("memory-*.txt"))
    os.kill(server.process.pid, signal.SIGUSR1)
    for _ in range(600):  # a snapshot of a large heap takes seconds
        await asyncio.sleep(0.1)
        new = set(folder.glob("memory-*.txt")) - before
        if new:
            await asyncio.sleep(0.5)  # let it finish writing
            return str(new.pop())
    return "no report within 60 s"


def draw(
    rows: list[dict[str, Any]],
    figure: Path,
    soaking: bool,
    before: list[dict[str, Any]] | None = None,
) -> None:
    """The figure of docs/performance.md; a soak's memory beside an earlier soak's (``before``)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8))
    if soaking:
        minutes = [r["minute"] for r in rows]
        label = "after" if before else None
        axes[0].plot(minutes, [r["rss_mb"][0] for r in rows], marker="o", label=label)
        if before:
            earlier = ([r["minute"] for r in before], [r["rss_mb"][0] for r in before])
            axes[0].plot(*earlier, "s--", color="grey", label="before")
        axes[0].set(xlabel="minutes", ylabel="peak RSS (MB)", title="server memory")
        for key, label in (("decision_ms", "table decision"), ("patience_ms", "patience entry")):
            axes[1].plot(minutes, [r[key]["p95"] for r in rows], marker="o", label=f"{label} p95")
        axes[1].set(xlabel="minutes", ylabel="ms", title="round trip over time")
        axes[1].set_yscale("log")
        load = axes[1].twinx()  # the machine's load explains the latency
        load.plot(minutes, [r["load_avg"] for r in rows], "k:", label="load average")
        load.set_ylabel("load average (2 cores)")
        load.legend(loc="lower left")
    else:
        served = [r for r in rows if r["target"] == "spielcenter"]
        for count, colour in ((1, "tab:blue"), (2, "tab:orange")):
            mine = [r for r in served if r["processes"] == count]
            label = f"{count} process{'es' if count > 1 else ''}"
            for axis, key in zip(axes, ("decision_ms", "patience_ms"), strict=True):
                x = [r["tables"] for r in mine]
                axis.plot(
                    x, [r[key]["p50"] for r in mine], "o-", color=colour, label=f"{label} p50"
                )
                axis.plot(
                    x, [r[key]["p95"] for r in mine], "o--", color=colour, label=f"{label} p95"
                )
        echoed = [r for r in rows if r["target"] == "uvicorn echo"]
        for axis in axes:
            x, y = [r["tables"] for r in echoed], [r["echo_ms"]["p95"] for r in echoed]
            axis.plot(x, y, "x:", color="tab:green", label="bare echo p95")
            axis.set_yscale("log")
        axes[0].set(xlabel="tables (1 person, 3 computers)", ylabel="ms", title="decision → ack")
        axes[1].set(
            xlabel="tables (and 5 patience players per table)",
            ylabel="ms",
            title="patience entry → event",
        )
    for axis in axes:
        if axis.get_legend_handles_labels()[0]:
            axis.legend()
        axis.grid(alpha=0.3)
    loads = [r["load_avg"] for r in rows if r.get("load_avg") is not None]
    note = f"2 cores shared with the team; load average {min(loads):.1f}–{max(loads):.1f}"
    fig.text(0.01, 0.01, note if loads else "2 cores shared with the team", fontsize=7)
    fig.tight_layout()
    fig.savefig(figure, dpi=110)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", nargs="+", default=["5:25", "10:50", "20:100"])
    parser.add_argument("--processes", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--seconds", type=float, default=20.0, help="measured per level")
    parser.add_argument("--bots", default="easy", choices=["easy", "normal", "strong"])
    parser.add_argument("--soak", type=float, help="soak for this many seconds instead")
    parser.add_argument("--every", type=float, default=30.0, help="soak window in seconds")
    parser.add_argument(
        "--tracemalloc",
        type=int,
        default=0,
        metavar="FRAMES",
        help="soak only: trace the server's allocations, a report after every window",
    )
    parser.add_argument("--json", type=Path, help="also write the rows to this file")
    parser.add_argument("--figure", type=Path, help="draw the figure into this PNG")
    parser.add_argument("--from-json", type=Path, help="only draw the figure of these rows")
    parser.add_argument("--before", type=Path, help="soak rows to draw beside (the memory)")
    args = parser.parse_args()
    before = json.loads(args.before.read_text()) if args.before else None
    if args.from_json:
        draw(json.loads(args.from_json.read_text()), args.figure, bool(args.soak), before)
        return
    rows = asyncio.run(soak(args) if args.soak else load(args))
    for row in rows:
        print(json.dumps(row))
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1) + "\n")
    if args.figure:
        draw(rows, args.figure, bool(args.soak), before)


if __name__ == "__main__":
    main()
