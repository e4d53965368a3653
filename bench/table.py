"""CPU and instructions per Speedquilt table event of the server's event loop, in one process.

    uv run python bench/table.py [--tables 20] [--events 3000] [--warm-up 400] [--pause 0.01]
    uv run python bench/table.py --profile table.prof          # cProfile of the loop thread
    uv run valgrind --tool=callgrind --instr-atstart=no python bench/table.py \\
        --tables 10 --events 600 --callgrind                  # instructions, from the window

What a table event costs the server but uvicorn's and websockets' part (bench/entry.py does the
same for a patience entry): the app's lifespan on a fresh SQLite folder, ``--tables`` guests
each at a table of her own with three easy computers (as ``bench/load.py``'s people), table
after table. Each person's socket is a :class:`PersonSocket` that keeps what it is sent; as soon
as the game waits for her she sends a ``table.move`` through the socket's answer
(``server/websocket.py``), decided from her own view as the easy computer would (as
``bench/load.py``'s people decide), in a process of the bench's own: what is measured is the
server, not her thinking (``--in-threads``: the people and the computers think in threads of
the bench's process, quicker to start, as the smoke run does). The
computers think in their process (``COMPUTER_PROCESSES``, as in ``bench/load.py``) during a
``--pause`` of their tempo. A table event is every committed decision (a person's, a
computer's): its check and apply, its commit (the group commit's batch, or the last decision's
own transaction with the result, the pot and the leaderboards), its views and their encoding;
a new table after each end, and its opening.

Counted over the window of ``--events`` events after ``--warm-up`` ones (every table started,
the computers' process running, caches warm): the loop thread's CPU per event
(``time.thread_time`` in the loop, less the people's own parse and choice, which is reported
too), the process's CPU per event (every thread of the server: the group commit's SQLite thread
as well), the means of the tables' stages (``server/latency.py``'s names), and the tables
finished. ``--profile FILE`` keeps a cProfile of the loop thread over the window (timed by
``time.thread_time``: a host's load does not count), ``--callgrind`` turns callgrind's counting
on for the window only; an instruction count moves far less with a busy host than CPU time
(docs/performance.md, "A table event's CPU").
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import gc
import json
import os
import random
import subprocess
import tempfile
import time
from collections import defaultdict
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from multiprocessing import get_context
from typing import Any

import httpx
from starlette.websockets import WebSocketState
from tqdm import tqdm

from spielcenter.bots import get_bot
from spielcenter.games.seeds import SecretSeed
from spielcenter.server import websocket
from spielcenter.server.app import create_app
from spielcenter.server.deps import Platform
from spielcenter.server.hub import Connection
from spielcenter.server.registry import TableRegistry
from spielcenter.server.tables import speedquilt_engine
from spielcenter.settings import Settings

BOTS = ["easy"] * 3
"""The three computers at each table, as ``bench/load.py``'s default."""


class Window:
    """Counts the tables' events (every decision's ``table_apply`` stage) and their stages; tells
    the bench when the warm-up and the window are over."""

    def __init__(self, warm_up: int, events: int) -> None:
        self.warm_up, self.events = warm_up, events
        self.count = 0
        self.measuring = False
        self.stages: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
        self.started = asyncio.Event()
        self.over = asyncio.Event()
        self.person_s = 0.0
        """The people's own time in the loop over the window (parsing and choosing)."""
        self.finished = 0

    def __call__(self, stage: str, ms: float) -> None:
        if stage == "table_apply":
            self.count += 1
            if self.count == self.warm_up:
                self.started.set()
            elif self.count == self.warm_up + self.events:
                self.over.set()
        if self.measuring:
            kept = self.stages[stage]
            kept[0] += 1
            kept[1] += ms


class PersonSocket:
    """A person's socket: keeps what it is sent, and wakes her."""

    application_state = WebSocketState.CONNECTED

    def __init__(self, app: Any) -> None:
        self.app = app
        self.inbox: list[str] = []
        self.news = asyncio.Event()

    async def send_text(self, text: str) -> None:
        self.inbox.append(text)
        self.news.set()

    async def close(self, code: int) -> None:
        raise RuntimeError(f"the server closed a person's socket ({code})")


def her_turn(seen: dict[str, Any]) -> bool:
    """Whether the game waits for the person (in her own turn once no window is open), as
    bench/load.py's people decide."""
    me, acting = seen.get("seat"), seen.get("to_act", [])
    if me not in acting or not seen.get("legal"):
        return False
    turn = seen["view"].get("turn") or {}
    return bool(acting == [me] or turn.get("seat") != me)


class Person:
    """One guest at a table with three computers, table after table."""

    def __init__(self, app: Any, thinking: Executor) -> None:
        self.platform: Platform = app.state.platform
        self.registry: TableRegistry = app.state.tables
        self.memory: dict[str, Any] = {}
        self.thinking = thinking
        self.socket = PersonSocket(app)
        self.connection: Connection | None = None
        self.number = 0

    async def sit_down(self, client: httpx.AsyncClient) -> None:
        """A guest account (as a browser gets one: ``/api/me``) and her socket in the hub."""
        client.cookies.clear()
        me = await client.get("/api/me")
        login = await self.platform.sessions.resolve(me.cookies["spielcenter_session"])
        assert login is not None
        self.connection = Connection(self.socket, login, "127.0.0.1")  # type: ignore[arg-type]
        self.platform.hub.add(self.connection)

    async def play(self, window: Window) -> None:
        while not window.over.is_set():
            await self._play_table(window)

    async def _send(self, message: dict[str, Any]) -> None:
        assert self.connection is not None
        self.number += 1
        frame = {"type": "websocket.receive", "text": json.dumps({**message, "id": self.number})}
        await websocket._answer(self.platform, self.connection, frame)

    async def _play_table(self, window: Window) -> None:
        assert self.connection is not None
        actor = await self.registry.create(
            self.connection.login.account_id, players=4, bots=BOTS, tempo="normal"
        )
        await self._send({"type": "table.open", "table_id": actor.id})
        seen: dict[str, Any] = {}
        self.memory = {}
        while not window.over.is_set():
            await self.socket.news.wait()
            began = time.thread_time()
            self.socket.news.clear()
            texts, self.socket.inbox = self.socket.inbox, []
            for text in texts:
                reply = json.loads(text)
                kind = reply.get("type")
                if kind in ("table.state", "table.event"):
                    seen = reply
                elif kind == "table.end":
                    window.finished += window.measuring
                    if window.measuring:
                        window.person_s += time.thread_time() - began
                    return
                elif kind == "error" and reply.get("code") != "stale":
                    raise RuntimeError(f"refused: {reply}")
            mine = seen if seen and her_turn(seen) else None
            if window.measuring:
                window.person_s += time.thread_time() - began
            if mine is not None:
                loop = asyncio.get_running_loop()
                thought = (mine["view"], mine["seat"], self.memory)
                move, self.memory = await loop.run_in_executor(self.thinking, decide, *thought)
                message = {"type": "table.move", "table_id": actor.id, "move": move}
                await self._send({**message, "seq": seen["seq"]})


PERSON = get_bot("easy")
"""How the people decide (in the bench's thinking process)."""
ENGINE = speedquilt_engine("table", {"players": 4})


def decide(view: dict[str, Any], seat: int, memory: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """A person's decision and her memory after it (in the bench's thinking process)."""
    return PERSON.decide(ENGINE, view, seat, memory), memory


def callgrind(on: bool) -> None:
    """Turn valgrind's callgrind counting on or off for this process."""
    state = "on" if on else "off"
    subprocess.run(["callgrind_control", "-i", state, str(os.getpid())], capture_output=True)


def fixed_seeds(first: int) -> Any:
    """Secret seeds drawn from a seeded generator: the same deals run after run."""
    draw = random.Random(first)
    return lambda: SecretSeed(draw.randbytes(32))


async def measure(args: argparse.Namespace) -> dict[str, Any]:
    os.environ.setdefault("SPIELCENTER_ENV", "benchmark")
    os.environ.setdefault("SPIELCENTER_SECRET_KEY", "benchmark-only")
    os.environ.setdefault("SPIELCENTER_DAILY_SECRET", "b" * 64)
    os.environ.setdefault("SPIELCENTER_GUEST_LIMIT", "1000000/hour")
    os.environ.setdefault("SPIELCENTER_SOCKETS_PER_ADDRESS", "1000000")
    os.environ.setdefault("SPIELCENTER_SOCKET_MESSAGE_LIMIT", "1000000/second")
    if args.in_threads:  # no process to start: the smoke run
        os.environ["SPIELCENTER_COMPUTER_PROCESSES"] = "0"
    window = Window(args.warm_up, args.events)
    with tempfile.TemporaryDirectory() as folder, contextlib.ExitStack() as stack:
        delays = {"normal": args.pause}
        app = create_app(Settings(DATA_DIR=folder), freeze_startup_heap=True, table_delays=delays)
        async with app.router.lifespan_context(app):
            registry: TableRegistry = app.state.tables
            registry.service.timing = window
            registry.service.fresh_seed = fixed_seeds(args.seed)
            thinking: Executor = (
                ThreadPoolExecutor(1)
                if args.in_threads
                else ProcessPoolExecutor(1, mp_context=get_context("spawn"))
            )
            stack.enter_context(thinking)
            people = [Person(app, thinking) for _ in range(args.tables)]
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as c:
                for person in people:
                    await person.sit_down(c)
            playing = [asyncio.create_task(person.play(window)) for person in people]
            bar = tqdm(total=args.warm_up + args.events, desc="table events", leave=False)
            await until(window.started, playing, window, bar)
            gc.collect()
            profile = cProfile.Profile(time.thread_time) if args.profile else None
            if args.callgrind:
                callgrind(True)
            if profile is not None:
                profile.enable()
            window.measuring = True
            loop_cpu, cpu, wall = time.thread_time(), time.process_time(), time.perf_counter()
            await until(window.over, playing, window, bar)
            loop_cpu = time.thread_time() - loop_cpu
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
            window.measuring = False
            if profile is not None:
                profile.disable()
                profile.dump_stats(args.profile)
            if args.callgrind:
                callgrind(False)
            bar.close()
            for task in playing:  # a person may be waiting for her table's next event
                task.cancel()
            await asyncio.gather(*playing, return_exceptions=True)
    events = args.events
    server_loop = loop_cpu - window.person_s
    return {
        "tables": args.tables,
        "events": events,
        "tables_finished": window.finished,
        "loop_cpu_ms_per_event": round(1000 * server_loop / events, 4),
        "process_cpu_ms_per_event": round(1000 * (cpu - window.person_s) / events, 4),
        "people_ms_per_event": round(1000 * window.person_s / events, 4),
        "events_per_s": round(events / wall, 1),
        "stages_mean_ms": {
            stage: round(total / n, 3) for stage, (n, total) in sorted(window.stages.items()) if n
        },
        "load_avg": round(os.getloadavg()[0], 2),
    }


async def until(
    event: asyncio.Event, playing: list[asyncio.Task[None]], window: Window, bar: tqdm[Any]
) -> None:
    """Wait for ``event``; a person's failure (a refusal, a server error) ends the bench."""
    while not event.is_set():
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(event.wait(), 0.5)
        for task in playing:
            if task.done():
                task.result()
        bar.n = window.count
        bar.refresh()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=20, help="people, each at her own table")
    parser.add_argument("--events", type=int, default=3000, help="table events measured")
    parser.add_argument("--warm-up", type=int, default=400, help="table events before them")
    parser.add_argument(
        "--pause", type=float, default=0.01, help="seconds before each computer move"
    )
    parser.add_argument("--seed", type=int, default=1, help="of the tables' secret seeds")
    parser.add_argument(
        "--in-threads",
        action="store_true",
        help="computers and people think in threads of this process (quicker to start; their"
        " thinking then counts in the process's CPU)",
    )
    parser.add_argument("--profile", help="write a cProfile (thread CPU) of the loop here")
    parser.add_argument("--callgrind", action="store_true", help="count only the measured window")
    args = parser.parse_args()
    import uvloop  # as uvicorn runs the server

    uvloop.install()
    print(json.dumps(asyncio.run(measure(args))))


if __name__ == "__main__":
    main()
