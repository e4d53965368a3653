"""The latency trace (server/latency.py, docs/server.md "LATENCY_TRACE"): off, nothing is
written; on, the server writes at shutdown how long each stage of the entries took."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from fastapi import FastAPI
from fastapi.testclient import TestClient

from spielcenter.server.latency import Histogram
from spielcenter.settings import Settings

from .conftest import new_game

STAGES = {"lock_wait", "commit_wait", "db_commit", "batch_entries", "view", "publish", "message"}


def play_two_moves(client: TestClient) -> None:
    game = new_game(client, deal=7)
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "open", "game_id": game["id"]})
        ws.receive_json()
        for move in ("d", "d"):
            ws.send_json({"type": "move", "game_id": game["id"], "move": move})
            assert ws.receive_json()["type"] == "event"


def test_with_the_trace_on_shutdown_writes_every_stage_of_the_entries(
    make_app: Callable[..., FastAPI], settings: Settings
) -> None:
    with TestClient(make_app(LATENCY_TRACE=True)) as client:
        play_two_moves(client)
    [report] = Path(settings.DATA_DIR).glob("latency-*.json")
    stages = json.loads(report.read_text())["stages"]
    assert set(stages) >= STAGES
    for stage in STAGES - {"batch_entries", "db_commit", "message"}:
        assert stages[stage]["n"] == 2, stage  # one count per entry
    assert stages["batch_entries"]["n"] == stages["db_commit"]["n"] >= 1


def test_with_the_trace_off_nothing_is_written(
    make_app: Callable[..., FastAPI], settings: Settings
) -> None:
    with TestClient(make_app()) as client:
        play_two_moves(client)
    assert not list(Path(settings.DATA_DIR).glob("latency-*.json"))


def test_a_histogram_counts_each_value_in_the_first_bucket_that_holds_it() -> None:
    histogram = Histogram()
    for value in (0.05, 0.3, 0.3, 7.0, 9000.0):
        histogram.add(value)
    summary = histogram.summary()
    assert summary["buckets"] == {"0.1": 1, "0.5": 2, "10": 1, "inf": 1}
    assert (summary["n"], summary["max"], summary["p50_le"]) == (5, 9000.0, 0.5)
