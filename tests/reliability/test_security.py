"""Security, one test per sentence of the architecture's "Security, stated once" and issue 10:
a seat acts only for itself, sees only its own private view, cannot join a full table or spend
taler it does not have; CSRF and session fixation are refused; names and chat are text."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from ..server.conftest import claim, csrf, login, me, new_game
from ..server.lobby_helpers import (
    Person,
    accounts,
    claimed_accounts,
    get,
    join,
    ledger,
    lobby_table,
    post,
    seed_of,
    socket_as,
)
from ..server.tables_helpers import new_table

SESSION = "spielcenter_session"
COOKIE_DOMAIN = "testserver.local"
"""Where the TestClient keeps the server's cookies (a planted one must replace them)."""
PLANTED = "attacker-chosen-token"
SEED = 987_654_321
"""The table's fixed secret seed (lobby_helpers.seed_of): cannot turn up in a message by chance."""
STATIC = Path(__file__).parents[2] / "src" / "spielcenter" / "web" / "static"


def _start_two_person_table(device: TestClient) -> tuple[dict[str, Any], list[Any]]:
    anna, bea = accounts(device, 2)
    table = lobby_table(device, anna, players=2, seed=SEED)
    assert join(device, bea, table["id"]).status_code == 200
    return table, [anna, bea]


def _choose_starts(people: list[Person]) -> dict[str, Any]:
    """Both seats make their start choice; the last view message seen."""
    latest: dict[str, Any] = {}
    for person in people:
        state = person.open()
        answer = person.send("table.move", move=person.decide(state))
        assert answer["type"] == "table.event", answer
        latest = answer
    return latest


# -- a seat acts only for itself ---------------------------------------------------------------


def test_a_seat_cannot_act_for_another(devices: Callable[..., TestClient]) -> None:
    device = devices()
    table, (anna, bea) = _start_two_person_table(device)
    with socket_as(device, anna) as ws_anna, socket_as(device, bea) as ws_bea:
        people = [Person(ws_anna, table, 0), Person(ws_bea, table, 1)]
        latest = _choose_starts(people)
        (active,) = latest["to_act"]
        waiting = people[1 - active]
        seq = latest["seq"]
        refused = waiting.send("table.move", move="roll", seat=active)
        again = waiting.open()
    assert refused["type"] == "error" and refused["code"] == "not_your_turn"
    assert again["seq"] == seq


def test_a_spectator_cannot_act_at_a_table(devices: Callable[..., TestClient]) -> None:
    device = devices()
    table = new_table(device, players=2, bots=["easy"])
    (stranger,) = accounts(device, 2)[1:]
    with socket_as(device, stranger) as ws:
        watcher = Person(ws, table, 0)
        state = watcher.open()
        refused = watcher.send("table.move", move="roll")
    assert state["seat"] is None and state["legal"] == []
    assert refused["type"] == "error" and refused["code"] == "not_seated"


# -- hidden information never leaves the server --------------------------------------------------


def test_another_accounts_game_cannot_be_seen_or_played(
    make_client: Callable[..., TestClient], client: TestClient
) -> None:
    game = new_game(client, deal=5)
    stranger = make_client(client.app)
    me(stranger)
    assert stranger.get(f"/api/games/{game['id']}").status_code == 404
    with stranger.websocket_connect("/ws") as ws:
        ws.send_json({"type": "open", "game_id": game["id"], "id": 1})
        opened = ws.receive_json()
        ws.send_json({"type": "move", "game_id": game["id"], "move": "d", "id": 2})
        moved = ws.receive_json()
    assert opened["code"] == "not_found" and moved["code"] == "not_found"
    assert client.get(f"/api/games/{game['id']}").json()["seq"] == 0


def test_a_spectator_sees_no_private_view_of_a_table(devices: Callable[..., TestClient]) -> None:
    device = devices()
    table, (anna, bea) = _start_two_person_table(device)
    (stranger,) = accounts(device, 2)[1:]
    with socket_as(device, anna) as ws_anna, socket_as(device, bea) as ws_bea:
        people = [Person(ws_anna, table, 0), Person(ws_bea, table, 1)]
        _choose_starts(people)
        with socket_as(device, stranger) as ws:
            seen = Person(ws, table, 0).open()
    over_http = get(device, stranger, f"/api/tables/{table['id']}")
    everything = json.dumps([seen, over_http])
    # The seed is the key to every hidden order; the start choices are private.
    assert seed_of(SEED).hex() not in everything
    assert seen["seat"] is None
    private = [e for e in seen["history"] if e.get("key") == "history.choose"]
    assert private and all("row" not in line and "returned" not in line for line in private)


# -- seats and taler ---------------------------------------------------------------------------


def test_nobody_joins_a_full_table(devices: Callable[..., TestClient]) -> None:
    device = devices()
    anna, bea, cleo = accounts(device, 3)
    table = lobby_table(device, anna, players=2)
    assert join(device, bea, table["id"]).status_code == 200
    late = join(device, cleo, table["id"])
    seats = get(device, cleo, f"/api/tables/{table['id']}")["seats"]
    assert late.status_code == 409
    assert me_id(device, cleo) not in {s.get("account_id") for s in seats}


def test_nobody_stakes_taler_they_do_not_have(devices: Callable[..., TestClient]) -> None:
    device = devices()
    (anna,) = claimed_accounts(device, 1)
    before = ledger(device, anna)["balance"]
    refused = post(device, anna, "/api/lobby", {"players": 2, "stake": before + 1})
    assert refused.status_code == 402 and refused.json()["error"]["code"] == "insufficient_taler"
    assert ledger(device, anna)["balance"] == before
    assert get(device, anna, "/api/tables")["tables"] == []


def me_id(device: TestClient, cookies: dict[str, str]) -> str:
    """The account id behind some cookies."""
    account: str = get(device, cookies, "/api/me")["id"]
    return account


# -- CSRF and session fixation -----------------------------------------------------------------


def test_a_state_changing_request_without_the_csrf_token_is_refused(client: TestClient) -> None:
    refused = client.post("/api/games", json={"game": "ladder"})
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "csrf"
    assert client.get("/api/games").json()["games"] == []


def test_another_sessions_csrf_token_is_refused(
    make_client: Callable[..., TestClient], client: TestClient
) -> None:
    stolen = csrf(make_client(client.app))
    refused = client.post("/api/games", json={"game": "ladder"}, headers=stolen)
    assert refused.status_code == 403
    assert client.get("/api/games").json()["games"] == []


def test_a_page_of_another_site_cannot_open_the_websocket(client: TestClient) -> None:
    with (
        pytest.raises(WebSocketDisconnect) as closed,
        client.websocket_connect("/ws", headers={"Origin": "https://evil.example"}) as ws,
    ):
        ws.receive_json()
    assert closed.value.code == 1008


def test_a_session_token_chosen_by_an_attacker_is_never_adopted(
    make_client: Callable[..., TestClient],
) -> None:
    victim = make_client()
    victim.cookies.set(SESSION, PLANTED, domain=COOKIE_DOMAIN)
    response = victim.get("/api/me")
    issued = victim.cookies.get(SESSION)
    assert response.status_code == 200 and issued and issued != PLANTED
    attacker = make_client(victim.app)
    attacker.cookies.set(SESSION, PLANTED, domain=COOKIE_DOMAIN)
    assert me(attacker)["id"] != response.json()["id"]


def test_logging_in_issues_a_new_session_and_ends_the_old_one(
    make_client: Callable[..., TestClient], client: TestClient
) -> None:
    claim(client, "Anna")
    device = make_client(client.app)
    before = device.get("/api/me") and device.cookies.get(SESSION)
    assert login(device, "Anna").status_code == 200
    after = device.cookies.get(SESSION)
    assert after and after != before
    # Whoever planted or saw the token before the login does not get the account with it.
    planted = make_client(client.app)
    planted.cookies.set(SESSION, str(before), domain=COOKIE_DOMAIN)
    assert me(planted)["name"] is None


# -- names and chat are text ---------------------------------------------------------------------


@pytest.mark.parametrize("name", ["<script>x</script>", "<b>Anna</b>", "Anna&amp;", 'a"onload'])
def test_a_name_with_markup_is_refused(client: TestClient, name: str) -> None:
    response = claim(client, name)
    assert response.status_code == 400 and response.json()["error"]["code"] == "bad_name"
    assert me(client)["name"] is None


def test_chat_with_markup_reaches_the_others_as_the_same_text(
    devices: Callable[..., TestClient],
) -> None:
    device = devices()
    table, (anna, bea) = _start_two_person_table(device)
    line = '<script>alert("x")</script><img src=x onerror=alert(1)>'
    with socket_as(device, anna) as ws_anna, socket_as(device, bea) as ws_bea:
        people = [Person(ws_anna, table, 0), Person(ws_bea, table, 1)]
        for person in people:
            person.open()
        people[0].send("table.chat", text=line)
        heard = _next_of_type(people[1], "table.chat")
    assert heard["text"] == line


def _next_of_type(person: Person, kind: str) -> dict[str, Any]:
    for message in person.messages:
        if message.get("type") == kind:
            return message
    while True:
        message = person.ws.receive_json()
        if message.get("type") == kind:
            return message


def test_the_browser_client_never_parses_text_of_players_as_html() -> None:
    # Markup is only ever built from the client's own card faces; names, chat, history and
    # errors go into the page as textContent.
    builders = re.compile(r"(innerHTML|outerHTML|insertAdjacentHTML|document\.write)\s*[=(]")
    used = {
        path.name
        for path in STATIC.rglob("*.js")
        for text in [path.read_text()]
        if builders.search(text)
    }
    assert used <= {"cards.js"}
    # In cards.js, markup interpolates only numbers and the faces of a card that was checked.
    cards = (STATIC / "js" / "cards.js").read_text()
    statements = re.findall(r"innerHTML\s*=\s*([^;]+);", cards)
    interpolated = {e for text in statements for e in re.findall(r"\$\{([^}]*)\}", text)}
    assert interpolated <= {"frame(100, 140)", "Number(count)"}
    calls = {c for text in statements for c in re.findall(r"(\w+)\(rank, suit", text)}
    assert calls <= {"quiltFace", "fanFace"}
    assert cards.index("if (!isCard(code)) throw") < cards.index("el.innerHTML = face")
