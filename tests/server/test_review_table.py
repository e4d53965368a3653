"""The review of a finished table (issue 42): on the command line from the database
(``spielcenter speedquilt review --table ID``) and through the API, computed in the background
(``POST`` / ``GET /api/my-tables/{id}/review``); only for a seat of hers, only after the end."""

from __future__ import annotations

import contextlib
import io
import json
import time
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from spielcenter.cli import main
from spielcenter.settings import Settings

from .conftest import csrf, database_rows, me
from .lobby_helpers import until_type
from .tables_helpers import ScriptedHuman, devices, make_table_app, new_table

__all__ = ["devices", "make_table_app"]  # fixtures used by the tests below

PATIENCE = 60.0
"""Seconds the test waits for a background review (it takes about one on a quiet machine)."""


def _finished_table(device: TestClient) -> dict[str, Any]:
    table = new_table(device, players=2, bots=["easy"])
    with device.websocket_connect("/ws") as ws:
        human = ScriptedHuman(ws, table)
        human.play(human.open())
        until_type(ws, "table.end")
    return table


def _reviewed(device: TestClient, url: str) -> dict[str, Any]:
    """Ask for the review and wait until it is done; what it says then."""
    started = device.post(url, headers=csrf(device))
    assert started.status_code == 200, started.text
    assert started.json()["state"] in ("running", "done")
    deadline = time.monotonic() + PATIENCE
    seen: dict[str, Any] = device.get(url).json()
    while seen["state"] == "running" and time.monotonic() < deadline:
        assert 0.0 <= seen["progress"] <= 1.0  # computed by this server: it knows how far
        time.sleep(0.05)
        seen = device.get(url).json()
    assert seen["state"] == "done", seen
    return seen


def _cli_review(*args: str) -> tuple[dict[str, Any], int]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(["speedquilt", "review", *args, "--json"])
    return (json.loads(out.getvalue()) if status == 0 else {}), status


def test_a_finished_table_is_reviewed_from_the_database_and_in_the_background_for_her_seat(
    devices: Callable[..., TestClient], settings: Settings
) -> None:
    device = devices()
    table = _finished_table(device)
    tid = table["id"]
    reviewed, status = _cli_review("--table", tid, "--database", settings.database_url)
    assert status == 0
    assert reviewed["table"] == tid and reviewed["seat"] == 0 and reviewed["decisions"]
    url = f"/api/my-tables/{tid}/review"
    assert device.get(url).json() == {"state": "none"}
    seen = _reviewed(device, url)
    # The same review as the command line's: computed from the same log for the same seat.
    assert seen["review"] == reviewed
    # Asked again, it is kept: no second computation.
    assert device.post(url, headers=csrf(device)).json()["state"] == "done"
    # Another account did not sit at the table: nothing to review, nothing shown.
    stranger = devices()
    assert stranger.get(url).status_code == 404
    assert stranger.post(url, headers=csrf(stranger)).status_code == 404


def test_a_running_table_and_an_unknown_one_are_refused(
    devices: Callable[..., TestClient], settings: Settings, capsys: pytest.CaptureFixture[str]
) -> None:
    device = devices()
    running = new_table(device, players=2, bots=["easy"])
    database = ["--database", settings.database_url]
    assert main(["speedquilt", "review", "--table", running["id"], *database]) == 2
    assert "not over" in capsys.readouterr().err
    assert main(["speedquilt", "review", "--table", "nothing", *database]) == 2
    assert "no table" in capsys.readouterr().err
    refused = device.post(f"/api/my-tables/{running['id']}/review", headers=csrf(device))
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "not_over"
    assert device.get("/api/my-tables/nothing/review").status_code == 404


def test_her_stored_review_is_never_served_for_another_seat_of_the_table(
    devices: Callable[..., TestClient], settings: Settings
) -> None:
    anna = devices()
    tid = _finished_table(anna)["id"]
    bert = devices()  # another server process on the same database
    # Bert sat at seat 1 (the computer's decisions there stand for his).
    database_rows(
        settings,
        f"UPDATE table_seats SET account_id = '{me(bert)['id']}', level = NULL"
        f" WHERE table_id = '{tid}' AND seat = 1",
    )
    url = f"/api/my-tables/{tid}/review"
    hers = _reviewed(anna, url)["review"]
    assert hers["seat"] == 0
    # Her review is stored, but it is hers: for his seat there is none until he asks.
    assert bert.get(url).json() == {"state": "none"}
    his = _reviewed(bert, url)["review"]
    assert his["seat"] == 1 and his["decisions"] != hers["decisions"]
    assert anna.get(url).json()["review"] == hers
