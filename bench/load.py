"""Load on one and on two server processes (issues 10 and 40): tables, players, latency, memory.

For each configuration — ``--processes 1``: one ``spielcenter serve`` on SQLite (the embedded
default, ``--database sqlite``) or on a private PostgreSQL (``--database postgresql``);
``--processes 2``: two processes on one PostgreSQL with Redis (``server/cluster.py``) — and
each load level ``TABLES:PLAYERS``:

- ``TABLES`` Speedquilt tables, each with one scripted person and three computers (``--bots``,
  normal tempo). The person decides as the easy computer would, from her own view, as soon as the
  game waits for her; each decision's round trip (send → the ``table.event`` acknowledging it) is
  measured. With two processes a table is created on one process and half of the people's
  sockets are on the other one (as a load balancer would place them): their commands are routed
  to the owner and the events relayed back.
- ``PLAYERS`` patience players (Cruel), one entry a second each (a move, then its undo …), as
  bench/server.py's players (asking for what changed, as the browser does), each round trip
  measured to its ``event``; with two processes spread over both.

The people and the players are spread over ``--clients`` client processes (bench/server.py's
``ClientProcesses``), each reporting its own CPU. The same run measures a bare uvicorn WebSocket
echo with as many connections, one message a second each, from as many client processes: the
limit of this machine and of this client. Per level it reports p50, p95 and p99 of both round
trips, errors, each server process's CPU (100 % = one core) and peak memory, each client
process's CPU (a level where one of them used most of a core is marked ``client_saturated``: it
measured itself), the bytes of every message received by kind (``bytes``: its JSON and what it
took on the wire; bench/server.py's ``WireDeflate``) and the machine's load average (the machine
is shared); the servers run with
``SPIELCENTER_ENV=benchmark``, so their computers think in a process of their own
(``COMPUTER_PROCESSES``, bots/thinking.py), whose CPU is ``computer_cpu_pct``. The servers' logs are
kept; their folder is printed. ``--trace`` adds each server's latency report
(``SPIELCENTER_LATENCY_TRACE``, server/latency.py) to the last row of its configuration;
``--py-spy FOLDER`` samples each server over each measured window.

``--soak SECONDS`` instead keeps one level running on one process (``--soak 600``: the 10
minutes of the issue), with new clients every ``--every`` seconds, and samples memory and
latency per window. ``--tracemalloc FRAMES`` has the server trace its allocations
(``SPIELCENTER_TRACEMALLOC``, server/memwatch.py) and write a report after every window: which
allocation sites and object types grew (the report's path is in the row).

PostgreSQL and Redis are private servers on loopback ports, started from Debian's packages as in
the tests (tests/backends.py); ``--database-url URL`` runs one configuration on a database of a
PostgreSQL that already runs instead (the tests' smoke run passes one of its session cluster's).
Usage::

    uv run python bench/load.py                        # SQLite, one process: 20:100 and 100:500
    uv run python bench/load.py --levels 100:500 --seconds 20 --trace --json load-100.json
    uv run python bench/load.py --database postgresql --processes 1 2 --levels 5:25 10:50
    uv run python bench/load.py --database postgresql --database-url URL --processes 2
    uv run python bench/load.py --soak 600 --every 60 --levels 5:25 --figure docs/load-soak.png
    uv run python bench/load.py --soak 720 --every 120 --levels 5:25 --tracemalloc 6
    uv run python bench/load.py --from-json docs/load.json --figure docs/load.png   # redraw
    uv run python bench/load.py --soak 1 --from-json docs/load-soak-30min-after.json \
        --before docs/load-soak-30min.json --figure docs/load-soak-30min-after.png

The issue's row (100 tables, 500 players, one process, p99 of the decision ≤ 50 ms) is the
default's second level; take it on a quiet machine (``uptime`` below 1.5).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import signal
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
from tqdm import tqdm

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the private PostgreSQL and Redis of the tests
if TYPE_CHECKING:  # the client processes import this module: none of the server's stack
    from tests.reliability.servers import Server

from bench.server import (  # noqa: E402
    SATURATED_PCT,
    ClientResult,
    Go,
    Phase,
    _Player,
    _split,
    bytes_by_kind,
    client_processes,
    connect,
    count_bytes,
    cpu_seconds,
    free_port,
    new_players,
    play_share,
    py_spy,
    received,
    rss_mb,
    run_client,
    start_echo,
    wait_until_up,
)
from bench.server import WARM_UP_S as ECHO_WARM_UP_S  # noqa: E402
from bench.server import client_process as echo_client  # noqa: E402

from spielcenter.bots import get_bot  # noqa: E402
from spielcenter.games.base import get_game  # noqa: E402

SESSION = "spielcenter_session"
ENGINE = get_game("speedquilt", "table", players=4)  # as server/tables.py makes a table's
WARM_UP_S = 4.0
"""Not measured (``--warm-up``): every person creates her first table at once, and the first
moves follow."""


# -- what is measured -------------------------------------------------------------------------


@dataclass
class TableResult(ClientResult):
    """What one client process measured: its patience players' round trips (``trips_ms``, as
    in bench/server.py), and its people's decisions."""

    decisions_ms: list[float] = field(default_factory=list)
    computer_events: int = 0


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


# -- the client processes ---------------------------------------------------------------------


@dataclass
class Login:
    """A guest account: the cookie header and the CSRF token."""

    cookie: str
    csrf: str


async def guest(base: str) -> Login:
    """A new guest account (a client of its own: the shared one never keeps cookies)."""
    async with httpx.AsyncClient(timeout=60) as own:
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


def client_process(
    pipe: Connection,
    persons: list[tuple[str, int]],
    players: list[tuple[int, str, str]],
    bots: str,
) -> None:
    """A client process: ``persons`` (``(owner URL, socket port)``: one at a table each) and
    ``players`` (``(port, cookie, game id)``: patience players, as bench/server.py's)."""
    run_client(_client(pipe, persons, players, bots))


async def _client(
    pipe: Connection,
    persons: list[tuple[str, int]],
    players: list[tuple[int, str, str]],
    bots: str,
) -> None:
    limits = httpx.Limits(max_connections=50)
    async with httpx.AsyncClient(timeout=60, limits=limits) as client:
        people: list[Any] = [_Person(owner, port, client, bots) for owner, port in persons]
        # Patience players ask for what changed, as the browser does.
        patience = [_Player(port, cookie, game, True) for port, cookie, game in players]
        await play_share(pipe, [*people, *patience], TableResult())


class _Person:
    """One person at a Speedquilt table with three computers, table after table: each table is
    created on ``owner``, her socket is on the process at port ``near``. She decides as the easy
    computer would, from her own view, as soon as the game waits for her."""

    def __init__(self, owner: str, near: int, client: httpx.AsyncClient, bots: str) -> None:
        self.owner, self.near, self.client = owner, near, client
        self.body = {"players": 4, "bots": [bots] * 3, "tempo": "normal"}
        self.bot, self.memory = get_bot("easy"), {}  # type: ignore[var-annotated]
        self.ws: Any = None
        self.login: Login | None = None
        self.table: dict[str, Any] = {}

    async def connect(self, _result: ClientResult) -> None:
        # Her first table is made before the clients start: a hundred tables created at once
        # are a burst no window should measure.
        self.login = await guest(self.owner)
        self.table = await post(self.client, self.owner, self.login, "/api/tables", self.body)
        self.ws = await connect(
            f"ws://127.0.0.1:{self.near}/ws",
            additional_headers={"Cookie": self.login.cookie},
            max_queue=None,
            open_timeout=60,
        )

    async def play(self, go: Go, start_at: float, result: TableResult) -> None:
        assert self.login is not None
        await asyncio.sleep(max(0.0, start_at - time.perf_counter()))
        while time.perf_counter() < go.stop:
            self.memory.clear()
            opening = {"type": "table.open", "table_id": self.table["id"], "id": 0}
            await self.ws.send(json.dumps(opening))
            await self._play_table(self.table["id"], go, result)
            if time.perf_counter() < go.stop:  # the next table
                self.table = await post(
                    self.client, self.owner, self.login, "/api/tables", self.body
                )

    async def _play_table(self, table_id: str, go: Go, result: TableResult) -> None:
        seen: dict[str, Any] = {}
        number, sent = 0, 0.0
        pending, refused_at = False, -1
        while time.perf_counter() < go.stop:
            # After a refusal (``stale``: an event is on its way) she waits for news, as a browser.
            if seen and not pending and seen["seq"] != refused_at and her_turn(seen):
                view, seat = seen["view"], seen["seat"]
                move = await asyncio.to_thread(self.bot.decide, ENGINE, view, seat, self.memory)
                number += 1
                message = {"type": "table.move", "table_id": table_id, "move": move, "id": number}
                sent, pending = time.perf_counter(), True
                await self.ws.send(json.dumps({**message, "seq": seen["seq"]}))
            try:
                text, wire = await asyncio.wait_for(
                    received(self.ws), max(go.stop - time.perf_counter(), 0)
                )
            except TimeoutError:
                return
            reply, now = json.loads(text), time.perf_counter()
            measured = go.measure_from <= now < go.stop
            kind = reply.get("type")
            if measured:
                count_bytes(result, text, wire, kind)
            if kind in ("table.state", "table.event"):
                seen = reply
                if reply.get("ref") == number and pending:
                    if go.measure_from <= sent:
                        result.decisions_ms.append((now - sent) * 1000)
                    pending = False
                elif kind == "table.event" and measured:
                    result.computer_events += 1
            elif kind == "table.end":
                return
            elif kind == "error":
                if measured:
                    result.errors[str(reply.get("code"))] += 1
                pending, refused_at = False, seen.get("seq", -1)

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()


async def cruel_logins(servers: list[Server], players: int) -> list[tuple[int, str, str]]:
    """``players`` guests with a Cruel game each, spread over the servers (a player's game is on
    the process her socket is on): ``(port, cookie, game id)``."""
    made: list[tuple[int, str, str]] = []
    for k, server in enumerate(servers):
        count = players // len(servers) + (1 if k < players % len(servers) else 0)
        logins = await new_players(server.url, count) if count else []
        made += [(server.port, cookie, game) for cookie, game in logins]
    return made


# -- running a phase --------------------------------------------------------------------------


def children(pid: int) -> list[int]:
    """The child processes of ``pid`` (a server's computers' thinking process: bots/thinking.py)."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError):
            found += [int(c) for c in (task / "children").read_text().split()]
    return found


def cpu_of(pids: list[int]) -> float:
    """CPU seconds of the processes still running."""
    total = 0.0
    for pid in pids:
        with contextlib.suppress(OSError):
            total += cpu_seconds(pid)
    return total


@dataclass
class Watch:
    """CPU and peak memory of server processes over a window, and the CPU of their children
    (the computers think in a process of their own: ``computer_cpu_pct``)."""

    pids: list[int]
    cpu: list[float] = field(default_factory=list)
    started: float = 0.0
    peak_mb: list[float] = field(default_factory=list)
    helpers: list[list[int]] = field(default_factory=list)
    helper_cpu: list[float] = field(default_factory=list)

    def begin(self) -> None:
        self.cpu = [cpu_seconds(p) for p in self.pids]
        self.peak_mb = [rss_mb(p) for p in self.pids]
        self.helpers = [children(p) for p in self.pids]
        self.helper_cpu = [cpu_of(h) for h in self.helpers]
        self.started = time.monotonic()

    def look(self) -> None:
        self.peak_mb = [max(m, rss_mb(p)) for m, p in zip(self.peak_mb, self.pids, strict=True)]

    def result(self) -> dict[str, Any]:
        seconds = time.monotonic() - self.started
        used = [cpu_seconds(p) - c for p, c in zip(self.pids, self.cpu, strict=True)]
        helped = [cpu_of(h) - c for h, c in zip(self.helpers, self.helper_cpu, strict=True)]
        return {
            "cpu_pct": [round(100 * u / seconds, 1) for u in used],
            "computer_cpu_pct": [round(100 * u / seconds, 1) for u in helped],
            "rss_mb": [round(m, 1) for m in self.peak_mb],
        }


async def phase(
    servers: list[Server],
    tables: int,
    players: int,
    args: argparse.Namespace,
    seconds: float,
    bar: tqdm[Any],
) -> dict[str, Any]:
    """One load level on running servers, spread over ``args.clients`` client processes:
    every client connected, a warm-up, then ``seconds`` measured."""
    ports, urls = [s.port for s in servers], [s.url for s in servers]
    # Table i is created on process i % n; the person's socket is on (i // 2) % n.
    persons = [(urls[i % len(urls)], ports[(i // 2) % len(ports)]) for i in range(tables)]
    logins = await cruel_logins(servers, players)
    works = [
        (people, patience, args.bots)
        for people, patience in zip(
            _split(persons, args.clients), _split(logins, args.clients), strict=True
        )
    ]
    pids = [s.process.pid for s in servers if s.process is not None]
    with client_processes(client_process, works) as clients:
        await clients.ready()
        go = clients.go(seconds, warm_up_s=args.warm_up)
        profile = (args.py_spy, f"load{tables}t{players}p") if args.py_spy else None
        usage = await watch(pids, go, bar, profile)
        results: list[TableResult] = await clients.results()
    errors: Counter[str] = sum((r.errors for r in results), Counter())
    return {
        "processes": len(servers),
        "tables": tables,
        "players": players,
        "decision_ms": percentiles([t for r in results for t in r.decisions_ms]),
        "patience_ms": percentiles([t for r in results for t in r.trips_ms]),
        "computer_events_per_s": round(sum(r.computer_events for r in results) / seconds, 1),
        "errors": dict(errors),
        # The measured window on the machine's monotonic clock, as the servers' latency trace
        # times its stalls (server/latency.py): which of them fell into the window.
        "window": [round(go.measure_from, 3), round(go.stop, 3)],
        # Every message the people and the players received in the window, by kind: its JSON
        # and what it took on the wire (permessage-deflate as the server chose per message).
        "bytes": bytes_by_kind(results),
        **usage,
        **client_usage(results),
    }


def client_usage(results: list[Any]) -> dict[str, Any]:
    """Each client process's CPU (100 % = one core); a row where one of them used most of a
    core measures the client, not the server (bench/server.py, SATURATED_PCT)."""
    pct = [round(100 * r.cpu_s / r.seconds, 1) if r.seconds else 0.0 for r in results]
    return {"client_cpu_pct": pct, "client_saturated": any(p >= SATURATED_PCT for p in pct)}


async def watch(
    pids: list[int], go: Go, bar: tqdm[Any], profile: tuple[Path, str] | None = None
) -> dict[str, Any]:
    """The servers' CPU and peak memory and the machine's load average over the measured
    window; with ``profile`` (a folder and a name), py-spy's samples of each server."""
    await asyncio.sleep(max(0.0, go.measure_from - time.perf_counter()))
    watching, loads = Watch(pids), []
    watching.begin()
    seconds = go.stop - go.measure_from
    profilers = [
        py_spy(pid, profile[0], seconds, Phase(f"{profile[1]}-{k}", len(pids)))
        for k, pid in enumerate(pids)
        if profile is not None
    ]
    while time.perf_counter() < go.stop:
        await asyncio.sleep(0.5)
        watching.look()
        loads.append(os.getloadavg()[0])
        bar.update(0.5)
    for profiler in profilers:
        profiler.wait(60)
    return {
        **watching.result(),
        "load_avg": round(statistics.mean(loads), 1) if loads else None,
    }


async def echo_phase(connections: int, args: argparse.Namespace, bar: tqdm[Any]) -> dict[str, Any]:
    """The bare echo server with ``connections`` sockets, one message a second each, from as
    many client processes as the level (bench/server.py's echo players)."""
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        server = start_echo(port, folder)
        try:
            await wait_until_up(f"http://127.0.0.1:{port}/")
            works = [(port, n, False) for n in _split(connections, args.clients)]
            with client_processes(echo_client, works) as clients:
                await clients.ready()
                # bench/server.py's warm-up (no tables are created), or a shorter --warm-up.
                go = clients.go(args.seconds, warm_up_s=min(args.warm_up, ECHO_WARM_UP_S))
                usage = await watch([server.pid], go, bar)
                results = await clients.results()
        finally:
            server.terminate()
            server.wait(10)
    trips = [t for r in results for t in r.trips_ms]
    errors: Counter[str] = sum((r.errors for r in results), Counter())
    return {
        "connections": connections,
        "echo_ms": percentiles(trips),
        "errors": dict(errors),
        **usage,
        **client_usage(results),
    }


@contextlib.contextmanager
def spielcenter(
    count: int,
    database: str | None,
    redis: str,
    args: argparse.Namespace,
    wraps: list[list[str]] | None = None,
) -> Iterator[list[Server]]:
    """``count`` server processes on one database (SQLite in the data folder when ``None``;
    with Redis when more than one); with ``args.tracemalloc`` frames, tracing allocations
    (server/memwatch.py); with ``args.trace``, timing where entries wait (server/latency.py);
    with ``wraps``, process ``i`` runs under the command ``wraps[i]`` (bench/server.py's
    ``--callgrind``)."""
    from tests.reliability.servers import Server, start_together

    folder = Path(tempfile.mkdtemp(prefix="spielcenter-load-"))
    env = {
        "SPIELCENTER_ENV": "benchmark",
        "SPIELCENTER_SECRET_KEY": "benchmark-only",
        "SPIELCENTER_DAILY_SECRET": "benchmark-only",
        "SPIELCENTER_DATA_DIR": str(folder),
        # Every client comes from one address; the benchmark measures play, not the limiter.
        "SPIELCENTER_SOCKET_MESSAGE_LIMIT": "1000/second",
        "SPIELCENTER_GUEST_LIMIT": "1000000/hour",
        "SPIELCENTER_SOCKETS_PER_ADDRESS": "1000000",
    }
    if database:
        env["SPIELCENTER_DATABASE_URL"] = database
    if count > 1:
        env["SPIELCENTER_REDIS_URL"] = redis
    if args.tracemalloc:
        env["SPIELCENTER_TRACEMALLOC"] = str(args.tracemalloc)
    if args.trace:
        env["SPIELCENTER_LATENCY_TRACE"] = "1"
    servers = [
        Server(env, folder / f"server-{i}.log", wrap=wraps[i] if wraps else None)
        for i in range(count)
    ]
    try:
        start_together(servers)
        yield servers
    finally:
        # All asked to stop at once: each shuts down while the others do (one by one, a
        # process's tables would first be taken over by the others, and the waits add up).
        for server in servers:
            if server.running:
                assert server.process is not None
                server.process.terminate()
        for server in servers:
            server.stop()
        print(f"server logs: {folder}", file=sys.stderr)


@contextlib.contextmanager
def backends(args: argparse.Namespace) -> Iterator[tuple[Callable[[], str | None], str]]:
    """New databases (none: SQLite, a private PostgreSQL's, or ``--database-url`` for the one
    configuration) and a private Redis's URL when several processes run (tests/backends.py)."""
    from tests.backends import postgres_cluster, redis_server

    with contextlib.ExitStack() as stack:
        new_database: Callable[[], str | None] = lambda: None  # noqa: E731
        if args.database_url:
            new_database = lambda: args.database_url  # noqa: E731
        elif args.database == "postgresql":
            durable = getattr(args, "durable", False)  # bench/server.py's: as an operator runs it
            new_database = stack.enter_context(postgres_cluster(durable)).new_database
        redis = stack.enter_context(redis_server()).url if max(args.processes) > 1 else ""
        yield new_database, redis


def levels(text: list[str]) -> list[tuple[int, int]]:
    """``TABLES:PLAYERS`` pairs."""
    return [(int(a), int(b)) for a, b in (t.split(":") for t in text)]


async def load(args: argparse.Namespace) -> list[dict[str, Any]]:
    pairs = levels(args.levels)
    rows: list[dict[str, Any]] = []
    total = args.seconds * len(pairs) * (len(args.processes) + (0 if args.no_echo else 1))
    bar = tqdm(total=total, unit="s", desc="load")
    for tables, players in [] if args.no_echo else pairs:
        echoed = await echo_phase(tables + players, args, bar)
        rows.append({"target": "uvicorn echo", "tables": tables, "players": players, **echoed})
        bar.write(json.dumps(rows[-1]))
    with backends(args) as (new_database, redis):
        for count in args.processes:
            with spielcenter(count, new_database(), redis, args) as servers:
                for tables, players in pairs:
                    row = await phase(servers, tables, players, args, args.seconds, bar)
                    rows.append({"target": "spielcenter", "database": args.database, **row})
                    bar.write(json.dumps(rows[-1]))
            if args.trace:
                rows[-1]["trace"] = traces(servers)
    bar.close()
    return rows


def traces(servers: list[Server]) -> list[Any]:
    """The servers' latency reports (written at their shutdown), with their files."""
    reports = []
    for server in servers:
        assert server.process is not None
        path = Path(server.env["SPIELCENTER_DATA_DIR"], f"latency-{server.process.pid}.json")
        report = json.loads(path.read_text()) if path.exists() else {"missing": True}
        reports.append({**report, "file": str(path)})
    return reports


async def soak(args: argparse.Namespace) -> list[dict[str, Any]]:
    """One level on one process for ``--soak`` seconds; a row per ``--every`` seconds."""
    [(tables, players)] = levels(args.levels)
    rows: list[dict[str, Any]] = []
    bar = tqdm(total=args.soak, unit="s", desc="soak")
    with backends(args) as (new_database, _), spielcenter(1, new_database(), "", args) as servers:
        started = time.monotonic()
        for _ in range(int(args.soak // args.every)):
            # New people and tables each window: what leaks on arrival and departure shows.
            row = await phase(servers, tables, players, args, args.every, bar)
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
    parser.add_argument("--levels", nargs="+", default=["20:100", "100:500"])
    parser.add_argument(
        "--processes",
        type=int,
        nargs="+",
        default=[1],
        help="server processes per configuration (two and more: PostgreSQL and Redis)",
    )
    parser.add_argument("--database", choices=["sqlite", "postgresql"], default="sqlite")
    parser.add_argument(
        "--database-url",
        metavar="URL",
        help="with --database postgresql: this database of a running PostgreSQL (empty or"
        " Spielcenter's; one configuration) instead of a private cluster",
    )
    parser.add_argument(
        "--clients", type=int, default=2, help="client processes the load is spread over"
    )
    parser.add_argument("--seconds", type=float, default=20.0, help="measured per level")
    parser.add_argument(
        "--warm-up", type=float, default=WARM_UP_S, help="unmeasured seconds before each window"
    )
    parser.add_argument("--no-echo", action="store_true", help="skip the bare echo's rows")
    parser.add_argument(
        "--trace", action="store_true", help="the servers' stage timings, loop lag and GC pauses"
    )
    parser.add_argument(
        "--py-spy", type=Path, metavar="FOLDER", help="sample each server with py-spy (raw)"
    )
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
    if max(args.processes) > 1 and args.database == "sqlite":
        parser.error("several processes share one database: add --database postgresql")
    if args.database_url and (args.database != "postgresql" or len(args.processes) > 1):
        parser.error("--database-url: one PostgreSQL database, one --processes")
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
