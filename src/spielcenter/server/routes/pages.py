"""Health, the static browser client, and the message catalogues for the browser."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from babel.messages.pofile import read_po
from fastapi import APIRouter
from fastapi.responses import FileResponse
from sqlalchemy import text

from ..deps import PlatformDep
from ..errors import ApiError

WEB = Path(__file__).resolve().parents[2] / "web"
STATIC = WEB / "static"
I18N = WEB / "i18n"
LANGUAGES = ("de", "en")

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


@router.get("/api/i18n/{lang}")
async def catalogue(lang: str) -> dict[str, Any]:
    """The message catalogue of ``lang`` as ``{key: text}`` (from web/i18n/<lang>/*.po).

    Read on every request (a few kB), so edited catalogues show without a restart.
    """
    if lang not in LANGUAGES:
        raise ApiError(404, "not_found", f"no catalogue {lang!r}; there are {', '.join(LANGUAGES)}")
    return _messages(lang)


def _messages(lang: str) -> dict[str, str]:
    messages: dict[str, str] = {}
    for path in sorted((I18N / lang).glob("LC_MESSAGES/*.po")):
        with path.open("rb") as po:
            for message in read_po(po, locale=lang):
                if message.id and isinstance(message.id, str) and isinstance(message.string, str):
                    # An untranslated entry shows its key, as t() does in the browser.
                    messages[message.id] = message.string or message.id
    return messages
