"""Meine Partien: the account's games of all three games with their results, and replays.

A replay is the game's event log played again through the engine, one view per entry, each from
the account's own seat — the cards and dice as they were then and nothing that seat could not see
(the engine's ``view_for`` leaves out deck orders, future dice and other seats' secrets).

A game dealt from a secret seed carries its ``fairness``: the commitment, and once the game is
over the revealed seed with the verdict of checking every die and draw of these very steps
against it (services/fairness.py) — the line "Faire Würfel …" of the replay page.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from spielcenter.games.base import JSON, Deal, Game, GameError, Seat, Status, get_game
from spielcenter.games.log import MOVE, GameLog
from spielcenter.games.speedquilt.history import table_log
from spielcenter.games.speedquilt.rules import Speedquilt
from spielcenter.store.models import TableRecord, TableSeat
from spielcenter.store.repositories import (
    AccountRepository,
    AchievementRepository,
    GameRepository,
    TableRepository,
    TableResultRepository,
)

from .achievements import ACHIEVEMENTS
from .campaign import stage_of
from .common import ServiceError, as_utc
from .daily import day_of_variant
from .fairness import dealt_from, verified
from .games import GameService
from .results import achievement_json

SPEEDQUILT = "speedquilt"
OPEN_TABLE = "open"
"""The status of a started table that is not over (a lobby table still waiting is "waiting")."""


def entry_views(
    engine: Game[Any, Any], deal: Deal, entries: Iterable[tuple[str, str | None]], seat: Seat = 0
) -> list[JSON]:
    """The views of a one-seat game's log (``move`` / ``undo`` / ``redo`` entries) from ``seat``:
    the start, then one after each entry."""
    log: GameLog[Any, Any] = GameLog(engine, deal)
    views = [engine.view_for(log.state, seat)]
    for kind, move in entries:
        log.add(kind, 0, move)
        views.append(engine.view_for(log.state, seat))
    return views


def seat_views(
    engine: Speedquilt, deal: Deal, log: Sequence[tuple[Seat, str]], seat: Seat
) -> list[JSON]:
    """The views of a table's log of ``(seat, move)`` pairs as ``seat`` saw them: the start,
    then one after each move (for Speedquilt tables; the table service keeps such logs)."""
    return [step["view"] for step in speedquilt_steps(engine, deal, log, seat)]


def speedquilt_steps(
    engine: Speedquilt, deal: Deal, log: Sequence[tuple[Seat, str]], reader: Seat | None
) -> list[JSON]:
    """A Speedquilt log of ``(seat, move)`` pairs step by step as ``reader`` saw it: the start,
    then each entry with its view, its history lines (docs/protocol.md, "History lines") and its
    move text — ``None`` where the move was private to another seat (a start choice, a thimble
    or dye-bath adjustment), exactly as the table told ``reader`` then."""
    played = table_log(engine, deal, ())  # the log as the live table keeps it
    steps = [_step(0, None, None, None, [], engine.view_for(played.state, reader))]
    for seat, text in log:
        entry = played.add(MOVE, seat, text, checked=False)
        seen = entry.for_reader(reader)
        view = engine.view_for(played.state, reader)
        steps.append(_step(entry.seq, entry.seat, seen["move"], seen["line"], seen["also"], view))
    return steps


def _step(
    seq: int, seat: Seat | None, move: str | None, line: JSON | None, also: list[JSON], view: JSON
) -> JSON:
    kind = "move" if seq else "start"
    return {
        "seq": seq,
        "kind": kind,
        "seat": seat,
        "move": move,
        "line": line,
        "also": also,
        "view": view,
    }


@dataclass
class LogTally:
    """What a game's log adds up to: its entries by kind and when the last was written."""

    kinds: Counter[str] = field(default_factory=Counter)
    last_at: datetime | None = None

    @property
    def standing_moves(self) -> int:
        """The moves on the record now, as the game screen counts them: every move and redo
        put one there, every undo took one off."""
        return self.kinds["move"] + self.kinds["redo"] - self.kinds["undo"]

    def add(self, kind: str, count: int, last_at: datetime) -> None:
        """Count ``count`` entries of ``kind``, the last of them written ``last_at``."""
        self.kinds[kind] += count
        last_at = as_utc(last_at)
        self.last_at = last_at if self.last_at is None else max(self.last_at, last_at)


def newest_first(listed: list[JSON]) -> list[JSON]:
    """``listed`` by the time of its last move, newest first; entries of the same moment keep
    the order they came in (the sort is stable), so the page shows them the same every time."""
    return sorted(
        listed, key=lambda entry: datetime.fromisoformat(entry["last_move_at"]), reverse=True
    )


def table_engine(row: TableRecord | None) -> Speedquilt | None:
    """The engine a stored table was played with; ``None`` if it cannot be made again here (a
    table of the daily variant would need the server's secret)."""
    if row is None:
        return None
    try:
        engine = get_game(row.game, row.variant, **row.options)
    except (GameError, LookupError, ValueError):
        return None
    return engine if isinstance(engine, Speedquilt) else None


def _seat_json(seat: TableSeat, names: dict[str, str | None]) -> JSON:
    """A seat of a replayed table, named as the table named it (a person's chosen name; the
    screen names guests and computers the same way at the table and in the replay)."""
    name = names.get(seat.account_id) if seat.account_id else None
    kind = "computer" if seat.level else "human"
    return {"seat": seat.seat, "kind": kind, "level": seat.level, "name": name}


class HistoryService:
    """The account's games listed with their results, and their replays."""

    def __init__(self, sessionmaker: async_sessionmaker[AsyncSession], games: GameService) -> None:
        self.sessionmaker = sessionmaker
        self.games = games

    async def my_games(self, account_id: str, state: str | None = None) -> JSON:
        """Finished and unfinished games of every game, and the tables, each newest first by
        the time of its last move (``last_move_at``); a game counts the moves that stand
        (``standing_moves``, as its screen does) and the ones taken back (``undos``)."""
        tallies = await self._tallies(account_id)
        listed = []
        for summary in await self.games.of_account(account_id, state):
            tally = tallies.get(summary["id"], LogTally())
            facts = {
                "standing_moves": tally.standing_moves,
                "undos": tally.kinds["undo"],
                "last_move_at": tally.last_at.isoformat()
                if tally.last_at
                else summary["created_at"],
            }
            listed.append({**summary, **facts, **await self._result(account_id, summary)})
        unfinished = [] if state not in (None, "open") else await self._open_tables(account_id)
        tables = unfinished + ([] if state == "open" else await self._tables(account_id))
        return {"games": newest_first(listed), "tables": newest_first(tables)}

    async def _tallies(self, account_id: str) -> dict[str, LogTally]:
        """The log tally of each game of the account that has an entry."""
        async with self.sessionmaker() as db:
            rows = await GameRepository(db).log_tallies(account_id)
        tallies: dict[str, LogTally] = {}
        for game_id, kind, count, last_at in rows:
            tallies.setdefault(game_id, LogTally()).add(kind, count, last_at)
        return tallies

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

    async def _open_tables(self, account_id: str) -> list[JSON]:
        """The started tables she sits at that are not over yet, newest first."""
        async with self.sessionmaker() as db:
            tables = TableRepository(db)
            rows = await tables.of_account_with_status(account_id, OPEN_TABLE)
            ids = [row.id for row in rows]
            counts = await tables.seat_counts(ids)
            moved = {table: as_utc(at) for table, at in (await tables.last_entry_at(ids)).items()}
        return [
            {
                "table_id": row.id,
                "game": SPEEDQUILT,
                "status": row.status,
                "seats": counts[row.id],
                "created_at": as_utc(row.created_at).isoformat(),
                "last_move_at": moved.get(row.id, as_utc(row.created_at)).isoformat(),
            }
            for row in rows
        ]

    async def _tables(self, account_id: str) -> list[JSON]:
        async with self.sessionmaker() as db:
            rows = await TableResultRepository(db).of_account(account_id)
        return [
            {
                "table_id": row.table_id,
                "game": SPEEDQUILT,
                "status": "finished",
                "points": row.points,
                "place": row.place,
                "seats": row.seats,
                "leaderboard_points": row.leaderboard_points,
                "finished_at": as_utc(row.finished_at).isoformat(),
                "last_move_at": as_utc(row.finished_at).isoformat(),
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
        if isinstance(engine, Speedquilt) and all(kind == "move" for kind, _ in pairs):
            # A solo Speedquilt game: its moves with their history lines, as at a table.
            log = [(0, move) for _, move in pairs if move is not None]
            steps = await asyncio.to_thread(speedquilt_steps, engine, dealt_from(row), log, 0)
            over = row.status != Status.PLAYING.value
            catalogue = engine.ctx.catalogue
            fairness = await asyncio.to_thread(verified, row, over, steps, catalogue)
            return {"game": {**summary, "fairness": fairness}, "steps": steps}
        views = entry_views(engine, dealt_from(row), pairs)
        steps = [{"seq": 0, "kind": "start", "move": None, "view": views[0]}]
        steps += [
            {"seq": entry.seq, "kind": entry.kind, "move": entry.move, "view": view}
            for entry, view in zip(entries, views[1:], strict=True)
        ]
        return {"game": summary, "steps": steps}

    async def table_replay(self, account_id: str, table_id: str) -> JSON:
        """A Speedquilt table the account sat at, step by step from its seat: each entry of the
        log with the view after it and its history lines; the dice as they were rolled, and
        nothing another seat kept to itself."""
        async with self.sessionmaker() as db:
            tables = TableRepository(db)
            row = await tables.get(table_id)
            seats = list(await tables.seats_of(table_id))
            log = await tables.log_of(table_id)
            people = [seat.account_id for seat in seats if seat.account_id]
            names = await AccountRepository(db).names_of(people)
        mine = [seat.seat for seat in seats if seat.account_id == account_id]
        engine = table_engine(row)
        if row is None or engine is None or not mine:
            raise ServiceError("not_found", f"no table {table_id!r} of this account to replay")
        # A long table takes a moment to replay: the event loop serves others meanwhile.
        steps = await asyncio.to_thread(speedquilt_steps, engine, dealt_from(row), log, mine[0])
        over = row.status == "finished"
        catalogue = engine.ctx.catalogue
        table = {
            "id": row.id,
            "game": row.game,
            "variant": row.variant,
            "seat": mine[0],
            "status": row.status,
            "seats": [_seat_json(seat, names) for seat in seats],
            "result": row.result,
            "fairness": await asyncio.to_thread(verified, row, over, steps, catalogue),
        }
        return {"table": table, "steps": steps}

    async def achievements(self, account_id: str) -> JSON:
        """Every achievement, with when (and by which game) the account earned it, if it did."""
        async with self.sessionmaker() as db:
            have = {row.key: row for row in await AchievementRepository(db).of_account(account_id)}
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
