"""Crash (issue 10): a real ``spielcenter serve`` is killed with SIGKILL at random moments while
people play and stake taler. Every acknowledged move is there afterwards, the games go on, a
running clock keeps its absolute deadline, and the ledger balances: its sum never changes and
no player or pot is ever negative. The moves on both databases (the ``settings`` fixture runs a
test on SQLite and on PostgreSQL).
"""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from spielcenter.settings import Settings

from ..server.conftest import database_rows
from .servers import Player, Server

KILLS = 1
"""Kills while people play; each costs a server start of several seconds."""
LEDGER_KILLS = 1
"""Kills while people stake."""
PLAYERS = 3
MOVES_BEFORE_KILL = 10
"""Acknowledged moves (all players together) before a round's kill may come."""
MOVES_BEFORE_KILL_TIMEOUT_S = 60.0
STAKES_EACH = 8
TIMED_TABLE = {"players": 2, "bots": ["easy"], "think": 120, "tempo": "fast"}
"""Starts at once; the person's clock runs for her start choice."""


@pytest.fixture
def server_env(settings: Settings) -> dict[str, str]:
    """The environment of the test's server processes: the test's own database."""
    return {
        "SPIELCENTER_ENV": "development",
        "SPIELCENTER_SECRET_KEY": "crash-test",
        "SPIELCENTER_DATA_DIR": str(settings.DATA_DIR),
        "SPIELCENTER_DATABASE_URL": settings.DATABASE_URL or "",
        # The players answer at once; a person's limit would refuse most of their moves.
        "SPIELCENTER_SOCKET_MESSAGE_LIMIT": "10000/second",
        # Every player claims a name from 127.0.0.1 within a second.
        "SPIELCENTER_CLAIM_LIMIT": "1000/minute",
    }


def _stored_entries(player: Player, server: Server, game_id: str) -> list[tuple[int, str, str]]:
    with player.http(server) as client:
        steps = client.get(f"/api/my-games/{game_id}/replay").json()["steps"]
    return [(step["seq"], step["kind"], step["move"]) for step in steps[1:]]


def _assert_acknowledged_moves_stored(players: list[Player], server: Server) -> int:
    """Every acknowledged entry is in the log, in order; at most the one move in flight when
    the server died is there unacknowledged. The number of acknowledged entries."""
    total = 0
    for player in players:
        for game_id, acked in player.acked.items():
            stored = _stored_entries(player, server, game_id)
            assert stored[: len(acked)] == acked, (player.name, game_id)
            assert len(stored) <= len(acked) + 1
            player.acked[game_id] = stored  # the move in flight counts as played from now on
            total += len(acked)
    return total


def _play_until_killed(
    players: list[Player], server: Server, rng: random.Random, round_: int
) -> None:
    stop = threading.Event()
    threads = [
        threading.Thread(target=p.play, args=(server, stop, 1000 * round_ + i), daemon=True)
        for i, p in enumerate(players)
    ]
    played = sum(_entries(p) for p in players)
    for thread in threads:
        thread.start()
    # The kill comes at a random moment once the round's first moves are acknowledged: on a
    # busy machine a fixed delay from the start could pass before the players' first move.
    deadline = time.monotonic() + MOVES_BEFORE_KILL_TIMEOUT_S
    while sum(_entries(p) for p in players) < played + MOVES_BEFORE_KILL:
        assert time.monotonic() < deadline, "the players made no moves before the kill"
        time.sleep(0.02)
    time.sleep(rng.uniform(0.0, 1.5))
    server.kill()
    stop.set()
    for thread in threads:
        thread.join(timeout=30)


def test_every_acknowledged_move_survives_a_kill_and_the_games_go_on(
    server_env: dict[str, str], tmp_path: Path
) -> None:
    rng = random.Random(20261129)
    server = Server(server_env, tmp_path / "server.log", forked=True)
    server.start()
    players = [Player(f"p{i}") for i in range(PLAYERS)]
    acknowledged = 0
    try:
        for i, player in enumerate(players):
            player.sign_in(server)
            player.new_game(server, 100 + i)
        # A table whose clock runs (her start choice, 120 s) while the server dies.
        table = players[0].post(server, "/api/lobby", TIMED_TABLE).json()
        clocks = players[0].table_clocks(server, table["id"])
        for round_ in range(KILLS):
            _play_until_killed(players, server, rng, round_)
            server = Server(server_env, tmp_path / "server.log", forked=True)
            server.start()
            acknowledged = _assert_acknowledged_moves_stored(players, server)
            assert players[0].table_clocks(server, table["id"]) == clocks
        # The games go on after the last restart: each takes more moves.
        before = {p.name: _entries(p) for p in players}
        for player in players:
            player.play(server, threading.Event(), 9000, limit=5)
        _assert_acknowledged_moves_stored(players, server)
    finally:
        server.stop()
    assert acknowledged >= MOVES_BEFORE_KILL * KILLS
    assert all(_entries(p) > before[p.name] for p in players)


def _entries(player: Player) -> int:
    # A copy of the lists first: her playing thread may start a new game meanwhile.
    return sum(len(entries) for entries in list(player.acked.values()))


# -- the ledger ------------------------------------------------------------------------------------


def _stake_tables(players: list[Player], server: Server, rng: random.Random) -> None:
    """Each player keeps opening staked tables against a computer, and joining the others'
    tables for two people, until the server goes away."""

    def keep_staking(player: Player, seed: int) -> None:
        own = random.Random(seed)
        try:
            # A handful of tables each: every open table is replayed at the next start.
            for _ in range(STAKES_EACH):
                time.sleep(own.uniform(0.05, 0.3))
                stake = own.randint(1, 150)
                if own.random() < 0.5:
                    body: dict[str, Any] = {"players": 2, "bots": ["easy"], "stake": stake}
                    player.post(server, "/api/lobby", body)
                    continue
                with player.http(server) as client:
                    waiting = client.get("/api/lobby").json().get("tables", [])
                if waiting:
                    player.post(server, f"/api/lobby/{waiting[0]['id']}/join", {})
                else:
                    player.post(server, "/api/lobby", {"players": 2, "stake": stake})
        except httpx.HTTPError:
            return

    threads = [
        threading.Thread(target=keep_staking, args=(p, rng.random()), daemon=True) for p in players
    ]
    for thread in threads:
        thread.start()
    time.sleep(rng.uniform(0.8, 2.0))
    server.kill()
    for thread in threads:
        thread.join(timeout=30)


def _assert_ledger_balances(settings: Settings) -> int:
    """The ledger's sum is 0 and no player or pot is negative; the number of stakes paid."""
    sums = database_rows(
        settings, "SELECT account, SUM(amount) FROM ledger_entries GROUP BY account"
    )
    assert sum(int(total) for _, total in sums) == 0
    negative = [(a, t) for a, t in sums if a != "house" and int(t) < 0]
    assert negative == []
    # A table is open exactly when its stakes were paid: starting is one transaction.
    started = database_rows(
        settings, "SELECT id FROM tables WHERE status <> 'waiting' AND status <> 'cancelled'"
    )
    staked = database_rows(
        settings, "SELECT table_id FROM ledger_transactions WHERE kind = 'stake'"
    )
    assert {row[0] for row in staked} <= {row[0] for row in started}
    return len(staked)


# Concurrent transactions are where the two databases differ (SQLite has one writer at a time),
# so this one runs on PostgreSQL; the ledger's own tests cover both.
@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)
def test_the_ledger_balances_through_kills_during_staked_games(
    server_env: dict[str, str], settings: Settings, tmp_path: Path
) -> None:
    rng = random.Random(7)
    players = [Player(f"s{i}") for i in range(PLAYERS)]
    server = Server(server_env, tmp_path / "server.log", forked=True)
    server.start()
    stakes = 0
    try:
        for player in players:
            player.sign_in(server)
            player.claim(server)  # guests play for nothing
            with player.http(server) as client:
                assert client.get("/api/ledger").json()["balance"] == 1000
            staked = player.post(server, "/api/lobby", {**TIMED_TABLE, "stake": 100})
            assert staked.status_code == 201, staked.text
        for _ in range(LEDGER_KILLS):
            _stake_tables(players, server, rng)
            stakes = _assert_ledger_balances(settings)
            server = Server(server_env, tmp_path / "server.log", forked=True)
            server.start()
        with players[0].http(server) as client:
            assert client.get("/api/ledger").json()["balance"] >= 0
    finally:
        server.stop()
    assert stakes >= PLAYERS
    assert _assert_ledger_balances(settings) == stakes
