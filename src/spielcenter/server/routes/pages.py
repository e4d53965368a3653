"""Health, the static browser client, and the message catalogues for the browser."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import APIRouter
from fastapi.responses import FileResponse
from sqlalchemy import text

from spielcenter.web.i18n import LANGUAGES, catalog

from ..deps import PlatformDep
from ..errors import ApiError

WEB = Path(__file__).resolve().parents[2] / "web"
STATIC = WEB / "static"

router = APIRouter()


@router.get("/health")
async def health(platform: PlatformDep) -> dict[str, str]:
    """``ok`` when the server runs and its database answers."""
    async with platform.games.sessionmaker() as db:
        await db.execute(text("SELECT 1"))
    return {"status": "ok"}


@router.get("/", include_in_schema=False)
async def index() -> FileResponse:
    """The start page of the browser client."""
    page = STATIC / "index.html"
    if not page.is_file():
        raise ApiError(404, "not_found", "the browser client is not installed (web/static)")
    return FileResponse(page, headers={"Cache-Control": "no-cache"})


@router.get("/favicon.ico", include_in_schema=False)
async def favicon() -> FileResponse:
    """The icon, for what asks at the old address (the pages name /static/favicon.svg)."""
    return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")


@router.get("/api/i18n/{lang}")
async def catalogue(lang: str) -> dict[str, Any]:
    """The message catalogue of ``lang`` as ``{key: text}`` (spielcenter.web.i18n)."""
    if lang not in LANGUAGES:
        raise ApiError(404, "not_found", f"no catalogue {lang!r}; there are {', '.join(LANGUAGES)}")
    return catalog(lang)
