"""Today's quilt for an account: play it (or continue it), and how the first attempt went.

It drives the game service (a daily game is played like any game); the day's names and how a
finished daily game is counted are in ``daily.py``, which the results module calls without
reaching this one, so the game service and the daily quilt do not import each other.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from spielcenter.games.base import JSON, Status
from spielcenter.games.speedquilt.dice import daily_deal
from spielcenter.store.models import DailyAttempt, GameRecord
from spielcenter.store.repositories import AccountRepository, DailyRepository, GameRepository

from .common import Clock, as_utc, new_id
from .daily import daily_variant, day_of
from .games import GameService


class DailyService:
    """Today's quilt for an account: play it (or continue it), and how the first attempt went."""

    def __init__(
        self,
        sessionmaker: async_sessionmaker[AsyncSession],
        games: GameService,
        clock: Clock,
        timezone: str,
        secret: bytes,
    ) -> None:
        self.sessionmaker = sessionmaker
        self.games = games
        self.clock = clock
        self.timezone = timezone
        self.secret = secret

    def today(self) -> str:
        """The current day by the server clock in the configured time zone."""
        return day_of(self.clock(), self.timezone)

    async def status(self, account_id: str) -> JSON:
        """Today's day, the account's ranked attempt (and its result), the game to continue."""
        day = self.today()
        async with self.sessionmaker() as db:
            attempts = await DailyRepository(db).attempts_of(account_id, day)
            open_id = await _open_game(db, attempts)
        ranked = next((a for a in attempts if a.ranked), None)
        return {
            "day": day,
            "played": ranked is not None,
            "ranked": _attempt_json(ranked) if ranked else None,
            "practice": sum(not a.ranked for a in attempts),
            "open_game_id": open_id,
        }

    async def play(self, account_id: str) -> JSON:
        """Today's quilt: the unfinished game of today, or a new one (ranked if it is the first)."""
        day = self.today()
        now = self.clock()
        async with self.sessionmaker() as db:
            # Today's unfinished game is continued: that only reads (no lock, no writer: on
            # SQLite the lock is the one writer, which a busy server may hold past busy_timeout).
            attempts = await DailyRepository(db).attempts_of(account_id, day)
            game_id = await _open_game(db, attempts)
        if game_id is None:
            game_id, attempts = await self._deal_if_none(account_id, day, now)
        ranked = any(a.ranked and a.game_id == game_id for a in attempts)
        summary = await self.games.summary(account_id, game_id)
        return {"day": day, "ranked": ranked, "game": summary}

    async def _deal_if_none(
        self, account_id: str, day: str, now: datetime
    ) -> tuple[str, list[DailyAttempt]]:
        """Today's unfinished game, dealt now if there is none; with today's attempts."""
        async with self.sessionmaker.begin() as db:
            # Whether she has an attempt today decides whether to deal one, and whether it is
            # ranked: read it again under her account's lock, or two requests at once each deal
            # a ranked attempt (she would play both and keep the better).
            await AccountRepository(db).lock([account_id])
            attempts = list(await DailyRepository(db).attempts_of(account_id, day))
            game_id = await _open_game(db, attempts)
            if game_id is None:
                game = self._new_game(account_id, day, now)
                attempts.append(await _add_attempt(db, game, day, not attempts, now))
                game_id = game.id
        return game_id, attempts

    def _new_game(self, account_id: str, day: str, now: datetime) -> GameRecord:
        return GameRecord(
            id=new_id(),
            account_id=account_id,
            game="speedquilt",
            variant=daily_variant(day),
            deal=daily_deal(day, self.secret),
            status=Status.PLAYING.value,
            last_seq=0,
            moves=0,
            restart_of=None,
            created_at=now,
        )


async def _add_attempt(
    db: AsyncSession, game: GameRecord, day: str, ranked: bool, now: datetime
) -> DailyAttempt:
    GameRepository(db).add(game)
    await db.flush()  # the attempt refers to the game row
    attempt = DailyAttempt(
        game_id=game.id, account_id=game.account_id, day=day, ranked=ranked, created_at=now
    )
    DailyRepository(db).add(attempt)
    return attempt


async def _open_game(db: AsyncSession, attempts: Sequence[DailyAttempt]) -> str | None:
    games = GameRepository(db)
    for attempt in attempts:
        game = await games.get(attempt.game_id)
        if game is not None and game.status == Status.PLAYING.value:
            return game.id
    return None


def _attempt_json(attempt: DailyAttempt) -> JSON:
    return {
        "game_id": attempt.game_id,
        "points": attempt.points,
        "empty_patches": attempt.empty_patches,
        "finished_at": as_utc(attempt.finished_at).isoformat() if attempt.finished_at else None,
    }
