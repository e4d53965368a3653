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
import itertools
from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient

from spielcenter.server.deps import Platform
from spielcenter.services.progress import ProgressServices

from .conftest import devices, make_table_app

__all__ = ["devices", "make_table_app"]  # fixtures used by the tests below

TRIALS = 10
_names = itertools.count(1)


async def _first_looks_at_the_campaign(platform: Platform, progress: ProgressServices) -> list[Any]:
    """A new account asks for its campaign and its stage game five times at once."""
    _token, login = await platform.accounts.new_guest()
    await platform.accounts.claim(login, f"Renner{next(_names)}", "geheim-1234")
    campaign, account = progress.campaign, login.account_id
    asks = [campaign.status(account), campaign.play(account), campaign.status(account)]
    asks += [campaign.play(account), campaign.play(account)]
    return list(await asyncio.gather(*asks, return_exceptions=True))


def test_looking_at_the_campaign_and_playing_it_at_once_makes_one_campaign_and_one_game(
    devices: Callable[..., TestClient],
) -> None:
    device = devices()
    platform: Platform = device.app.state.platform  # type: ignore[attr-defined]
    progress: ProgressServices = device.app.state.progress  # type: ignore[attr-defined]
    for _ in range(TRIALS):
        answers = device.portal.call(_first_looks_at_the_campaign, platform, progress)  # type: ignore[union-attr]
        assert not [a for a in answers if isinstance(a, BaseException)], answers
        played = [a["game"]["id"] for a in answers if "game" in a]
        assert len(played) == 3 and len(set(played)) == 1  # one stage game for all three
        assert all(a.get("stage", a.get("campaign", {}).get("stage")) == 1 for a in answers)


async def _first_plays_of_the_day(platform: Platform, progress: ProgressServices) -> list[Any]:
    """A new account asks for today's quilt five times at once."""
    _token, login = await platform.accounts.new_guest()
    await platform.accounts.claim(login, f"Tagtraum{next(_names)}", "geheim-1234")
    plays = [progress.daily.play(login.account_id) for _ in range(5)]
    return list(await asyncio.gather(*plays, return_exceptions=True))


def test_five_first_plays_of_the_daily_quilt_at_once_deal_one_ranked_attempt(
    devices: Callable[..., TestClient],
) -> None:
    device = devices()
    platform: Platform = device.app.state.platform  # type: ignore[attr-defined]
    progress: ProgressServices = device.app.state.progress  # type: ignore[attr-defined]
    for _ in range(TRIALS):
        answers = device.portal.call(_first_plays_of_the_day, platform, progress)  # type: ignore[union-attr]
        assert not [a for a in answers if isinstance(a, BaseException)], answers
        assert len({a["game"]["id"] for a in answers}) == 1  # one game, continued by the rest
        assert all(a["ranked"] for a in answers)  # and it is the ranked one
