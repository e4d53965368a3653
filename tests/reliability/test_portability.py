"""Portable storage: what one database takes and the other refuses is refused at the edge on both.

PostgreSQL cannot store the character NUL (U+0000) in text, SQLite can; the fuzzer found ids
holding one answered with a server error on PostgreSQL. The protocol has no use for NUL, so
every request and message holding one is bad input on both databases (these tests run on both).
"""

from __future__ import annotations

from collections.abc import Callable

from fastapi.testclient import TestClient

from ..server.conftest import claim, csrf, me, new_game
from ..server.lobby_helpers import Person, accounts, join, lobby_table, socket_as


def test_a_nul_in_a_path_is_bad_input(client: TestClient) -> None:
    response = client.get("/api/games/%00")
    assert response.status_code == 400 and response.json()["error"]["code"] == "bad_request"


def test_a_nul_in_a_query_is_bad_input(client: TestClient) -> None:
    response = client.get("/api/games", params={"state": "open\x00"})
    assert response.status_code == 400 and response.json()["error"]["code"] == "bad_request"


def test_a_nul_in_a_body_is_bad_input_and_changes_nothing(client: TestClient) -> None:
    response = claim(client, "An\x00na")
    assert response.status_code == 400 and response.json()["error"]["code"] == "bad_request"
    assert me(client)["name"] is None
    game = client.post("/api/games", json={"game": "ladder\x00"}, headers=csrf(client))
    assert game.status_code == 400 and client.get("/api/games").json()["games"] == []


def test_a_nul_in_a_websocket_message_is_bad_input(client: TestClient) -> None:
    game = new_game(client, deal=3)
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "open", "game_id": game["id"] + "\x00", "id": 1})
        refused = ws.receive_json()
        ws.send_json({"type": "move", "game_id": game["id"], "move": "d\x00", "id": 2})
        moved = ws.receive_json()
    assert refused == {**refused, "type": "error", "code": "bad_message", "ref": 1}
    assert moved["code"] == "bad_message"
    assert client.get(f"/api/games/{game['id']}").json()["seq"] == 0


def test_a_chat_line_with_a_nul_is_bad_input(devices: Callable[..., TestClient]) -> None:
    device = devices()
    anna, bea = accounts(device, 2)
    table = lobby_table(device, anna, players=2)
    join(device, bea, table["id"])
    with socket_as(device, anna) as ws:
        person = Person(ws, table, 0)
        state = person.open()
        refused = person.send("table.chat", text="hallo\x00<b>")
        again = person.open()
    assert refused["type"] == "error" and refused["code"] == "bad_message"
    assert again["chat"] == state["chat"]
