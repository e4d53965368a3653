"""What routes depend on, as ``Annotated`` aliases: the services, the login, the CSRF check."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated

from fastapi import Depends, Request

from spielcenter.services.accounts import AccountService
from spielcenter.services.common import StageTimer, no_timing
from spielcenter.services.games import GameService
from spielcenter.services.sessions import Login, SessionService
from spielcenter.services.stats import StatsService
from spielcenter.settings import Settings

from .csrf import check_csrf
from .errors import ApiError
from .hub import Hub
from .ratelimits import RateLimits

SESSION_COOKIE = "spielcenter_session"


@dataclass
class Platform:
    """Everything one running server holds: settings, services, limits and open sockets."""

    settings: Settings
    sessions: SessionService
    accounts: AccountService
    games: GameService
    stats: StatsService
    limits: RateLimits
    hub: Hub
    timing: StageTimer = field(default=no_timing)
    """Counts the stages of the hot path when the latency trace is on (server/latency.py)."""


def get_platform(request: Request) -> Platform:
    """The platform of the app serving this request."""
    platform: Platform = request.app.state.platform
    return platform


PlatformDep = Annotated[Platform, Depends(get_platform)]


async def get_login(request: Request, platform: PlatformDep) -> Login:
    """The login behind the session cookie; ``401`` without a live session."""
    login = await platform.sessions.resolve(request.cookies.get(SESSION_COOKIE))
    if login is None:
        raise ApiError(401, "no_session", "no session: GET /api/me first")
    return login


LoginDep = Annotated[Login, Depends(get_login)]


async def get_checked_login(request: Request, login: LoginDep) -> Login:
    """The login of a state-changing request, whose CSRF token must match the session's."""
    check_csrf(request, login)
    return login


CheckedLoginDep = Annotated[Login, Depends(get_checked_login)]
