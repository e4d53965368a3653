"""Fixtures of the server tests: an app on its own temporary database per test.

Every test that uses the ``settings`` fixture (so every app and client) runs twice: on a SQLite
file and on a PostgreSQL database of its own (tests/backends.py starts the cluster).
``SPIELCENTER_TEST_DATABASES=sqlite`` runs only one of them while developing.

HTTP and WebSocket both go through Starlette's TestClient (one event loop, the app's lifespan
runs, cookies are kept per client like a browser).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from argon2 import PasswordHasher
from fastapi import FastAPI
from fastapi.testclient import TestClient

from spielcenter.server.app import create_app
from spielcenter.server.tables import speedquilt_engine
from spielcenter.services.common import utcnow
from spielcenter.services.games import GameService
from spielcenter.services.tables import TableService
from spielcenter.settings import Settings
from spielcenter.store.db import make_engine, make_sessionmaker, migrate
from spielcenter.store.models import Account

from ..backends import SQLITE_FILE, PostgresCluster, run_async
from .ladder import resolve

# Argon2 at its lowest cost: the tests check what is hashed and verified, not the hash's strength.
CHEAP = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)


class FakeClock:
    """A clock the tests move by hand."""

    def __init__(self) -> None:
        self.now = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


DATABASES = os.environ.get("SPIELCENTER_TEST_DATABASES", "sqlite,postgresql").split(",")


def fresh_database(request: pytest.FixtureRequest, kind: str, folder: Path) -> str | None:
    """A migrated database of ``kind`` ("sqlite" or "postgresql") of its own: ``None`` is the
    default SQLite file in ``DATA_DIR`` (``folder``), a copy of the migrated template; a
    PostgreSQL database is lent for the time of ``request``'s fixture (emptied to the
    template's state, see `PostgresCluster.lend_database`)."""
    if kind == "sqlite":
        shutil.copyfile(request.getfixturevalue("migrated_sqlite"), folder / SQLITE_FILE)
        return None
    cluster: PostgresCluster = request.getfixturevalue("postgres")
    url = cluster.lend_database()
    request.addfinalizer(lambda: cluster.give_back(url))
    return url


@pytest.fixture(params=DATABASES)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str | None:
    """The test's own database, already migrated (see `fresh_database`)."""
    return fresh_database(request, request.param, tmp_path)


def settings_on(folder: Path, database_url: str | None) -> Settings:
    """A test server's settings on ``database_url``, its files in ``folder``."""
    # A test claims the names of all its players from one address within a second; the limit
    # itself is tested with its default in tests/security/test_doors.py.
    return Settings(
        ENV="development",
        DATA_DIR=folder,
        DATABASE_URL=database_url,
        SECRET_KEY="test",
        CLAIM_LIMIT="1000/minute",
    )


@pytest.fixture
def settings(tmp_path: Path, database_url: str | None) -> Settings:
    return settings_on(tmp_path, database_url)


def database_rows(settings: Settings, statement: str) -> list[tuple[Any, ...]]:
    """Run one SQL statement straight on the test's database (either kind) and commit it; the
    rows it returned."""

    async def read() -> list[tuple[Any, ...]]:
        engine = make_engine(settings.database_url)
        try:
            async with engine.begin() as connection:
                result = await connection.exec_driver_sql(statement)
                return [tuple(row) for row in result] if result.returns_rows else []
        finally:
            await engine.dispose()

    rows: list[tuple[Any, ...]] = run_async(read())
    return rows


@pytest.fixture
async def services(settings: Settings) -> AsyncIterator[tuple[GameService, TableService]]:
    """The patience and table services on the test's own migrated database, without an app,
    and one account (Anna's): for tests of what the services do between them."""
    engine = make_engine(settings.database_url)
    await migrate(engine)
    sessionmaker = make_sessionmaker(engine)
    games = GameService(sessionmaker, resolve, utcnow)
    tables = TableService(sessionmaker, speedquilt_engine, utcnow, games.writer)
    async with sessionmaker.begin() as db:
        db.add(Account(id="anna", settings={}, created_at=utcnow()))
    yield games, tables
    await games.close()
    await engine.dispose()


@pytest.fixture
def make_app(settings: Settings, clock: FakeClock) -> Callable[..., FastAPI]:
    """A new app on the test's database (calling it twice is a server restart).

    Keyword arguments change settings, e.g. ``make_app(SOCKET_MESSAGE_LIMIT="5/minute")``.
    """
    return app_maker(settings, clock)


def app_maker(settings: Settings, clock: FakeClock) -> Callable[..., FastAPI]:
    """What the ``make_app`` fixture gives, for ``settings``."""

    def new_app(**changes: Any) -> FastAPI:
        changed = settings.model_copy(update=changes)
        return create_app(changed, resolve=resolve, clock=clock, password_hasher=CHEAP)

    return new_app


@pytest.fixture
def make_client(make_app: Callable[..., FastAPI]) -> Iterator[Callable[..., TestClient]]:
    """Clients ("devices"); each new one may be given an app, else it gets one of its own, and
    an ``address`` to come from (they all come from ``testclient`` otherwise).

    The clients of one app share its event loop and its one start (lifespan), like the devices
    of one real server; asyncpg's pooled connections only work on the loop that opened them.
    """
    with clients_of(make_app) as open_client:
        yield open_client


@contextmanager
def clients_of(make_app: Callable[..., FastAPI]) -> Iterator[Callable[..., TestClient]]:
    """What the ``make_client`` fixture gives, for the apps of ``make_app``; they stop at the
    end of the ``with``."""
    opened: list[TestClient] = []
    running: dict[int, TestClient] = {}

    def open_client(app: FastAPI | None = None, address: str = "testclient") -> TestClient:
        client = TestClient(app or make_app(), client=(address, 50000))
        first = running.get(id(client.app))
        if first is not None:
            client.portal = first.portal
            return client
        client.__enter__()
        opened.append(client)
        running[id(client.app)] = client
        return client

    try:
        yield open_client
    finally:
        for client in reversed(opened):
            client.__exit__(None, None, None)


@pytest.fixture
def app(make_app: Callable[..., FastAPI]) -> FastAPI:
    return make_app()


@pytest.fixture
def client(make_client: Callable[..., TestClient], app: FastAPI) -> TestClient:
    client = make_client(app)
    me(client)
    return client


def me(client: TestClient) -> dict[str, Any]:
    """``GET /api/me`` (creating the guest on the first call)."""
    response = client.get("/api/me")
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def csrf(client: TestClient) -> dict[str, str]:
    """The header every state-changing request of this client carries."""
    return {"X-CSRF-Token": me(client)["csrf"]}


def new_game(client: TestClient, game: str = "ladder", **fields: Any) -> dict[str, Any]:
    """Create a game through the HTTP API."""
    response = client.post("/api/games", json={"game": game, **fields}, headers=csrf(client))
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


def claim(client: TestClient, name: str = "Anna", password: str = "geheim-1234") -> Any:
    """Give the client's guest a name."""
    return client.post(
        "/api/account/claim", json={"name": name, "password": password}, headers=csrf(client)
    )


def login(client: TestClient, name: str = "Anna", password: str = "geheim-1234") -> Any:
    """Log the client into an account."""
    return client.post(
        "/api/account/login", json={"name": name, "password": password}, headers=csrf(client)
    )
