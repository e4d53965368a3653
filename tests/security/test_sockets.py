"""Attacks on the WebSocket (issue 37): deeply nested JSON, sockets without end, one account's
messages spread over many sockets, refused handshakes, and pages of other origins."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient

from spielcenter.server.websocket import MAX_JSON_DEPTH, too_deep

from ..server.conftest import new_game

NESTING = 4_000
"""How deep the attack nested its arrays (Python's parser gives up near 1 000 levels)."""
OBJECT_NESTING = 1_600
"""As deep as objects go within the 8 KiB a message may have."""


def _nested(depth: int) -> str:
    return '{"type": "ping", "id": 1, "x": ' + "[" * depth + "]" * depth + "}"


@pytest.mark.parametrize("shape", ["array", "object", "table message"])
def test_json_nested_four_thousand_levels_deep_is_a_bad_message_and_changes_nothing(
    client: TestClient, capsys: pytest.CaptureFixture[str], shape: str
) -> None:
    game = new_game(client, deal=3)
    arrays = "[" * NESTING + "]" * NESTING
    text = {
        "array": arrays,
        "object": '{"":' * OBJECT_NESTING + "1" + "}" * OBJECT_NESTING,
        "table message": '{"type": "table.open", "table_id": ' + arrays + "}",
    }[shape]
    with client.websocket_connect("/ws") as ws:
        ws.send_text(text)
        answer = ws.receive_json()
        ws.send_json({"type": "open", "game_id": game["id"]})
        state = ws.receive_json()
    assert answer["type"] == "error" and answer["code"] == "bad_message", answer
    assert "deep" in answer["message"]
    assert state["seq"] == 0
    logged = capsys.readouterr().out
    assert "RecursionError" not in logged and "ws_failed" not in logged


def test_json_just_within_the_depth_limit_is_still_read(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        ws.send_text(_nested(MAX_JSON_DEPTH - 1))
        answer = ws.receive_json()
        ws.send_text(_nested(MAX_JSON_DEPTH))
        refused = ws.receive_json()
    assert answer == {"type": "pong", "ref": 1}
    assert refused["code"] == "bad_message"
    assert json.loads(_nested(MAX_JSON_DEPTH))  # valid JSON, refused only for its depth


def test_brackets_inside_strings_do_not_count_as_nesting() -> None:
    many = "[" * (MAX_JSON_DEPTH * 4)
    assert not too_deep(json.dumps({"type": "table.chat", "text": many}))
    assert not too_deep(json.dumps({"text": '\\"' + many}))
    assert too_deep("[" * (MAX_JSON_DEPTH + 1) + "]" * (MAX_JSON_DEPTH + 1))
