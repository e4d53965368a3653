"""Fixtures shared by the suites that need real servers: a private PostgreSQL and Redis, and a
migrated SQLite file to copy.

Each is made only when a test asks for it (once per test process), see tests/backends.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from .backends import (
    PostgresCluster,
    RedisServer,
    postgres_cluster,
    redis_server,
    sqlite_template,
)


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresCluster]:
    """This test process's PostgreSQL cluster."""
    with postgres_cluster() as cluster:
        yield cluster


@pytest.fixture(scope="session")
def redis() -> Iterator[RedisServer]:
    """This test process's redis-server."""
    with redis_server() as server:
        yield server


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite database migrated once per test process: each test copies it."""
    return sqlite_template(tmp_path_factory.mktemp("sqlite-template"))
