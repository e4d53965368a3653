"""Sessions (issue 37): a claim issues a new session like a login; sessions end on the server
after a time of disuse and after a longest lifetime."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from spielcenter.server.websocket import CLOSE_NO_SESSION

from ..server.conftest import claim, me

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
