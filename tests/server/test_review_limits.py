"""A flood of game reviews (issue 42, docs/security.md "Reviews"): each costs about a second of
CPU and every review of a process waits in one queue, so one account has at most
``REVIEWS_PER_ACCOUNT`` (2) queued or running at once and starts at most ``REVIEW_LIMIT`` in a
while; past either the answer is ``429`` with its code and nothing is queued. A review already
stored is answered from the store and counts against neither."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from spielcenter.services.common import ServiceError
from spielcenter.services.review import REVIEWS_PER_ACCOUNT

from .conftest import FakeClock, csrf, me, new_game
from .progress_world import make_world, play_idle
from .review_helpers import PATIENCE, Reviews, reviews

__all__ = ["reviews"]  # the fixture used by the tests below


@pytest.fixture
def database_url() -> None:
    """The limits count in the process's memory (and the doors' limiter): SQLite is enough."""
    return None


def _finished_games(device: TestClient, app: FastAPI, count: int) -> list[str]:
    """``count`` solo Speedquilt games of the device's account, played to the end."""
    account = me(device)["id"]
    ids = []
    for _ in range(count):
        game_id = new_game(device, "speedquilt", variant="solo")["id"]
        device.portal.call(play_idle, app.state.platform.games, account, game_id)  # type: ignore[union-attr]
        ids.append(game_id)
    return ids


def _url(game_id: str) -> str:
    return f"/api/my-games/{game_id}/review"


def _ask(device: TestClient, game_id: str) -> Any:
    return device.post(_url(game_id), headers=csrf(device))


def _until_done(device: TestClient, game_id: str) -> dict[str, Any]:
    deadline = time.monotonic() + PATIENCE
    seen: dict[str, Any] = device.get(_url(game_id)).json()
    while seen["state"] == "running" and time.monotonic() < deadline:
        time.sleep(0.05)
        seen = device.get(_url(game_id)).json()
    assert seen["state"] == "done", seen
    return seen


def test_a_flood_from_one_account_is_refused_past_two_under_way_while_another_accounts_runs(
    make_app: Callable[..., FastAPI], make_client: Callable[..., TestClient], reviews: Reviews
) -> None:
    app = make_app()
    anna, bert = make_client(app), make_client(app)
    annas = _finished_games(anna, app, 4)
    (berts,) = _finished_games(bert, app, 1)
    reviews.hold()  # the queue stands still: her first reviews stay under way
    answers = [_ask(anna, game_id) for game_id in annas]
    assert REVIEWS_PER_ACCOUNT == 2
    assert [a.status_code for a in answers] == [200, 200, 429, 429]
    assert [a.json()["state"] for a in answers[:2]] == ["running", "running"]
    for refused in answers[2:]:
        assert refused.json()["error"]["code"] == "too_many_reviews"
        assert "wait until one is finished" in refused.json()["error"]["message"]
    # Nothing of the refused ones was queued or claimed.
    assert [anna.get(_url(g)).json() for g in annas[2:]] == [{"state": "none"}] * 2
    # Her flood does not keep another account out.
    assert _ask(bert, berts).json()["state"] == "running"
    reviews.release()
    assert _until_done(bert, berts)["review"]["game"] == berts
    for game_id in annas[:2]:
        _until_done(anna, game_id)
    # Once hers are done she may ask again; asking again for a stored one costs nothing.
    assert _ask(anna, annas[2]).status_code == 200
    _until_done(anna, annas[2])
    assert _ask(anna, annas[0]).json()["state"] == "done"
    assert reviews.computed == 4  # two of hers, his, and her third once a place was free


def test_past_the_rate_a_new_review_is_refused_but_a_stored_one_is_still_served(
    make_app: Callable[..., FastAPI], make_client: Callable[..., TestClient], reviews: Reviews
) -> None:
    app = make_app(REVIEW_LIMIT="2/minute")
    anna, bert = make_client(app), make_client(app)
    first, second, third = _finished_games(anna, app, 3)
    for game_id in (first, second):
        assert _ask(anna, game_id).status_code == 200
        _until_done(anna, game_id)
    refused = _ask(anna, third)
    assert refused.status_code == 429
    assert refused.json()["error"]["code"] == "rate_limited"
    assert anna.get(_url(third)).json() == {"state": "none"}  # nothing queued
    # Stored reviews are answered from the store, however often: no rate is used up.
    for _ in range(5):
        assert _ask(anna, first).json()["state"] == "done"
    # The rate is hers: another account starts his.
    (berts,) = _finished_games(bert, app, 1)
    assert _ask(bert, berts).status_code == 200
    _until_done(bert, berts)
    assert reviews.computed == 3


async def test_requests_at_once_cannot_slip_past_the_cap_while_the_first_are_being_claimed(
    tmp_path: Path, clock: FakeClock, reviews: Reviews
) -> None:
    world = await make_world(tmp_path, clock)
    try:
        anna = await world.account("anna")
        games = []
        for _ in range(5):
            game_id = (await world.games.create(anna, "speedquilt", "solo"))["id"]
            await play_idle(world.games, anna, game_id)
            games.append(game_id)
        reviews.hold()
        service = world.progress.review
        asked = (service.start_game(anna, game_id) for game_id in games)
        answers = await asyncio.gather(*asked, return_exceptions=True)
        running = [a for a in answers if isinstance(a, dict)]
        refused = [a.code for a in answers if isinstance(a, ServiceError)]
        assert len(running) == REVIEWS_PER_ACCOUNT
        assert refused == ["too_many_reviews"] * (len(games) - REVIEWS_PER_ACCOUNT)
        reviews.release()
        for game_id, answer in zip(games, answers, strict=True):
            if isinstance(answer, dict):
                while (await service.status_game(anna, game_id))["state"] == "running":
                    await asyncio.sleep(0.05)
        assert reviews.computed == REVIEWS_PER_ACCOUNT
    finally:
        await world.close()
