"""The chat of a table: per table, flood limits (no repeated lines, at most 3 lines in 10 s), a
length limit, plain text shown as text everywhere."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient

from .conftest import FakeClock
from .lobby_helpers import Person, accounts, join, lobby_table, socket_as, until_type
from .tables_helpers import devices, make_table_app

__all__ = ["devices", "make_table_app"]  # fixtures used by the tests below


def started(device: TestClient) -> tuple[dict[str, Any], list[dict[str, str]]]:
    """A started table of two people (no clocks), and a third account that only watches."""
    anna, bea, cleo = accounts(device, 3)
    table = lobby_table(device, anna)
    join(device, bea, table["id"])
    return table, [anna, bea, cleo]


def test_a_line_reaches_everyone_at_the_table_and_its_spectators(
    devices: Callable[..., TestClient],
) -> None:
    device = devices()
    table, (anna, bea, cleo) = started(device)
    with (
        socket_as(device, anna) as ws_a,
        socket_as(device, bea) as ws_b,
        socket_as(device, cleo) as ws_c,
    ):
        people = [Person(ws, table, seat) for seat, ws in enumerate((ws_a, ws_b, ws_c))]
        for person in people:
            person.open()
        said = people[1].send("table.chat", text="  Guten Abend!  ")
        heard = [until_type(ws, "table.chat")[-1] for ws in (ws_a, ws_c)]
    assert said["type"] == "table.chat" and said["text"] == "Guten Abend!" and said["seat"] == 1
    assert all({**h, "ref": said["ref"]} == said for h in heard)


def test_the_chat_is_part_of_the_table_state(devices: Callable[..., TestClient]) -> None:
    device = devices()
    table, (anna, _bea, _cleo) = started(device)
    with socket_as(device, anna) as ws:
        person = Person(ws, table, 0)
        person.open()
        person.send("table.chat", text="eins")
        person.send("table.chat", text="zwei")
    with socket_as(device, anna) as ws:
        state = Person(ws, table, 0).open()
    assert [line["text"] for line in state["chat"]] == ["eins", "zwei"]


def test_the_same_line_twice_in_a_row_is_refused(devices: Callable[..., TestClient]) -> None:
    device = devices()
    table, (anna, _bea, _cleo) = started(device)
    with socket_as(device, anna) as ws:
        person = Person(ws, table, 0)
        person.open()
        person.send("table.chat", text="Hallo")
        again = person.send("table.chat", text="Hallo")
        state = person.open()
    assert again["type"] == "error" and again["code"] == "chat_repeated"
    assert [line["text"] for line in state["chat"]] == ["Hallo"]


def test_at_most_three_lines_in_ten_seconds(
    devices: Callable[..., TestClient], clock: FakeClock
) -> None:
    device = devices()
    table, (anna, _bea, _cleo) = started(device)
    with socket_as(device, anna) as ws:
        person = Person(ws, table, 0)
        person.open()
        answers = [person.send("table.chat", text=f"Zeile {n}") for n in range(4)]
        clock.advance(10)
        later = person.send("table.chat", text="Zeile 5")
    assert [a["type"] for a in answers] == ["table.chat"] * 3 + ["error"]
    assert answers[-1]["code"] == "chat_flood"
    assert later["type"] == "table.chat"


def test_a_line_has_one_to_two_hundred_characters_of_text(
    devices: Callable[..., TestClient],
) -> None:
    device = devices()
    table, (anna, _bea, _cleo) = started(device)
    with socket_as(device, anna) as ws:
        person = Person(ws, table, 0)
        person.open()
        refused = [
            person.send("table.chat", text=text)
            for text in ("   ", "x" * 201, "Klingel\x07", "un\u200bsichtbar")
        ]
        longest = person.send("table.chat", text="x" * 200)
    assert [r["code"] for r in refused] == ["bad_message"] * 4
    assert longest["type"] == "table.chat"


def test_markup_stays_text(devices: Callable[..., TestClient]) -> None:
    device = devices()
    table, (anna, bea, _cleo) = started(device)
    markup = '<img src=x onerror="alert(1)"> & <b>fett</b>'
    with socket_as(device, anna) as ws_a, socket_as(device, bea) as ws_b:
        Person(ws_b, table, 1).open()
        person = Person(ws_a, table, 0)
        person.open()
        person.send("table.chat", text=markup)
        heard = until_type(ws_b, "table.chat")[-1]
    assert heard["text"] == markup  # a string in JSON, never interpreted: clients show it as text


def test_spectators_read_the_chat_but_do_not_write(devices: Callable[..., TestClient]) -> None:
    device = devices()
    table, (_anna, _bea, cleo) = started(device)
    with socket_as(device, cleo) as ws:
        watcher = Person(ws, table, 0)
        state = watcher.open()
        refused = watcher.send("table.chat", text="Hallo!")
    assert state["seat"] is None and state["chat"] == []
    assert refused["code"] == "not_seated"
