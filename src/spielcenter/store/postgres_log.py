"""Game log entries appended to PostgreSQL in one statement: one round trip per batch.

Through SQLAlchemy a batch of the group commit (``services/logwriter.py``) was four round trips
to the server — ``BEGIN``, the insert of the entries, the update of their games' summaries,
``COMMIT`` — and the pool's check-out and return, the statements' compile-cache look-ups and
SQLAlchemy's and its asyncpg adapter's layers around each: 2.2 ms of the server's CPU for a batch
of one entry, against 0.4 ms here, and each trip waits for the database's process to be
scheduled (docs/performance.md, "PostgreSQL's log in one round trip").

Here the batch is one statement on one asyncpg connection kept open: each part of the batch is
a data-modifying ``WITH`` clause whose rows come from ``unnest`` of one array parameter per
column, so the statement's text depends only on which parts the batch has (patience entries,
tables' decisions, seat clocks), never on how many rows it holds. asyncpg prepares each text
once per connection (its statement cache) and sends a batch as one Bind/Execute/Sync. A single
statement outside a transaction block is a transaction of its own: all of it is committed, or
none, and asyncpg returns only after the server's ``ReadyForQuery``, which follows the commit
(with ``synchronous_commit`` on, the flush of its write-ahead log): every entry is committed
before its event is built. The rows are stored as SQLAlchemy would store them (the columns'
types are the models', compiled for PostgreSQL; asyncpg encodes the values, as it does under
SQLAlchemy).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import asyncpg
from sqlalchemy import Dialect
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from .models import GameEntry, GameRecord, SeatClock, TableEntry, TableRecord
from .repositories import CLOCK_COLUMNS, TABLE_ENTRY_COLUMNS, NewEntry, NewTableEntry

ENTRY_COLUMNS = NewEntry._fields
"""An entry's columns, in the order of its tuple's fields."""


class PostgresLogAppender:
    """Appends batches of entries, and their games' new summaries, to a PostgreSQL database."""

    def __init__(self, engine: AsyncEngine) -> None:
        # The engine's own connection arguments (host, port, user, database, ssl …), without
        # those of SQLAlchemy's adapter.
        _, options = engine.dialect.create_connect_args(engine.url)
        options.pop("prepared_statement_cache_size", None)
        options.pop("prepared_statement_name_func", None)
        self._options: dict[str, Any] = dict(options)
        self._dialect = engine.dialect
        self._connection: asyncpg.Connection | None = None
        self._texts: dict[tuple[tuple[str, ...] | None, bool, bool], str] = {}

    async def append(
        self,
        entries: Sequence[tuple[NewEntry, dict[str, Any]]],
        tables: Sequence[NewTableEntry] = (),
    ) -> None:
        """Commit the entries and summaries, and the tables' decisions with their clocks, in
        one statement; an entry whose ``(game, seq)`` or ``(table, seq)`` is taken (or whose
        game is gone) raises SQLAlchemy's :class:`IntegrityError`, as the engine would."""
        columns = tuple(entries[0][1]) if entries else None
        clocks = [clock for entry in tables for clock in entry.clocks]
        key = (columns, bool(tables), bool(clocks))
        text = self._texts.get(key)
        if text is None:
            text = self._texts[key] = statement(columns, bool(tables), bool(clocks), self._dialect)
        arguments: list[Any] = []
        if columns is not None:
            arguments += _entry_arguments(entries, columns)
        if tables:
            arguments += _table_arguments(tables)
        if clocks:
            arguments += _clock_arguments(clocks)
        connection = await self._open()
        try:
            await connection.execute(text, *arguments)
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise IntegrityError(text, None, exc) from exc
        except asyncpg.PostgresError as exc:
            raise DBAPIError(text, None, exc) from exc
        except BaseException:
            # The connection broke (or the writer was cancelled) in the middle of the trip: the
            # statement's fate is the server's to know, the next batch takes a new connection.
            self._drop()
            raise

    async def _open(self) -> asyncpg.Connection:
        """The connection, opened anew when the server closed it (a restart, an idle timeout)
        since the last batch."""
        if self._connection is not None and self._connection.is_closed():
            self._connection = None
        if self._connection is None:
            self._connection = await asyncpg.connect(**self._options)
        return self._connection

    async def close(self) -> None:
        """Close the connection (at shutdown; a batch after it would open one again)."""
        connection, self._connection = self._connection, None
        if connection is not None and not connection.is_closed():
            await connection.close(timeout=5)

    def _drop(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None:
            connection.terminate()


def statement(columns: tuple[str, ...] | None, tables: bool, clocks: bool, dialect: Dialect) -> str:
    """The text of a batch's one statement: the patience entries and the summary ``columns`` of
    their games (none: no patience entry), the tables' decisions and their last seqs, the seat
    clocks; each part a ``WITH`` clause, its rows ``unnest``-ed from one array per column of
    the column's type (its name in ``dialect``: ``VARCHAR(32)``, ``TIMESTAMP WITH TIME ZONE``)."""
    parts: list[str] = []
    parameters = _Parameters(dialect)
    if columns is not None:
        parts.append(_insert(GameEntry, ENTRY_COLUMNS, parameters))
        parts.append(_update(GameRecord, ("id",), columns, parameters))
    if tables:
        parts.append(_insert(TableEntry, TABLE_ENTRY_COLUMNS, parameters))
        parts.append(_update(TableRecord, ("id",), ("last_seq",), parameters))
    if clocks:
        parts.append(_update(SeatClock, ("table_id", "seat"), CLOCK_COLUMNS, parameters))
    steps = ",\n".join(f"step{k} AS (\n{part}\n)" for k, part in enumerate(parts))
    return f"WITH {steps}\nSELECT 1"


class _Parameters:
    """Numbers the statement's parameters, ``$1``, ``$2`` … in the order they are asked for."""

    def __init__(self, dialect: Dialect) -> None:
        self.count = 0
        self.dialect = dialect

    def unnest(self, model: Any, columns: Sequence[str]) -> str:
        """``unnest($n::type[], …)``: one array parameter per column, of the column's type."""
        table = model.__table__
        arrays = []
        for name in columns:
            self.count += 1
            kind = table.c[name].type.compile(dialect=self.dialect)
            arrays.append(f"${self.count}::{kind}[]")
        return f"unnest({', '.join(arrays)})"


def _insert(model: Any, columns: Sequence[str], parameters: _Parameters) -> str:
    names = ", ".join(columns)
    rows = parameters.unnest(model, columns)
    return f"INSERT INTO {model.__tablename__} ({names}) SELECT * FROM {rows}"


def _update(
    model: Any, keys: Sequence[str], columns: Sequence[str], parameters: _Parameters
) -> str:
    table = model.__tablename__
    rows = parameters.unnest(model, [*keys, *columns])
    assignments = ", ".join(f"{c} = batch.{c}" for c in columns)
    found = " AND ".join(f"{table}.{k} = batch.{k}" for k in keys)
    names = ", ".join([*keys, *columns])
    return f"UPDATE {table} SET {assignments}\nFROM {rows} AS batch ({names})\nWHERE {found}"


def _entry_arguments(
    entries: Sequence[tuple[NewEntry, dict[str, Any]]], columns: tuple[str, ...]
) -> list[list[Any]]:
    """The entries' columns, then their games' ids and summary columns (a game is in a batch
    once, its lock held until its entry is committed; were it twice, its last summary wins)."""
    rows = zip(*(entry for entry, _ in entries), strict=True)  # in ENTRY_COLUMNS' order
    summaries = {entry.game_id: summary for entry, summary in entries}
    games = [list(summaries), *([s[c] for s in summaries.values()] for c in columns)]
    return [list(column) for column in rows] + games


def _table_arguments(tables: Sequence[NewTableEntry]) -> list[list[Any]]:
    """The decisions' columns, then each table's id and its last seq."""
    entries = [[getattr(e, c) for e in tables] for c in TABLE_ENTRY_COLUMNS]
    last = {e.table_id: e.seq for e in tables}
    return [*entries, list(last), list(last.values())]


def _clock_arguments(clocks: Sequence[Any]) -> list[list[Any]]:
    """Each seat clock's table and seat, then its new values (the last, were a seat's clock in a
    batch twice)."""
    latest = {(clock.table_id, clock.seat): clock for clock in clocks}
    values = list(latest.values())
    return [[getattr(c, name) for c in values] for name in ("table_id", "seat", *CLOCK_COLUMNS)]
