"""Clocks (speedquilt.md §7 and the seed's "Mit anderen"): a think time per decision and a giving
clock; at zero a beep and 10 s of grace, then the computer decides for her — the rest of her turn,
her start blocks; while giving she gets nothing. Deadlines are absolute and survive a restart.

The app's clock is the test's FakeClock: time moves only when a test moves it (``later``)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient

from spielcenter.games.speedquilt.model import PlacedBlock

from .conftest import FakeClock, csrf, me
from .lobby_helpers import (
    Person,
    accounts,
    actor_of,
    join,
    later,
    lobby_table,
    socket_as,
    until_type,
)
from .tables_helpers import devices, make_table_app, receive_until

__all__ = ["devices", "make_table_app"]  # fixtures used by the tests below

SEED = 777
THIMBLE_KIT = "K01"
"""A thimble kit of the catalogue (two patches needing sixes)."""
CLOCKS = {"think": 30, "giving": 15, "stand_in": "easy", "seed": SEED}


def at(clock: FakeClock, seconds: float) -> str:
    """The moment ``seconds`` from now, as the protocol writes it."""
    moment: datetime = clock.now + timedelta(seconds=seconds)
    return moment.isoformat()


def with_a_computer(device: TestClient) -> dict[str, Any]:
    """A table of the device's account and an easy computer, with clocks (it starts at once)."""
    return lobby_table(device, dict(device.cookies), bots=["easy"], **CLOCKS)


def her_turn(message: dict[str, Any]) -> bool:
    """Seat 0's own turn, before her first roll, with nobody else to wait for."""
    turn = message["view"]["turn"]
    return (
        turn is not None and turn["seat"] == 0 and turn["rolls"] == 0 and message["to_act"] == [0]
    )


def her_window(message: dict[str, Any]) -> bool:
    """Seat 0 has a giving window open in the computer's turn."""
    turn = message["view"]["turn"]
    return turn is not None and turn["seat"] != 0 and 0 in message["to_act"]


def her_window_or_turn(message: dict[str, Any]) -> bool:
    """Seat 0 has a window open or her own turn begins."""
    return her_window(message) or her_turn(message)


def test_the_seat_sees_her_clock_from_the_start(
    devices: Callable[..., TestClient], clock: FakeClock
) -> None:
    device = devices()
    table = with_a_computer(device)
    with device.websocket_connect("/ws") as ws:
        state = Person(ws, table, 0).open()
    assert state["clocks"] == [
        {"seat": 0, "kind": "start", "deadline": at(clock, 30), "grace_until": at(clock, 40)}
    ]


def test_at_the_start_blocks_a_beep_and_grace_then_the_computer_chooses_for_her(
    devices: Callable[..., TestClient], clock: FakeClock
) -> None:
    device = devices()
    table = with_a_computer(device)
    with device.websocket_connect("/ws") as ws:
        person = Person(ws, table, 0)
        person.open()
        later(device, clock, table["id"], 30)
        beep = until_type(ws, "table.clock")[-1]
        later(device, clock, table["id"], 9)
        still = person.open()
        later(device, clock, table["id"], 1)
        seen = receive_until(ws, lambda m: m.get("entry", {}).get("seat") == 0)
    assert (beep["seat"], beep["kind"], beep["phase"]) == (0, "start", "grace")
    assert 0 in still["to_act"]  # nine seconds into the grace she may still choose
    expired = [m for m in seen if m["type"] == "table.clock"]
    assert [m["phase"] for m in expired] == ["expired"]
    assert seen[-1]["entry"]["move"].startswith("choose")


def test_in_her_turn_the_computer_plays_the_rest_of_her_turn_after_the_grace(
    devices: Callable[..., TestClient], clock: FakeClock
) -> None:
    device = devices()
    table = with_a_computer(device)
    with device.websocket_connect("/ws") as ws:
        person = Person(ws, table, 0)
        turn = person.play(person.open(), stop=her_turn)
        assert turn["clocks"] == [
            {"seat": 0, "kind": "turn", "deadline": at(clock, 30), "grace_until": at(clock, 40)}
        ]
        later(device, clock, table["id"], 40)
        seen = receive_until(ws, lambda m: m["type"] == "table.seat" and not m["away"])
    phases = [m["phase"] for m in seen if m["type"] == "table.clock"]
    taken = next(m for m in seen if m["type"] == "table.seat")
    hers = [m["entry"]["move"] for m in seen if m["type"] == "table.event"]
    assert phases == ["grace", "expired"]
    assert (taken["seat"], taken["away"], taken["why"]) == (0, True, "timeout")
    assert hers[0] == "roll" and hers[-1] == "end"  # the whole rest of her turn, then hers again


def test_while_giving_she_gets_nothing_when_the_grace_is_over(
    devices: Callable[..., TestClient], clock: FakeClock
) -> None:
    device = devices()
    table = with_a_computer(device)
    with device.websocket_connect("/ws") as ws:
        person = Person(ws, table, 0)
        window = person.play(person.open(), stop=her_window)
        mine = [c for c in window["clocks"] if c["seat"] == 0]
        later(device, clock, table["id"], 25)
        seen = receive_until(ws, lambda m: m.get("entry", {}).get("seat") == 0)
    assert mine == [
        {"seat": 0, "kind": "giving", "deadline": at(clock, -10), "grace_until": at(clock, 0)}
    ]
    assert seen[-1]["entry"]["move"] == "pass"


def test_the_clock_restarts_at_each_decision(
    devices: Callable[..., TestClient], clock: FakeClock
) -> None:
    device = devices()
    table = with_a_computer(device)
    with device.websocket_connect("/ws") as ws:
        person = Person(ws, table, 0)
        turn = person.play(person.open(), stop=her_turn)
        clock.advance(20)
        rolled = person.send("table.move", move="roll")
    before = turn["clocks"][0]["deadline"]
    after = rolled["clocks"][0]["deadline"]
    assert after == at(clock, 30) and after != before


def test_the_deadlines_survive_a_restart_of_the_server(
    devices: Callable[..., TestClient], make_table_app: Callable[[], FastAPI], clock: FakeClock
) -> None:
    with TestClient(make_table_app()) as first:
        me(first)
        table = with_a_computer(first)
        with first.websocket_connect("/ws") as ws:
            before = Person(ws, table, 0).open()
        cookies = dict(first.cookies)
    restarted = devices()
    restarted.cookies = cookies
    with restarted.websocket_connect("/ws") as ws:
        person = Person(ws, table, 0)
        again = person.open()
        later(restarted, clock, table["id"], 40)
        seen = receive_until(ws, lambda m: m.get("entry", {}).get("seat") == 0)
    assert again["clocks"] == before["clocks"]
    assert [m["phase"] for m in seen if m["type"] == "table.clock"] == ["grace", "expired"]


def two_people(device: TestClient) -> tuple[dict[str, Any], list[dict[str, str]]]:
    """A started table of two people with clocks."""
    anna, bea = accounts(device, 2)
    table = lobby_table(device, anna, **CLOCKS)
    assert join(device, bea, table["id"]).json()["status"] == "open"
    return table, [anna, bea]


def test_two_seats_deciding_at_the_same_instant_are_both_taken_in_one_order(
    devices: Callable[..., TestClient],
) -> None:
    device = devices()
    table, (anna, bea) = two_people(device)
    with socket_as(device, anna) as ws_a, socket_as(device, bea) as ws_b:
        people = [Person(ws_a, table, 0), Person(ws_b, table, 1)]
        states = [p.open() for p in people]
        choices = [p.decide(s) for p, s in zip(people, states, strict=True)]
        for n, (ws, choice) in enumerate(zip((ws_a, ws_b), choices, strict=True)):
            ws.send_json({"type": "table.move", "table_id": table["id"], "move": choice, "id": n})
        heard = [receive_until(ws, lambda m: m.get("seq") == 2) for ws in (ws_a, ws_b)]
    for messages in heard:
        assert all(m["type"] != "error" for m in messages), messages
    orders = [
        [(m["seq"], m["entry"]["seat"]) for m in ms if m["type"] == "table.event"] for ms in heard
    ]
    assert orders[0] == orders[1] and sorted(s for _, s in orders[0]) == [0, 1]


def test_a_command_from_a_seat_the_game_does_not_wait_for_is_refused(
    devices: Callable[..., TestClient],
) -> None:
    device = devices()
    table, (anna, bea) = two_people(device)
    with socket_as(device, anna) as ws_a, socket_as(device, bea) as ws_b:
        people = [Person(ws_a, table, 0), Person(ws_b, table, 1)]
        states = [p.open() for p in people]
        for person, state in zip(people, states, strict=True):
            person.send("table.move", move=person.decide(state))
        started = receive_until(ws_a, lambda m: m.get("seq") == 2 and m["type"] == "table.event")
        waiting = started[-1]["view"]["turn"]["seat"]
        other = people[1 - waiting]
        refused = other.send("table.move", move="roll")
        after = other.open()
    assert refused["code"] == "not_your_turn"
    assert after["seq"] == 2 and after["to_act"] == [waiting]


def test_when_nothing_fits_auto_continue_passes_for_her_after_two_seconds(
    devices: Callable[..., TestClient], clock: FakeClock
) -> None:
    device = devices()
    settings = {"auto_continue": True}
    assert device.put("/api/settings", json=settings, headers=csrf(device)).status_code == 200
    table = with_a_computer(device)
    actor = actor_of(device, table["id"])
    with device.websocket_connect("/ws") as ws:
        person = Person(ws, table, 0)
        latest = person.play(person.open(), stop=her_turn)
        while not her_window(latest := person.play(latest, stop=her_window_or_turn)):
            # The constructed moment: her quilt is one finished kit, so no die fits anywhere;
            # she only rolls and ends her turns so that it stays so.
            actor.state.seats[0].quilt = {(0, 0): PlacedBlock(THIMBLE_KIT, (6, 6))}
            person.send("table.move", move="roll")
            latest = person.send("table.move", move="end")
        mine = [c for c in latest["clocks"] if c["seat"] == 0]
        later(device, clock, table["id"], 2)
        seen = receive_until(ws, lambda m: m.get("entry", {}).get("seat") == 0)
    assert mine == [
        {"seat": 0, "kind": "auto", "deadline": at(clock, 0), "grace_until": at(clock, 0)}
    ]
    assert [m["phase"] for m in seen if m["type"] == "table.clock"] == ["expired"]
    assert seen[-1]["entry"]["move"] == "pass"


def test_after_a_reroll_every_other_seat_chooses_at_once_and_the_reroll_waits_for_them(
    devices: Callable[..., TestClient], clock: FakeClock
) -> None:
    device = devices()
    anna, bea = accounts(device, 2)
    table = lobby_table(device, anna, players=3, bots=[None, "easy"], **CLOCKS)
    join(device, bea, table["id"])

    def both_windows(message: dict[str, Any]) -> bool:
        turn = message["view"]["turn"]
        return turn is not None and turn["seat"] == 2 and {0, 1} <= set(message["to_act"])

    with socket_as(device, anna) as ws_a, socket_as(device, bea) as ws_b:
        people = [Person(ws_a, table, 0), Person(ws_b, table, 1)]
        found: dict[int, dict[str, Any]] = {}
        states = [p.open() for p in people]
        bea_plays = threading.Thread(
            target=lambda: found.update({1: people[1].play(states[1], stop=both_windows)})
        )
        bea_plays.start()
        found[0] = people[0].play(states[0], stop=both_windows)
        bea_plays.join(timeout=60)
        assert found[0]["seq"] == found[1]["seq"]  # the one reroll opened both windows
        rerolled = found[0]
        for n, (ws, person) in enumerate(zip((ws_a, ws_b), people, strict=True)):
            move = person.decide(found[person.seat])
            ws.send_json({"type": "table.move", "table_id": table["id"], "move": move, "id": n})
        heard = receive_until(
            ws_a, lambda m: m.get("type") == "table.event" and m["seq"] > rerolled["seq"] + 2
        )
    after_first = heard_event(heard, rerolled["seq"] + 1)
    after_both = heard_event(heard, rerolled["seq"] + 2)
    next_one = heard_event(heard, rerolled["seq"] + 3)
    assert {after_first["entry"]["seat"], after_both["entry"]["seat"]} == {0, 1}
    still = after_first["to_act"]  # the active player sees who is still choosing
    assert 2 in still and ({0, 1} - {after_first["entry"]["seat"]}) <= set(still)
    assert after_both["view"]["turn"]["windows"] == {}  # both windows closed
    assert next_one["entry"]["seat"] == 2  # the computer goes on only once both have chosen
    assert rerolled["clocks"] == [
        {"seat": s, "kind": "giving", "deadline": at(clock, 15), "grace_until": at(clock, 25)}
        for s in (0, 1)
    ]


def heard_event(messages: list[dict[str, Any]], seq: int) -> dict[str, Any]:
    """The ``table.event`` of ``seq`` among ``messages``."""
    event: dict[str, Any] = next(
        m for m in messages if m["type"] == "table.event" and m["seq"] == seq
    )
    return event
