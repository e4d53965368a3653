"""Seats and sockets: who may move, what each socket sees, reconnects and restarts."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import partial
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient

from spielcenter.games.speedquilt.model import Deck, PlacedBlock
from spielcenter.server.tables import TableActor

from .conftest import csrf, me
from .tables_helpers import (
    ScriptedHuman,
    devices,
    make_table_app,
    new_table,
    other_account,
    receive_until,
    socket_as,
)

__all__ = ["devices", "make_table_app"]  # fixtures used by the tests below

DEAL = 777
THIMBLE_KIT = "K01"
"""A thimble kit of the catalogue (two patches needing sixes)."""


def actor_of(app: Any, table: dict[str, Any]) -> TableActor:
    """The live actor of a table (to look at the hidden truth the sockets must not see)."""
    actor: TableActor = app.state.tables.actors[table["id"]]
    return actor


def answers(ref: int, message: dict[str, Any]) -> bool:
    """Whether ``message`` answers the message sent with id ``ref``."""
    return message.get("ref") == ref


def seat_zero_rolled(message: dict[str, Any]) -> bool:
    """Seat 0's own turn, after its first roll, with nobody else to wait for."""
    turn = message["view"]["turn"]
    return (
        turn is not None and turn["seat"] == 0 and turn["rolls"] >= 1 and message["to_act"] == [0]
    )


def error_of(ws: Any, message: dict[str, Any]) -> dict[str, Any]:
    """Send ``message`` (with an id) and read up to its answer, which must be an error."""
    ws.send_json({**message, "id": "x"})
    answer: dict[str, Any] = receive_until(ws, lambda m: m.get("ref") == "x")[-1]
    assert answer["type"] == "error", answer
    return answer


def test_a_second_account_cannot_move_for_seat_zero(devices: Callable[..., TestClient]) -> None:
    owner = devices()
    table = new_table(owner, deal=DEAL)
    with socket_as(owner, other_account(owner)) as ws:
        state = ScriptedHuman(ws, table).open()
        refused = error_of(ws, {"type": "table.move", "table_id": table["id"], "move": "roll"})
    assert refused["code"] == "not_seated"
    assert state["seat"] is None and state["legal"] == []
    assert all(entry.seat != 0 for entry in actor_of(owner.app, table).entries)  # none for seat 0


def test_a_spectator_sees_the_public_view(devices: Callable[..., TestClient]) -> None:
    owner = devices()
    table = new_table(owner, deal=DEAL)
    actor = actor_of(owner.app, table)
    with socket_as(owner, other_account(owner)) as ws:
        state = ScriptedHuman(ws, table).open()
        if state["to_act"] != [0]:
            # The computers choose their start blocks meanwhile; wait until only seat 0 is asked,
            # so that the table stands still while its view is compared with the truth.
            state = receive_until(ws, lambda m: m.get("to_act") == [0])[-1]
    assert state["view"] == actor.engine.view_for(actor.state, None)
    assert state["view"]["you"] is None
    assert all("hand" not in seat for seat in state["view"]["seats"])


def test_bad_table_messages_are_refused_and_change_nothing(
    devices: Callable[..., TestClient],
) -> None:
    device = devices()
    table = new_table(device, deal=DEAL)
    tid = table["id"]
    with device.websocket_connect("/ws") as ws:
        state = ScriptedHuman(ws, table).open()
        if state["to_act"] != [0]:
            # The computers choose their start blocks meanwhile; wait until only seat 0 is asked,
            # so that nothing but the refused messages could change the table.
            state = receive_until(ws, lambda m: m.get("to_act") == [0])[-1]
        codes = [
            error_of(ws, {"type": "table.open", "table_id": "nope"})["code"],
            error_of(ws, {"type": "table.move", "table_id": tid})["code"],
            error_of(ws, {"type": "table.dance", "table_id": tid})["code"],
            error_of(ws, {"type": "table.move", "table_id": tid, "move": "fly away"})["code"],
            error_of(ws, {"type": "table.move", "table_id": tid, "move": "roll"})["code"],
            error_of(ws, {"type": "table.move", "table_id": tid, "move": "end", "seq": 0})["code"],
        ]
    assert codes == [
        "not_found",
        "bad_message",
        "bad_message",
        "bad_move",
        "illegal_move",
        "stale",
    ]
    assert device.get(f"/api/tables/{tid}").json()["seq"] == state["seq"]


def test_a_table_needs_two_to_four_players_and_known_computers(
    devices: Callable[..., TestClient],
) -> None:
    device = devices()
    bodies = [
        {"players": 5, "bots": ["easy"] * 4},
        {"players": 3, "bots": ["easy"]},
        {"players": 2, "bots": ["grandmaster"]},
        {"players": 2, "bots": ["easy"], "tempo": "warp"},
        {"players": 2, "bots": ["easy"], "colour": "red"},
    ]
    for body in bodies:
        response = device.post("/api/tables", json=body, headers=csrf(device))
        assert response.status_code == 400, body
        assert response.json()["error"]["code"] == "bad_request"
    assert device.get("/api/tables").json() == {"tables": []}


def test_a_reconnect_with_last_seq_gets_what_it_missed(
    devices: Callable[..., TestClient],
) -> None:
    device = devices()
    table = new_table(device, deal=DEAL)
    with device.websocket_connect("/ws") as ws:
        human = ScriptedHuman(ws, table)
        first = human.open()
        seen = first["seq"]
        human.play(first, stop=lambda m: m["seq"] >= seen + 20)
    # The socket is gone; the computers go on while seat 0 is away.
    with device.websocket_connect("/ws") as ws:
        again = ScriptedHuman(ws, table).open(last_seq=seen)
    assert [e["seq"] for e in again["missed"]] == list(range(seen + 1, again["seq"] + 1))
    assert len(again["history"]) >= again["seq"] - 1  # one line per entry, bar private ones
    assert again["history"][: len(first["history"])] == first["history"]


def test_the_log_replays_after_a_restart_and_the_computers_go_on(
    devices: Callable[..., TestClient], make_table_app: Callable[[], FastAPI]
) -> None:
    with TestClient(make_table_app()) as device:
        me(device)
        table = new_table(device, deal=DEAL)
        with device.websocket_connect("/ws") as ws:
            human = ScriptedHuman(ws, table)
            before = human.play(human.open(), stop=lambda m: m["seq"] >= 30 and m["to_act"] == [0])
        cookies = dict(device.cookies)
    # The server stopped; a new one starts on the same database, the same browser comes back.
    restarted = devices()
    restarted.cookies = cookies
    with restarted.websocket_connect("/ws") as ws:
        human = ScriptedHuman(ws, table)
        state = human.open()
        assert state["seq"] == before["seq"] and state["view"] == before["view"]
        last = human.play(state)
    assert last["view"]["status"] == "finished"


def test_no_socket_sees_another_seats_thimble(devices: Callable[..., TestClient]) -> None:
    owner = devices()
    table = new_table(owner, deal=DEAL, players=2, bots=["easy"])
    spectator = other_account(owner)
    actor = actor_of(owner.app, table)
    with owner.websocket_connect("/ws") as ws, socket_as(owner, spectator) as watch:
        human = ScriptedHuman(ws, table)
        moment = human.play(human.open(), stop=seat_zero_rolled)
        ScriptedHuman(watch, table).open()
        # The constructed moment: seat 0 owns a finished thimble kit.
        actor.state.seats[0].quilt[(0, 1)] = PlacedBlock(THIMBLE_KIT, (6, 6))
        red = next(d for d in moment["view"]["turn"]["dice"] if d["die"] == "red")
        by = "-1" if red["value"] == 6 else "+1"
        ws.send_json({"type": "table.move", "table_id": table["id"], "move": f"thimble red {by}"})
        own = ws.receive_json()
        seen = watch.receive_json()
    assert own["entry"]["move"] == f"thimble red {by}"
    assert next(d for d in own["view"]["turn"]["dice"] if d["die"] == "red")["adjusted"]
    assert seen["entry"] == {"seq": own["seq"], "seat": 0, "move": None, "line": None, "also": []}
    watched_red = next(d for d in seen["view"]["turn"]["dice"] if d["die"] == "red")
    assert watched_red == red and "thimble" not in json.dumps(seen)


def test_no_socket_sees_another_seats_blind_draw_or_the_deck_order(
    devices: Callable[..., TestClient],
) -> None:
    owner = devices()
    table = new_table(owner, deal=DEAL, players=2, bots=["easy"])
    spectator = other_account(owner)
    actor = actor_of(owner.app, table)
    tid = table["id"]
    with owner.websocket_connect("/ws") as ws, socket_as(owner, spectator) as watch:
        human = ScriptedHuman(ws, table)
        human.play(human.open(), stop=seat_zero_rolled)
        watched = [ScriptedHuman(watch, table).open()]
        for n in range(2):
            ws.send_json({"type": "table.move", "table_id": tid, "move": "reroll", "id": n})
            receive_until(ws, partial(answers, n))
            receive_until(ws, lambda m: m.get("to_act") == [0])  # the computer's window closed
        deck = list(actor.state.decks[Deck.PATTERN])
        ws.send_json({"type": "table.move", "table_id": tid, "move": "bin draw pattern"})
        own = ws.receive_json()
        watched += receive_until(watch, lambda m: m.get("seq") == own["seq"])
    block = own["view"]["turn"]["drawn"]["block"]
    assert own["entry"]["line"]["block"] == block
    assert watched[-1]["view"]["turn"]["drawn"] == {"deck": "pattern", "block": None}
    assert "block" not in watched[-1]["entry"]["line"]
    for message in watched:
        text = json.dumps(message)
        assert block not in text
        assert json.dumps(deck[1:4])[1:-1] not in text  # no three blocks in deck order
