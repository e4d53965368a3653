"""Game log entries appended to a SQLite file in one trip to a thread of their own.

Through SQLAlchemy and aiosqlite a batch of the group commit (``services/logwriter.py``) is
five trips between the event loop and the driver's thread (begin, insert, update, commit, the
pool's reset), each a handful of Python calls and a wait for the interpreter's lock: about a
millisecond of the server's CPU per batch, most of what an entry cost (docs/performance.md,
"CPU per entry"). Here the whole batch is one call in one thread, on one connection kept open,
as two statements of many rows (the insert and the update of ``store/repositories.py``, with the
same stored values: the columns' own SQLAlchemy types turn the values into what SQLite stores,
so every other reader sees rows as if SQLAlchemy wrote them).

The connection is tuned as the engine's are (``store/db.py``); another writer holding the
database makes this one wait (``busy_timeout``) in its thread, never the event loop. But it
never checkpoints the write-ahead log itself: SQLite runs a checkpoint inside the ``COMMIT``
that fills the log past 1 000 pages, copying them into the database and syncing it, and every
entry of that batch waited for it (commits of up to 234 ms where the rest take 0.1 ms;
docs/performance.md, "The stalls at 1 000 players"). A second thread with a connection of its
own checkpoints instead, at most once every :data:`CHECKPOINT_EVERY_S` after a commit, while the
commits go on (in WAL mode a checkpoint does not block the writer).

A batch of one entry is what a quiet server commits most (a commit takes well under a
millisecond, so few entries wait for the next), so what a batch costs besides its rows is paid
once per entry: the hand-off to the thread is a queue and a callback into the loop, not an
executor's futures chained to the loop's (about a third of a one-entry batch's CPU in the
loop), and the statements' texts are made once per batch size (docs/performance.md, "CPU per
entry after the batches").
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import sqlite3
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from functools import lru_cache, partial
from queue import SimpleQueue
from typing import Any

from sqlalchemy import DateTime, Dialect
from sqlalchemy.exc import IntegrityError

from .models import GameEntry, GameRecord, SeatClock, TableEntry, TableRecord
from .repositories import CLOCK_COLUMNS, TABLE_ENTRY_COLUMNS, NewEntry, NewTableEntry

ENTRY_COLUMNS = ("game_id", "seq", "kind", "move", "created_at")
PRAGMAS = (
    "PRAGMA foreign_keys=ON",
    "PRAGMA journal_mode=WAL",
    "PRAGMA synchronous=NORMAL",
    "PRAGMA busy_timeout=5000",
)
"""As ``store/db.py`` sets them on every connection of the engine."""
CHECKPOINT_EVERY_S = 1.0
"""How often the checkpoint thread copies the write-ahead log into the database, at most (at
1 000 entries a second the log grows by a few hundred pages a second)."""


class SqliteLogAppender:
    """Appends batches of entries, and their games' new summaries, to one SQLite file."""

    def __init__(self, path: str, dialect: Dialect) -> None:
        self.path = path
        self._thread = Worker("spielcenter-log")
        self._connection: sqlite3.Connection | None = None
        self._checkpointer = Worker("spielcenter-checkpoint")
        self._checkpoint_connection: sqlite3.Connection | None = None
        self._checkpoint_due = 0.0
        self._checkpointing = False
        self.checkpoints_ms: list[float] = []
        """How long each checkpoint took (the server's latency trace takes them)."""
        self._entry_types = _converters(GameEntry, ENTRY_COLUMNS, dialect)
        self._table_entry_types = _converters(TableEntry, TABLE_ENTRY_COLUMNS, dialect)
        self._clock_types = _converters(SeatClock, CLOCK_COLUMNS, dialect)
        self._dialect = dialect
        self._summary_types: dict[tuple[str, ...], Converters] = {}

    def start_append(
        self,
        entries: Sequence[tuple[NewEntry, dict[str, Any]]],
        tables: Sequence[NewTableEntry],
        then: Callable[[BaseException | None], None],
    ) -> None:
        """Commit the entries and summaries, and the tables' decisions with their clocks, in
        one transaction in the log thread; ``then`` is called in the event loop with ``None``
        once they are committed, or with the error (an entry whose ``(game, seq)`` or
        ``(table, seq)`` is taken: SQLAlchemy's :class:`IntegrityError`, as the engine would
        raise).

        No future and no task: one callback into the loop per batch. A coroutine awaiting the
        commit was a task woken through a future, and the log writer's own task woken through
        an event for every batch (a quiet server commits batches of one entry, so each paid
        that once; docs/performance.md, "A patience entry's answer, cut again")."""
        statements = self._statements(entries) if entries else []
        statements += self._table_statements(tables) if tables else []
        self._thread.call_back(self._write, partial(self._appended, then), statements)

    def _appended(
        self, then: Callable[[BaseException | None], None], error: BaseException | None
    ) -> None:
        self._checkpoint_if_due()
        then(error)

    def _checkpoint_if_due(self) -> None:
        now = time.monotonic()
        if now >= self._checkpoint_due and not self._checkpointing:
            self._checkpoint_due, self._checkpointing = now + CHECKPOINT_EVERY_S, True
            self._checkpointer.start(self._checkpoint)

    def close(self) -> None:
        """Close the connections (each in its thread) and stop the threads."""
        self._checkpointer.stop(self._close_checkpointer)
        self._thread.stop(self._close)

    def _close(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None

    def _close_checkpointer(self) -> None:
        if self._checkpoint_connection is not None:
            self._checkpoint_connection.close()
            self._checkpoint_connection = None

    def _open(self) -> sqlite3.Connection:
        if self._connection is None:
            self._connection = _connect(self.path)
        return self._connection

    def _checkpoint(self) -> None:
        """Copy what the write-ahead log holds into the database, beside the commits (PASSIVE:
        it waits for no reader and no writer, and leaves what it cannot copy for the next)."""
        began = time.perf_counter()
        try:
            if self._checkpoint_connection is None:
                self._checkpoint_connection = _connect(self.path)
            self._checkpoint_connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
        except sqlite3.Error:
            pass  # the next one tries again; a log not copied yet loses nothing
        finally:
            self.checkpoints_ms.append((time.perf_counter() - began) * 1000)
            del self.checkpoints_ms[:-100]
            self._checkpointing = False

    def _statements(self, entries: Sequence[tuple[NewEntry, dict[str, Any]]]) -> list[Statement]:
        """The batch as two statements of many rows each (per ``ROWS_PER_STATEMENT``), prepared
        here in the event loop.

        One statement is one step of SQLite; the ``sqlite3`` module lets the interpreter's lock
        go for each step and must win it back from the busy event loop, which takes up to the
        switch interval each time: with ``executemany`` (a step per row) a batch of hundreds of
        entries held every socket for hundreds of milliseconds (docs/performance.md).
        """
        columns = tuple(entries[0][1])
        types = self._summary_types.get(columns)
        if types is None:
            types = _converters(GameRecord, columns, self._dialect)
            self._summary_types[columns] = types
        statements: list[Statement] = []
        for start in range(0, len(entries), ROWS_PER_STATEMENT):
            chunk = entries[start : start + ROWS_PER_STATEMENT]
            values: list[Any] = []
            for entry, _ in chunk:
                values += _bound(entry, self._entry_types)
            statements.append(
                (_insert_sql(GameEntry.__tablename__, ENTRY_COLUMNS, len(chunk)), values)
            )
            summaries = {
                entry.game_id: _bound([summary[c] for c in columns], types)
                for entry, summary in chunk
            }
            statements.append(_update(columns, summaries))
        return statements

    def _table_statements(self, tables: Sequence[NewTableEntry]) -> list[Statement]:
        """Tables' decisions as one insert, one update of their last seqs and an update per
        seat clock that changed (a lobby table's; a table against computers has none)."""
        statements: list[Statement] = []
        for start in range(0, len(tables), ROWS_PER_STATEMENT):
            chunk = tables[start : start + ROWS_PER_STATEMENT]
            values: list[Any] = []
            for e in chunk:
                values += _bound(
                    [getattr(e, c) for c in TABLE_ENTRY_COLUMNS], self._table_entry_types
                )
            sql = _insert_sql(TableEntry.__tablename__, TABLE_ENTRY_COLUMNS, len(chunk))
            statements.append((sql, values))
            # A table's decisions are in a batch once (its actor waits for each commit).
            last = {e.table_id: (e.seq,) for e in chunk}
            statements.append(_update(["last_seq"], last, TableRecord.__tablename__))
        assignments = ", ".join(f"{c} = ?" for c in CLOCK_COLUMNS)
        for entry in tables:
            for clock in entry.clocks:
                bound = _bound([getattr(clock, c) for c in CLOCK_COLUMNS], self._clock_types)
                statements.append(
                    (
                        f"UPDATE {SeatClock.__tablename__} SET {assignments}"
                        " WHERE table_id = ? AND seat = ?",
                        [*bound, clock.table_id, clock.seat],
                    )
                )
        return statements

    def _write(self, statements: list[Statement]) -> None:
        connection = self._open()
        try:
            connection.execute("BEGIN IMMEDIATE")
            for sql, parameters in statements:
                connection.execute(sql, parameters)
            connection.execute("COMMIT")
        except sqlite3.IntegrityError as exc:
            connection.execute("ROLLBACK")
            raise IntegrityError(statements[0][0], None, exc) from exc
        except BaseException:
            if connection.in_transaction:
                connection.execute("ROLLBACK")
            raise


def _connect(path: str) -> sqlite3.Connection:
    """A connection tuned as the engine's, in autocommit mode (a transaction is an explicit
    ``BEGIN`` … ``COMMIT``), that never checkpoints on its own."""
    connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    for pragma in PRAGMAS:
        connection.execute(pragma)
    connection.execute("PRAGMA wal_autocheckpoint=0")
    return connection


Statement = tuple[str, list[Any]]
ROWS_PER_STATEMENT = 200
"""Rows of one statement at most (SQLite takes 32 766 parameters in one)."""


def _update(
    columns: Sequence[str],
    summaries: Mapping[str, Sequence[Any]],
    table: str = GameRecord.__tablename__,
) -> Statement:
    """One ``UPDATE`` of the games (or tables) of a batch, each column a ``CASE`` over their
    ids (a game is in a batch once: its lock is held until its entry is committed), found by
    the key."""
    parameters: list[Any] = []
    for k in range(len(columns)):
        for game_id, values in summaries.items():
            parameters += (game_id, values[k])
    parameters += summaries
    return _update_sql(table, tuple(columns), len(summaries)), parameters


@lru_cache(maxsize=4 * ROWS_PER_STATEMENT)
def _insert_sql(table: str, columns: tuple[str, ...], rows: int) -> str:
    """The text of a multi-row ``INSERT`` (made once per table and batch size)."""
    row = "(" + ", ".join("?" * len(columns)) + ")"
    return f"INSERT INTO {table} ({', '.join(columns)}) VALUES {', '.join([row] * rows)}"


@lru_cache(maxsize=4 * ROWS_PER_STATEMENT)
def _update_sql(table: str, columns: tuple[str, ...], rows: int) -> str:
    """The text of :func:`_update`'s statement (made once per table, columns and batch size)."""
    cases = [f"{column} = CASE id" + " WHEN ? THEN ?" * rows + " END" for column in columns]
    ids = ", ".join("?" * rows)
    return f"UPDATE {table} SET {', '.join(cases)} WHERE id IN ({ids})"


Processor = Callable[[Any], Any] | None


def _processors(model: Any, columns: Sequence[str], dialect: Dialect) -> list[Processor]:
    """Each column's SQLAlchemy bind processor for SQLite (a datetime's stored text), or
    ``None`` where the value is stored as it is. A datetime column's is :func:`datetime_text`,
    which writes the same text in C (SQLAlchemy's formats a dict of the fields in Python, twice
    per entry)."""
    table = model.__table__
    processors: list[Processor] = []
    for name in columns:
        kind = table.c[name].type
        processor = kind.dialect_impl(dialect).bind_processor(dialect)
        same_text = isinstance(kind, DateTime) and processor is not None
        processors.append(datetime_text if same_text else processor)
    return processors


def datetime_text(value: datetime) -> str:
    """A datetime as SQLAlchemy's SQLite ``DATETIME`` stores it: ``YYYY-MM-DD HH:MM:SS.ffffff``,
    the wall time without its zone (tests/server/test_game_log.py compares the two): the first
    26 characters of its ``isoformat``, which writes the zone's offset after them (a year is
    written with four digits), without a copy of the datetime made first.

    Kept by the datetime object itself: a game's ``started_at`` in the summary of each of its
    entries is one object, whose text ``isoformat`` wrote in ten times the instructions of the
    look-up (a datetime is immutable, and the one kept is the one asked about, not an equal
    one: equal moments in two zones have two wall times)."""
    kept = _DATETIME_TEXTS.get(id(value))
    if kept is not None and kept[0] is value:
        return kept[1]
    text = value.isoformat(" ", "microseconds")[:26]
    if len(_DATETIME_TEXTS) >= DATETIME_TEXTS_KEPT:
        _DATETIME_TEXTS.clear()
    _DATETIME_TEXTS[id(value)] = (value, text)
    return text


_DATETIME_TEXTS: dict[int, tuple[datetime, str]] = {}
""":func:`datetime_text`'s texts by the ``id`` of their datetime, kept with it (so the id is
not another's)."""
DATETIME_TEXTS_KEPT = 20_000
"""Datetimes whose text is kept at most (then the table starts afresh): a second or two of
entries and the started games' ``started_at``, about 4 MB."""


Converters = list[tuple[int, Callable[[Any], Any]]]
"""The columns whose values a processor turns into what SQLite stores: ``(index, processor)``."""


def _converters(model: Any, columns: Sequence[str], dialect: Dialect) -> Converters:
    """The :func:`_processors` of the columns that have one, by their place in ``columns``."""
    processors = _processors(model, columns, dialect)
    return [(index, process) for index, process in enumerate(processors) if process is not None]


def _bound(values: Sequence[Any], converters: Converters) -> list[Any]:
    """A row's values as SQLite stores them: only the columns with a processor are visited (an
    entry has one, its game's summary two, of five)."""
    row = list(values)
    for index, process in converters:
        value = row[index]
        if value is not None:
            row[index] = process(value)
    return row


class Worker:
    """A thread of its own that runs calls one after another: the loop hands it a call through
    a queue and hears back through one callback (``call_soon_threadsafe``), where an executor
    chains a future of its own to one of the loop's with half a dozen calls each way. Started
    by its first call."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._calls: SimpleQueue[_Call | None] = SimpleQueue()
        self._thread: threading.Thread | None = None

    def run(self, call: Callable[..., None], *args: Any) -> asyncio.Future[None]:
        """Run ``call(*args)`` in the thread; the future is done when it returned (or raised)."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()

        def settle(error: BaseException | None) -> None:
            loop.call_soon_threadsafe(_settle, done, error)

        self._put((call, args, settle))
        return done

    def call_back(
        self, call: Callable[..., None], then: Callable[[BaseException | None], None], *args: Any
    ) -> None:
        """Run ``call(*args)`` in the thread, then ``then(error)`` in the running event loop
        (``error`` ``None`` when it returned): :meth:`run` without a future."""
        loop = asyncio.get_running_loop()

        def settle(error: BaseException | None) -> None:
            loop.call_soon_threadsafe(then, error)

        self._put((call, args, settle))

    def start(self, call: Callable[[], None]) -> None:
        """Run ``call()`` in the thread and wait for nothing (its errors are its own)."""
        self._put((call, (), None))

    def stop(self, last: Callable[[], None]) -> None:
        """Run ``last()`` in the thread after every call before it, and end the thread."""
        if self._thread is None:
            return
        finished: concurrent.futures.Future[None] = concurrent.futures.Future()

        def settle(error: BaseException | None) -> None:
            if error is None:
                finished.set_result(None)
            else:
                finished.set_exception(error)

        self._calls.put((last, (), settle))
        self._calls.put(None)
        self._thread.join()
        self._thread = None
        finished.result()

    def _put(self, item: _Call) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._serve, name=self.name, daemon=True)
            self._thread.start()
        self._calls.put(item)

    def _serve(self) -> None:
        while (item := self._calls.get()) is not None:
            call, args, settle = item
            try:
                call(*args)
            except BaseException as exc:  # handed to the waiting coroutine, raised there
                if settle is not None:
                    settle(exc)
                continue
            if settle is not None:
                settle(None)


_Call = tuple[Callable[..., None], tuple[Any, ...], Callable[[BaseException | None], None] | None]


def _settle(done: asyncio.Future[None], error: BaseException | None) -> None:
    if done.done():  # its waiter was cancelled: the call ran all the same
        return
    if error is None:
        done.set_result(None)
    else:
        done.set_exception(error)
