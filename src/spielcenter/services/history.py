"""Meine Partien: the account's games of all three games with their results, and replays.

A replay is the game's event log played again through the engine, one view per entry, each from
the account's own seat — the cards and dice as they were then and nothing that seat could not see
(the engine's ``view_for`` leaves out deck orders, future dice and other seats' secrets).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from spielcenter.games.base import JSON, Game, Record, Seat, Status
from spielcenter.store.models import AchievementRecord, TableResult
from spielcenter.store.repositories import GameRepository

from .achievements import ACHIEVEMENTS
from .campaign import stage_of
from .common import ServiceError, as_utc
from .daily import day_of_variant
from .games import GameService
from .results import achievement_json

SPEEDQUILT = "speedquilt"


def entry_views(
    engine: Game[Any, Any], deal: int, entries: Iterable[tuple[str, str | None]], seat: Seat = 0
) -> list[JSON]:
    """The views of a one-seat game's log (``move`` / ``undo`` / ``redo`` entries) from ``seat``:
    the start, then one after each entry."""
    record: Record[Any, Any] = Record(engine, deal)
    views = [engine.view_for(record.state, seat)]
    for kind, move in entries:
        if kind == "move" and move is not None:
            record.play(move)
        elif kind == "undo":
            record.undo()
        elif kind == "redo":
            record.redo()
        views.append(engine.view_for(record.state, seat))
    return views


def seat_views(
    engine: Game[Any, Any], deal: int, log: Sequence[tuple[Seat, str]], seat: Seat
) -> list[JSON]:
    """The views of a table's log of ``(seat, move)`` pairs as ``seat`` saw them: the start,
    then one after each move (for Speedquilt tables; the table service keeps such logs)."""
    state = engine.start(deal)
    views = [engine.view_for(state, seat)]
    for mover, text in log:
        state = engine.play(state, text, mover)
        views.append(engine.view_for(state, seat))
    return views


class HistoryService:
    """The account's games listed with their results, and their replays."""

    def __init__(self, sessionmaker: async_sessionmaker[AsyncSession], games: GameService) -> None:
        self.sessionmaker = sessionmaker
        self.games = games

    async def my_games(self, account_id: str, state: str | None = None) -> JSON:
        """Finished and unfinished games of every game, newest first, and finished tables."""
        listed = []
        for summary in await self.games.of_account(account_id, state):
            listed.append({**summary, **await self._result(account_id, summary)})
        tables = [] if state == "open" else await self._tables(account_id)
        return {"games": listed, "tables": tables}

    async def _result(self, account_id: str, summary: JSON) -> JSON:
        """What the list shows besides the summary: kind (patience, campaign stage, daily
        quilt) and, once over, the points of a Speedquilt game."""
        variant = summary["variant"]
        result: JSON = {"kind": "patience"}
        if summary["game"] == SPEEDQUILT:
            stage, day = stage_of(variant), day_of_variant(variant)
            result = {"kind": "campaign" if stage else "daily" if day else "solo"}
            result.update(stage=stage, day=day, points=None)
            if summary["status"] != Status.PLAYING.value:
                live = await self.games.open(account_id, summary["id"])
                result["points"] = live.engine.scores(live.record.state)[0]  # type: ignore[attr-defined]
        return result

    async def _tables(self, account_id: str) -> list[JSON]:
        query = (
            select(TableResult)
            .where(TableResult.account_id == account_id)
            .order_by(TableResult.finished_at.desc())
        )
        async with self.sessionmaker() as db:
            rows = (await db.execute(query)).scalars().all()
        return [
            {
                "table_id": row.table_id,
                "game": SPEEDQUILT,
                "points": row.points,
                "place": row.place,
                "seats": row.seats,
                "leaderboard_points": row.leaderboard_points,
                "finished_at": as_utc(row.finished_at).isoformat(),
            }
            for row in rows
        ]

    async def replay(self, account_id: str, game_id: str) -> JSON:
        """The game step by step: each log entry with the view after it, from the account's
        seat."""
        summary = await self.games.summary(account_id, game_id)
        async with self.sessionmaker() as db:
            repo = GameRepository(db)
            row = await repo.get(game_id)
            entries = await repo.entries(game_id)
        if row is None:
            raise ServiceError("not_found", f"no game {game_id!r} for this account")
        engine = self.games.resolve(row.game, row.variant)
        pairs = [(entry.kind, entry.move) for entry in entries]
        views = entry_views(engine, row.deal, pairs)
        steps = [{"seq": 0, "kind": "start", "move": None, "view": views[0]}]
        steps += [
            {"seq": entry.seq, "kind": entry.kind, "move": entry.move, "view": view}
            for entry, view in zip(entries, views[1:], strict=True)
        ]
        return {"game": summary, "steps": steps}

    async def achievements(self, account_id: str) -> JSON:
        """Every achievement, with when (and by which game) the account earned it, if it did."""
        query = select(AchievementRecord).where(AchievementRecord.account_id == account_id)
        async with self.sessionmaker() as db:
            have = {row.key: row for row in (await db.execute(query)).scalars().all()}
        listed = []
        for achievement in ACHIEVEMENTS:
            row = have.get(achievement.key)
            listed.append(
                achievement_json(
                    achievement.key,
                    row.awarded_at if row else None,
                    row.game_id if row else None,
                )
            )
        return {"achievements": listed, "earned": len(have)}
