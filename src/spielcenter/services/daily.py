"""The daily quilt: one Speedquilt solo quilt a day for everyone (seed 003, "Tagesquilt").

The day runs by ``DAY_TIMEZONE`` (Europe/Berlin by default). The day's game is the engine's
``daily`` variant keyed by the day and the server's ``DAILY_SECRET``: the same start blocks,
shop and dice for everyone, whatever each one keeps, and nobody can compute tomorrow's quilt
from the open source. Games are stored under the variant ``daily-2026-11-29``.

Only the account's first game of the day is *ranked* (it alone enters the daily list); every
later one is practice of the same quilt. Asking to play while a game of the day is unfinished
continues that game.

This module holds the day's names and how a finished daily game is counted
(:func:`record_daily`, called when the game ends); the service that plays today's quilt through
the game service is ``daily_service.py``.
"""

from __future__ import annotations

import re
from datetime import datetime
from zoneinfo import ZoneInfo

from sqlalchemy.ext.asyncio import AsyncSession

from spielcenter.store.repositories import DailyRepository

from .common import as_utc

DAILY_VARIANT = re.compile(r"daily-(\d{4}-\d{2}-\d{2})")
"""How a daily game's variant is stored: ``daily-2026-11-29``."""


def day_of(moment: datetime, timezone: str) -> str:
    """The calendar day (``2026-11-29``) of ``moment`` in ``timezone``."""
    return as_utc(moment).astimezone(ZoneInfo(timezone)).date().isoformat()


def daily_variant(day: str) -> str:
    """The stored variant of the daily quilt of ``day``."""
    return f"daily-{day}"


def day_of_variant(variant: str) -> str | None:
    """The day of a stored daily variant; ``None`` for other variants."""
    match = DAILY_VARIANT.fullmatch(variant)
    return match.group(1) if match else None


async def record_daily(
    db: AsyncSession, game_id: str, points: int, empty_patches: int, now: datetime
) -> bool:
    """Write a finished daily game's result; ``True`` if it is a ranked attempt."""
    attempt = await DailyRepository(db).get(game_id)
    if attempt is None:
        return False
    attempt.points, attempt.empty_patches, attempt.finished_at = points, empty_patches, now
    return attempt.ranked
