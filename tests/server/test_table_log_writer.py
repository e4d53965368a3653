"""One writer for tables and patience (services/logwriter.py, docs/performance.md "One writer
for tables and patience"): a table's decision is committed in the group commit's batches, with
the patience entries waiting at that moment, before the table hears of it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable
from dataclasses import dataclass

import pytest
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from spielcenter.services.games import GameService
from spielcenter.services.tables import TableService
from spielcenter.store.models import GameEntry, TableEntry, TableRecord


@dataclass
class World:
    games: GameService
    tables: TableService
    game_id: str
    table_id: str
    stages: list[tuple[str, float]]


@pytest.fixture
async def world(services: tuple[GameService, TableService]) -> AsyncIterator[World]:
    games, tables = services
    game_id = (await games.create("anna", "ladder", deal=1))["id"]
    await games.move("anna", game_id, "d")  # the game is live: its next move waits for nothing
    table = await tables.create("anna", players=2, bots=["easy"])
    stages: list[tuple[str, float]] = []
    games.time_stages(lambda stage, value: stages.append((stage, value)))
    yield World(games, tables, game_id, table.record.id, stages)


async def stored(world: World) -> tuple[int, int, int]:
    """Patience entries, table entries, the table's noted last seq."""
    async with world.games.sessionmaker() as db:
        entries = await db.scalar(select(func.count()).select_from(GameEntry))
        decisions = await db.scalar(select(func.count()).select_from(TableEntry))
        last = await db.scalar(select(TableRecord.last_seq).where(TableRecord.id == world.table_id))
    return entries or 0, decisions or 0, last or 0


async def test_a_tables_decision_is_committed_in_one_batch_with_the_patience_entries(
    world: World,
) -> None:
    await asyncio.gather(
        world.games.move("anna", world.game_id, "d"),
        world.tables.append(world.table_id, 1, 0, "pass", None),
    )
    commits = [value for stage, value in world.stages if stage == "batch_entries"]
    assert commits == [2]  # one transaction for both: one writer
    assert await stored(world) == (2, 1, 1)


async def test_a_decision_is_committed_before_append_returns(world: World) -> None:
    for seq in (1, 2, 3):
        await world.tables.append(world.table_id, seq, seq % 2, "pass", None)
        assert (await stored(world))[1:] == (seq, seq)


async def test_a_decision_whose_seq_is_taken_is_refused_alone(world: World) -> None:
    # Another process wrote seq 1 first (the one-writer rule): only that decision fails, the
    # patience entry of the same batch is committed.
    await world.tables.append(world.table_id, 1, 0, "pass", None)
    moved, refused = await asyncio.gather(
        world.games.move("anna", world.game_id, "d"),
        world.tables.append(world.table_id, 1, 1, "pass", None),
        return_exceptions=True,
    )
    assert isinstance(refused, IntegrityError)
    assert isinstance(moved, dict) and moved["seq"] == 2
    assert await stored(world) == (2, 1, 1)


async def test_a_tables_decision_is_told_before_the_patience_entries_of_its_batch(
    world: World,
) -> None:
    # Committed first, then woken first: its table waits for it, a patience entry only its own
    # player (services/logwriter.py).
    games = [world.game_id]
    for deal in (2, 3):
        games.append((await world.games.create("anna", "ladder", deal=deal))["id"])
        await world.games.move("anna", games[-1], "d")
    world.stages.clear()
    told: list[str] = []

    async def told_when_done(name: str, waiting: Awaitable[object]) -> None:
        await waiting
        told.append(name)

    await asyncio.gather(
        *(told_when_done(game, world.games.move("anna", game, "d")) for game in games),
        told_when_done("table", world.tables.append(world.table_id, 1, 0, "pass", None)),
    )
    assert [value for stage, value in world.stages if stage == "batch_entries"] == [4]
    assert told[0] == "table" and sorted(told[1:]) == sorted(games)
    assert await stored(world) == (6, 1, 1)
