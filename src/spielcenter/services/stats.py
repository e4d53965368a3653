"""Statistics per account, game and variant, computed from the games' summaries.

A game is listed once it has a first move; it counts as played when it has ended, won or lost
as the engine says. Until then it is in progress: she may still resume and win it, so it lowers
no win rate (``in_progress`` counts those). Streaks run over decided games in the order they
ended (an unfinished game neither extends nor breaks a streak). Time is from the first move to
the end, by the server clock; moves are the accepted move entries (undo and redo are not moves).
Best time and fewest moves are of won games.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from spielcenter.games.base import JSON, Status
from spielcenter.store.models import GameRecord
from spielcenter.store.repositories import GameRepository

from .common import as_utc


class StatsService:
    """Reads statistics; nothing is stored twice, so they can never disagree with the games."""

    def __init__(self, sessionmaker: async_sessionmaker[AsyncSession]) -> None:
        self.sessionmaker = sessionmaker

    async def of_game(self, account_id: str, game: str) -> list[JSON]:
        """One entry per variant the account has played of ``game``."""
        async with self.sessionmaker() as db:
            rows = await GameRepository(db).played_of(account_id, game)
        variants = sorted({row.variant for row in rows})
        return [
            {"game": game, "variant": v, **summarise([r for r in rows if r.variant == v])}
            for v in variants
        ]


def summarise(rows: Sequence[GameRecord]) -> JSON:
    """The statistics of the started games ``rows`` (all of one game and variant)."""
    won = [row for row in rows if row.status == Status.WON.value]
    decided = sorted(
        (row for row in rows if row.finished_at is not None),
        key=lambda row: (as_utc(row.finished_at), row.id) if row.finished_at else (0, row.id),
    )
    ended = len(decided)
    current = best = 0
    for row in decided:
        current = current + 1 if row.status == Status.WON.value else 0
        best = max(best, current)
    times = [_duration_ms(row) for row in won]
    return {
        "played": ended,
        "won": len(won),
        "rate": round(len(won) / ended, 4) if ended else 0.0,
        "in_progress": len(rows) - ended,
        "current_streak": current,
        "best_streak": best,
        "best_time_ms": min(times) if times else None,
        "fewest_moves": min(row.moves for row in won) if won else None,
    }


def _duration_ms(row: GameRecord) -> int:
    assert row.started_at is not None and row.finished_at is not None
    return int((as_utc(row.finished_at) - as_utc(row.started_at)).total_seconds() * 1000)
