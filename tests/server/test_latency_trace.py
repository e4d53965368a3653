"""The latency trace (server/latency.py, docs/server.md "LATENCY_TRACE"): off, nothing is
written; on, the server writes at shutdown how long each stage of the entries took."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

from fastapi import FastAPI
from fastapi.testclient import TestClient

from spielcenter.server.latency import Histogram, LatencyTrace
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


def spin_on_the_loop(cpu_ms: float) -> None:
    """Work on the loop's thread until it used ``cpu_ms`` of CPU (a stall of the loop's own)."""
    began = time.thread_time()
    while (time.thread_time() - began) * 1000 < cpu_ms:
        pass


async def test_a_stalled_loop_is_reported_with_its_stack_and_the_cpu_it_used(
    tmp_path: Path,
) -> None:
    trace = LatencyTrace(tmp_path)
    trace.install()
    await asyncio.sleep(0.05)
    spin_on_the_loop(150)
    await asyncio.sleep(0.05)
    time.sleep(0.15)  # a stall without work of the loop's: a blocking call, or the machine
    await asyncio.sleep(0.05)
    report = json.loads((await trace.uninstall()).read_text())

    def stall_in(function: str) -> dict[str, Any]:
        """The stall whose innermost frame most seen was in ``function``."""
        [stall] = [s for s in report["stalls"] if function in innermost(s["stacks"][0]["stack"])]
        return cast(dict[str, Any], stall)

    spun, slept = stall_in("spin_on_the_loop"), stall_in("test_a_stalled_loop")
    assert spun["ms"] >= 140 and spun["loop_cpu_ms"] >= 100
    assert slept["ms"] >= 140 and slept["loop_cpu_ms"] < 50
    assert any("spin_on_the_loop" in innermost(s["stack"]) for s in report["stall_stacks"])


def innermost(stack: str) -> str:
    return stack.split(" < ")[0]
