"""The Crazy Quilt hint through the server: it is the honest player's choice from the game's own
history, so after a redeal it knows the stock the player turned over, and nothing more."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient

from spielcenter.games.base import get_game
from spielcenter.solvers.crazy_quilt_honest import play_honestly
from spielcenter.solvers.registry import hint

from .conftest import me, new_game

VARIANT = "second-redeal"
DEAL = 1


def test_the_quilt_hint_after_a_redeal_is_the_hint_for_the_games_history(
    make_client: Callable[..., TestClient], make_app: Callable[..., FastAPI]
) -> None:
    client = make_client(make_app(SOCKET_MESSAGE_LIMIT="1000/second"))
    me(client)
    moves = play_honestly(DEAL, VARIANT, node_budget=0).moves
    played = moves[: moves.index("r") + 1]
    game = new_game(client, "crazy-quilt", variant=VARIANT, deal=DEAL)
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "open", "game_id": game["id"]})
        ws.receive_json()
        for move in played:
            ws.send_json({"type": "move", "game_id": game["id"], "move": move})
            assert ws.receive_json()["type"] == "event"
        ws.send_json({"type": "hint", "game_id": game["id"]})
        given: dict[str, Any] = ws.receive_json()
    engine = get_game("crazy-quilt", VARIANT)
    expected = hint(engine, engine.replay(DEAL, played), played)
    assert given["type"] == "hint"
    assert (given["move"], given["text"], given["verdict"]) == (
        expected.move,
        expected.text_key,
        expected.verdict,
    )
    # Without the history the player would know no stock order: the server passed it on.
    assert expected != hint(engine, engine.replay(DEAL, played))
