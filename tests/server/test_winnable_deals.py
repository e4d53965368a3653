"""Winnable deals only: ``POST /api/games`` with ``"winnable_only": true`` deals a number the
solver has proven winnable (issue 9), and refuses clearly where there is no such list."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from spielcenter.solvers import winnable
from spielcenter.solvers.winnable import list_path, read_proofs, replays_to_won, winnable_deals

from .conftest import csrf, new_game


@pytest.mark.parametrize(
    ("game", "variant"),
    [("cruel", "classic"), ("cruel", "perseverance"), ("crazy-quilt", "second-redeal")],
)
def test_a_winnable_only_deal_is_in_the_list_and_its_stored_proof_wins_it(
    client: TestClient, game: str, variant: str
) -> None:
    dealt = new_game(client, game, variant=variant, winnable_only=True)
    assert (dealt["game"], dealt["variant"]) == (game, variant)
    assert dealt["deal"] in winnable_deals(game, variant)
    proof = read_proofs(list_path(game, variant))[dealt["deal"]]
    assert replays_to_won(game, variant, dealt["deal"], proof)


def test_winnable_only_deals_are_drawn_at_random_from_the_list(client: TestClient) -> None:
    deals = [new_game(client, "cruel", winnable_only=True)["deal"] for _ in range(6)]
    assert set(deals) <= set(winnable_deals("cruel", "classic"))
    assert len(set(deals)) > 1


def test_without_winnable_only_the_deal_is_any_number(client: TestClient) -> None:
    dealt = new_game(client, "cruel", winnable_only=False, deal=501)
    assert dealt["deal"] == 501


def refused(client: TestClient, body: dict[str, object]) -> str:
    """Post ``body``; assert it is refused with 400 and nothing is created; the message."""
    response = client.post("/api/games", json=body, headers=csrf(client))
    assert response.status_code == 400, response.text
    assert response.json()["error"]["code"] == "bad_request"
    assert client.get("/api/games").json()["games"] == []
    message: str = response.json()["error"]["message"]
    return message


def test_a_variant_without_a_list_is_refused_clearly(
    client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(winnable, "DIRECTORY", tmp_path)
    message = refused(client, {"game": "cruel", "variant": "stuck", "winnable_only": True})
    assert "no proven winnable deals of cruel stuck" in message


def test_a_game_without_a_solver_has_no_winnable_deals(client: TestClient) -> None:
    message = refused(client, {"game": "ladder", "winnable_only": True})
    assert "no proven winnable deals of ladder" in message


@pytest.mark.parametrize(
    "body",
    [
        {"game": "cruel", "deal": 5, "winnable_only": True},
        {"game": "cruel", "winnable_only": "yes"},
        {"game": "cruel", "winnable_only": 1},
        {"game": "cruel", "variant": "backwards", "winnable_only": True},
    ],
)
def test_a_bad_winnable_only_request_is_refused_and_changes_nothing(
    client: TestClient, body: dict[str, object]
) -> None:
    assert refused(client, body)


def test_a_restart_cannot_ask_for_a_winnable_deal(client: TestClient) -> None:
    first = new_game(client, "cruel", deal=3)
    body = {"restart": first["id"], "winnable_only": True}
    response = client.post("/api/games", json=body, headers=csrf(client))
    assert response.status_code == 400
    assert "winnable_only picks the deal itself" in response.json()["error"]["message"]
    assert [game["id"] for game in client.get("/api/games").json()["games"]] == [first["id"]]
