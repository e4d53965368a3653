"""The account's games: create (new deal, deal number, restart), list, show one."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query

from ..deps import CheckedLoginDep, LoginDep, PlatformDep
from ..schemas import GameCreate

router = APIRouter(prefix="/api/games", tags=["games"])


@router.post("", status_code=201)
async def create_game(
    body: GameCreate, platform: PlatformDep, login: CheckedLoginDep
) -> dict[str, Any]:
    """A new game; play it over the WebSocket."""
    return await platform.games.create(
        login.account_id,
        body.game,
        body.variant,
        body.deal,
        restart_of=body.restart,
        winnable_only=body.winnable_only,
    )


@router.get("")
async def list_games(
    platform: PlatformDep,
    login: LoginDep,
    state: str | None = None,
    game: Annotated[str | None, Query(max_length=32)] = None,
    limit: Annotated[int | None, Query(ge=1, le=100)] = None,
) -> dict[str, Any]:
    """The account's games, newest first (``state=open`` for the unfinished ones; ``game`` and
    ``limit``: e.g. her last Cruel game)."""
    games = await platform.games.of_account(login.account_id, state, game, limit)
    return {"games": games}


@router.get("/{game_id}")
async def show_game(game_id: str, platform: PlatformDep, login: LoginDep) -> dict[str, Any]:
    """One game of the account, with its current view; another account's game is not found."""
    summary = await platform.games.summary(login.account_id, game_id)
    live = await platform.games.open(login.account_id, game_id)
    return {**summary, "view": platform.games.view(live)}
