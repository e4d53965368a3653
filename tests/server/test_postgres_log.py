"""The group commit on PostgreSQL (store/postgres_log.py): a batch is one statement on a
connection of the log writer's own, committed whole or not at all, each entry before its event;
the rows are the ones SQLAlchemy would have written."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta, timezone

import pytest
from sqlalchemy import func, select, text
from sqlalchemy.exc import IntegrityError

from spielcenter.services.common import utcnow
from spielcenter.services.games import GameService
from spielcenter.store.db import make_engine, make_sessionmaker
from spielcenter.store.models import Account, GameEntry, GameRecord, TableRecord
from spielcenter.store.postgres_log import PostgresLogAppender
from spielcenter.store.repositories import NewEntry, NewTableEntry
from tests.backends import PostgresCluster

from .ladder import resolve


@pytest.fixture
async def games(postgres: PostgresCluster) -> AsyncIterator[GameService]:
    """The patience service on a fresh migrated PostgreSQL database, with Anna's account."""
    url = postgres.lend_database()
    engine = make_engine(url)
    service = GameService(make_sessionmaker(engine), resolve, utcnow)
    async with service.sessionmaker.begin() as db:
        db.add(Account(id="anna", settings={}, created_at=utcnow()))
    yield service
    await service.close()
    await engine.dispose()
    postgres.give_back(url)


def appender(games: GameService) -> PostgresLogAppender:
    found = games.writer.postgres
    assert found is not None, "on PostgreSQL the log writer appends through its own connection"
    return found


async def summaries(games: GameService) -> dict[str, tuple[int, int]]:
    async with games.sessionmaker() as db:
        rows = await db.execute(select(GameRecord.id, GameRecord.last_seq, GameRecord.moves))
    return {game_id: (seq, moves) for game_id, seq, moves in rows}


async def test_each_game_of_a_batch_keeps_its_own_entry_and_summary(
    games: GameService,
) -> None:
    ids = [(await games.create("anna", "ladder", deal=n + 1))["id"] for n in range(3)]
    for played, game_id in enumerate(ids):  # the games stand at different seqs
        for _ in range(played):
            await games.move("anna", game_id, "d")
    events = await asyncio.gather(*(games.move("anna", game_id, "d") for game_id in ids))
    async with games.sessionmaker() as db:
        logged = dict(
            (
                await db.execute(
                    select(GameEntry.game_id, func.max(GameEntry.seq)).group_by(GameEntry.game_id)
                )
            ).all()
        )
    expected = {game_id: played + 1 for played, game_id in enumerate(ids)}
    assert {e["game_id"]: e["seq"] for e in events} == expected == logged
    assert await summaries(games) == {game_id: (seq, seq) for game_id, seq in expected.items()}


async def test_an_entry_is_committed_before_its_event_is_returned(games: GameService) -> None:
    game_id = (await games.create("anna", "ladder", deal=1))["id"]
    for expected in (1, 2, 3):
        event = await games.move("anna", game_id, "d")
        async with games.sessionmaker() as db:  # another connection sees it committed
            stored = await db.scalar(select(func.max(GameEntry.seq)))
        assert event["seq"] == stored == expected


async def test_a_batch_with_a_taken_seq_writes_none_of_its_rows(games: GameService) -> None:
    # One writer (services/games.py): the database refuses an entry whose seq another process
    # wrote first; the batch is one statement, so none of its rows is written, and the log
    # writer then writes its entries one at a time (services/logwriter.py).
    first, second = [(await games.create("anna", "ladder", deal=n + 1))["id"] for n in (1, 2)]
    await games.move("anna", first, "d")
    now = utcnow()
    summary = {"last_seq": 1, "moves": 1}
    with pytest.raises(IntegrityError):
        await appender(games).append(
            [
                (NewEntry(second, 1, "move", "d", now), summary),
                (NewEntry(first, 1, "move", "d", now), summary),  # seq 1 is taken
            ]
        )
    assert await summaries(games) == {first: (1, 1), second: (0, 0)}
    await appender(games).append([(NewEntry(second, 1, "move", "d", now), summary)])
    assert await summaries(games) == {first: (1, 1), second: (1, 1)}


async def test_a_connection_the_server_closed_is_opened_anew_for_the_next_batch(
    games: GameService,
) -> None:
    game_id = (await games.create("anna", "ladder", deal=1))["id"]
    await games.move("anna", game_id, "d")
    connection = appender(games)._connection
    assert connection is not None
    async with games.sessionmaker() as db:  # a restart or an idle timeout ends the session
        ended = await db.scalar(
            text("SELECT pg_terminate_backend(:pid)"), {"pid": connection.get_server_pid()}
        )
    assert ended
    for _ in range(100):  # the client hears of it
        if connection.is_closed():
            break
        await asyncio.sleep(0.01)
    event = await games.move("anna", game_id, "d")
    assert event["seq"] == 2
    assert await summaries(games) == {game_id: (2, 2)}


async def test_times_are_stored_as_the_same_instants(games: GameService) -> None:
    game_id = (await games.create("anna", "ladder", deal=1))["id"]
    when = datetime(2026, 12, 7, 5, 30, 0, 123456, tzinfo=timezone(timedelta(hours=1)))
    summary = {"last_seq": 1, "moves": 1, "started_at": when, "finished_at": None}
    await appender(games).append([(NewEntry(game_id, 1, "move", "d", when), summary)])
    async with games.sessionmaker() as db:
        entry = await db.scalar(select(GameEntry.created_at))
        record = await db.get(GameRecord, game_id)
    assert record is not None
    assert entry == record.started_at == when
    assert entry is not None and entry.astimezone(UTC) == datetime(
        2026, 12, 7, 4, 30, 0, 123456, tzinfo=UTC
    )
    assert record.finished_at is None


async def test_a_tables_last_seq_is_its_last_decision_of_the_batch(
    games: GameService,
) -> None:
    # A table's actor waits for each decision's commit, so a batch holds one of its decisions;
    # were there two, the table's last seq is the later one, as the engine's updates in turn.
    now = utcnow()
    async with games.sessionmaker.begin() as db:
        db.add(
            TableRecord(
                id="t1",
                created_by="anna",
                game="speedquilt",
                variant="classic",
                options={},
                tempo="normal",
                status="playing",
                last_seq=0,
                created_at=now,
            )
        )
    decisions = [NewTableEntry("t1", seq, 0, "pass", now, False) for seq in (1, 2)]
    await appender(games).append([], decisions)
    async with games.sessionmaker() as db:
        table = await db.get(TableRecord, "t1")
    assert table is not None and table.last_seq == 2
