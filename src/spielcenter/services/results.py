"""The one place a finished game is counted: campaign, daily list, table leaderboards, achievements.

The game services call :func:`record_finished` inside the transaction that writes the game's last
entry, so a result is counted exactly when its game is stored as over:

* patience and solo Speedquilt games (``services/games.py``) with
  :meth:`FinishedGame.of_solo_game`;
* Speedquilt tables (the table service) with a :class:`FinishedGame` of every seat: ``accounts``
  lists the account of each seat in seat order (``None`` for a computer player), ``log`` the
  accepted moves as ``(seat, text)`` pairs, ``state`` the final state (``engine.status`` is
  ``finished``), ``variant`` ``"table"`` — see docs/progress.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from spielcenter.games.base import JSON, Deal, Game, Status
from spielcenter.games.seeds import SecretSeed
from spielcenter.games.speedquilt.model import rows_and_columns
from spielcenter.games.speedquilt.scoring import leaderboard_points
from spielcenter.store.models import AchievementRecord, TableResult
from spielcenter.store.repositories import (
    AchievementRepository,
    GameRepository,
    TableResultRepository,
)

from .achievements import BY_KEY, Facts, QuiltFacts, earned
from .campaign import Outcome, record_stage, stage_of
from .common import as_utc
from .daily import day_of_variant, record_daily

SPEEDQUILT = "speedquilt"


@dataclass(frozen=True)
class FinishedGame:
    """A game at its end, as the game services hand it over."""

    game_id: str
    game: str
    variant: str
    """As stored: ``classic``, ``stage-3``, ``daily-2026-11-29``, ``table`` …"""
    engine: Game[Any, Any]
    state: Any
    """The final state: the replay of the log."""
    log: tuple[tuple[int, str], ...]
    """The accepted moves, ``(seat, text)``, in order."""
    accounts: tuple[str | None, ...]
    """The account of each seat; ``None`` for a computer player."""
    status: Status
    finished_at: datetime
    ranked: bool = True
    """Whether the result may reach a leaderboard: a table counts only when it was dealt from a
    secret seed (a chosen deal number can be rehearsed against the computers first)."""

    @classmethod
    def of_solo_game(
        cls,
        game_id: str,
        account_id: str,
        game: str,
        variant: str,
        engine: Game[Any, Any],
        state: Any,
        moves: Sequence[str],
        status: Status,
        finished_at: datetime,
    ) -> FinishedGame:
        """A one-seat game (patience, a campaign stage, a daily quilt) of ``account_id``."""
        log = tuple((0, move) for move in moves)
        return cls(game_id, game, variant, engine, state, log, (account_id,), status, finished_at)

    @classmethod
    def of_table(
        cls,
        table_id: str,
        engine: Game[Any, Any],
        deal: Deal,
        log: Sequence[tuple[int, str]],
        state: Any,
        accounts: Sequence[str | None],
        finished_at: datetime,
    ) -> FinishedGame:
        """A finished Speedquilt table: its log and final position as the live table holds them
        (the replay of its stored log, kept move by move: replaying it again here cost about
        9 ms of the event loop per end, inside the transaction that held the database)."""
        return cls(
            table_id,
            engine.name,
            "table",
            engine,
            state,
            tuple(log),
            tuple(accounts),
            engine.status(state),
            finished_at,
            ranked=isinstance(deal, SecretSeed),
        )

    @property
    def is_table(self) -> bool:
        """A Speedquilt table of several seats (counted on the table leaderboards)."""
        return self.game == SPEEDQUILT and len(self.accounts) > 1


def quilt_facts(finished: FinishedGame, seat: int) -> QuiltFacts:
    """What a seat's final Speedquilt quilt shows (points, place, rows, kits, gifts)."""
    # A Speedquilt engine: its catalogue and scoring are beyond the common game protocol.
    engine: Any = finished.engine
    state = finished.state
    catalogue = engine.ctx.catalogue
    quilt = state.seats[seat].quilt
    score = engine.quilt_scores(state)[seat]
    points = engine.scores(state)[seat]
    blocks = {cell: catalogue.block(placed.block_id) for cell, placed in quilt.items()}
    colours = {cell: block.colour for cell, block in blocks.items()}
    colours.update(score.remnant_colours)
    rows = [
        line
        for line in rows_and_columns(list(quilt))
        if colours[line[0]] is not None and len({colours[cell] for cell in line}) == 1
    ]
    kits = {
        str(block.kit)
        for cell, block in blocks.items()
        if block.kit is not None and quilt[cell].finished
    }
    return QuiltFacts(
        points=points,
        pattern_points=score.total,
        place=engine.places(state)[seat],
        seats=len(state.seats),
        blocks=len(quilt),
        finished_blocks=sum(placed.finished for placed in quilt.values()),
        finished_kit_kinds=frozenset(kits),
        single_colour_rows=len(rows),
        gifts=state.seats[seat].gifts,
        round_bonus=points - score.total,
    )


async def record_finished(db: AsyncSession, finished: FinishedGame) -> dict[str, list[JSON]]:
    """Count a finished game for every account at it; the achievements each account newly earned.

    Runs in the caller's transaction. Returns ``{account_id: [achievement, ...]}`` (only accounts
    with new achievements), each achievement as :func:`achievement_json` gives it.
    """
    new: dict[str, list[JSON]] = {}
    for seat, account_id in enumerate(finished.accounts):
        if account_id is None:
            continue
        facts = await _count_seat(db, finished, seat, account_id)
        awarded = await award(db, account_id, earned(facts), finished.game_id, finished.finished_at)
        if awarded:
            new[account_id] = awarded
    return new


async def _count_seat(
    db: AsyncSession, finished: FinishedGame, seat: int, account_id: str
) -> Facts:
    """Update the campaign, daily or table records of one seat; the facts for achievements."""
    now = finished.finished_at
    quilt = quilt_facts(finished, seat) if finished.game == SPEEDQUILT else None
    campaign: Outcome | None = None
    daily = False
    if quilt is not None and stage_of(finished.variant) is not None:
        campaign = await record_stage(db, account_id, finished.game_id, quilt.points, now)
    if quilt is not None and day_of_variant(finished.variant) is not None:
        engine: Any = finished.engine
        empty = engine.quilt_scores(finished.state)[seat].empty_patches
        await record_daily(db, finished.game_id, quilt.points, empty, now)
        daily = True
    if quilt is not None and finished.is_table:
        TableResultRepository(db).add(_table_result(finished, account_id, quilt))
    streak = await _streak(db, account_id, finished) if finished.game != SPEEDQUILT else 0
    return Facts(
        game=finished.game,
        variant=finished.variant,
        status=finished.status,
        moves=tuple(text for s, text in finished.log if s == seat),
        quilt=quilt,
        streak=streak,
        campaign=campaign,
        daily=daily,
    )


def _table_result(finished: FinishedGame, account_id: str, quilt: QuiltFacts) -> TableResult:
    """One seat's line for the table leaderboards."""
    return TableResult(
        table_id=finished.game_id,
        account_id=account_id,
        points=quilt.points,
        place=quilt.place,
        leaderboard_points=leaderboard_points(quilt.place, quilt.points),
        seats=quilt.seats,
        finished_at=finished.finished_at,
        ranked=finished.ranked,
    )


async def _streak(db: AsyncSession, account_id: str, finished: FinishedGame) -> int:
    """Wins in a row of this game (every variant), ending with this one."""
    if finished.status is not Status.WON:
        return 0
    earlier = await GameRepository(db).finished_statuses(
        account_id, finished.game, besides=finished.game_id
    )
    streak = 1
    for status in earlier:
        if status != Status.WON.value:
            break
        streak += 1
    return streak


async def award(
    db: AsyncSession, account_id: str, keys: list[str], game_id: str | None, now: datetime
) -> list[JSON]:
    """Award the achievements of ``keys`` the account does not have yet; those newly awarded."""
    if not keys:
        return []
    achievements = AchievementRepository(db)
    have = await achievements.keys_of(account_id)
    new = [key for key in keys if key not in have]
    for key in new:
        record = AchievementRecord(account_id=account_id, key=key, game_id=game_id, awarded_at=now)
        achievements.add(record)
    return [achievement_json(key, now, game_id) for key in new]


def achievement_json(key: str, awarded_at: datetime | None, game_id: str | None) -> JSON:
    """An achievement for the browser: its key, catalogue keys, and when it was awarded."""
    achievement = BY_KEY[key]
    return {
        "key": key,
        "game": achievement.game,
        "name": achievement.name_key,
        "text": achievement.text_key,
        "awarded_at": as_utc(awarded_at).isoformat() if awarded_at else None,
        "game_id": game_id,
    }
