"""The leaderboards (seed 003): tables by week, month and all time; the campaign; the daily quilt.

* **Tables:** the sum of leaderboard points of the finished tables in the period (5 per game point
  plus 50 / 25 / 10 for places 1 / 2 / 3, worked out when the table ended). A week starts on
  Monday 00:00, a month on its first day, both in ``DAY_TIMEZONE``.
* **Campaign:** the highest stage cleared, then the campaign points at that time, then who got
  there first.
* **Daily quilt:** the ranked (first) attempts of the day: points, then fewer empty patches, then
  the earlier finish.

Equal keys share a rank (1, 1, 3). Every list shows the top entries and, separately, the asking
account's own entry with its rank, even outside the top.

Only claimed accounts (with a name) are on the lists: guests cost nothing to make, so a flood of
them could fill the lists (docs/ledger.md, "Guests"). A guest's results are kept and count for
her own progress; they appear once she claims a name (they were hers, not a throwaway's).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar
from zoneinfo import ZoneInfo

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from spielcenter.games.base import JSON
from spielcenter.store.repositories import (
    AccountRepository,
    CampaignRepository,
    DailyRepository,
    TableResultRepository,
)

from .common import Clock, ServiceError, as_utc

PERIODS = ("week", "month", "all")
TOP = 20

_Rows = TypeVar("_Rows")


@dataclass(frozen=True)
class Entry:
    """One account's line before ranking: its sort key (smaller is better) and what it shows."""

    account_id: str
    name: str | None
    key: tuple[Any, ...]
    shown: JSON


def rank(entries: Sequence[Entry]) -> list[tuple[int, Entry]]:
    """Entries in order with their ranks; equal keys share a rank (1, 1, 3)."""
    ordered = sorted(entries, key=lambda e: (e.key, e.account_id))
    ranked: list[tuple[int, Entry]] = []
    for index, entry in enumerate(ordered):
        same = ranked and ranked[-1][1].key == entry.key
        ranked.append((ranked[-1][0] if same else index + 1, entry))
    return ranked


def board(entries: Sequence[Entry], account_id: str, top: int = TOP) -> JSON:
    """The top ``top`` lines and the asking account's own line (``None`` if it has none)."""
    ranked = rank(entries)

    def line(place: int, entry: Entry) -> JSON:
        return {
            "rank": place,
            "name": entry.name,
            "you": entry.account_id == account_id,
            **entry.shown,
        }

    mine = next((line(p, e) for p, e in ranked if e.account_id == account_id), None)
    return {"entries": [line(p, e) for p, e in ranked[:top]], "me": mine, "total": len(ranked)}


def period_start(period: str, now: datetime, timezone: str) -> datetime | None:
    """When the current ``week`` or ``month`` began (``None`` for ``all``), in UTC."""
    if period not in PERIODS:
        raise ServiceError("bad_request", f"period is one of {', '.join(PERIODS)}")
    if period == "all":
        return None
    local = as_utc(now).astimezone(ZoneInfo(timezone))
    midnight = local.replace(hour=0, minute=0, second=0, microsecond=0)
    if period == "week":
        start = midnight - timedelta(days=local.weekday())
    else:
        start = midnight.replace(day=1)
    # Wall-clock arithmetic in the zone: the offset of the start is its own (daylight saving).
    return start.astimezone(UTC)


class LeaderboardService:
    """Reads the three kinds of list."""

    def __init__(
        self, sessionmaker: async_sessionmaker[AsyncSession], clock: Clock, timezone: str
    ) -> None:
        self.sessionmaker = sessionmaker
        self.clock = clock
        self.timezone = timezone

    async def tables(self, account_id: str, period: str = "week") -> JSON:
        """Leaderboard points of finished tables in the current week, month or all time."""
        start = period_start(period, self.clock(), self.timezone)
        rows = await self._read(lambda db: TableResultRepository(db).points_by_account(start))
        entries = [
            Entry(aid, name, (-int(points),), {"points": int(points), "tables": int(tables)})
            for aid, name, points, tables in rows
        ]
        return {"period": period, **board(entries, account_id), **await self._listed(account_id)}

    async def campaign(self, account_id: str) -> JSON:
        """Highest stage cleared, then campaign points at that time, then the earlier."""
        runs = await self._read(lambda db: CampaignRepository(db).best_runs())
        entries = [
            Entry(
                row.account_id,
                name,
                (-row.best_stage, -row.best_points, _moment(row.best_at)),
                {"stage": row.best_stage, "points": row.best_points},
            )
            for row, name in runs
        ]
        return {**board(entries, account_id), **await self._listed(account_id)}

    async def daily(self, account_id: str, day: str) -> JSON:
        """The ranked attempts of ``day``: points, fewer empty patches, earlier finish."""
        attempts = await self._read(lambda db: DailyRepository(db).ranked_results(day))
        entries = [
            Entry(
                row.account_id,
                name,
                (-(row.points or 0), row.empty_patches or 0, _moment(row.finished_at)),
                {
                    "points": row.points,
                    "empty_patches": row.empty_patches,
                    "finished_at": _iso(row.finished_at),
                },
            )
            for row, name in attempts
        ]
        return {"day": day, **board(entries, account_id), **await self._listed(account_id)}

    async def _listed(self, account_id: str) -> JSON:
        """``{"listed"}``: whether the asking account can be on the lists (it has a name)."""
        name = await self._read(lambda db: AccountRepository(db).name_of(account_id))
        return {"listed": name is not None}

    async def _read(self, query: Callable[[AsyncSession], Awaitable[_Rows]]) -> _Rows:
        """One read of the lists, in a session of its own."""
        async with self.sessionmaker() as db:
            return await query(db)


def _moment(moment: datetime | None) -> str:
    """A sortable form of a time (ISO in UTC); a missing time sorts last."""
    return as_utc(moment).isoformat() if moment else "9999"


def _iso(moment: datetime | None) -> str | None:
    return as_utc(moment).isoformat() if moment else None
