"""Accounts and sessions: guests at once, claiming, logging in and out, CSRF, settings."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from spielcenter.services.accounts import normalise_name
from spielcenter.settings import Settings
from spielcenter.store.repositories import AccountRepository

from .conftest import claim, csrf, database_rows, login, me, new_game


def test_a_first_visit_creates_a_guest_account_and_session(
    make_client: Callable[..., TestClient],
) -> None:
    client = make_client()
    response = client.get("/api/me")
    body = response.json()
    assert body["guest"] is True and body["name"] is None and body["csrf"]
    cookie = response.headers["set-cookie"]
    assert cookie.startswith("spielcenter_session=")
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie
    assert me(client)["id"] == body["id"]


def test_the_session_token_itself_is_not_stored(client: TestClient, settings: Settings) -> None:
    token = client.cookies["spielcenter_session"]
    stored = [row[0] for row in database_rows(settings, "SELECT token_hash FROM sessions")]
    assert len(stored) == 1 and token not in stored[0] and len(stored[0]) == 64


def test_a_guest_gets_the_browsers_language(make_client: Callable[..., TestClient]) -> None:
    client = make_client()
    body = client.get("/api/me", headers={"Accept-Language": "de-DE,de;q=0.9,en;q=0.8"}).json()
    assert body["settings"]["lang"] == "de"


def test_a_guest_claims_a_name_and_keeps_the_account(client: TestClient) -> None:
    guest = me(client)
    response = claim(client, "Anna Lena")
    assert response.status_code == 200, response.text
    assert response.json()["name"] == "Anna Lena" and response.json()["guest"] is False
    assert me(client)["id"] == guest["id"]


def test_a_claimed_account_cannot_be_claimed_again(client: TestClient) -> None:
    claim(client, "Anna")
    response = claim(client, "Berta")
    assert response.status_code == 409 and response.json()["error"]["code"] == "already_claimed"


def test_a_name_is_taken_whatever_its_case(
    client: TestClient, make_client: Callable[..., TestClient], app: FastAPI
) -> None:
    claim(client, "Anna")
    other = make_client(app)
    response = claim(other, "ANNA")
    assert response.status_code == 409 and response.json()["error"]["code"] == "name_taken"
    assert me(other)["guest"] is True


@pytest.mark.parametrize(
    "name",
    ["ab", "x" * 25, " Anna", "Anna ", "An<b>na", "Anna;--", "A\u200bnna", "Anna\n"],
)
def test_names_outside_the_rules_are_refused(client: TestClient, name: str) -> None:
    response = claim(client, name)
    assert response.status_code == 400 and response.json()["error"]["code"] == "bad_name"
    assert me(client)["guest"] is True


@pytest.mark.parametrize("name", ["Ann", "Jürgen", "x_y-z 9", "Zoë 2000", "渡辺さん"])
def test_letters_digits_underscore_hyphen_and_inner_spaces_make_names(name: str) -> None:
    assert normalise_name(name) == name


def test_names_are_stored_in_nfc() -> None:
    assert normalise_name("Zoe\u0308") == "Zo\u00eb"


def test_a_too_short_password_is_refused(client: TestClient) -> None:
    response = claim(client, "Anna", "kurz")
    assert response.status_code == 400 and response.json()["error"]["code"] == "bad_password"


def test_login_on_another_device_finds_the_unfinished_game_and_the_stats(
    client: TestClient, make_client: Callable[..., TestClient], app: FastAPI
) -> None:
    claim(client)
    game = new_game(client, deal=3)
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "move", "game_id": game["id"], "move": "d"})
        assert ws.receive_json()["seq"] == 1
    device = make_client(app)
    response = login(device)
    assert response.status_code == 200, response.text
    assert response.json()["id"] == me(client)["id"]
    games = device.get("/api/games", params={"state": "open"}).json()["games"]
    assert [(g["id"], g["seq"]) for g in games] == [(game["id"], 1)]
    stats = device.get("/api/stats", params={"game": "ladder"}).json()["stats"]
    assert [(s["variant"], s["in_progress"]) for s in stats] == [("classic", 1)]


def test_a_wrong_password_is_refused(
    client: TestClient, make_client: Callable[..., TestClient], app: FastAPI
) -> None:
    claim(client)
    device = make_client(app)
    response = login(device, password="falsch-falsch")
    assert response.status_code == 401 and response.json()["error"]["code"] == "bad_login"
    assert me(device)["guest"] is True


def test_an_unknown_name_is_refused_like_a_wrong_password(client: TestClient) -> None:
    response = login(client, "Niemand")
    assert response.status_code == 401
    assert response.json()["error"]["message"] == "wrong name or password"


def test_login_attempts_are_rate_limited_per_name(
    client: TestClient, make_client: Callable[..., TestClient], app: FastAPI
) -> None:
    claim(client)
    device = make_client(app)
    codes = [login(device, password="falsch-falsch").status_code for _ in range(5)]
    blocked = login(device)
    assert codes == [401] * 5
    assert blocked.status_code == 429 and blocked.json()["error"]["code"] == "rate_limited"


def test_logout_ends_the_session(client: TestClient) -> None:
    old_cookie = client.cookies["spielcenter_session"]
    old = me(client)
    response = client.post("/api/account/logout", headers=csrf(client))
    assert response.status_code == 200
    client.cookies.set("spielcenter_session", old_cookie)
    assert client.get("/api/games").status_code == 401
    client.cookies.clear()
    assert me(client)["id"] != old["id"]


def test_logout_everywhere_ends_every_session_of_the_account(
    client: TestClient, make_client: Callable[..., TestClient], app: FastAPI
) -> None:
    claim(client)
    device = make_client(app)
    login(device)
    with device.websocket_connect("/ws") as ws:
        response = client.post("/api/account/logout-all", headers=csrf(client))
        with pytest.raises(WebSocketDisconnect):
            ws.receive_json()
    assert response.status_code == 200
    refused = device.get("/api/games")
    assert refused.status_code == 401 and refused.json()["error"]["code"] == "no_session"
    with pytest.raises(WebSocketDisconnect), device.websocket_connect("/ws") as ws:
        ws.receive_json()


def test_a_state_changing_request_without_the_csrf_header_is_refused(client: TestClient) -> None:
    response = client.post("/api/games", json={"game": "ladder"})
    assert response.status_code == 403 and response.json()["error"]["code"] == "csrf"
    assert client.get("/api/games").json()["games"] == []


def test_a_wrong_csrf_token_is_refused(client: TestClient) -> None:
    response = client.put("/api/settings", json={"lang": "de"}, headers={"X-CSRF-Token": "forged"})
    assert response.status_code == 403


def test_settings_are_merged_into_the_account(client: TestClient) -> None:
    response = client.put(
        "/api/settings", json={"lang": "de", "auto_move": False}, headers=csrf(client)
    )
    assert response.status_code == 200
    settings = me(client)["settings"]
    assert settings["lang"] == "de" and settings["auto_move"] is False
    assert settings["theme"] == "system"


@pytest.mark.parametrize(
    "body", [{"lang": "fr"}, {"auto_move": "yes"}, {"colour": "red"}, {"theme": 3}]
)
def test_unknown_settings_or_values_are_refused_and_change_nothing(
    client: TestClient, body: dict[str, object]
) -> None:
    before = me(client)["settings"]
    response = client.put("/api/settings", json=body, headers=csrf(client))
    assert response.status_code == 400 and response.json()["error"]["code"] == "bad_request"
    assert me(client)["settings"] == before


def test_login_attempts_are_rate_limited_per_address(client: TestClient) -> None:
    codes = [login(client, f"Name{n}").status_code for n in range(6)]
    assert codes == [401] * 5 + [429]


def test_two_settings_saved_at_the_same_moment_are_both_kept(client: TestClient) -> None:
    # The table's gear saves each switch as it is flipped (PUT /api/settings with that one
    # setting): two flips a moment apart reach the server together, and each is merged into
    # what the other wrote, never over it (a lost update kept her sounds on after a reload).
    headers = csrf(client)
    pairs = [
        ({"sounds": flag}, {"table_theme": theme})
        for flag, theme in [(False, "linen"), (True, "lamp")] * 5
    ]
    with ThreadPoolExecutor(max_workers=2) as both:
        for first, second in pairs:
            answers = list(
                both.map(
                    lambda body: client.put("/api/settings", json=body, headers=headers),
                    (first, second),
                )
            )
            assert [a.status_code for a in answers] == [200, 200]
            settings = me(client)["settings"]
            assert settings["sounds"] is first["sounds"], (first, second, settings)
            assert settings["table_theme"] == second["table_theme"], (first, second, settings)


def test_a_save_of_one_account_keeps_no_other_accounts_save_waiting(
    make_client: Callable[..., TestClient], app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Saves are merged one at a time per account, not for everyone: while Anna's save is held
    # in the middle of its merge, Bea's goes through (a flood of one account's saves would
    # otherwise keep every player's settings waiting).
    anna, bea = make_client(app), make_client(app)
    anna_id, _ = me(anna)["id"], me(bea)
    held, release = threading.Event(), threading.Event()
    get = AccountRepository.get

    async def slow_for_anna(self: AccountRepository, account_id: str, **kw: bool) -> object:
        if account_id == anna_id and kw.get("for_update"):
            held.set()
            for _ in range(500):  # held until Bea's save is answered, 5 s at most
                if release.is_set():
                    break
                await asyncio.sleep(0.01)
        return await get(self, account_id, **kw)

    monkeypatch.setattr(AccountRepository, "get", slow_for_anna)
    with ThreadPoolExecutor(max_workers=1) as aside:
        annas = aside.submit(anna.put, "/api/settings", json={"sounds": False}, headers=csrf(anna))
        assert held.wait(10)
        try:
            answer = bea.put("/api/settings", json={"sounds": False}, headers=csrf(bea))
            assert answer.status_code == 200 and not annas.done()
        finally:
            release.set()
        assert annas.result(10).status_code == 200
    assert me(anna)["settings"]["sounds"] is False and me(bea)["settings"]["sounds"] is False
