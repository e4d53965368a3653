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
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from sqlalchemy import Dialect
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
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="spielcenter-log")
        self._connection: sqlite3.Connection | None = None
        self._checkpointer = ThreadPoolExecutor(1, thread_name_prefix="spielcenter-checkpoint")
        self._checkpoint_connection: sqlite3.Connection | None = None
        self._checkpoint_due = 0.0
        self._checkpointing = False
        self.checkpoints_ms: list[float] = []
        """How long each checkpoint took (the server's latency trace takes them)."""
        self._entry_types = _processors(GameEntry, ENTRY_COLUMNS, dialect)
        self._table_entry_types = _processors(TableEntry, TABLE_ENTRY_COLUMNS, dialect)
        self._clock_types = _processors(SeatClock, CLOCK_COLUMNS, dialect)
        self._dialect = dialect
        self._summary_types: dict[tuple[str, ...], list[Processor]] = {}
        self._insert = (
            f"INSERT INTO {GameEntry.__tablename__} ({', '.join(ENTRY_COLUMNS)})"
            f" VALUES ({', '.join('?' * len(ENTRY_COLUMNS))})"
        )

    async def append(
        self,
        entries: Sequence[tuple[NewEntry, dict[str, Any]]],
        tables: Sequence[NewTableEntry] = (),
    ) -> None:
        """Commit the entries and summaries, and the tables' decisions with their clocks, in
        one transaction; an entry whose ``(game, seq)`` or ``(table, seq)`` is taken raises
        SQLAlchemy's :class:`IntegrityError`, as the engine would."""
        statements = self._statements(entries) if entries else []
        statements += self._table_statements(tables) if tables else []
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(self._thread, self._write, statements)
        now = time.monotonic()
        if now >= self._checkpoint_due and not self._checkpointing:
            self._checkpoint_due, self._checkpointing = now + CHECKPOINT_EVERY_S, True
            self._checkpointer.submit(self._checkpoint)

    def close(self) -> None:
        """Close the connections (each in its thread) and stop the threads."""
        self._checkpointer.submit(self._close_checkpointer).result()
        self._checkpointer.shutdown()
        self._thread.submit(self._close).result()
        self._thread.shutdown()

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
        columns = list(entries[0][1])
        types = self._summary_types.get(tuple(columns))
        if types is None:
            types = _processors(GameRecord, columns, self._dialect)
            self._summary_types[tuple(columns)] = types
        statements: list[Statement] = []
        for start in range(0, len(entries), ROWS_PER_STATEMENT):
            chunk = entries[start : start + ROWS_PER_STATEMENT]
            rows = [_bound(entry, self._entry_types) for entry, _ in chunk]
            row = "(" + ", ".join("?" * len(ENTRY_COLUMNS)) + ")"
            statements.append(
                (
                    f"INSERT INTO {GameEntry.__tablename__} ({', '.join(ENTRY_COLUMNS)})"
                    f" VALUES {', '.join([row] * len(rows))}",
                    [value for bound in rows for value in bound],
                )
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
            rows = [
                _bound([getattr(e, c) for c in TABLE_ENTRY_COLUMNS], self._table_entry_types)
                for e in chunk
            ]
            row = "(" + ", ".join("?" * len(TABLE_ENTRY_COLUMNS)) + ")"
            statements.append(
                (
                    f"INSERT INTO {TableEntry.__tablename__} ({', '.join(TABLE_ENTRY_COLUMNS)})"
                    f" VALUES {', '.join([row] * len(rows))}",
                    [value for bound in rows for value in bound],
                )
            )
            # A table's decisions are in a batch once (its actor waits for each commit).
            last = {e.table_id: (e.seq,) for e in chunk}
            statements.append(_update(["last_seq"], last, TableRecord.__tablename__))
        assignments = ", ".join(f"{c} = ?" for c in CLOCK_COLUMNS)
        for entry in tables:
            for clock in entry.clocks:
                values = _bound([getattr(clock, c) for c in CLOCK_COLUMNS], self._clock_types)
                statements.append(
                    (
                        f"UPDATE {SeatClock.__tablename__} SET {assignments}"
                        " WHERE table_id = ? AND seat = ?",
                        [*values, clock.table_id, clock.seat],
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
    columns: list[str],
    summaries: dict[str, tuple[Any, ...]],
    table: str = GameRecord.__tablename__,
) -> Statement:
    """One ``UPDATE`` of the games (or tables) of a batch, each column a ``CASE`` over their
    ids (a game is in a batch once: its lock is held until its entry is committed), found by
    the key."""
    cases, parameters = [], []
    for k, column in enumerate(columns):
        cases.append(f"{column} = CASE id" + " WHEN ? THEN ?" * len(summaries) + " END")
        for game_id, values in summaries.items():
            parameters += [game_id, values[k]]
    ids = ", ".join("?" * len(summaries))
    sql = f"UPDATE {table} SET {', '.join(cases)} WHERE id IN ({ids})"
    return sql, [*parameters, *summaries]


Processor = Callable[[Any], Any] | None


def _processors(model: Any, columns: Sequence[str], dialect: Dialect) -> list[Processor]:
    """Each column's SQLAlchemy bind processor for SQLite (a datetime's stored text), or
    ``None`` where the value is stored as it is."""
    table = model.__table__
    return [table.c[name].type.dialect_impl(dialect).bind_processor(dialect) for name in columns]


def _bound(values: Sequence[Any], processors: list[Processor]) -> tuple[Any, ...]:
    return tuple(
        value if process is None or value is None else process(value)
        for value, process in zip(values, processors, strict=True)
    )
