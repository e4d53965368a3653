"""The database engine, its sessions, and migrations applied at start.

Alembic runs without an alembic.ini: :func:`migrate` builds the config in code and hands Alembic
the open connection.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, event, text
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine
from sqlalchemy.ext.asyncio import AsyncSession as AsyncSession

MIGRATIONS = Path(__file__).with_name("migrations")


def make_engine(url: str) -> AsyncEngine:
    """An async engine for ``url``; a SQLite file's folder is created if missing."""
    if url.startswith("sqlite"):
        path = url.split("///", 1)[-1]
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
    engine = create_async_engine(url)
    if engine.dialect.name == "sqlite":
        # Readers run beside the one writer in WAL mode; the hot path's writes (game log
        # entries) already go through the single LogWriter, so writers rarely meet.
        event.listen(engine.sync_engine, "connect", _tune_sqlite)
    return engine


def _tune_sqlite(dbapi_connection: Any, _record: Any) -> None:
    # SQLite leaves foreign keys off by default. In WAL mode synchronous=NORMAL makes a commit
    # durable against a crash of the server (not of the machine's power) without an fsync each.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()


def make_sessionmaker(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    """Sessions that keep loaded objects usable after commit."""
    return async_sessionmaker(engine, expire_on_commit=False)


def alembic_config(connection: Connection | None = None) -> Config:
    """The Alembic configuration, built in code."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


MIGRATION_LOCK = 0x5370_6965
"""The PostgreSQL advisory lock that lets one process at a time migrate (any fixed number)."""


async def migrate(engine: AsyncEngine, revision: str = "head") -> None:
    """Bring the schema up to ``revision`` (default: the newest).

    Several processes may start at once on one PostgreSQL database: each takes the same
    transaction-level advisory lock first, so one migrates while the others wait and then find
    the schema already at ``revision`` (without it two would create the same tables at once and
    one start would fail). SQLite has one writer anyway.
    """
    async with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            await connection.execute(
                text("SELECT pg_advisory_xact_lock(:lock)"), {"lock": MIGRATION_LOCK}
            )
        await connection.run_sync(lambda sync: command.upgrade(alembic_config(sync), revision))
