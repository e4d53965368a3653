"""Hidden information never leaves the server: the Crazy Quilt stock order is in no message."""

from __future__ import annotations

import json
from typing import Any

from fastapi.testclient import TestClient

from spielcenter.games import crazy_quilt
from spielcenter.games.base import Record, get_game

from .conftest import new_game
from .ladder import Ladder

DEAL = 11


def lists_in(data: Any) -> list[list[Any]]:
    """Every list anywhere inside a JSON value."""
    if isinstance(data, list):
        return [data, *(inner for item in data for inner in lists_in(item))]
    if isinstance(data, dict):
        return [inner for value in data.values() for inner in lists_in(value)]
    return []


def shows_order(message: dict[str, Any], hidden: list[str]) -> bool:
    """Whether any list in ``message`` holds three cards of ``hidden`` in their hidden order."""
    windows = {tuple(hidden[i : i + 3]) for i in range(len(hidden) - 2)}
    for found in lists_in(message):
        cards = [item if isinstance(item, str) else None for item in found]
        if any(tuple(cards[i : i + 3]) in windows for i in range(len(cards) - 2)):
            return True
    return False


def test_the_crazy_quilt_stock_order_is_in_no_message(client: TestClient) -> None:
    game = new_game(client, "crazy-quilt", deal=DEAL)
    engine = get_game("crazy-quilt")
    record: Record[Any, Any] = Record(engine, DEAL)
    messages: list[dict[str, Any]] = [client.get(f"/api/games/{game['id']}").json()]
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "open", "game_id": game["id"]})
        messages.append(ws.receive_json())
        for _ in range(12):  # turn stock cards: each shows one card, never the rest
            ws.send_json({"type": "move", "game_id": game["id"], "move": "s"})
            record.play("s")
            messages.append(ws.receive_json())
        ws.send_json({"type": "hint", "game_id": game["id"]})
        messages.append(ws.receive_json())
    stock = [str(card) for card in crazy_quilt.reveal(record.state)]
    assert len(stock) >= 3 and all(m.get("type") != "error" for m in messages)
    assert messages[-2]["view"]["stock_count"] == len(stock)
    for message in messages:
        assert not shows_order(message, stock), message
        assert json.dumps(stock) not in json.dumps(message)


def test_the_ladder_stock_order_is_in_no_message(client: TestClient) -> None:
    game = new_game(client, deal=DEAL)
    stock = list(reversed(Ladder().start(DEAL).stock))  # in the order it would be turned
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "open", "game_id": game["id"]})
        state = ws.receive_json()
    assert state["view"]["stock_count"] == len(stock)
    assert not shows_order(state, stock) and not shows_order(state, stock[::-1])
