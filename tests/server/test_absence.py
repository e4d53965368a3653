"""Absence and reconnecting: a player who leaves, or is disconnected for two minutes at a table
without a clock, is played by a computer until she returns; she can take her seat back. Closing
the tab and coming back restores the seat, the dice, the open windows and the clocks exactly."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient

from .conftest import FakeClock, claim, login
from .lobby_helpers import (
    Person,
    accounts,
    join,
    later,
    lobby_table,
    socket_as,
    until_gone,
    until_type,
    wake,
)
from .tables_helpers import devices, make_table_app, receive_until

__all__ = ["devices", "make_table_app"]  # fixtures used by the tests below


def two_people(device: TestClient, **setup: Any) -> tuple[dict[str, Any], list[dict[str, str]]]:
    """A started table of two people."""
    anna, bea = accounts(device, 2)
    table = lobby_table(device, anna, stand_in="easy", seed=777, **setup)
    join(device, bea, table["id"])
    return table, [anna, bea]


def by_seat(seat: int) -> Callable[[dict[str, Any]], bool]:
    """Whether a message is an entry of ``seat``."""
    return lambda m: m.get("type") == "table.event" and m["entry"]["seat"] == seat


def test_a_player_who_leaves_is_played_by_a_computer_until_she_takes_her_seat_back(
    devices: Callable[..., TestClient],
) -> None:
    device = devices()
    table, (anna, bea) = two_people(device, think=60)
    with socket_as(device, anna) as ws_a, socket_as(device, bea) as ws_b:
        person, other = Person(ws_a, table, 0), Person(ws_b, table, 1)
        person.open()
        other.open()
        left = person.send("table.leave")
        seen = receive_until(ws_b, by_seat(0))
        refused = person.send("table.move", move="roll")
        back = person.send("table.return")
        again = person.send("table.return")
    announced = next(m for m in seen if m["type"] == "table.seat")
    assert left["type"] == "table.left"
    assert (announced["seat"], announced["away"], announced["why"]) == (0, True, "left")
    assert [c["seat"] for c in announced["clocks"]] == [1]  # her clock stopped with her
    assert seen[-1]["entry"]["line"]["key"] == "history.choose"  # the computer chose for her
    assert refused["code"] == "seat_away"
    assert back["type"] == "table.state" and back["table"]["seats"][0]["away"] is False
    assert again["code"] == "not_away"


def test_a_player_disconnected_for_two_minutes_at_a_table_without_clock_is_played_by_a_computer(
    devices: Callable[..., TestClient], clock: FakeClock
) -> None:
    device = devices()
    table, (anna, bea) = two_people(device)
    tid = table["id"]
    with socket_as(device, bea) as ws_b:
        other = Person(ws_b, table, 1)
        with socket_as(device, anna) as ws_a:
            Person(ws_a, table, 0).open()
            other.open()
        until_gone(device, tid, table["seats"][0]["account_id"])
        wake(device, tid)  # the table notices that her socket closed
        later(device, clock, tid, 119)
        before = other.open()
        later(device, clock, tid, 1)
        seen = receive_until(ws_b, by_seat(0))
        with socket_as(device, anna) as ws_a:
            returned = Person(ws_a, table, 0).open()
        heard = until_type(ws_b, "table.seat")[-1]
    announced = next(m for m in seen if m["type"] == "table.seat")
    assert before["table"]["seats"][0]["away"] is False
    assert (announced["seat"], announced["away"], announced["why"]) == (0, True, "disconnected")
    assert returned["table"]["seats"][0]["away"] is False
    assert (heard["seat"], heard["away"], heard["why"]) == (0, False, "returned")


def test_a_reconnect_restores_the_seat_the_dice_the_open_windows_and_the_clocks(
    devices: Callable[..., TestClient],
) -> None:
    device = devices()
    assert claim(device, "Anna").status_code == 200
    (anna,) = accounts(device, 1)
    table = lobby_table(device, anna, bots=["easy"], think=30, giving=15, seed=777)

    def window_open(message: dict[str, Any]) -> bool:
        turn = message["view"]["turn"]
        return turn is not None and turn["seat"] != 0 and 0 in message["to_act"]

    with socket_as(device, anna) as ws:
        person = Person(ws, table, 0)
        last = person.play(person.open(), stop=window_open)
    with socket_as(device, anna) as ws:  # the tab closed and opened again
        same_tab = Person(ws, table, 0).open()
    device.cookies.clear()  # another device: a session of its own, logged into the account
    assert login(device, "Anna").status_code == 200
    assert dict(device.cookies) != anna
    with device.websocket_connect("/ws") as ws:
        other_device = Person(ws, table, 0).open()
    for state in (same_tab, other_device):
        assert state["seat"] == 0 and state["seq"] == last["seq"]
        assert state["view"]["turn"]["dice"] == last["view"]["turn"]["dice"]
        assert state["view"]["turn"]["windows"] == last["view"]["turn"]["windows"]
        assert state["clocks"] == last["clocks"] and state["legal"] == last["legal"]
        assert state["view"] == last["view"] and state["to_act"] == last["to_act"]
