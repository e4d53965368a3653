"""The server tests' PostgreSQL databases are lent and given back (tests/backends.py,
`PostgresCluster.lend_database`): a database one test gave back is the next test's only once it
is the template again, so no test sees another's data; one still in use or with its schema
changed is never lent again as it is.

Each test here has a queue of databases of its own on the process's cluster."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import asyncpg
import pytest
from fastapi.testclient import TestClient

from tests.backends import TEMPLATE, PostgresCluster, run_async

from .conftest import FakeClock, app_maker, claim, clients_of, new_game, settings_on


@pytest.fixture
def pool(postgres: PostgresCluster) -> Iterator[PostgresCluster]:
    """The process's cluster with a queue of lent databases of this test's own."""
    own = postgres.with_pool_of_its_own("pool")
    yield own
    own.close()


def client(cluster: PostgresCluster, program: str) -> list[str]:
    """A command line of one of PostgreSQL's client programs, for ``cluster``."""
    return [
        str(cluster.bin / program),
        "-h",
        "127.0.0.1",
        "-p",
        str(cluster.port),
        "-U",
        "postgres",
    ]


def dump(cluster: PostgresCluster, database: str) -> str:
    """Everything pg_dump writes of ``database``: its schema and every row, sequences too."""
    done = subprocess.run(
        [*client(cluster, "pg_dump"), "--no-owner", database],
        capture_output=True,
        text=True,
        check=True,
    )
    # PostgreSQL's newer dumps fence their text with a random key per run.
    return "\n".join(
        line
        for line in done.stdout.splitlines()
        if not line.startswith(("\\restrict", "\\unrestrict"))
    )


def name_of(url: str) -> str:
    return url.rsplit("/", 1)[1]


def oid_of(cluster: PostgresCluster, url: str) -> int:
    """The database's number, which stays when it is renamed."""
    return int(cluster.sql(f"SELECT oid FROM pg_database WHERE datname = '{name_of(url)}'"))


def use_it(cluster: PostgresCluster, url: str, folder: Path) -> None:
    """What a server test does: two guests, an account of one of them, three games."""
    settings = settings_on(folder, url)
    with clients_of(app_maker(settings, FakeClock())) as open_client:
        anna: TestClient = open_client()
        assert claim(anna).status_code == 200
        for deal in (1, 2, 3):
            new_game(anna, deal=deal)
        open_client(anna.app, address="10.0.0.2").get("/api/me")
    # Every sequence a step on, whether the app used it or not.
    cluster.sql(
        "SELECT nextval(format('%I.%I', schemaname, sequencename)) FROM pg_sequences",
        name_of(url),
    )


def test_a_database_given_back_is_lent_again_as_the_template_is(
    pool: PostgresCluster, tmp_path: Path
) -> None:
    """Rows, sequences and all: what pg_dump writes of it is the template's, word for word."""
    template = dump(pool, TEMPLATE)
    first = pool.lend_database()
    assert dump(pool, name_of(first)) == template  # a fresh copy
    use_it(pool, first, tmp_path)
    assert dump(pool, name_of(first)) != template  # the test left its data behind
    number = oid_of(pool, first)
    pool.give_back(first)
    pool.settle()

    again = pool.lend_database()
    assert oid_of(pool, again) == number, "the database given back is lent again"
    assert dump(pool, name_of(again)) == template


def test_whoever_kept_the_old_address_of_a_database_lent_again_reaches_nothing(
    pool: PostgresCluster,
) -> None:
    """A leftover engine of the test that gave it back cannot write into the next one's."""
    first = pool.lend_database()
    number = oid_of(pool, first)
    pool.give_back(first)
    pool.settle()
    again = pool.lend_database()
    assert oid_of(pool, again) == number and name_of(again) != name_of(first)

    async def connect() -> None:
        connection = await asyncpg.connect(
            host="127.0.0.1", port=pool.port, user="postgres", database=name_of(first)
        )
        await connection.close()

    with pytest.raises(asyncpg.InvalidCatalogNameError):
        run_async(connect())


def test_a_database_someone_is_still_connected_to_is_not_lent_until_they_leave(
    pool: PostgresCluster,
) -> None:
    first = pool.lend_database()
    name, number = name_of(first), oid_of(pool, first)
    pool.sql("INSERT INTO accounts (id, settings, created_at) VALUES ('anna', '{}', now())", name)
    holder = subprocess.Popen(  # a leftover server, say, still connected
        [*client(pool, "psql"), "-d", name, "-c", "SELECT pg_sleep(60)"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_for(lambda: connected(pool, name) == 1)
        pool.give_back(first)
        time.sleep(1.0)  # ten times what making a database ready takes
        other = pool.lend_database()
        assert oid_of(pool, other) != number, "a database in use is not lent"
        # Nothing was done to it: the row is still there, under its old name.
        assert pool.sql("SELECT id FROM accounts", name).split() == ["anna"]
    finally:
        pool.sql(f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}'")
        holder.wait(timeout=30)
    pool.settle()
    again = pool.lend_database()
    assert oid_of(pool, again) == number, "once they left, it is lent again"
    assert pool.sql("SELECT count(*) FROM accounts", name_of(again)).strip() == "0"


def connected(cluster: PostgresCluster, name: str) -> int:
    """How many connections a database has."""
    return int(cluster.sql(f"SELECT count(*) FROM pg_stat_activity WHERE datname = '{name}'"))


def wait_for(condition: Callable[[], bool], seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "waited in vain"
        time.sleep(0.05)


def test_a_database_whose_schema_was_changed_is_dropped_not_lent_again(
    pool: PostgresCluster,
) -> None:
    template = dump(pool, TEMPLATE)
    for change in (
        "CREATE TABLE left_behind (n int)",
        "ALTER TABLE accounts ADD COLUMN left_behind int",
        "DELETE FROM alembic_version",
    ):
        first = pool.lend_database()
        number = oid_of(pool, first)
        pool.sql(change, name_of(first))
        pool.give_back(first)
        pool.settle()
        again = pool.lend_database()
        assert oid_of(pool, again) != number, change
        assert pool.sql(f"SELECT count(*) FROM pg_database WHERE oid = {number}").strip() == "0"
        assert dump(pool, name_of(again)) == template
