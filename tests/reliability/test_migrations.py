"""Several processes start at once on one new PostgreSQL database (docs/deploy.md, "Running"):
each applies the migrations at start, and none of the starts may fail."""

from __future__ import annotations

import asyncio
import itertools

from sqlalchemy import text

from spielcenter.store.db import make_engine, migrate
from spielcenter.store.models import Base

from ..backends import PostgresCluster

PROCESSES = 4
_names = itertools.count(1)


async def _migrate_once(url: str) -> None:
    engine = make_engine(url)
    try:
        await migrate(engine)
    finally:
        await engine.dispose()


async def _tables_and_version(url: str) -> tuple[set[str], list[str]]:
    engine = make_engine(url)
    try:
        async with engine.connect() as connection:
            tables = await connection.execute(
                text("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
            )
            versions = await connection.execute(text("SELECT version_num FROM alembic_version"))
            return {row[0] for row in tables}, [row[0] for row in versions]
    finally:
        await engine.dispose()


def _empty_database(postgres: PostgresCluster) -> str:
    name = f"empty_{next(_names)}"
    postgres.sql(f'CREATE DATABASE "{name}"')
    return postgres.url(name)


async def test_processes_that_start_together_on_an_empty_database_all_start(
    postgres: PostgresCluster,
) -> None:
    url = _empty_database(postgres)
    await asyncio.gather(*(_migrate_once(url) for _ in range(PROCESSES)))
    tables, versions = await _tables_and_version(url)
    assert tables == set(Base.metadata.tables) | {"alembic_version"}
    assert len(versions) == 1  # migrated to one head


async def test_a_process_starting_on_a_migrated_database_changes_nothing(
    postgres: PostgresCluster,
) -> None:
    url = _empty_database(postgres)
    await _migrate_once(url)
    before = await _tables_and_version(url)
    await asyncio.gather(*(_migrate_once(url) for _ in range(PROCESSES)))
    assert await _tables_and_version(url) == before
