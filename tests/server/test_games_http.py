"""Games over HTTP: dealing (deal number, random, restart), listing, showing, ownership."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from spielcenter.services.deals import MAX_CLIENT_DEAL, RANDOM_DEALS
from spielcenter.web.assets import STATIC

from .conftest import csrf, new_game


def test_health_says_ok(client: TestClient) -> None:
    assert client.get("/health").json() == {"status": "ok"}


def test_a_game_is_dealt_with_the_deal_number_asked_for(client: TestClient) -> None:
    game = new_game(client, deal=17)
    assert (game["game"], game["variant"], game["deal"]) == ("ladder", "classic", 17)
    assert (game["status"], game["seq"], game["moves"]) == ("playing", 0, 0)


def test_without_a_deal_number_the_server_picks_one(client: TestClient) -> None:
    deals = {new_game(client)["deal"] for _ in range(5)}
    assert all(1 <= deal <= RANDOM_DEALS for deal in deals) and len(deals) > 1


def test_a_real_game_gets_its_default_variant(client: TestClient) -> None:
    game = new_game(client, "cruel", deal=1)
    assert (game["game"], game["variant"]) == ("cruel", "classic")


@pytest.mark.parametrize(
    "body",
    [
        {"game": "chess"},
        {"game": "cruel", "variant": "backwards"},
        {"game": "ladder", "deal": 0},
        {"game": "ladder", "deal": MAX_CLIENT_DEAL + 1},
        {"game": "ladder", "deal": "17"},
        {"game": "ladder", "deal": True},
        {"game": "ladder", "colour": "red"},
        {},
    ],
)
def test_a_bad_new_game_is_refused_and_nothing_is_created(
    client: TestClient, body: dict[str, object]
) -> None:
    response = client.post("/api/games", json=body, headers=csrf(client))
    assert response.status_code == 400 and response.json()["error"]["code"] == "bad_request"
    assert response.json()["error"]["message"]
    assert client.get("/api/games").json()["games"] == []


def test_a_restart_deals_the_same_game_again_as_a_new_record(client: TestClient) -> None:
    first = new_game(client, deal=42)
    response = client.post("/api/games", json={"restart": first["id"]}, headers=csrf(client))
    again = response.json()
    assert response.status_code == 201
    assert (again["game"], again["variant"], again["deal"]) == ("ladder", "classic", 42)
    assert again["id"] != first["id"] and again["restart_of"] == first["id"]


def test_the_open_games_are_the_unfinished_ones(client: TestClient) -> None:
    games = [new_game(client, deal=deal) for deal in (1, 2)]
    listed = client.get("/api/games", params={"state": "open"}).json()["games"]
    assert {g["id"] for g in listed} == {g["id"] for g in games}
    assert client.get("/api/games", params={"state": "finished"}).json()["games"] == []


def test_an_unknown_list_filter_is_refused(client: TestClient) -> None:
    response = client.get("/api/games", params={"state": "sideways"})
    assert response.status_code == 400


def test_one_game_is_shown_with_its_view(client: TestClient) -> None:
    game = new_game(client, deal=5)
    shown = client.get(f"/api/games/{game['id']}").json()
    assert shown["id"] == game["id"] and shown["view"]["legal"] == ["d"]


def test_another_accounts_game_is_not_found(
    client: TestClient, make_client: Callable[..., TestClient], app: FastAPI
) -> None:
    game = new_game(client, deal=5)
    stranger = make_client(app)
    stranger.get("/api/me")
    response = stranger.get(f"/api/games/{game['id']}")
    assert response.status_code == 404 and response.json()["error"]["code"] == "not_found"
    restart = stranger.post("/api/games", json={"restart": game["id"]}, headers=csrf(stranger))
    assert restart.status_code == 404
    assert stranger.get("/api/games").json()["games"] == []


def test_without_a_session_the_games_are_refused(app: FastAPI) -> None:
    with TestClient(app) as stranger:
        response = stranger.get("/api/games")
    assert response.status_code == 401 and response.json()["error"]["code"] == "no_session"


def test_the_message_catalogues_are_served_as_json(client: TestClient) -> None:
    german, english = client.get("/api/i18n/de"), client.get("/api/i18n/en")
    assert german.status_code == english.status_code == 200
    assert isinstance(german.json(), dict) and isinstance(english.json(), dict)
    assert german.json() and english.json()
    assert client.get("/api/i18n/fr").status_code == 404


def _without_hashes(text: str) -> str:
    """A served file with the content hashes taken out of the names it gives (web/assets.py)."""
    return re.sub(r"\.[0-9a-f]{10}(\.(?:js|css|svg|json)\b)", r"\1", text)


def test_the_start_page_and_the_static_files_are_served(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert _without_hashes(page.text) == (STATIC / "index.html").read_text()
    script = next(STATIC.glob("js/*.js"))
    served = client.get(f"/static/js/{script.name}")
    assert served.status_code == 200 and _without_hashes(served.text) == script.read_text()
