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
from sqlalchemy.ext.asyncio import AsyncSession

from spielcenter.bots import get_bot
from spielcenter.games.base import Status
from spielcenter.server.tables import speedquilt_engine
from spielcenter.services import tables as table_service
from spielcenter.services.games import GameService
from spielcenter.services.results import FinishedGame
from spielcenter.services.table_play import LiveTable, TableServices
from spielcenter.services.tables import TableService
from spielcenter.settings import Settings
from spielcenter.store import sqlite_log
from spielcenter.store.models import GameEntry, TableEntry, TableRecord, TableResult


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


@pytest.fixture
def no_busy_waiting(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    """The log writer's SQLite connection waits for no other writer at all (``busy_timeout``
    0: a batch that finds the database held fails). Asked for before ``world``, whose first
    move opens that connection."""
    if not settings.database_url.startswith("sqlite"):
        pytest.skip("SQLite's one write lock: PostgreSQL's writers do not wait for each other")
    pragmas = [p for p in sqlite_log.PRAGMAS if "busy_timeout" not in p]
    monkeypatch.setattr(sqlite_log, "PRAGMAS", (*pragmas, "PRAGMA busy_timeout=0"))


async def play_to_the_end(live: LiveTable) -> None:
    """Anna (seat 0) and her computer play the table out as two easy computers would."""
    bots, memories = {0: get_bot("easy"), 1: get_bot("easy")}, {0: {}, 1: {}}
    engine = live.engine
    while live.playing:
        state = live.state
        acting = engine.to_act(state)
        waiting = sorted(s for s in acting if s != state.active)  # open windows first
        seat = waiting[0] if waiting else min(acting)
        move = bots[seat].decide(engine, engine.view_for(state, seat), seat, memories[seat])
        await live.decide(seat, move, own=seat == 0)


async def test_a_patience_batch_takes_its_turn_after_a_tables_end_not_in_sqlites_busy_handler(
    no_busy_waiting: None, world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A table's last decision is a transaction of its own (the result, the pot, the
    # leaderboards) that holds SQLite's write lock from its first insert to its commit. A
    # patience entry made meanwhile waits for its turn in the process and is committed after
    # it; it never meets the table's transaction in SQLite's busy handler (sleeps of 1, 3, 8,
    # 18, 33, 53 ms …; here, without busy waiting, it would fail).
    meanwhile: list[asyncio.Task[dict[str, object]]] = []
    counted = table_service.record_finished

    async def patience_move_during_the_end(db: AsyncSession, game: FinishedGame) -> object:
        meanwhile.append(asyncio.create_task(world.games.move("anna", world.game_id, "d")))
        await asyncio.sleep(0.2)  # long enough for its batch to reach SQLite, were it let
        assert not meanwhile[0].done()  # the table's transaction holds the database
        return await counted(db, game)

    monkeypatch.setattr(table_service, "record_finished", patience_move_during_the_end)
    stored_table = await world.tables.load(world.table_id)
    assert stored_table is not None
    engine = speedquilt_engine("table", dict(stored_table.record.options))
    live = TableServices.build(world.tables).live(stored_table, engine, chat=False)
    await play_to_the_end(live)

    moved = await meanwhile[0]
    assert moved["seq"] == 2 and engine.status(live.state) is Status.FINISHED
    async with world.games.sessionmaker() as db:
        row = await db.get(TableRecord, world.table_id)
        results = await db.scalar(select(func.count()).select_from(TableResult))
    assert row is not None and row.status == "finished" and results == 1  # Anna's line


async def test_a_patience_batch_waits_for_one_tables_transaction_not_for_a_queue_of_them(
    world: World,
) -> None:
    # Three tables created at once queue for the database; a patience entry made meanwhile
    # goes in after the first of them, not after the third: on SQLite the tables' queue and
    # the group commit take turns (a hundred tables created or ending at once would otherwise
    # hold every player's entry for as long as all of theirs take).
    if not world.games.writer.takes_turns:
        pytest.skip("SQLite's one write lock: PostgreSQL's writers do not wait for each other")
    world.tables.timing = lambda stage, value: world.stages.append((stage, value))
    world.stages.clear()

    async def created() -> None:
        await world.tables.create("anna", players=2, bots=["easy"])

    await asyncio.gather(
        created(), created(), created(), world.games.move("anna", world.game_id, "d")
    )
    turns = [stage for stage, _ in world.stages if stage in ("table_lock_wait", "db_turn_wait")]
    assert turns == ["table_lock_wait", "db_turn_wait", "table_lock_wait", "table_lock_wait"]
