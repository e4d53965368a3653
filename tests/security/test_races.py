"""Two requests of one account at once: the same answer as one after the other.

A page asks for the campaign (`GET /api/campaign`) while its button asks to play the stage
(`POST /api/campaign/play`), or a second tab does; an account that never looked at the campaign
gets its campaign row made by whichever comes first. Both must answer, and there is one stage
game, not one per request. The daily quilt is the same for everyone and ranks only the first
attempt of the day: two requests at once must not each deal a ranked attempt (she would play
both and keep the better).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import sqlite3
from collections.abc import Callable, Coroutine, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from spielcenter.server.deps import Platform
from spielcenter.services.progress import ProgressServices
from spielcenter.settings import Settings

from ..server.conftest import csrf
from .conftest import devices, make_table_app

__all__ = ["devices", "make_table_app"]  # fixtures used by the tests below

TRIALS = 10
_names = itertools.count(1)


Asks = Callable[[ProgressServices, str], list[Coroutine[Any, Any, Any]]]
"""The requests one new account makes at once, given the services and its id."""


async def _new_account_asks(
    platform: Platform, progress: ProgressServices, asks: Asks
) -> list[Any]:
    _token, login = await platform.accounts.new_guest()
    await platform.accounts.claim(login, f"Renner{next(_names)}", "geheim-1234")
    return list(await asyncio.gather(*asks(progress, login.account_id), return_exceptions=True))


def at_once(device: TestClient, asks: Asks) -> list[Any]:
    """What the requests of a new account came to, sent at once; none may fail."""
    platform: Platform = device.app.state.platform  # type: ignore[attr-defined]
    progress: ProgressServices = device.app.state.progress  # type: ignore[attr-defined]
    answers = device.portal.call(_new_account_asks, platform, progress, asks)  # type: ignore[union-attr]
    assert not [a for a in answers if isinstance(a, BaseException)], answers
    return answers


def _looks_and_plays(progress: ProgressServices, account: str) -> list[Coroutine[Any, Any, Any]]:
    campaign = progress.campaign
    looks = [campaign.status(account) for _ in range(2)]
    plays = [campaign.play(account) for _ in range(3)]
    return [plays[0], looks[0], plays[1], looks[1], plays[2]]


def test_looking_at_the_campaign_and_playing_it_at_once_makes_one_campaign_and_one_game(
    devices: Callable[..., TestClient],
) -> None:
    device = devices()
    for _ in range(TRIALS):
        answers = at_once(device, _looks_and_plays)
        played = [a["game"]["id"] for a in answers if "game" in a]
        assert len(played) == 3 and len(set(played)) == 1  # one stage game for all three
        assert all(a.get("stage", a.get("campaign", {}).get("stage")) == 1 for a in answers)


def _daily_plays(progress: ProgressServices, account: str) -> list[Coroutine[Any, Any, Any]]:
    return [progress.daily.play(account) for _ in range(5)]


def test_five_first_plays_of_the_daily_quilt_at_once_deal_one_ranked_attempt(
    devices: Callable[..., TestClient],
) -> None:
    device = devices()
    for _ in range(TRIALS):
        answers = at_once(device, _daily_plays)
        assert len({a["game"]["id"] for a in answers}) == 1  # one game, continued by the rest
        assert all(a["ranked"] for a in answers)  # and it is the ranked one


@contextlib.contextmanager
def another_writer(settings: Settings) -> Iterator[None]:
    """Another connection holds SQLite's one writer (as a busy server's log writer does, batch
    after batch) until the block ends."""
    holder = sqlite3.connect(settings.DATA_DIR / "spielcenter.sqlite3", isolation_level=None)
    try:
        holder.execute("BEGIN IMMEDIATE")
        yield
    finally:
        holder.execute("ROLLBACK")
        holder.close()


@pytest.mark.parametrize("page", ["campaign", "daily"])
def test_continuing_a_game_takes_no_writer_so_a_busy_database_does_not_fail_it(
    devices: Callable[..., TestClient], settings: Settings, database_url: str | None, page: str
) -> None:
    # Only dealing a game needs the account's lock (docs/security.md, "Fair play"): a play that
    # continues the game already dealt only reads. On SQLite the lock is the one writer; taken
    # by every play, a play under load waited for it past busy_timeout and answered 500.
    if database_url is not None:
        pytest.skip("PostgreSQL locks the account's row, not the database: no writer to wait for")
    device = devices()
    first = device.post(f"/api/{page}/play", headers=csrf(device))
    assert first.status_code == 200, first.text
    with another_writer(settings):
        again = device.post(f"/api/{page}/play", headers=csrf(device))
    assert again.status_code == 200, again.text
    assert again.json()["game"]["id"] == first.json()["game"]["id"]
