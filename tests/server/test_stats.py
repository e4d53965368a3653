"""Statistics per game and variant: played, won, rate, streaks, best time, fewest moves."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from spielcenter.games.base import Status

from .conftest import FakeClock, new_game
from .ladder import line_to

DEAL = 3


@pytest.fixture
def client(make_client: Callable[..., TestClient], make_app: Callable[..., FastAPI]) -> TestClient:
    """One account plays game after game within a second here: its message budget (20 a
    second over all its sockets, docs/security.md) is not what these tests are about."""
    return make_client(make_app(SOCKET_MESSAGE_LIMIT="1000/second"))


def finish(client: TestClient, clock: FakeClock, status: Status, seconds_per_move: float) -> str:
    """Play a new Ladder game to ``status``, the clock moving between moves; its id."""
    game = new_game(client, deal=DEAL)
    with client.websocket_connect("/ws") as ws:
        for move in line_to(status, DEAL):
            clock.advance(seconds_per_move)
            ws.send_json({"type": "move", "game_id": game["id"], "move": move})
            assert ws.receive_json()["type"] == "event"
    return str(game["id"])


def stats(client: TestClient) -> dict[str, Any]:
    rows = client.get("/api/stats", params={"game": "ladder"}).json()["stats"]
    assert len(rows) == 1 and rows[0]["variant"] == "classic"
    row: dict[str, Any] = rows[0]
    return row


def test_a_game_without_a_move_is_not_played(client: TestClient) -> None:
    new_game(client, deal=DEAL)
    assert client.get("/api/stats", params={"game": "ladder"}).json()["stats"] == []


def test_a_game_she_can_still_resume_is_in_progress_not_lost(client: TestClient) -> None:
    """Issue 38, finding 10: an unfinished game counted as played and lost, so resuming it
    later could only raise a win rate it had lowered. It is counted as in progress until it
    ends."""
    game = new_game(client, deal=DEAL)
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "move", "game_id": game["id"], "move": "d"})
        ws.receive_json()
    row = stats(client)
    assert (row["played"], row["won"], row["rate"], row["in_progress"]) == (0, 0, 0.0, 1)


def test_won_and_lost_are_what_the_engine_says(client: TestClient, clock: FakeClock) -> None:
    finish(client, clock, Status.WON, 1)
    finish(client, clock, Status.LOST, 1)
    finish(client, clock, Status.WON, 1)
    row = stats(client)
    assert (row["played"], row["won"], row["rate"]) == (3, 2, round(2 / 3, 4))
    assert row["in_progress"] == 0


def test_streaks_count_wins_in_a_row(client: TestClient, clock: FakeClock) -> None:
    for status in (Status.WON, Status.WON, Status.LOST, Status.WON):
        finish(client, clock, status, 1)
    row = stats(client)
    assert (row["current_streak"], row["best_streak"]) == (1, 2)


def test_the_best_time_runs_from_the_first_move_to_the_end(
    client: TestClient, clock: FakeClock
) -> None:
    moves = len(line_to(Status.WON, DEAL))
    finish(client, clock, Status.WON, 10)
    finish(client, clock, Status.WON, 3)
    finish(client, clock, Status.LOST, 1)
    # The clock moves before every move, so the first move's own step is not part of the time.
    assert stats(client)["best_time_ms"] == (moves - 1) * 3000


def test_fewest_moves_counts_accepted_moves_of_won_games(
    client: TestClient, clock: FakeClock
) -> None:
    line = line_to(Status.WON, DEAL)
    game = new_game(client, deal=DEAL)
    with client.websocket_connect("/ws") as ws:
        for message in [
            {"type": "move", "move": line[0]},
            {"type": "undo"},
            {"type": "redo"},
            *({"type": "move", "move": move} for move in line[1:]),
        ]:
            ws.send_json({**message, "game_id": game["id"]})
            assert ws.receive_json()["type"] == "event"
    finish(client, clock, Status.LOST, 1)
    assert stats(client)["fewest_moves"] == len(line)


def test_no_best_time_or_fewest_moves_without_a_win(client: TestClient, clock: FakeClock) -> None:
    finish(client, clock, Status.LOST, 1)
    row = stats(client)
    assert (row["best_time_ms"], row["fewest_moves"]) == (None, None)


def test_stats_are_per_account(client: TestClient, clock: FakeClock, make_client: Any) -> None:
    finish(client, clock, Status.WON, 1)
    other = make_client(client.app)
    other.get("/api/me")
    assert other.get("/api/stats", params={"game": "ladder"}).json()["stats"] == []
