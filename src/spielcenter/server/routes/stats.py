"""Statistics of the account."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from spielcenter.games.base import canonical_name, game_names

from ..deps import LoginDep, PlatformDep
from ..errors import ApiError

router = APIRouter(prefix="/api", tags=["stats"])


@router.get("/stats")
async def stats(platform: PlatformDep, login: LoginDep, game: str | None = None) -> dict[str, Any]:
    """Per variant: played, won, rate, current and best streak, best time, fewest moves."""
    names = game_names() if game is None else [_known(game)]
    rows = []
    for name in names:
        rows.extend(await platform.stats.of_game(login.account_id, name))
    return {"stats": rows}


def _known(game: str) -> str:
    try:
        return canonical_name(game)
    except LookupError:
        # Games served by a test's own resolver are not in the registry: take the name as given.
        if len(game) <= 32 and game.replace("-", "").isalnum():
            return game
        raise ApiError(400, "bad_request", f"unknown game {game!r}") from None
