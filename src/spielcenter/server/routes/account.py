"""The account behind the cookie: guest at once, claim, login, logout, settings."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response

from spielcenter.services.names import name_key
from spielcenter.services.sessions import Login

from ..addresses import client_address
from ..deps import SESSION_COOKIE, CheckedLoginDep, Platform, PlatformDep
from ..errors import ApiError
from ..schemas import Credentials, MePublic, SettingsUpdate

router = APIRouter(prefix="/api", tags=["account"])
COOKIE_MAX_AGE_DAYS = 400  # the longest lifetime browsers accept


def _set_cookie(response: Response, platform: Platform, token: str) -> None:
    # The browser may forget it when the server would end the session anyway.
    days = min(COOKIE_MAX_AGE_DAYS, platform.settings.SESSION_LIFETIME_DAYS)
    response.set_cookie(
        SESSION_COOKIE,
        token,
        max_age=int(days * 24 * 3600),
        httponly=True,
        samesite="lax",
        secure=not platform.settings.is_development,
        path="/",
    )


def _preferred_lang(request: Request) -> str:
    """German or English, whichever the browser names first; English otherwise."""
    for part in request.headers.get("accept-language", "").split(","):
        tag = part.split(";")[0].strip().lower()[:2]
        if tag in ("de", "en"):
            return tag
    return "en"


async def _me(platform: Platform, login: Login) -> MePublic:
    account = await platform.sessions.account(login)
    return MePublic(
        id=account.id,
        name=account.name,
        guest=account.name is None,
        settings=dict(account.settings or {}),
        csrf=login.csrf,
    )


@router.get("/me")
async def me(request: Request, response: Response, platform: PlatformDep) -> MePublic:
    """The account of this session; a new guest account and session if there is none."""
    login = await platform.sessions.resolve(request.cookies.get(SESSION_COOKIE))
    if login is None:
        if not await platform.limits.allow_guest(client_address(request)):
            raise ApiError(429, "rate_limited", "too many new guests from this address: wait")
        token, login = await platform.accounts.new_guest(_preferred_lang(request))
        _set_cookie(response, platform, token)
    return await _me(platform, login)


async def _switch_session(
    response: Response, platform: Platform, old: Login, token: str, new: Login
) -> MePublic:
    """The device goes on with the session a claim or login issued: the old one's sockets
    close, the cookie carries the new token (docs/security.md, "Sessions")."""
    await platform.hub.close_session(old.session_id)
    _set_cookie(response, platform, token)
    return await _me(platform, new)


@router.post("/account/claim")
async def claim(
    body: Credentials,
    request: Request,
    response: Response,
    platform: PlatformDep,
    login: CheckedLoginDep,
) -> MePublic:
    """Give this guest account a name and a password (a new session; rate-limited)."""
    if not await platform.limits.allow_claim(name_key(body.name), client_address(request)):
        raise ApiError(429, "rate_limited", "too many claims: wait a minute")
    token, new_login = await platform.accounts.claim(login, body.name, body.password)
    return await _switch_session(response, platform, login, token, new_login)


@router.post("/account/login")
async def login_(
    body: Credentials,
    request: Request,
    response: Response,
    platform: PlatformDep,
    login: CheckedLoginDep,
) -> MePublic:
    """Log this device into a named account (a new session; rate-limited)."""
    if not await platform.limits.allow_login(name_key(body.name), client_address(request)):
        raise ApiError(429, "rate_limited", "too many login attempts: wait a minute")
    token, new_login = await platform.accounts.login(body.name, body.password, replacing=login)
    return await _switch_session(response, platform, login, token, new_login)


@router.post("/account/logout")
async def logout(
    response: Response, platform: PlatformDep, login: CheckedLoginDep
) -> dict[str, Any]:
    """End this session."""
    await platform.sessions.end(login)
    await platform.hub.close_session(login.session_id)
    response.delete_cookie(SESSION_COOKIE, path="/")
    return {"ok": True}


@router.post("/account/logout-all")
async def logout_all(
    response: Response, platform: PlatformDep, login: CheckedLoginDep
) -> dict[str, Any]:
    """End every session of this account, on every device."""
    await platform.sessions.end_all(login.account_id)
    await platform.hub.close_account(login.account_id)
    response.delete_cookie(SESSION_COOKIE, path="/")
    return {"ok": True}


@router.put("/settings")
async def put_settings(
    body: SettingsUpdate, platform: PlatformDep, login: CheckedLoginDep
) -> dict[str, Any]:
    """Merge the sent settings into the account's; the resulting settings."""
    return {"settings": await platform.accounts.update_settings(login, body.changes())}
