"""Requests that must change nothing (issue 37, attacks 7, 12 and 15; docs/security.md): a move
that changes nothing, a variant only the server may store, a private table watched without its
invitation."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ..server.conftest import csrf
from ..server.lobby_helpers import Person, accounts, as_account, get, join, lobby_table, socket_as

# -- attack 7: no-op moves are not logged ------------------------------------------------------


def test_a_keep_that_changes_nothing_is_refused_and_leaves_no_entry(
    devices: Callable[..., TestClient],
) -> None:
    """A hundred "keep none" were a hundred entries and a hundred and one events for the other
    player. A keep that leaves the basket as it is is refused, and the log stays where it was."""
    device = devices()
    anna, bea = accounts(device, 2)
    table = lobby_table(device, anna, players=2)
    assert join(device, bea, table["id"]).status_code == 200
    with socket_as(device, anna) as ws_anna, socket_as(device, bea) as ws_bea:
        people = [Person(ws_anna, table, 0), Person(ws_bea, table, 1)]
        latest: dict[str, Any] = {}
        for person in people:
            latest = person.send("table.move", move=person.decide(person.open()))
        (active,) = latest["to_act"]
        mover = people[active]
        rolled = mover.send("table.move", move="roll")
        assert rolled["type"] == "table.event"
        refusals = [mover.send("table.move", move="keep none") for _ in range(5)]
        again = mover.open()
    assert {r["type"] for r in refusals} == {"error"}
    assert {r["code"] for r in refusals} == {"illegal_move"}
    assert again["seq"] == rolled["seq"]


# -- attack 12: stored-only variants -----------------------------------------------------------


@pytest.mark.parametrize("variant", ["daily-2027-01-05", "stage-3", "daily", "table"])
def test_a_variant_only_the_server_stores_cannot_be_dealt(client: TestClient, variant: str) -> None:
    """``daily-<day>`` answered 201 and left a game that failed on every open; ``stage-3``
    silently became a plain solo game. The daily quilt and campaign stages are started by their
    own services; a client deals only the variants a player may choose."""
    response = client.post(
        "/api/games", json={"game": "speedquilt", "variant": variant}, headers=csrf(client)
    )
    assert response.status_code == 400, response.text
    error = response.json()["error"]
    assert error["code"] == "bad_variant"
    assert variant in error["message"]
    assert client.get("/api/games").json()["games"] == []


def test_the_variants_a_player_may_choose_are_still_dealt(client: TestClient) -> None:
    for game, variant in (("cruel", "perseverance"), ("crazy-quilt", None), ("speedquilt", "solo")):
        body = {"game": game} if variant is None else {"game": game, "variant": variant}
        response = client.post("/api/games", json=body, headers=csrf(client))
        assert response.status_code == 201, response.text


# -- attack 15: private tables -----------------------------------------------------------------


def _private_table(device: TestClient) -> tuple[dict[str, Any], list[dict[str, str]]]:
    """Anna's private table with a computer (it starts at once) and a stranger, Bea."""
    anna, bea = accounts(device, 2)
    table = lobby_table(device, anna, players=2, bots=["easy"], private=True)
    assert table["status"] == "open"
    return table, [anna, bea]


def test_a_private_table_is_watched_only_with_its_invitation(
    devices: Callable[..., TestClient],
) -> None:
    """Anyone with a private table's id watched it and read its chat. Now a stranger needs the
    invitation; with it she may watch (as a spectator, seeing no seat's secrets)."""
    device = devices()
    table, (_anna, bea) = _private_table(device)
    invite = table["setup"]["invite"]
    with socket_as(device, bea) as ws:
        stranger = Person(ws, table, 0)
        refused = stranger.send("table.open")
        guessed = stranger.send("table.open", invite="not-the-code")
        watched = stranger.send("table.open", invite=invite)
    assert refused["type"] == "error" and refused["code"] == "invite_required"
    assert guessed["type"] == "error" and guessed["code"] == "invite_required"
    assert watched["type"] == "table.state" and watched["seat"] is None
    assert "invite" not in watched["table"]["setup"]
    with as_account(device, bea):
        shown = device.get(f"/api/tables/{table['id']}")
        with_code = device.get(f"/api/tables/{table['id']}", params={"invite": invite})
    assert shown.status_code == 403 and shown.json()["error"]["code"] == "invite_required"
    assert with_code.status_code == 200 and with_code.json()["seat"] is None


def test_a_private_tables_invitation_is_shown_only_to_the_people_at_the_table(
    devices: Callable[..., TestClient],
) -> None:
    """``GET /api/tables/{id}`` showed ``setup.invite`` to spectators. A private table's code is
    in the summaries of its own people only; a public table's link is for everybody anyway."""
    device = devices()
    anna, bea, cleo = accounts(device, 3)
    private = lobby_table(device, anna, players=3, private=True)
    code = private["setup"]["invite"]  # the creator shares it
    assert get(device, bea, "/api/lobby")["tables"] == []  # listed nowhere
    assert "invite" not in get(device, bea, f"/api/lobby/invite/{code}")["setup"]
    assert "invite" in join(device, bea, private["id"], invite=code).json()["setup"]
    started = join(device, cleo, private["id"], invite=code).json()
    assert started["status"] == "open"
    stranger = accounts(device, 2)[1]
    seen = get(device, stranger, f"/api/tables/{private['id']}?invite={code}")
    assert seen["seat"] is None and "invite" not in seen["setup"]
    assert "invite" in get(device, anna, f"/api/tables/{private['id']}")["setup"]
    public = lobby_table(device, anna, players=2)
    listed = get(device, stranger, "/api/lobby")["tables"]
    assert [t["setup"]["invite"] for t in listed] == [public["setup"]["invite"]]
