"""Fixtures shared by the suites that need real servers: a private PostgreSQL and Redis.

Both start only when a test asks for them (once per test process), see tests/backends.py.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from .backends import PostgresCluster, RedisServer, postgres_cluster, redis_server


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
