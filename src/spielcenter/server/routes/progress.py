"""Progress of the account: the Speedquilt campaign, the daily quilt, leaderboards, achievements,
and Meine Partien (the account's games and their replays)."""

from __future__ import annotations

import re
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request

from spielcenter.services.progress import ProgressServices
from spielcenter.services.review import Admit
from spielcenter.services.sessions import Login

from ..deps import CheckedLoginDep, LoginDep, Platform, PlatformDep
from ..errors import ApiError

router = APIRouter(prefix="/api", tags=["progress"])

DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


def get_progress(request: Request) -> ProgressServices:
    """The progress services of the app serving this request."""
    progress: ProgressServices = request.app.state.progress
    return progress


ProgressDep = Annotated[ProgressServices, Depends(get_progress)]


@router.get("/campaign")
async def campaign(progress: ProgressDep, login: LoginDep) -> dict[str, Any]:
    """Stage, spools, campaign points, the best run, the stages and the stage game if one runs."""
    return await progress.campaign.status(login.account_id)


@router.post("/campaign/play")
async def play_stage(progress: ProgressDep, login: CheckedLoginDep) -> dict[str, Any]:
    """The current stage game (continued where it stands, or newly dealt); play it over the
    WebSocket like any game."""
    return await progress.campaign.play(login.account_id)


@router.post("/campaign/leave")
async def leave_stage(progress: ProgressDep, login: CheckedLoginDep) -> dict[str, Any]:
    """Leave the stage game early: it counts as missed."""
    return await progress.campaign.leave(login.account_id)


@router.get("/daily")
async def daily(progress: ProgressDep, login: LoginDep) -> dict[str, Any]:
    """Today's quilt: whether the ranked attempt is played, its result, a game to continue."""
    return await progress.daily.status(login.account_id)


@router.post("/daily/play")
async def play_daily(progress: ProgressDep, login: CheckedLoginDep) -> dict[str, Any]:
    """Today's quilt: the unfinished game of today, or a new one (ranked only the first)."""
    return await progress.daily.play(login.account_id)


@router.get("/leaderboards/tables")
async def table_board(
    progress: ProgressDep, login: LoginDep, period: str = "week"
) -> dict[str, Any]:
    """Leaderboard points of finished tables: ``period`` is ``week``, ``month`` or ``all``."""
    return await progress.leaderboards.tables(login.account_id, period)


@router.get("/leaderboards/campaign")
async def campaign_board(progress: ProgressDep, login: LoginDep) -> dict[str, Any]:
    """Highest stage cleared and the campaign points then."""
    return await progress.leaderboards.campaign(login.account_id)


@router.get("/leaderboards/daily")
async def daily_board(
    progress: ProgressDep, login: LoginDep, day: str | None = None
) -> dict[str, Any]:
    """The first attempts of ``day`` (default: today)."""
    if day is not None and DAY.fullmatch(day) is None:
        raise ApiError(400, "bad_request", "day is written like 2026-11-29")
    return await progress.leaderboards.daily(login.account_id, day or progress.daily.today())


@router.get("/achievements")
async def achievements(progress: ProgressDep, login: LoginDep) -> dict[str, Any]:
    """Every achievement, with the date the account earned it (or null)."""
    return await progress.history.achievements(login.account_id)


@router.get("/my-games")
async def my_games(
    progress: ProgressDep, login: LoginDep, state: str | None = None
) -> dict[str, Any]:
    """The account's games of all three games with their results (``state`` as for
    ``/api/games``), and its finished tables."""
    return await progress.history.my_games(login.account_id, state)


@router.get("/my-games/{game_id}/replay")
async def replay(game_id: str, progress: ProgressDep, login: LoginDep) -> dict[str, Any]:
    """The game step by step from its log, each view from the account's seat."""
    return await progress.history.replay(login.account_id, game_id)


def _review_rate(platform: Platform, login: Login) -> Admit:
    """The account's rate of new reviews (``REVIEW_LIMIT``), asked only for a review that would
    be computed: one already stored is answered without counting."""
    return lambda: platform.limits.allow_review(login.account_id)


@router.post("/my-games/{game_id}/review")
async def start_game_review(
    game_id: str, progress: ProgressDep, platform: PlatformDep, login: CheckedLoginDep
) -> dict[str, Any]:
    """Start the review of her finished solo Speedquilt game (a campaign stage, a daily
    quilt); where it stands, as for a table."""
    admit = _review_rate(platform, login)
    return await progress.review.start_game(login.account_id, game_id, admit)


@router.get("/my-games/{game_id}/review")
async def game_review(game_id: str, progress: ProgressDep, login: LoginDep) -> dict[str, Any]:
    """Where her review of the solo game stands (as for a table)."""
    return await progress.review.status_game(login.account_id, game_id)


@router.get("/my-tables/{table_id}/replay")
async def table_replay(table_id: str, progress: ProgressDep, login: LoginDep) -> dict[str, Any]:
    """A Speedquilt table the account sat at, step by step from its seat."""
    return await progress.history.table_replay(login.account_id, table_id)


@router.post("/my-tables/{table_id}/review")
async def start_review(
    table_id: str, progress: ProgressDep, platform: PlatformDep, login: CheckedLoginDep
) -> dict[str, Any]:
    """Start the review of her decisions at a finished table (computed in the background);
    where it stands (``running`` with its progress, or ``done`` with the review). ``429``
    ``too_many_reviews`` while she has ``REVIEWS_PER_ACCOUNT`` under way, ``429``
    ``rate_limited`` past ``REVIEW_LIMIT``: nothing is queued then."""
    admit = _review_rate(platform, login)
    return await progress.review.start(login.account_id, table_id, admit)


@router.get("/my-tables/{table_id}/review")
async def table_review(table_id: str, progress: ProgressDep, login: LoginDep) -> dict[str, Any]:
    """Where her review of the table stands: ``none``, ``running`` (progress 0–1), ``done``
    with the review, or ``failed``."""
    return await progress.review.status(login.account_id, table_id)
