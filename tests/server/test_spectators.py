"""Spectators may watch a table without seeing anything a seat keeps private."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient

from .lobby_helpers import Person, accounts, actor_of, join, lobby_table, socket_as
from .tables_helpers import devices, make_table_app, receive_until

__all__ = ["devices", "make_table_app"]  # fixtures used by the tests below


def watched_table(device: TestClient) -> tuple[dict[str, Any], list[dict[str, str]]]:
    """A started table of two people with clocks, and a third account."""
    anna, bea, cleo = accounts(device, 3)
    table = lobby_table(device, anna, think=60, giving=20, seed=777)
    join(device, bea, table["id"])
    return table, [anna, bea, cleo]


def test_a_spectator_does_not_see_a_start_choice_before_everyone_has_chosen(
    devices: Callable[..., TestClient],
) -> None:
    device = devices()
    table, (anna, _bea, cleo) = watched_table(device)
    with socket_as(device, anna) as ws_a, socket_as(device, cleo) as ws_c:
        chooser, watcher = Person(ws_a, table, 0), Person(ws_c, table, 0)
        mine = chooser.open()
        watched = [watcher.open()]
        choice = chooser.send("table.move", move=chooser.decide(mine))
        watched += receive_until(ws_c, lambda m: m.get("seq") == choice["seq"])
    hand = [block["id"] if isinstance(block, dict) else block for block in _hand(mine)]
    seen = watched[-1]
    assert seen["entry"]["move"] is None and "row" not in seen["entry"]["line"]
    assert all("hand" not in seat for seat in seen["view"]["seats"])
    for message in watched:
        text = json.dumps(message)
        assert not any(block in text for block in hand), (hand, message)


def _hand(state: dict[str, Any]) -> list[Any]:
    hand: list[Any] = state["view"]["seats"][0]["hand"]
    assert len(hand) == 4
    return hand


def test_a_spectator_sees_the_public_view_the_clocks_and_the_chat(
    devices: Callable[..., TestClient],
) -> None:
    device = devices()
    table, (anna, _bea, cleo) = watched_table(device)
    actor = actor_of(device, table["id"])
    with socket_as(device, anna) as ws_a:
        person = Person(ws_a, table, 0)
        person.open()
        person.send("table.chat", text="Schön, dass du zuschaust")
    with socket_as(device, cleo) as ws_c:
        state = Person(ws_c, table, 0).open()
    assert state["seat"] is None and state["legal"] == []
    assert state["view"] == actor.engine.view_for(actor.state, None)
    assert sorted(c["seat"] for c in state["clocks"]) == [0, 1]
    assert [line["text"] for line in state["chat"]] == ["Schön, dass du zuschaust"]


def test_a_spectator_may_not_move_leave_or_take_a_seat(
    devices: Callable[..., TestClient],
) -> None:
    device = devices()
    table, (_anna, _bea, cleo) = watched_table(device)
    with socket_as(device, cleo) as ws:
        watcher = Person(ws, table, 0)
        state = watcher.open()
        codes = [
            watcher.send("table.move", move="roll")["code"],
            watcher.send("table.leave")["code"],
            watcher.send("table.return")["code"],
        ]
        after = watcher.open()
    assert codes == ["not_seated"] * 3
    assert after["seq"] == state["seq"]
