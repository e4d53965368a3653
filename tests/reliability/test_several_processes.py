"""Several server processes (architecture.md, "Running"; docs/deploy.md): two real
``spielcenter serve`` processes on one PostgreSQL database and one Redis.

A table is owned by one process; a person whose socket is on the other process plays there all
the same (her commands reach the owner, the table's events reach her). When the owner is killed
with SIGKILL, the other process takes the table over once the lease runs out: every acknowledged
move is there, the running clock fires at its stored deadline, the game goes on to its end and
the ledger balances.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from datetime import datetime
from typing import Any

import pytest
from redis import Redis
from websockets.sync.client import ClientConnection

from spielcenter.bots import get_bot
from spielcenter.server.tables import speedquilt_engine
from spielcenter.settings import Settings

from ..backends import PostgresCluster, RedisServer
from ..server.conftest import database_rows
from .servers import Player, Server, start_together

LEASE_MS = 1500
"""Short leases: a dead owner's table is taken over within two seconds."""
CLOCK_SCALE = 0.25
"""A think time of 30 s runs 7.5 s here (and its grace 2.5 s)."""
TIMED_TABLE = {"players": 2, "bots": ["easy"], "think": 30, "tempo": "fast", "stake": 100}
"""Starts at once: a person against a computer, with her think clock and a stake."""
GAME_END_S = 120.0
ENGINE = speedquilt_engine("table", {"players": 2})


@pytest.fixture(scope="module")
def database(postgres: PostgresCluster, tmp_path_factory: pytest.TempPathFactory) -> Settings:
    """The PostgreSQL database both processes share (one for this module's tests)."""
    return Settings(
        ENV="development",
        DATA_DIR=tmp_path_factory.mktemp("several"),
        DATABASE_URL=postgres.new_database(),
        SECRET_KEY="several-processes",
    )


@pytest.fixture(scope="module")
def pair(database: Settings, redis: RedisServer) -> Iterator[list[Server]]:
    """Two processes on that database and the test process's Redis, started together once
    for the module (a start takes seconds)."""
    env = {
        "SPIELCENTER_ENV": "development",
        "SPIELCENTER_SECRET_KEY": "several-processes",
        "SPIELCENTER_DATA_DIR": str(database.DATA_DIR),
        "SPIELCENTER_DATABASE_URL": database.DATABASE_URL or "",
        "SPIELCENTER_REDIS_URL": redis.url,
        "SPIELCENTER_REDIS_LEASE_MS": str(LEASE_MS),
        "SPIELCENTER_CLOCK_SCALE": str(CLOCK_SCALE),
        # The computers move without their tempo's pause: the game to its end is moves, not waits.
        "SPIELCENTER_COMPUTER_PAUSE_SCALE": "0",
        "SPIELCENTER_SOCKET_MESSAGE_LIMIT": "10000/second",
        # The guests and claims of every test count in the one Redis, all from 127.0.0.1.
        "SPIELCENTER_CLAIM_LIMIT": "1000/minute",
        "SPIELCENTER_GUEST_LIMIT": "100000/hour",
    }
    # Forked from a forkserver that imported the server once (tests/reliability/servers.py).
    both = [Server(env, database.DATA_DIR / f"server-{name}.log", forked=True) for name in "ab"]
    try:
        start_together(both)
        yield both
    finally:
        for server in both:
            server.stop()


@pytest.fixture
def servers(pair: list[Server]) -> list[Server]:
    """Both processes running (one a test killed is started again)."""
    start_together([server for server in pair if not server.running])
    return pair


def _owner(redis: RedisServer, table_id: str) -> str | None:
    with Redis.from_url(redis.url) as client:
        value = client.get(f"spielcenter:lease:{table_id}")
    return value.decode() if isinstance(value, bytes) else None


class Seat:
    """A person's socket at a table; every message kept with the moment it arrived."""

    def __init__(self, ws: ClientConnection, table_id: str) -> None:
        self.ws = ws
        self.table_id = table_id
        self.messages: list[dict[str, Any]] = []
        self.latest: dict[str, Any] = {}
        """The last ``table.state`` or ``table.event``: what the person sees now."""
        self.acked: list[tuple[int, int, str]] = []
        """Her decisions the server acknowledged: (seq, seat, move)."""
        self._ids = 0
        self.refused_at = -1
        """The seq at which her last decision was refused: she waits for news."""
        self.bot = get_bot("easy")
        self.memory: dict[str, Any] = {}

    def send(self, **fields: Any) -> int:
        self._ids += 1
        self.ws.send(json.dumps({**fields, "table_id": self.table_id, "id": self._ids}))
        return self._ids

    def receive(self, timeout: float) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        message["_at"] = time.time()
        self.messages.append(message)
        if message["type"] in ("table.state", "table.event"):
            self.latest = message
        return message

    def until(self, wanted: Callable[[dict[str, Any]], bool], seconds: float) -> dict[str, Any]:
        """The next message that is ``wanted``, waiting at most ``seconds``."""
        give_up = time.monotonic() + seconds
        while True:
            message = self.receive(max(give_up - time.monotonic(), 0.01))
            if wanted(message):
                return message

    def open(self) -> dict[str, Any]:
        ref = self.send(type="table.open")
        state = self.until(lambda m: m.get("ref") == ref, 10)
        assert state["type"] == "table.state", state
        return state

    @property
    def to_move(self) -> bool:
        """Whether the game waits for her own decision now (in her own turn only once nobody
        else has a window open, as the computers do: server/tables.py)."""
        seen = self.latest
        me, acting = seen.get("seat"), seen.get("to_act", [])
        if me not in acting or not seen.get("legal") or seen["seq"] == self.refused_at:
            return False
        turn = seen["view"].get("turn") or {}
        return acting == [me] or turn.get("seat") != me

    @property
    def clock_runs(self) -> bool:
        """Whether she is to decide now on a clock (giving has none at this table)."""
        return self.to_move and any(c["seat"] == 0 for c in self.latest.get("clocks", ()))

    def decide(self) -> bool:
        """Make her next decision (as the easy computer would, from her view alone); whether the
        server acknowledged it. It may refuse it as a person's browser would see it refused:
        the table moved on meanwhile (``stale``: the events are on their way) or her clock ran
        out and the computer plays her turn (``seat_away``); she waits for the next event."""
        seen = self.latest
        move = self.bot.decide(ENGINE, seen["view"], seen["seat"], self.memory)
        ref = self.send(type="table.move", move=move, seq=seen["seq"])
        reply = self.until(lambda m: m.get("ref") == ref, 10)
        if reply["type"] == "error" and reply["code"] in ("stale", "seat_away"):
            self.refused_at = seen["seq"]
            return False
        assert reply["type"] == "table.event", reply
        self.acked.append((reply["seq"], reply["entry"]["seat"], move))
        return True

    @property
    def ended(self) -> dict[str, Any] | None:
        """The ``table.end``, once it came."""
        return next((m for m in self.messages if m["type"] == "table.end"), None)

    def play(self, decisions: int, seconds: float = 30) -> None:
        """Make ``decisions`` of her own as soon as the game waits for her."""
        give_up = time.monotonic() + seconds
        made = 0
        while made < decisions and time.monotonic() < give_up:
            if self.to_move:
                if self.decide():
                    made += 1
            else:
                self.receive(10)
        assert made == decisions, f"only {made} decisions in {seconds} s"

    def play_to_the_end(self) -> dict[str, Any]:
        """Decide whenever it is her turn until the table ends; the ``table.end``."""
        give_up = time.monotonic() + GAME_END_S
        while self.ended is None and time.monotonic() < give_up:
            if self.to_move:
                self.decide()
            else:
                self.receive(10)
        assert self.ended is not None, "the game did not end"
        return self.ended


def _stored_entries(settings: Settings, table_id: str) -> list[tuple[int, int, str]]:
    rows = database_rows(
        settings, f"SELECT seq, seat, move FROM table_entries WHERE table_id = '{table_id}'"
    )
    return sorted((int(seq), int(seat), str(move)) for seq, seat, move in rows)


def test_a_socket_on_one_process_plays_at_a_table_owned_by_the_other(
    servers: list[Server], redis: RedisServer
) -> None:
    near, owner = servers
    person = Player("anna")
    person.sign_in(owner)
    created = person.post(owner, "/api/tables", {"players": 2, "bots": ["easy"], "tempo": "fast"})
    assert created.status_code == 201, created.text
    table_id = created.json()["id"]
    assert _owner(redis, table_id) == owner.process_id != near.process_id
    with person.socket(near) as ws:
        seat = Seat(ws, table_id)
        seat.open()
        seat.play(decisions=5)
        while not any(
            m["type"] == "table.event" and m["entry"]["seat"] == 1 for m in seat.messages
        ):
            seat.play(decisions=1)  # the computer's turn comes after some of hers
    events = [m for m in seat.messages if m["type"] == "table.event"]
    seqs = [m["seq"] for m in events]
    assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))  # each event, in order, none lost
    assert {m["entry"]["seat"] for m in events} == {0, 1}  # hers and the computer's
    assert _owner(redis, table_id) == owner.process_id


def test_a_killed_owner_s_table_is_taken_over_with_its_clock_and_played_to_the_end(
    servers: list[Server], redis: RedisServer, database: Settings
) -> None:
    near, owner = servers
    person = Player("bert")
    person.sign_in(owner)
    person.claim(owner)  # only a claimed account stakes taler
    created = person.post(owner, "/api/lobby", TIMED_TABLE)
    assert created.status_code == 201, created.text
    table_id = created.json()["id"]
    assert _owner(redis, table_id) == owner.process_id
    with person.socket(near) as ws:
        seat = Seat(ws, table_id)
        seat.open()
        seat.play(decisions=3)
        while not seat.clock_runs:  # stop while the game waits for her with a clock
            if seat.to_move:
                seat.decide()
            else:
                seat.receive(10)
        seen = seat.latest["seq"]
        [deadline] = [c["deadline"] for c in seat.latest["clocks"] if c["seat"] == 0]
        owner.kill()
        # The near process takes the table over and opens it again for her socket.
        state = seat.until(lambda m: m["type"] == "table.state", LEASE_MS / 1000 + 10)
        assert _owner(redis, table_id) == near.process_id
        assert state["seq"] == seen
        assert [c["deadline"] for c in state["clocks"] if c["seat"] == 0] == [deadline]
        beep = seat.until(lambda m: m["type"] == "table.clock" and m["seat"] == 0, 20)
        due = datetime.fromisoformat(deadline).timestamp()
        assert beep["phase"] == "grace" and due - 0.05 <= beep["_at"] <= due + 1.5
        end = seat.play_to_the_end()
    assert end["result"]["places"]
    stored = _stored_entries(database, table_id)
    assert set(seat.acked) <= set(stored)
    assert [s for s, _, _ in stored] == list(range(1, len(stored) + 1))
    _assert_ledger_balances(database, table_id)


def _assert_ledger_balances(settings: Settings, table_id: str) -> None:
    totals = database_rows(settings, "SELECT account, SUM(amount) FROM ledger_entries GROUP BY 1")
    assert sum(int(total) for _, total in totals) == 0
    assert [a for a, total in totals if a != "house" and int(total) < 0] == []
    kinds = database_rows(
        settings, f"SELECT kind FROM ledger_transactions WHERE table_id = '{table_id}'"
    )
    assert sorted(kind for (kind,) in kinds) == ["payout", "stake"]
