"""Issues 4 and 40: N patience players on loopback, each playing a patience move every second.

For each N the script starts ``spielcenter serve`` (one process) on a fresh data folder and
database, creates N guest accounts with a Cruel game each, opens N WebSockets and lets every
player send one entry per second (a legal move, then its undo, and so on: the game never ends
and every entry is a committed log entry). In the same run a bare uvicorn WebSocket echo server
gets the same load from the same clients: the limit of this machine and this client.

Per row: the round trip from sending a message to its ``event`` (p50, p99, max), messages and
errors, the server process's CPU (100 % = one core) and CPU milliseconds per entry (process
CPU time / entries answered: steadier than any latency on a shared machine), its peak memory,
the bytes of an event (its JSON, and as permessage-deflate with context takeover would send it),
``bytes``: every message received in the window by kind, its JSON and what it took on the wire
(the frame before decompression, as the server chose to compress it or not), the machine's load
average, and the clients' own CPU. The players are spread over ``--clients``
processes; a row where one of them used ``SATURATED_PCT`` of a core or more is marked
``client_saturated``: its latency is the client's, not the server's.

The players (and the echo's sockets) talk through the benchmark's own lean WebSocket client
(:class:`LeanSocket`: one frame per message, masked and compressed as a browser sends it, read
straight off the transport); ``--websockets-client`` gives them websockets' client instead, as
before 7 Dec 2026. Each answer must be the event of the entry just sent (its ``ref``, the game's
next ``seq``), or the player stops with an error.

``--processes N`` runs N server processes on one private PostgreSQL behind a private Redis (as
bench/load.py starts them; the cluster flushes every commit to the disk, as the one-process
rows' does) and spreads the players over them; the row gives each process's CPU
(``process_cpu_pct``; ``server_cpu_pct`` and the CPU per entry are of all of them together),
PostgreSQL's (with its backends) and Redis's (``postgres_cpu_pct``, ``redis_cpu_pct``), and
``all_cpu_ms_per_entry``: the servers', PostgreSQL's, Redis's and the clients' CPU per entry,
what the run asks of the machine's cores.

``--database-url URL`` runs on a database of a PostgreSQL that already runs (a fresh one: the
tests' smoke run passes one of its session cluster's) instead of starting a private cluster.
``--warm-up`` is the unmeasured time after the players' staggered first second (2 s).

``--trace`` has the server time where entries wait (``SPIELCENTER_LATENCY_TRACE``,
server/latency.py: its lock, the group commit, the view, the send; the event loop's lag; the
garbage collector's pauses) and lays the slow round trips beside the server's stalls.

``--callgrind FOLDER`` runs each server under valgrind's callgrind, counting only the measured
window: the row's ``instructions_per_entry`` (every thread of the server, uvicorn's and
websockets' part included) moves far less with a busy host than its CPU time does. It runs some
50 times slower: a few players (``--players 8 --seconds 40 --clients 1``), batches of one.

Loopback only; every phase is bounded in time. Usage::

    uv run python bench/server.py                             # the issue's rows: 200 600 1000
    uv run python bench/server.py --players 200 600 1000 --seconds 20 --json server.json
    uv run python bench/server.py --players 1000 --trace      # where the slow entries waited
    uv run python bench/server.py --players 600 --database postgresql   # a private PostgreSQL
    uv run python bench/server.py --players 100 --seconds 5 --clients 1
    uv run python bench/server.py --players 2000 --processes 2 --database postgresql  # + Redis
    uv run python bench/server.py --players 600 --database postgresql --database-url URL
    uv run python bench/server.py --players 8 --seconds 40 --clients 1 --callgrind cg/

The issue's rows are the defaults: SQLite, one server process, 1 entry/s per player, two client
processes; run them on a quiet machine (``uptime`` below 1.5) and put the rows, with the load
average they print, into docs/performance.md.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import json
import multiprocessing
import os
import secrets
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import zlib
from collections import Counter, deque
from collections.abc import Callable, Coroutine, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.cookiejar import CookieJar, DefaultCookiePolicy
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import httpx
import uvloop
import websockets
from tqdm import tqdm
from websockets.extensions.base import Extension
from websockets.extensions.permessage_deflate import (
    ClientPerMessageDeflateFactory,
    PerMessageDeflate,
)
from websockets.frames import CTRL_OPCODES, Frame
from websockets.speedups import apply_mask
from websockets.typing import ExtensionParameter
from websockets.utils import accept_key

from spielcenter.games.base import get_game

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests' client of the protocol
from tests.protocol import apply_changes

HOST = "127.0.0.1"
WARM_UP_S = 2.0
"""Entries before the measured window (the first opens, the first commits) are not measured."""
SATURATED_PCT = 85.0
"""A client process using this much of a core measures itself: its row is marked."""
SLOW_TRIP_MS = 50.0
"""Round trips at least this long are laid beside the server's stalls (``--trace``)."""
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


# -- the server processes ---------------------------------------------------------------------


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


async def wait_until_up(url: str, deadline_s: float = 120) -> None:
    end = time.monotonic() + deadline_s
    async with httpx.AsyncClient() as client:
        while time.monotonic() < end:
            try:
                await client.get(url, timeout=1)
                return
            except httpx.TransportError:
                await asyncio.sleep(0.1)
    raise RuntimeError(f"{url} did not come up within {deadline_s} s")


def start_spielcenter(
    port: int,
    data_dir: str,
    database_url: str | None = None,
    trace: bool = False,
    wrap: list[str] | None = None,
) -> subprocess.Popen[bytes]:
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
    if database_url:
        env["SPIELCENTER_DATABASE_URL"] = database_url
    if trace:
        env["SPIELCENTER_LATENCY_TRACE"] = "1"
    command = [sys.executable, "-m", "spielcenter", "serve", "--host", HOST, "--port", str(port)]
    return subprocess.Popen(
        [*(wrap or []), *command, "--data-dir", data_dir],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def start_echo(port: int, folder: str, wrap: list[str] | None = None) -> subprocess.Popen[bytes]:
    Path(folder, "echo_app.py").write_text(ECHO_APP)
    return subprocess.Popen(
        [
            *(wrap or []),
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
    me = await client.get(f"{base}/api/me")
    cookie = f"spielcenter_session={me.cookies['spielcenter_session']}"
    created = await client.post(
        f"{base}/api/games",
        json={"game": "cruel", "deal": deal},
        headers={"X-CSRF-Token": me.json()["csrf"], "Cookie": cookie},
    )
    created.raise_for_status()
    return cookie, created.json()["id"]


async def new_players(base: str, count: int) -> list[tuple[str, str]]:
    """``count`` guests with a game each, made 20 at a time."""
    made: list[tuple[str, str]] = []
    wanted = deals(count)
    # A jar that keeps nothing: every guest's cookie travels in its own header.
    jar = CookieJar(DefaultCookiePolicy(allowed_domains=[]))
    async with httpx.AsyncClient(timeout=60, cookies=jar) as client:
        for start in range(0, count, 20):
            batch = [new_player(client, base, d) for d in wanted[start : start + 20]]
            made += await asyncio.gather(*batch)
    return made


# -- the client processes ---------------------------------------------------------------------


class WireDeflate(PerMessageDeflate):
    """A client's permessage-deflate (as websockets and browsers offer it) that notes how many
    bytes each data frame took on the wire, header included, before it is decompressed."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.arrived: deque[int] = deque()

    def decode(self, frame: Frame, *, max_size: int | None = None) -> Frame:
        if frame.opcode not in CTRL_OPCODES:
            self.arrived.append(wire_size(len(frame.data)))
        return super().decode(frame, max_size=max_size)


class WireDeflateFactory(ClientPerMessageDeflateFactory):
    """websockets' own offer of permessage-deflate (its default settings), agreeing to a
    :class:`WireDeflate`."""

    def __init__(self) -> None:
        super().__init__(compress_settings={"memLevel": 5})

    def process_response_params(
        self, params: Sequence[ExtensionParameter], accepted_extensions: Sequence[Extension]
    ) -> PerMessageDeflate:
        agreed = super().process_response_params(params, accepted_extensions)
        return WireDeflate(
            agreed.remote_no_context_takeover,
            agreed.local_no_context_takeover,
            agreed.remote_max_window_bits,
            agreed.local_max_window_bits,
            agreed.compress_settings,
        )


def wire_size(payload: int) -> int:
    """A server's frame on the wire: its payload and its header (unmasked; RFC 6455 5.2)."""
    return payload + 2 + (2 if payload >= 126 else 0) + (6 if payload >= 1 << 16 else 0)


async def connect(url: str, **options: Any) -> Any:
    """A client socket offering permessage-deflate as websockets does by default, whose
    messages' bytes on the wire :func:`received` reports: a :class:`LeanSocket`, or with
    ``LEAN = False`` websockets' own client."""
    if LEAN:
        return await LeanSocket.open(url, options.get("additional_headers", {}))
    return await websockets.connect(
        url, compression=None, extensions=[WireDeflateFactory()], **options
    )


async def received(ws: Any) -> tuple[str, int]:
    """The next message of a socket made by :func:`connect`, and the bytes it took on the wire
    (without permessage-deflate agreed: its frame as it is)."""
    if isinstance(ws, LeanSocket):
        return await ws.received()
    text = await ws.recv()
    for extension in ws.protocol.extensions:
        if isinstance(extension, WireDeflate) and extension.arrived:
            return text, extension.arrived.popleft()
    return text, wire_size(len(text.encode()))


LEAN = not os.environ.get("SPIELCENTER_BENCH_WEBSOCKETS")
"""The players talk through :class:`LeanSocket`; with ``--websockets-client`` (this variable
set, for the client processes too) through websockets' own client."""
TAIL = b"\x00\x00\xff\xff"
"""RFC 7692 7.2.1: a compressed message ends with an empty stored block, not sent."""


class LeanSocket(asyncio.Protocol):
    """A WebSocket client of the benchmark's own (RFC 6455, with permessage-deflate of RFC 7692
    offered as websockets offers it: ``client_max_window_bits``, context takeover): a text
    message is one frame each way, written and read straight on the transport.

    websockets' client cost about 0.2 ms of CPU per round trip of the benchmark (its frames
    parsed by a generator, its locks, futures and tasks per message): at 2 000 players its
    client processes took more of the 2-core machine than a server process. This one does what
    the benchmark needs and no more — and all a browser's socket does to the server: every
    message it sends is masked and compressed (the server unmasks and decompresses it), it
    takes what the server compresses and what it leaves as it is (RSV1), answers pings, and
    tells what each message took on the wire (:func:`wire_size`)."""

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.buffer = bytearray()
        self.handshake: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        self.messages: deque[tuple[str, int]] = deque()
        self.waiter: asyncio.Future[None] | None = None
        self.closed: BaseException | None = None
        self.compressor: Any = None
        self.decompressor: Any = None
        self.reset_compressor = self.reset_decompressor = False
        self.client_bits = 15
        self.parts: list[bytes] = []
        self.compressed = False
        self.wire = 0

    @classmethod
    async def open(cls, url: str, headers: dict[str, str]) -> LeanSocket:
        """Connect and shake hands (``ws://host:port/path``)."""
        parts = urllib.parse.urlsplit(url)
        loop = asyncio.get_running_loop()
        _, socket = await loop.create_connection(cls, parts.hostname, parts.port)
        key = base64.b64encode(os.urandom(16))
        lines = [
            f"GET {parts.path or '/'} HTTP/1.1",
            f"Host: {parts.hostname}:{parts.port}",
            "Upgrade: websocket",
            "Connection: Upgrade",
            f"Sec-WebSocket-Key: {key.decode()}",
            "Sec-WebSocket-Version: 13",
            "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits",
            *(f"{name}: {value}" for name, value in headers.items()),
        ]
        assert socket.transport is not None
        socket.transport.write(("\r\n".join(lines) + "\r\n\r\n").encode())
        head = await asyncio.wait_for(socket.handshake, 60)
        socket.agree(head, key)
        return socket

    def agree(self, head: bytes, key: bytes) -> None:
        """Check the server's answer to the handshake; take the deflate it agreed to."""
        status, *fields = head.decode("latin-1").split("\r\n")
        if status.split(" ")[1:2] != ["101"]:
            raise ConnectionError(f"handshake refused: {status}")
        pairs = (field.partition(":") for field in fields)
        answer = {name.strip().lower(): value.strip() for name, _, value in pairs}
        if answer.get("sec-websocket-accept") != accept_key(key.decode()):
            raise ConnectionError("the server's Sec-WebSocket-Accept is wrong")
        deflate = answer.get("sec-websocket-extensions", "")
        if deflate.startswith("permessage-deflate"):
            split = (param.partition("=") for param in deflate.split(";"))
            params = {name.strip(): value.strip() for name, _, value in split}
            self.client_bits = int(params.get("client_max_window_bits") or 15)
            self.reset_compressor = "client_no_context_takeover" in params
            self.reset_decompressor = "server_no_context_takeover" in params
            self.compressor = self._new_compressor()
            self.decompressor = zlib.decompressobj(wbits=-15)

    def _new_compressor(self) -> Any:
        # websockets' client's settings (WireDeflateFactory): memLevel 5.
        return zlib.compressobj(wbits=-self.client_bits, memLevel=5)

    # -- asyncio.Protocol ----------------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]  # a stream's (uvloop's own class)

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        if not self.handshake.done():
            end = self.buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            self.handshake.set_result(bytes(self.buffer[:end]))
            del self.buffer[: end + 4]
        self._frames()

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = exc or ConnectionError("the socket closed")
        if not self.handshake.done():
            self.handshake.set_exception(self.closed)
        self._wake()

    # -- frames ------------------------------------------------------------------------------

    def _frames(self) -> None:
        buffer = self.buffer
        while len(buffer) >= 2:
            first, length = buffer[0], buffer[1] & 0x7F
            start = 2
            if length == 126:
                if len(buffer) < 4:
                    return
                length, start = int.from_bytes(buffer[2:4], "big"), 4
            elif length == 127:
                if len(buffer) < 10:
                    return
                length, start = int.from_bytes(buffer[2:10], "big"), 10
            if len(buffer) < start + length:
                return
            payload = bytes(buffer[start : start + length])
            del buffer[: start + length]
            self._frame(first, payload)

    def _frame(self, first: int, payload: bytes) -> None:
        opcode = first & 0x0F
        if opcode >= 0x8:  # control: close, ping, pong
            if opcode == 0x9:
                self._write(0xA, payload, compress=False)
            elif opcode == 0x8:
                self.closed = ConnectionError("the server closed the socket")
                self._wake()
            return
        if opcode != 0x0:  # the first frame of a message says whether it is compressed
            self.compressed, self.parts, self.wire = bool(first & 0x40), [], 0
        self.parts.append(payload)
        self.wire += wire_size(len(payload))
        if not first & 0x80:
            return
        data = b"".join(self.parts)
        if self.compressed:
            data = self.decompressor.decompress(data + TAIL)
            if self.reset_decompressor:
                self.decompressor = zlib.decompressobj(wbits=-15)
        self.messages.append((data.decode(), self.wire))
        self._wake()

    def _wake(self) -> None:
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_result(None)

    def _write(self, opcode: int, data: bytes, compress: bool) -> None:
        first = 0x80 | opcode
        if compress and self.compressor is not None:
            data = self.compressor.compress(data) + self.compressor.flush(zlib.Z_SYNC_FLUSH)
            data, first = data[:-4], first | 0x40
            if self.reset_compressor:
                self.compressor = self._new_compressor()
        length = len(data)
        if length < 126:
            head = bytes((first, 0x80 | length))
        elif length < 1 << 16:
            head = bytes((first, 0x80 | 126)) + length.to_bytes(2, "big")
        else:
            head = bytes((first, 0x80 | 127)) + length.to_bytes(8, "big")
        mask = os.urandom(4)  # a client masks every frame (RFC 6455 5.3)
        assert self.transport is not None
        self.transport.write(head + mask + apply_mask(data, mask))

    # -- the socket's side for the players ---------------------------------------------------

    async def send(self, text: str) -> None:
        """Send one text message (compressed when deflate was agreed, as a browser does)."""
        if self.closed is not None:
            raise self.closed
        self._write(0x1, text.encode(), compress=True)

    async def received(self) -> tuple[str, int]:
        """The next message and the bytes it took on the wire."""
        while not self.messages:
            if self.closed is not None:
                raise self.closed
            self.waiter = asyncio.get_running_loop().create_future()
            await self.waiter
        return self.messages.popleft()

    async def recv(self) -> str:
        """The next message."""
        return (await self.received())[0]

    async def close(self) -> None:
        """Say goodbye (close code 1000) and close the connection."""
        if self.transport is not None and not self.transport.is_closing():
            if self.closed is None:
                self._write(0x8, (1000).to_bytes(2, "big"), compress=False)
            self.transport.close()


@dataclass
class ClientResult:
    """What one client process measured in the window."""

    trips_ms: list[float] = field(default_factory=list)
    slow: list[tuple[float, float]] = field(default_factory=list)
    """``(sent, ms)`` of round trips of at least ``SLOW_TRIP_MS`` (``perf_counter``)."""
    errors: Counter[str] = field(default_factory=Counter)
    event_bytes: list[int] = field(default_factory=list)
    deflated_bytes: list[int] = field(default_factory=list)
    state_bytes: list[int] = field(default_factory=list)
    wire: dict[str, list[int]] = field(default_factory=dict)
    """Per kind of message received: ``[count, bytes of JSON, bytes on the wire]``."""
    cpu_s: float = 0.0
    seconds: float = 0.0


@dataclass(frozen=True)
class Go:
    """When the players start (staggered over a second), measuring starts, and they stop."""

    begin: float
    measure_from: float
    stop: float


def count_bytes(result: ClientResult, text: str, wire: int, kind: Any = None) -> None:
    """Count one message received in ``result.wire`` under its kind (its ``type``)."""
    if kind is None:
        kind = json.loads(text).get("type")
    counts = result.wire.setdefault(str(kind), [0, 0, 0])
    counts[0] += 1
    counts[1] += len(text.encode())
    counts[2] += wire


def bytes_by_kind(results: Sequence[ClientResult]) -> dict[str, dict[str, float]]:
    """Every client's messages by kind: how many, mean bytes of JSON and on the wire."""
    total: dict[str, list[int]] = {}
    for result in results:
        for kind, (n, text, wire) in result.wire.items():
            counts = total.setdefault(kind, [0, 0, 0])
            counts[0] += n
            counts[1] += text
            counts[2] += wire
    return {
        kind: {"n": n, "json": round(text / n, 1), "wire": round(wire / n, 1)}
        for kind, (n, text, wire) in sorted(total.items())
    }


class Deflated:
    """The bytes permessage-deflate (context takeover, as browsers and uvicorn agree on) would
    send for each message of one socket."""

    def __init__(self) -> None:
        self.compressor = zlib.compressobj(wbits=-15)

    def size(self, text: str) -> int:
        data = self.compressor.compress(text.encode()) + self.compressor.flush(zlib.Z_SYNC_FLUSH)
        return len(data) - 4  # the trailing 00 00 ff ff is not sent


def client_process(
    pipe: Connection, port: int, logins: list[tuple[str, str]] | int, changes: bool
) -> None:
    """A client process: ``logins`` players of Spielcenter (asking for events with what
    changed, as the browser does, unless ``changes`` is false), or that many echo sockets."""
    run_client(_client(pipe, port, logins, changes))


def run_client(main: Coroutine[Any, Any, None]) -> None:
    """Run a client process's work on uvloop's event loop (as the server runs on): asyncio's
    own loop spent a good part of the client's CPU in its timers' heap (a player sleeps until
    its next second after every entry), compared in Python."""
    uvloop.run(main)


async def _client(
    pipe: Connection, port: int, logins: list[tuple[str, str]] | int, changes: bool
) -> None:
    players = [_EchoPlayer(port) for _ in range(logins)] if isinstance(logins, int) else []
    if isinstance(logins, list):
        players += [_Player(port, c, g, changes) for c, g in logins]
    await play_share(pipe, players, ClientResult())


async def play_share(pipe: Connection, players: list[Any], result: ClientResult) -> None:
    """One client process's share (``bench/load.py`` uses it too): connect every player, say
    ``ready``, wait for the ``Go``, play (each player staggered over the first second), and
    send back ``result`` with this process's own CPU over the measured window. A player has
    ``ws`` (``None`` when its connection failed), ``connect``, ``play`` and ``close``."""
    opened = await asyncio.gather(*(p.connect(result) for p in players), return_exceptions=True)
    for failure in opened:
        if isinstance(failure, BaseException):
            result.errors[f"connect: {type(failure).__name__}"] += 1
    pipe.send(("ready", len(players)))
    go: Go = await asyncio.to_thread(pipe.recv)
    count = max(1, len(players))
    tasks = [
        asyncio.create_task(p.play(go, go.begin + i / count, result))
        for i, p in enumerate(players)
        if p.ws is not None
    ]
    await asyncio.sleep(max(0.0, go.measure_from - time.perf_counter()))
    cpu_before, started = time.process_time(), time.perf_counter()
    await asyncio.sleep(max(0.0, go.stop - time.perf_counter()))
    result.cpu_s, result.seconds = time.process_time() - cpu_before, time.perf_counter() - started
    for outcome in await asyncio.gather(*tasks, return_exceptions=True):
        if isinstance(outcome, BaseException):
            result.errors[type(outcome).__name__] += 1
    await asyncio.gather(*(p.close() for p in players), return_exceptions=True)
    pipe.send(("done", result))


class _Player:
    """One patience player: open the game, then one entry a second."""

    def __init__(self, port: int, cookie: str, game_id: str, changes: bool) -> None:
        self.url, self.cookie, self.game_id = f"ws://{HOST}:{port}/ws", cookie, game_id
        self.changes = changes
        self.ws: Any = None
        self.view: dict[str, Any] = {}
        self.seq = 0
        self.deflated = Deflated()

    async def connect(self, result: ClientResult) -> None:
        # Browsers offer permessage-deflate, and so does this client (websockets' default).
        headers = {"Cookie": self.cookie}
        self.ws = await connect(
            self.url, additional_headers=headers, max_queue=None, open_timeout=60
        )
        opening = {"type": "open", "game_id": self.game_id, "changes": self.changes}
        await self.ws.send(json.dumps(opening))
        text, wire = await received(self.ws)
        count_bytes(result, text, wire)
        result.state_bytes.append(len(text.encode()))
        self.deflated.size(text)
        state = json.loads(text)
        self.view, self.seq = state["view"], state["seq"]

    async def play(self, go: Go, start_at: float, result: ClientResult) -> None:
        await asyncio.sleep(max(0.0, start_at - time.perf_counter()))
        undo_next, number = False, 0
        tail = f',"game_id":"{self.game_id}"}}'  # the same in every message of this player
        while time.perf_counter() < go.stop:
            number += 1
            if undo_next:
                text = f'{{"type":"undo","id":{number}{tail}'
            else:
                move = json.dumps(self.view["legal"][0])
                text = f'{{"type":"move","id":{number},"move":{move}{tail}'
            sent = time.perf_counter()
            await self.ws.send(text)
            text, wire = await received(self.ws)
            took_ms = (time.perf_counter() - sent) * 1000
            reply = json.loads(text)
            measured = go.measure_from <= sent < go.stop
            if measured:
                count_bytes(result, text, wire, reply.get("type"))
            # Only the answer to this very entry counts: its ref, and the game's next seq.
            if reply.get("type") == "event" and (reply.get("ref"), reply["seq"]) != (
                number,
                self.seq + 1,
            ):
                raise RuntimeError(f"not the answer to entry {number} at seq {self.seq}: {text}")
            if reply.get("type") == "event":
                self.view, undo_next = apply_event(self.view, reply), not undo_next
                self.seq += 1
                if measured:
                    _count(result, sent, took_ms)
                    result.event_bytes.append(len(text.encode()))
                    result.deflated_bytes.append(self.deflated.size(text))
            elif measured:
                result.errors[str(reply.get("code"))] += 1
            await asyncio.sleep(max(0.0, 1.0 - (time.perf_counter() - sent)))

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()


def apply_event(view: dict[str, Any], event: dict[str, Any]) -> dict[str, Any]:
    """The view after an ``event``: its whole ``view``, or the view before with its
    ``changes`` (docs/protocol.md, "What changed"; the browser's ``applyChanges``)."""
    if "view" in event:
        return dict(event["view"])
    return apply_changes(view, event["changes"])


class _EchoPlayer:
    """One socket of the bare echo server, the same rhythm."""

    payload = json.dumps({"type": "move", "game_id": "x" * 32, "move": "3f", "id": 1})

    def __init__(self, port: int) -> None:
        self.url = f"ws://{HOST}:{port}/"
        self.ws: Any = None

    async def connect(self, _result: ClientResult) -> None:
        # The players' own client: the echo's row is the limit of this machine and this client.
        self.ws = await connect(self.url, max_queue=None, open_timeout=60)

    async def play(self, go: Go, start_at: float, result: ClientResult) -> None:
        await asyncio.sleep(max(0.0, start_at - time.perf_counter()))
        while time.perf_counter() < go.stop:
            sent = time.perf_counter()
            await self.ws.send(self.payload)
            await self.ws.recv()
            if go.measure_from <= sent < go.stop:
                _count(result, sent, (time.perf_counter() - sent) * 1000)
            await asyncio.sleep(max(0.0, 1.0 - (time.perf_counter() - sent)))

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()


def _count(result: ClientResult, sent: float, took_ms: float) -> None:
    result.trips_ms.append(took_ms)
    if took_ms >= SLOW_TRIP_MS:
        result.slow.append((sent, took_ms))


# -- one phase --------------------------------------------------------------------------------


@dataclass
class Phase:
    """One target under one load: the clients' results and the server's usage."""

    target: str
    players: int
    clients: list[ClientResult] = field(default_factory=list)
    cpu_s: float = 0.0
    seconds: float = 0.0
    peak_rss_mb: float = 0.0
    loads: list[float] = field(default_factory=list)
    trace: dict[str, Any] | None = None
    process_cpu_s: list[float] = field(default_factory=list)
    """Each server process's CPU seconds (``--processes``; ``cpu_s`` is their sum)."""
    instructions: int | None = None
    """The server's instructions in the measured window (``--callgrind``; with several
    processes, their sum)."""
    backends: dict[str, int] = field(default_factory=dict)
    """The processes of PostgreSQL and Redis (``--processes N``), by name."""
    backend_cpu_s: dict[str, float] = field(default_factory=dict)
    """Their CPU seconds in the window (PostgreSQL's with its backends)."""
    process_instructions: list[int | None] = field(default_factory=list)
    """Each server process's instructions (``--callgrind --processes N``)."""

    def row(self) -> dict[str, Any]:
        """The row of the results table."""
        trips = sorted(t for c in self.clients for t in c.trips_ms)
        errors: Counter[str] = sum((c.errors for c in self.clients), Counter())
        client_pct = [round(100 * c.cpu_s / c.seconds, 1) if c.seconds else 0 for c in self.clients]
        row: dict[str, Any] = {
            "target": self.target,
            "players": self.players,
            "messages": len(trips),
            "errors": sum(errors.values()),
            "error_kinds": dict(errors),
            "p50_ms": _at(trips, 0.5),
            "p99_ms": _at(trips, 0.99),
            "max_ms": round(trips[-1], 2) if trips else None,
            "server_cpu_pct": round(100 * self.cpu_s / self.seconds, 1) if self.seconds else None,
            "cpu_ms_per_entry": round(1000 * self.cpu_s / len(trips), 3) if trips else None,
            "server_peak_rss_mb": round(self.peak_rss_mb, 1),
            "client_cpu_pct": client_pct,
            "client_saturated": any(p >= SATURATED_PCT for p in client_pct),
            "load_avg": round(statistics.mean(self.loads), 2) if self.loads else None,
        }
        if len(self.process_cpu_s) > 1 and self.seconds:
            row["processes"] = len(self.process_cpu_s)
            row["process_cpu_pct"] = [round(100 * c / self.seconds, 1) for c in self.process_cpu_s]
        for name, used in self.backend_cpu_s.items():
            row[f"{name}_cpu_pct"] = round(100 * used / self.seconds, 1) if self.seconds else None
        if self.backend_cpu_s and trips:
            # Everything the run asks of the machine's cores per entry: the servers, PostgreSQL,
            # Redis and the clients (the echo's row has none of the first three).
            every = self.cpu_s + sum(self.backend_cpu_s.values())
            every += sum(c.cpu_s for c in self.clients)
            row["all_cpu_ms_per_entry"] = round(1000 * every / len(trips), 3)
        sizes = [b for c in self.clients for b in c.event_bytes]
        if sizes:
            row["event_bytes"] = round(statistics.mean(sizes))
            row["event_deflated_bytes"] = round(
                statistics.mean(b for c in self.clients for b in c.deflated_bytes)
            )
            row["state_bytes"] = round(
                statistics.mean(b for c in self.clients for b in c.state_bytes)
            )
        row["bytes"] = bytes_by_kind(self.clients)
        if self.instructions is not None and trips:
            row["instructions_per_entry"] = round(self.instructions / len(trips))
        if len(self.process_instructions) > 1:
            row["process_instructions"] = self.process_instructions
        if self.trace is not None:
            row["trace"] = self.trace
        return row


def _at(ordered: list[float], q: float) -> float | None:
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 2) if ordered else None


async def run_phase(
    phase: Phase,
    port: int,
    pid: int,
    logins: list[tuple[str, str]] | int,
    args: argparse.Namespace,
    bar: tqdm[Any],
) -> None:
    """Start the client processes, let them play, watch the server process ``pid``."""
    shares, changes = _split(logins, args.clients), not args.whole_views
    with client_processes(client_process, [(port, s, changes) for s in shares]) as clients:
        await clients.ready()
        go = clients.go(args.seconds, warm_up_s=args.warm_up)
        await asyncio.sleep(max(0.0, go.measure_from - time.perf_counter()))
        cpu_before, started = cpu_seconds(pid), time.perf_counter()
        profiler = py_spy(pid, args.py_spy, args.seconds, phase) if args.py_spy else None
        if args.callgrind:
            callgrind_counting(pid, True)
        while time.perf_counter() < go.stop:
            await asyncio.sleep(0.5)
            phase.peak_rss_mb = max(phase.peak_rss_mb, rss_mb(pid))
            phase.loads.append(os.getloadavg()[0])
            bar.update(0.5)
        if args.callgrind:
            callgrind_counting(pid, False)
        phase.cpu_s, phase.seconds = cpu_seconds(pid) - cpu_before, time.perf_counter() - started
        if profiler is not None:
            profiler.wait(60)
        phase.clients = await clients.results()


class ClientProcesses:
    """Client processes (spawned: a fresh interpreter each), each running
    ``target(pipe, *work)``, which connects its share, says ``ready``, plays from the ``Go``
    and answers ``("done", ClientResult)`` (``play_share``)."""

    def __init__(self, target: Callable[..., None], works: list[tuple[Any, ...]]) -> None:
        context = multiprocessing.get_context("spawn")
        self.pipes: list[Connection] = []
        self.processes: list[Any] = []
        for work in works:
            ours, theirs = context.Pipe()
            process = context.Process(target=target, args=(theirs, *work), daemon=True)
            process.start()
            self.pipes.append(ours)
            self.processes.append(process)

    async def ready(self, within_s: float = 300) -> None:
        """Wait until every process has connected its share."""
        for pipe in self.pipes:
            if not await asyncio.to_thread(pipe.poll, within_s):
                raise RuntimeError(f"a client process did not connect within {within_s:.0f} s")
            pipe.recv()

    def go(self, seconds: float, warm_up_s: float = WARM_UP_S) -> Go:
        """Start them all: a second to stagger, ``warm_up_s`` unmeasured, ``seconds`` measured."""
        begin = time.perf_counter() + 0.2
        go = Go(begin, begin + 1.0 + warm_up_s, begin + 1.0 + warm_up_s + seconds)
        for pipe in self.pipes:
            pipe.send(go)
        return go

    async def results(self, within_s: float = 120) -> list[Any]:
        """What each process measured, once it has finished."""
        results = []
        for pipe in self.pipes:
            if not await asyncio.to_thread(pipe.poll, within_s):
                raise RuntimeError(f"a client process did not finish within {within_s:.0f} s")
            results.append(pipe.recv()[1])
        return results

    def close(self) -> None:
        for process in self.processes:
            process.join(10)
            if process.is_alive():
                process.kill()


@contextmanager
def client_processes(
    target: Callable[..., None], works: list[tuple[Any, ...]]
) -> Iterator[ClientProcesses]:
    """``ClientProcesses`` that are ended (joined, or killed) when the block is left."""
    clients = ClientProcesses(target, works)
    try:
        yield clients
    finally:
        clients.close()


def py_spy(pid: int, folder: Path, seconds: float, phase: Phase) -> subprocess.Popen[bytes]:
    """Sample the server process over the measured window with py-spy (its own package, run
    through ``uvx`` when it is not installed): a raw flame graph file in ``folder``, each stack
    under its thread, sampled without stopping the server (py-spy's default stops it for each
    sample: at 200 a second that slowed the server it measured into a backlog of seconds)."""
    folder.mkdir(parents=True, exist_ok=True)
    name = f"{phase.target.split()[0]}-{phase.players}.txt"
    command = [shutil.which("py-spy") or "uvx", *([] if shutil.which("py-spy") else ["py-spy"])]
    record = ["record", "-p", str(pid), "-d", str(int(seconds)), "-r", "200", "-f", "raw"]
    record += ["--nonblocking", "--threads"]
    return subprocess.Popen(
        [*command, *record, "-o", str(folder / name)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def callgrind_wrap(folder: Path | None, phase: Phase, process: int | None = None) -> list[str]:
    """The command that runs a server under callgrind, counting nothing until
    :func:`callgrind_counting` turns it on (``--callgrind``); none without a folder. With
    several server processes, ``process`` numbers their files."""
    if folder is None:
        return []
    folder.mkdir(parents=True, exist_ok=True)
    out = f"--callgrind-out-file={folder.resolve() / callgrind_name(phase, process)}"
    return ["valgrind", "--tool=callgrind", "--instr-atstart=no", out]


def callgrind_name(phase: Phase, process: int | None = None) -> str:
    """The file of a server's counts: the target, the players, and the process's number."""
    number = "" if process is None else f"-p{process}"
    return f"{phase.target.split()[0]}-{phase.players}{number}.out"


def callgrind_counting(pid: int, on: bool) -> None:
    """Turn callgrind's counting on or off in the server ``pid`` runs under valgrind."""
    state = "on" if on else "off"
    subprocess.run(["callgrind_control", "-i", state, str(pid)], capture_output=True, check=True)


def callgrind_total(folder: Path, phase: Phase, process: int | None = None) -> int | None:
    """The instructions callgrind counted in a server it ran (its file's ``totals``)."""
    path = folder / callgrind_name(phase, process)
    if not path.exists():
        return None
    for line in path.read_text(errors="replace").splitlines():
        if line.startswith("totals:"):
            return int(line.split()[1])
    return None


def _split(logins: list[tuple[str, str]] | int, parts: int) -> list[Any]:
    if isinstance(logins, int):
        return [logins // parts + (1 if k < logins % parts else 0) for k in range(parts)]
    return [logins[k::parts] for k in range(parts)]


@contextmanager
def database(kind: str, url: str | None = None) -> Iterator[Iterator[str | None]]:
    """Fresh database URLs: none (SQLite in the data folder), a private PostgreSQL's, or
    ``url`` (``--database-url``: a database of an existing PostgreSQL, for one row)."""
    if kind == "sqlite":
        yield iter(lambda: None, 0)
        return
    if url is not None:
        yield iter([url])
        return
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tests.backends import postgres_cluster

    # Run as an operator runs it: every commit flushed to the disk (tests/backends.py, DURABLE).
    with postgres_cluster(durable=True) as cluster:
        yield iter(cluster.new_database, None)


async def bench(args: argparse.Namespace) -> list[dict[str, Any]]:
    if args.processes > 1:
        return await bench_processes(args)
    rows: list[dict[str, Any]] = []
    bar = tqdm(total=2 * len(args.players) * args.seconds, unit="s", desc="server bench")
    with database(args.database, args.database_url) as urls:
        for players in args.players:
            with tempfile.TemporaryDirectory() as folder:
                echoed = await echo_phase(players, folder, args, bar)
                served = await spielcenter_phase(players, folder, next(urls), args, bar)
            rows += [echoed.row(), served.row()]
            bar.write(json.dumps({k: v for k, v in rows[-1].items() if k != "trace"}))
    bar.close()
    return rows


async def echo_phase(players: int, folder: str, args: argparse.Namespace, bar: tqdm[Any]) -> Phase:
    port = free_port()
    phase = Phase("uvicorn echo", players)
    echo = start_echo(port, folder, callgrind_wrap(args.callgrind, phase))
    try:
        await wait_until_up(f"http://{HOST}:{port}/")
        await run_phase(phase, port, echo.pid, players, args, bar)
    finally:
        echo.terminate()
        echo.wait(120 if args.callgrind else 10)
    if args.callgrind:
        phase.instructions = callgrind_total(args.callgrind, phase)
    return phase


async def spielcenter_phase(
    players: int, folder: str, url: str | None, args: argparse.Namespace, bar: tqdm[Any]
) -> Phase:
    port = free_port()
    phase = Phase(f"spielcenter ({args.database})", players)
    wrap = callgrind_wrap(args.callgrind, phase)
    server = start_spielcenter(port, folder, url, args.trace, wrap)
    try:
        base = f"http://{HOST}:{port}"
        await wait_until_up(f"{base}/health")
        logins = await new_players(base, players)
        await run_phase(phase, port, server.pid, logins, args, bar)
    finally:
        server.terminate()
        server.wait(120 if args.callgrind else 30)
    if args.callgrind:
        phase.instructions = callgrind_total(args.callgrind, phase)
    if args.trace:
        phase.trace = read_trace(Path(folder), server.pid, phase)
    return phase


async def bench_processes(args: argparse.Namespace) -> list[dict[str, Any]]:
    """``--processes N``: N server processes on one private PostgreSQL behind a private Redis,
    started as bench/load.py starts them, the players spread over them (each player's game on
    the process her socket is on); one row per number of players, with each process's CPU."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from bench import load  # it builds on this module: imported here, not at the top

    rows: list[dict[str, Any]] = []
    bar = tqdm(total=2 * len(args.players) * args.seconds, unit="s", desc="server bench")
    several = argparse.Namespace(
        database="postgresql",
        database_url=args.database_url,
        processes=[args.processes],
        trace=args.trace,
        tracemalloc=0,
        durable=True,  # every commit flushed to the disk, as the one-process rows' cluster
    )
    with load.backends(several) as (new_database, redis):
        for players in args.players:
            with tempfile.TemporaryDirectory() as folder:
                echoed = await echo_phase(players, folder, args, bar)
            phase = Phase(f"spielcenter (postgresql, {args.processes} processes)", players)
            wraps = [callgrind_wrap(args.callgrind, phase, k) for k in range(args.processes)]
            url = new_database()
            with load.spielcenter(
                args.processes, url, redis, several, wraps if args.callgrind else None
            ) as servers:
                logins = await load.cruel_logins(servers, players)
                pids = [s.process.pid for s in servers if s.process is not None]
                works = [([], share, "easy") for share in _split(logins, args.clients)]
                # The database's processes only when the cluster is this run's own.
                backends = {"redis": listening(redis)}
                if not args.database_url:
                    backends["postgres"] = listening(url or "")
                phase.backends = {k: v for k, v in backends.items() if v is not None}
                await watch_processes(phase, pids, load.client_process, works, args, bar)
                if args.trace:
                    phase.trace = {"processes": load.traces(servers)}
            if args.callgrind:
                counts = [callgrind_total(args.callgrind, phase, k) for k in range(len(wraps))]
                phase.process_instructions = counts
                phase.instructions = None if None in counts else sum(c or 0 for c in counts)
            rows += [echoed.row(), phase.row()]
            bar.write(json.dumps({k: v for k, v in rows[-1].items() if k != "trace"}))
    bar.close()
    return rows


def listening(url: str) -> int | None:
    """The process of a private PostgreSQL or Redis (as tests/backends.py starts them) whose
    port is ``url``'s: its command line names the port (``-p PORT``; redis-server shows
    ``HOST:PORT`` as its title)."""
    port = urllib.parse.urlsplit(url).port
    marks = (f" -p {port} ", f" --port {port} ", f":{port} ")
    for folder in Path("/proc").glob("[0-9]*"):
        with contextlib.suppress(OSError):
            line = (folder / "cmdline").read_bytes().replace(b"\0", b" ").decode() + " "
            named = Path(line.split(" ")[0]).name.startswith(("postgres", "redis-server"))
            if named and any(mark in line for mark in marks):
                return int(folder.name)
    return None


def tree_cpu_seconds(pid: int) -> float:
    """CPU seconds of a process and its children (PostgreSQL's backends), those still
    running."""
    total = 0.0
    with contextlib.suppress(OSError):
        total += cpu_seconds(pid)
        for task in Path(f"/proc/{pid}/task").glob("*"):
            for child in (task / "children").read_text().split():
                with contextlib.suppress(OSError):
                    total += cpu_seconds(int(child))
    return total


async def watch_processes(
    phase: Phase,
    pids: list[int],
    target: Callable[..., None],
    works: list[tuple[Any, ...]],
    args: argparse.Namespace,
    bar: tqdm[Any],
) -> None:
    """Start the client processes (``target``), let them play, watch the server processes."""
    with client_processes(target, works) as clients:
        await clients.ready()
        go = clients.go(args.seconds, warm_up_s=args.warm_up)
        await asyncio.sleep(max(0.0, go.measure_from - time.perf_counter()))
        before, started = [cpu_seconds(p) for p in pids], time.perf_counter()
        backends = {name: tree_cpu_seconds(pid) for name, pid in phase.backends.items()}
        for pid in pids if args.callgrind else []:
            callgrind_counting(pid, True)
        while time.perf_counter() < go.stop:
            await asyncio.sleep(0.5)
            phase.peak_rss_mb = max(phase.peak_rss_mb, *(rss_mb(p) for p in pids))
            phase.loads.append(os.getloadavg()[0])
            bar.update(0.5)
        for pid in pids if args.callgrind else []:
            callgrind_counting(pid, False)
        phase.process_cpu_s = [cpu_seconds(p) - b for p, b in zip(pids, before, strict=True)]
        phase.backend_cpu_s = {
            name: tree_cpu_seconds(phase.backends[name]) - used for name, used in backends.items()
        }
        phase.cpu_s, phase.seconds = sum(phase.process_cpu_s), time.perf_counter() - started
        phase.clients = await clients.results()


def read_trace(folder: Path, pid: int, phase: Phase) -> dict[str, Any]:
    """The server's latency report, and how many slow round trips overlapped one of its
    stalls (a loop lag or a collector pause of at least 20 ms)."""
    path = folder / f"latency-{pid}.json"
    if not path.exists():
        return {"missing": str(path)}
    report = json.loads(path.read_text())
    stalls = [(end - ms / 1000, end, what) for end, what, ms in report["timeline"]]
    slow = [s for c in phase.clients for s in c.slow]
    by_cause: Counter[str] = Counter()
    for sent, ms in slow:
        causes = {what for begin, end, what in stalls if begin < sent + ms / 1000 and end > sent}
        by_cause["+".join(sorted(causes)) or "no stall"] += 1
    report["slow_trips"] = {"at_least_ms": SLOW_TRIP_MS, "n": len(slow), "overlapping": by_cause}
    report["file"] = str(path)
    return report


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog=__doc__.split("Usage::")[1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--players", type=int, nargs="+", default=[200, 600, 1000], help="one row per number"
    )
    parser.add_argument("--seconds", type=float, default=20.0, help="measured window per phase")
    parser.add_argument(
        "--warm-up",
        type=float,
        default=WARM_UP_S,
        help="unmeasured seconds after the first second (the players' staggered starts)",
    )
    parser.add_argument(
        "--clients", type=int, default=2, help="client processes the players are spread over"
    )
    parser.add_argument("--database", choices=["sqlite", "postgresql"], default="sqlite")
    parser.add_argument(
        "--database-url",
        metavar="URL",
        help="with --database postgresql: this database of a running PostgreSQL (empty or"
        " Spielcenter's; one --players row) instead of a private cluster",
    )
    parser.add_argument(
        "--processes",
        type=int,
        default=1,
        help="server processes (two and more: on PostgreSQL behind Redis, as bench/load.py's)",
    )
    parser.add_argument(
        "--trace", action="store_true", help="the server's stage timings, loop lag and GC pauses"
    )
    parser.add_argument(
        "--whole-views",
        action="store_true",
        help="players do not ask for what changed: every event carries its whole view",
    )
    parser.add_argument(
        "--py-spy", type=Path, metavar="FOLDER", help="sample each server with py-spy (raw)"
    )
    parser.add_argument(
        "--callgrind",
        type=Path,
        metavar="FOLDER",
        help="run each server under valgrind's callgrind, counting the measured window only:"
        " instructions per entry (few players: it runs some 50 times slower)",
    )
    parser.add_argument(
        "--websockets-client",
        action="store_true",
        help="the players use websockets' client instead of the benchmark's lean one",
    )
    parser.add_argument("--json", type=Path, help="also write the rows to this file")
    args = parser.parse_args()
    if args.websockets_client:  # the client processes are spawned: they read it at import
        os.environ["SPIELCENTER_BENCH_WEBSOCKETS"] = "1"
        global LEAN
        LEAN = False
    if args.processes > 1 and args.database != "postgresql":
        parser.error("several processes share one database: add --database postgresql")
    if args.database_url and (args.database != "postgresql" or len(args.players) > 1):
        parser.error("--database-url: one PostgreSQL database, one --players row")
    rows = asyncio.run(bench(args))
    columns = [c for c in rows[-1] if c != "trace"]
    print(" | ".join(columns))
    for row in rows:
        print(" | ".join(str(row.get(column, "")) for column in columns))
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1) + "\n")


if __name__ == "__main__":
    main()
