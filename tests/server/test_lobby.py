"""The lobby: create a table for people, list and join it, invitations, leave before the start,
start when full (issue 7; speedquilt.md §7 "Mit anderen")."""

from __future__ import annotations

from collections.abc import Callable

from fastapi.testclient import TestClient

from .lobby_helpers import accounts, get, join, lobby_table, post
from .tables_helpers import devices, make_table_app

__all__ = ["devices", "make_table_app"]  # fixtures used by the tests below


def test_a_table_waits_for_its_free_seats_and_is_listed(
    devices: Callable[..., TestClient],
) -> None:
    device = devices()
    anna, bea = accounts(device, 2)
    table = lobby_table(device, anna, players=3, bots=["strong", None], think=60, giving=20)
    assert table["status"] == "waiting"
    assert [s["kind"] for s in table["seats"]] == ["human", "computer", "free"]
    assert table["setup"]["think"] == 60 and table["setup"]["giving"] == 20
    listed = get(device, bea, "/api/lobby")["tables"]
    assert [t["id"] for t in listed] == [table["id"]]


def test_the_table_starts_when_the_last_free_seat_is_taken(
    devices: Callable[..., TestClient],
) -> None:
    device = devices()
    anna, bea, cleo = accounts(device, 3)
    table = lobby_table(device, anna, players=3)
    first = join(device, bea, table["id"]).json()
    assert first["status"] == "waiting" and first["seats"][1]["kind"] == "human"
    started = join(device, cleo, table["id"]).json()
    assert started["status"] == "open"
    assert [s["kind"] for s in started["seats"]] == ["human"] * 3
    assert get(device, bea, "/api/lobby")["tables"] == []


def test_a_table_without_free_seats_starts_at_once(devices: Callable[..., TestClient]) -> None:
    device = devices()
    (anna,) = accounts(device, 1)
    table = lobby_table(device, anna, players=2, bots=["easy"])
    assert table["status"] == "open"


def test_a_player_may_leave_before_the_start(devices: Callable[..., TestClient]) -> None:
    device = devices()
    anna, bea = accounts(device, 2)
    table = lobby_table(device, anna, players=3)
    join(device, bea, table["id"])
    left = post(device, bea, f"/api/lobby/{table['id']}/leave").json()
    assert left["status"] == "waiting" and left["seats"][1]["kind"] == "free"
    again = post(device, bea, f"/api/lobby/{table['id']}/leave")
    assert again.status_code == 409 and again.json()["error"]["code"] == "not_seated"


def test_a_table_nobody_sits_at_any_more_is_cancelled(devices: Callable[..., TestClient]) -> None:
    device = devices()
    anna, bea = accounts(device, 2)
    table = lobby_table(device, anna, players=2)
    cancelled = post(device, anna, f"/api/lobby/{table['id']}/leave").json()
    assert cancelled["status"] == "cancelled"
    refused = join(device, bea, table["id"])
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "not_waiting"
    assert get(device, bea, "/api/lobby")["tables"] == []


def test_a_private_table_is_joined_by_its_invitation_link_only(
    devices: Callable[..., TestClient],
) -> None:
    device = devices()
    anna, bea = accounts(device, 2)
    table = lobby_table(device, anna, players=2, private=True)
    assert get(device, bea, "/api/lobby")["tables"] == []
    refused = join(device, bea, table["id"])
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "invite_required"
    code = table["setup"]["invite"]
    assert get(device, bea, f"/api/lobby/invite/{code}")["id"] == table["id"]
    assert join(device, bea, table["id"], invite=code).json()["status"] == "open"
    assert get(device, bea, "/api/lobby/invite/nonsense")["error"]["code"] == "not_found"


def test_a_seat_is_taken_once_and_a_started_table_takes_nobody(
    devices: Callable[..., TestClient],
) -> None:
    device = devices()
    anna, bea, cleo = accounts(device, 3)
    table = lobby_table(device, anna, players=2)
    twice = join(device, anna, table["id"])
    assert twice.status_code == 409 and twice.json()["error"]["code"] == "already_seated"
    join(device, bea, table["id"])
    late = join(device, cleo, table["id"])
    assert late.status_code == 409 and late.json()["error"]["code"] == "not_waiting"


def test_bad_lobby_requests_are_refused_and_change_nothing(
    devices: Callable[..., TestClient],
) -> None:
    device = devices()
    (anna,) = accounts(device, 1)
    bodies = [
        {"players": 5},
        {"players": 1},
        {"players": 3, "bots": ["easy"]},
        {"players": 2, "bots": ["grandmaster"]},
        {"players": 2, "think": 45},
        {"players": 2, "giving": 10},
        {"players": 2, "stake": -1},
        {"players": 2, "tempo": "warp"},
        {"players": 2, "colour": "red"},
    ]
    for body in bodies:
        response = post(device, anna, "/api/lobby", body)
        assert response.status_code == 400, body
        assert response.json()["error"]["code"] == "bad_request"
    assert get(device, anna, "/api/lobby")["tables"] == []
    assert get(device, anna, "/api/tables")["tables"] == []
    missing = join(device, anna, "no-such-table")
    assert missing.status_code == 404
