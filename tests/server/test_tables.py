"""Speedquilt tables on the server: create, play to the end through the socket, reconnect."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from spielcenter.services import tables as tables_service
from spielcenter.services.tables import FinishedTable

from .conftest import csrf, me
from .lobby_helpers import claimed_accounts
from .tables_helpers import ScriptedHuman, devices, make_table_app, new_table

__all__ = ["devices", "make_table_app"]  # fixtures used by the tests below

DEAL = 4242


def test_a_table_against_three_computers_is_played_to_the_end(
    devices: Callable[..., TestClient],
) -> None:
    device = devices()
    table = new_table(device, deal=DEAL)
    assert [s["kind"] for s in table["seats"]] == ["human", "computer", "computer", "computer"]
    with device.websocket_connect("/ws") as ws:
        human = ScriptedHuman(ws, table)
        last = human.play(human.open())
        end = ws.receive_json()
    assert last["view"]["status"] == "finished"
    assert end["type"] == "table.end" and end["seq"] == last["seq"]
    result = end["result"]
    assert result["scores"] == last["view"]["scores"]
    assert result["places"] == last["view"]["places"]
    assert len(result["breakdown"]) == 4
    assert all(m.get("type") != "error" for m in human.messages), human.messages
    shown = device.get(f"/api/tables/{table['id']}").json()
    assert shown["status"] == "finished" and shown["result"] == result
    assert shown["history"][-1]["key"] == "history.over"


def test_the_leaderboard_points_are_five_per_point_and_the_place_bonus(
    devices: Callable[..., TestClient],
) -> None:
    device = devices()
    table = new_table(device, deal=DEAL, players=2, bots=["easy"])
    with device.websocket_connect("/ws") as ws:
        human = ScriptedHuman(ws, table)
        human.play(human.open())
        result: dict[str, Any] = ws.receive_json()["result"]
    bonus = {1: 50, 2: 25, 3: 10}
    expected = [
        5 * score + bonus.get(place, 0)
        for score, place in zip(result["scores"], result["places"], strict=True)
    ]
    assert result["leaderboard_points"] == expected


def test_a_finished_table_is_recorded_once_with_its_summary(
    devices: Callable[..., TestClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[FinishedTable] = []
    record = tables_service.record_finished_table

    async def counted(db: Any, finished: FinishedTable) -> None:
        calls.append(finished)
        await record(db, finished)

    monkeypatch.setattr(tables_service, "record_finished_table", counted)
    device = devices()
    table = new_table(device, deal=DEAL, players=2, bots=["easy"])
    with device.websocket_connect("/ws") as ws:
        human = ScriptedHuman(ws, table)
        human.play(human.open())
        end = ws.receive_json()
    assert len(calls) == 1
    finished = calls[0]
    assert finished.table_id == table["id"] and finished.variant == "table"
    assert finished.accounts == [me(device)["id"], None] and finished.levels == [None, "easy"]
    assert finished.result() == end["result"]


def test_open_tables_are_listed_until_they_finish(devices: Callable[..., TestClient]) -> None:
    device = devices()
    table = new_table(device, deal=DEAL, players=2, bots=["easy"])
    assert [t["id"] for t in device.get("/api/tables?state=open").json()["tables"]] == [table["id"]]
    with device.websocket_connect("/ws") as ws:
        human = ScriptedHuman(ws, table)
        human.play(human.open())
    assert device.get("/api/tables?state=open").json()["tables"] == []
    finished = device.get("/api/tables?state=finished").json()["tables"]
    assert [t["id"] for t in finished] == [table["id"]]


def test_the_table_view_settings_are_accepted(devices: Callable[..., TestClient]) -> None:
    device = devices()
    changes = {"table_theme": "linen", "sounds": False, "auto_continue": True, "tempo": "slow"}
    response = device.put("/api/settings", json=changes, headers=csrf(device))
    assert response.status_code == 200, response.text
    assert changes.items() <= response.json()["settings"].items()
    refused = device.put("/api/settings", json={"table_theme": "neon"}, headers=csrf(device))
    assert refused.status_code == 400


def test_a_finished_table_counts_on_the_table_leaderboard(
    devices: Callable[..., TestClient],
) -> None:
    device = devices()
    claimed_accounts(device, 1)  # the lists show claimed accounts only
    # Dealt from a secret seed (no chosen deal: that would be practice, never ranked).
    table = new_table(device, players=2, bots=["easy"])
    with device.websocket_connect("/ws") as ws:
        human = ScriptedHuman(ws, table)
        human.play(human.open())
        end = ws.receive_json()
    board = device.get("/api/leaderboards/tables?period=all").json()
    assert board["total"] == 1
    assert board["me"] is not None
    assert board["entries"][0]["points"] == end["result"]["leaderboard_points"][0]


def test_a_finished_table_nobody_watches_is_let_go_and_replayed_when_opened_again(
    devices: Callable[..., TestClient],
) -> None:
    """A process keeps no finished game in memory for ever (the soak's memory growth): once no
    socket watches it, its actor is dropped; opening it again replays it unchanged. A table in
    play stays."""
    device = devices()
    table = new_table(device, deal=DEAL, players=2, bots=["easy"])
    registry = device.app.state.tables  # type: ignore[attr-defined]
    with device.websocket_connect("/ws") as ws:
        human = ScriptedHuman(ws, table)
        last = human.play(human.open())
        registry.forget_finished()
        assert table["id"] in registry.actors  # she still watches it
    shown = device.get(f"/api/tables/{table['id']}").json()
    in_play = new_table(device, deal=DEAL + 1, players=2, bots=["easy"])
    registry.forget_finished()
    assert table["id"] not in registry.actors
    assert in_play["id"] in registry.actors
    again = device.get(f"/api/tables/{table['id']}").json()
    assert again["seq"] == last["seq"] == shown["seq"]
    assert again["result"] == shown["result"] and again["history"] == shown["history"]
