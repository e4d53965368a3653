"""The game service's log: entries of many games committed together, each before its answer."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest
from sqlalchemy import DateTime, delete, func, select
from sqlalchemy.dialects import sqlite

from spielcenter.services.common import ServiceError, utcnow
from spielcenter.services.games import GameService
from spielcenter.store import sqlite_log
from spielcenter.store.db import make_engine, make_sessionmaker, migrate
from spielcenter.store.models import Account, GameEntry, GameRecord
from spielcenter.store.sqlite_log import ENTRY_COLUMNS, Worker, _processors, datetime_text

from .ladder import resolve


async def service_with_games(tmp_path: Path, count: int) -> tuple[GameService, list[str]]:
    engine = make_engine(f"sqlite+aiosqlite:///{tmp_path / 'log.sqlite3'}")
    await migrate(engine)
    games = GameService(make_sessionmaker(engine), resolve, utcnow)
    async with games.sessionmaker.begin() as db:
        db.add(Account(id="anna", settings={}, created_at=utcnow()))
    ids = [(await games.create("anna", "ladder", deal=n + 1))["id"] for n in range(count)]
    return games, ids


async def test_entries_of_many_games_at_once_are_all_committed(tmp_path: Path) -> None:
    games, ids = await service_with_games(tmp_path, 20)
    events = await asyncio.gather(*(games.move("anna", game_id, "d") for game_id in ids))
    async with games.sessionmaker() as db:
        stored = await db.scalar(select(func.count()).select_from(GameEntry))
        seqs = set((await db.execute(select(GameRecord.last_seq))).scalars())
    await games.close()
    assert [event["seq"] for event in events] == [1] * 20
    assert stored == 20 and seqs == {1}


async def test_an_entry_is_committed_before_its_event_is_returned(tmp_path: Path) -> None:
    games, [game_id] = await service_with_games(tmp_path, 1)
    for expected in (1, 2, 3):
        event = await games.move("anna", game_id, "d")
        async with games.sessionmaker() as db:
            stored = await db.scalar(select(func.max(GameEntry.seq)))
        assert event["seq"] == stored == expected
    await games.close()


async def test_a_failed_commit_answers_with_an_error_and_forgets_the_unsaved_move(
    tmp_path: Path,
) -> None:
    games, [game_id] = await service_with_games(tmp_path, 1)
    await games.move("anna", game_id, "d")
    async with games.sessionmaker.begin() as db:  # the game vanishes under the live position
        await db.execute(delete(GameRecord).where(GameRecord.id == game_id))
    with pytest.raises(Exception, match="FOREIGN KEY"):
        await games.move("anna", game_id, "d")
    with pytest.raises(ServiceError, match="no game"):
        await games.open("anna", game_id)
    await games.close()


async def test_each_game_of_a_batch_keeps_its_own_summary(tmp_path: Path) -> None:
    # One batch writes the entries of games that stand at different seqs: each game's summary
    # gets its own seq and moves, and its log its own entry.
    games, ids = await service_with_games(tmp_path, 3)  # the ladder draws three times at most
    for played, game_id in enumerate(ids):
        for _ in range(played):
            await games.move("anna", game_id, "d")
    events = await asyncio.gather(*(games.move("anna", game_id, "d") for game_id in ids))
    async with games.sessionmaker() as db:
        summaries = dict((await db.execute(select(GameRecord.id, GameRecord.last_seq))).all())
        moves = dict((await db.execute(select(GameRecord.id, GameRecord.moves))).all())
        logged = dict(
            (
                await db.execute(
                    select(GameEntry.game_id, func.max(GameEntry.seq)).group_by(GameEntry.game_id)
                )
            ).all()
        )
    await games.close()
    expected = {game_id: played + 1 for played, game_id in enumerate(ids)}
    assert {e["game_id"]: e["seq"] for e in events} == expected
    assert summaries == moves == logged == expected


async def test_the_log_is_copied_into_the_database_beside_the_commits_not_inside_them(
    tmp_path: Path,
) -> None:
    # SQLite's own checkpoint runs inside the COMMIT that fills the write-ahead log, and every
    # entry of that batch waits for it; the log writer's connection never checkpoints, a thread
    # of its own does (store/sqlite_log.py).
    games, ids = await service_with_games(tmp_path, 3)
    appender = games.writer.sqlite
    assert appender is not None
    for game_id in ids:
        await games.move("anna", game_id, "d")
    writer = appender._open()
    assert writer.execute("PRAGMA wal_autocheckpoint").fetchone() == (0,)
    while appender._checkpointing:  # the one the first commit started
        await asyncio.sleep(0.01)
    appender._checkpoint_due = 0.0  # due again: the next commit starts one
    appender.checkpoints_ms.clear()
    await games.move("anna", ids[0], "d")
    for _ in range(200):
        if appender.checkpoints_ms:
            break
        await asyncio.sleep(0.01)
    # The database file alone, without its write-ahead log, holds the entries.
    copy = tmp_path / "copy.sqlite3"
    copy.write_bytes((tmp_path / "log.sqlite3").read_bytes())
    stored = sqlite3.connect(copy).execute("SELECT count(*) FROM game_entries").fetchone()
    await games.close()
    assert stored == (4,)


def test_a_time_is_stored_as_sqlalchemy_would_store_it() -> None:
    # The log writer writes its datetimes itself (store/sqlite_log.py, datetime_text); every
    # other reader goes through SQLAlchemy, which must find the text it would have written.
    dialect = sqlite.dialect()
    processors = _processors(GameEntry, ENTRY_COLUMNS, dialect)
    assert processors[ENTRY_COLUMNS.index("created_at")] is datetime_text
    sqlalchemy_text = DateTime(timezone=True).dialect_impl(dialect).bind_processor(dialect)
    assert sqlalchemy_text is not None
    moments = [
        utcnow(),
        datetime(2026, 12, 7, 1, 2, 3, tzinfo=UTC),  # no microseconds
        datetime(2026, 1, 1, 23, 59, 59, 999_999),  # naive
        datetime(987, 6, 5, 4, 3, 2, 1, tzinfo=timezone(timedelta(hours=2))),  # year < 1000
        datetime(1, 1, 1),  # the first and the last a datetime can be, one behind UTC
        datetime(
            9999, 12, 31, 23, 59, 59, 999_999, tzinfo=timezone(timedelta(hours=-5, minutes=-30))
        ),
    ]
    for moment in moments:
        assert datetime_text(moment) == sqlalchemy_text(moment)
    # The texts are kept by the datetime object: asked again, or for an equal moment in another
    # zone (another wall time), or after the table started afresh, each is still its own.
    for moment in [*moments, *moments]:
        if moment.tzinfo is not None and moment.year < 9999:
            other_zone = moment.astimezone(timezone(timedelta(hours=3)))
            assert other_zone == moment
            assert datetime_text(other_zone) == sqlalchemy_text(other_zone)
        assert datetime_text(moment) == sqlalchemy_text(moment)


def test_a_time_kept_by_its_object_is_written_anew_once_the_table_starts_afresh(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # At most DATETIME_TEXTS_KEPT texts are kept; then the table starts afresh.
    monkeypatch.setattr(sqlite_log, "DATETIME_TEXTS_KEPT", 3)
    moments = [datetime(2026, 12, 7, 8, minute, tzinfo=UTC) for minute in range(10)]
    for moment in moments * 3:
        assert datetime_text(moment) == f"2026-12-07 08:{moment.minute:02d}:00.000000"
        assert len(sqlite_log._DATETIME_TEXTS) <= 3


async def test_the_log_thread_goes_on_after_a_waiter_gave_up() -> None:
    # A commit whose waiter was cancelled (its socket closed) still runs; the next one is
    # answered as usual, and an error reaches the coroutine that waits for it.
    worker = Worker("test-log")
    began, go_on = threading.Event(), threading.Event()
    ran: list[str] = []

    def slow() -> None:
        began.set()
        go_on.wait(5)
        ran.append("slow")

    def fail() -> None:
        raise ValueError("disk full")

    waiting = asyncio.ensure_future(worker.run(slow))
    await asyncio.to_thread(began.wait, 5)
    waiting.cancel()
    go_on.set()
    await worker.run(ran.append, "next")
    with pytest.raises(ValueError, match="disk full"):
        await worker.run(fail)
    worker.stop(lambda: ran.append("last"))
    assert ran == ["slow", "next", "last"]
