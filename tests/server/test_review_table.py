"""``spielcenter speedquilt review --table ID`` (issue 42): a finished table of the database,
reviewed for one seat; a running table and an unknown one are refused."""

from __future__ import annotations

import contextlib
import io
import json
from collections.abc import Callable

import pytest
from fastapi.testclient import TestClient

from spielcenter.cli import main
from spielcenter.settings import Settings

from .lobby_helpers import until_type
from .tables_helpers import ScriptedHuman, devices, make_table_app, new_table

__all__ = ["devices", "make_table_app"]  # fixtures used by the test below


def test_a_finished_table_is_reviewed_from_the_database_and_a_running_one_is_refused(
    devices: Callable[..., TestClient], settings: Settings, capsys: pytest.CaptureFixture[str]
) -> None:
    device = devices()
    table = new_table(device, players=2, bots=["easy"])
    with device.websocket_connect("/ws") as ws:
        human = ScriptedHuman(ws, table)
        human.play(human.open())
        until_type(ws, "table.end")
    database = ["--database", settings.database_url]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(["speedquilt", "review", "--table", table["id"], "--json", *database])
    assert status == 0
    reviewed = json.loads(out.getvalue())
    assert reviewed["table"] == table["id"] and reviewed["seat"] == 0
    assert reviewed["decisions"] and all(d["seq"] >= 1 for d in reviewed["decisions"])
    running = new_table(device, players=2, bots=["easy"])
    capsys.readouterr()
    assert main(["speedquilt", "review", "--table", running["id"], *database]) == 2
    assert "not over" in capsys.readouterr().err
    assert main(["speedquilt", "review", "--table", "nothing", *database]) == 2
    assert "no table" in capsys.readouterr().err
