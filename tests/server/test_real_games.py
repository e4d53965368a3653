"""The real engines through the server: Cruel and Crazy Quilt play, undo and replay alike."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from spielcenter.games.base import Record, get_game

from .conftest import new_game


@pytest.mark.parametrize("name", ["cruel", "crazy-quilt"])
def test_the_served_view_is_the_engines_view_of_the_replayed_log(
    client: TestClient, name: str
) -> None:
    game = new_game(client, name, deal=1)
    engine = get_game(name)
    record: Record[Any, Any] = Record(engine, 1)
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "open", "game_id": game["id"]})
        legal = ws.receive_json()["view"]["legal"]
        ws.send_json({"type": "move", "game_id": game["id"], "move": legal[0]})
        record.play(legal[0])
        event = ws.receive_json()
        ws.send_json({"type": "undo", "game_id": game["id"]})
        record.undo()
        undone = ws.receive_json()
    assert event["event"] == {"kind": "move", "move": legal[0]}
    expected = engine.view_for(record.state, 0)
    assert {key: undone["view"][key] for key in expected if key != "legal"} == {
        key: value for key, value in expected.items() if key != "legal"
    }
    assert undone["view"]["can_redo"] is True and undone["seq"] == 2


def test_a_cruel_hint_comes_from_the_solver_and_is_a_legal_move(client: TestClient) -> None:
    game = new_game(client, "cruel", deal=1)
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "open", "game_id": game["id"]})
        legal = ws.receive_json()["view"]["legal"]
        ws.send_json({"type": "hint", "game_id": game["id"]})
        hint = ws.receive_json()
    assert hint["type"] == "hint" and hint["text"].startswith("hint.")
    assert hint["move"] is None or hint["move"] in legal
    assert hint["verdict"] in ("winnable", "lost", "unknown")
