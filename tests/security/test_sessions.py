"""Sessions (issue 37): a claim issues a new session like a login; sessions end on the server
after a time of disuse and after a longest lifetime."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from spielcenter.server.websocket import CLOSE_NO_SESSION
from spielcenter.settings import Settings

from ..server.conftest import FakeClock, claim, database_rows, me

SESSION = "spielcenter_session"
COOKIE_DOMAIN = "testserver.local"


def test_claiming_a_name_issues_a_new_session_and_csrf_token_and_ends_the_guests(
    make_client: Callable[..., TestClient], app: FastAPI
) -> None:
    client = make_client(app)
    guest = me(client)
    guest_token = client.cookies[SESSION]
    with client.websocket_connect("/ws") as ws:
        claimed = claim(client, "Anna")
        ws.send_json({"type": "ping"})  # a socket of the ended session is closed, not answered
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
    assert claimed.status_code == 200, claimed.text
    assert claimed.json()["id"] == guest["id"] and claimed.json()["name"] == "Anna"
    assert client.cookies[SESSION] != guest_token
    assert claimed.json()["csrf"] != guest["csrf"]
    assert closed.value.code == CLOSE_NO_SESSION
    # Whoever planted or saw the guest's token does not get the named account with it.
    planted = make_client(app)
    planted.cookies.set(SESSION, guest_token, domain=COOKIE_DOMAIN)
    assert me(planted)["id"] != guest["id"]
    # The guest's CSRF token is no good with the new session either.
    stale = client.put(
        "/api/settings", json={"lang": "de"}, headers={"X-CSRF-Token": guest["csrf"]}
    )
    assert stale.status_code == 403
    assert me(client)["name"] == "Anna"


# -- sessions end on the server ----------------------------------------------------------------

DAY = 24 * 3600
HOUR = 3600


def _session_is_live(client: TestClient) -> bool:
    response = client.get("/api/games")
    assert response.status_code in (200, 401), response.text
    return response.status_code == 200


def test_a_session_left_unused_for_thirty_days_ends_on_the_server(
    client: TestClient, clock: FakeClock, settings: Settings
) -> None:
    # Her cookie lives 400 days in the browser; a stolen copy must not live as long unused.
    clock.advance(29 * DAY)
    assert _session_is_live(client)  # used: the thirty days start again
    clock.advance(30 * DAY - 1)
    assert _session_is_live(client)
    clock.advance(30 * DAY + 1)
    assert not _session_is_live(client)
    assert _close_code_of_socket(client) == CLOSE_NO_SESSION
    assert database_rows(settings, "SELECT count(*) FROM sessions") == [(0,)]


USED_EVERY = 29 * DAY
"""As seldom as a session can be used and still be alive: just inside the thirty unused days."""


def test_a_session_in_use_still_ends_after_four_hundred_days(
    client: TestClient, clock: FakeClock
) -> None:
    """Each use renews the thirty days a session may lie unused (it is used every 29 days,
    fourteen times, rather than every day: the same renewal, 385 fewer requests), but not the
    400 days it may last: it is alive on day 399 and ends on day 400."""
    age = 0
    while age + USED_EVERY < 399 * DAY:
        clock.advance(USED_EVERY)
        age += USED_EVERY
        assert _session_is_live(client)
    clock.advance(399 * DAY - age)
    assert _session_is_live(client)
    clock.advance(DAY)
    assert not _session_is_live(client)
    assert me(client)["guest"] is True  # a new session (and guest) for the device


def test_using_a_session_writes_its_last_use_at_most_once_an_hour(
    client: TestClient, clock: FakeClock, settings: Settings
) -> None:
    def last_seen() -> str:
        return str(database_rows(settings, "SELECT last_seen_at FROM sessions")[0][0])

    first = last_seen()
    for _ in range(5):
        clock.advance(10 * 60)
        assert _session_is_live(client)
    assert last_seen() == first
    clock.advance(10 * 60)
    assert _session_is_live(client)
    assert last_seen() != first


def test_the_session_lifetimes_are_settings(
    make_client: Callable[..., TestClient], make_app: Callable[..., FastAPI], clock: FakeClock
) -> None:
    client = make_client(make_app(SESSION_IDLE_DAYS=1, SESSION_LIFETIME_DAYS=2))
    me(client)
    clock.advance(DAY - HOUR)
    assert _session_is_live(client)
    clock.advance(DAY - HOUR)
    assert _session_is_live(client)
    clock.advance(2 * HOUR + 1)
    assert not _session_is_live(client)
    defaults = Settings.model_fields
    assert defaults["SESSION_IDLE_DAYS"].default == 30
    assert defaults["SESSION_LIFETIME_DAYS"].default == 400


def _close_code_of_socket(client: TestClient) -> int | None:
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "ping"})
        try:
            ws.receive_json()
        except WebSocketDisconnect as closed:
            return closed.code
    return None
