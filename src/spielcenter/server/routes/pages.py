"""Health, the static browser client, and the message catalogues for the browser."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response
from sqlalchemy import text

from spielcenter.web.i18n import LANGUAGES, catalog

from ..deps import PlatformDep
from ..errors import ApiError
from ..static import REVALIDATE, AssetsDep, asset_response, static_response

ICON_CACHE = "public, max-age=86400"
"""The icon at the old address: a day (it has no hash in its name)."""

router = APIRouter()


@router.get("/health")
async def health(platform: PlatformDep) -> dict[str, str]:
    """``ok`` when the server runs and its database answers."""
    async with platform.games.sessionmaker() as db:
        await db.execute(text("SELECT 1"))
    return {"status": "ok"}


@router.get("/", include_in_schema=False)
async def index(request: Request, assets: AssetsDep) -> Response:
    """The start page of the browser client: it names every file by its content's hash, so it
    is itself asked for again on every visit (a 304 while it is unchanged)."""
    page = assets.get("index.html")
    if page is None:
        raise ApiError(404, "not_found", "the browser client is not installed (web/static)")
    return asset_response(request, page, REVALIDATE)


@router.get("/favicon.ico", include_in_schema=False)
async def favicon(request: Request, assets: AssetsDep) -> Response:
    """The icon, for what asks at the old address (the pages name /static/favicon.*.svg)."""
    icon = assets.get("favicon.svg")
    if icon is None:
        raise ApiError(404, "not_found", "the browser client is not installed (web/static)")
    return asset_response(request, icon, ICON_CACHE)


@router.api_route("/static/{path:path}", methods=["GET", "HEAD"], include_in_schema=False)
async def static_file(request: Request, assets: AssetsDep, path: str) -> Response:
    """A file of the browser client (server/static.py: hashed, plain or stale address)."""
    return static_response(request, assets, path)


@router.get("/api/i18n/{lang}")
async def catalogue(lang: str) -> dict[str, Any]:
    """The message catalogue of ``lang`` as ``{key: text}`` (spielcenter.web.i18n)."""
    if lang not in LANGUAGES:
        raise ApiError(404, "not_found", f"no catalogue {lang!r}; there are {', '.join(LANGUAGES)}")
    return catalog(lang)
