"""Private PostgreSQL and Redis servers for the tests, started from Debian's packages.

``scripts/ensure-services.sh`` (run by ``make test``) installs the packages. Each test process
(each xdist worker) starts its own PostgreSQL cluster — ``initdb`` into a temporary folder,
``pg_ctl`` on a free loopback port — and its own ``redis-server``, and stops them at the end.
PostgreSQL refuses to run as root, so as root the cluster belongs to Debian's ``postgres`` user.

A test gets a database of its own: a copy of a template that was migrated once, which is much
faster than migrating every test's database. The same holds for SQLite (:func:`sqlite_template`):
a file migrated once per test process is copied into each test's data folder, where the app's
start then finds the schema at its head and changes nothing (migrating a new file from scratch
costs a fifth of a second or more; the whole suite makes a thousand such apps). Cheaper still
on PostgreSQL, the server tests borrow a database an earlier test of the same process gave
back, emptied to the template's state (:meth:`PostgresCluster.lend_database`).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import glob
import itertools
import os
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Coroutine, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncpg

from spielcenter.store.db import make_engine, migrate

TEMPLATE = "spielcenter_template"
PG_PREFIX = "spielcenter-pg-"
OWNER_FILE = "owner.pid"
"""The test process a cluster belongs to (see :func:`_stop_abandoned_clusters`)."""
START_TIMEOUT_S = 30.0


class BackendMissing(RuntimeError):
    """A server program is not installed (``make test`` installs it: scripts/ensure-services.sh)."""


def free_port() -> int:
    """A TCP port on loopback that nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def run_async(coroutine: Coroutine[Any, Any, Any]) -> Any:
    """Run a coroutine to its end from synchronous code, even inside a running event loop."""
    result: list[Any] = []
    failure: list[BaseException] = []

    def target() -> None:
        try:
            result.append(asyncio.run(coroutine))
        except BaseException as exc:
            failure.append(exc)

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if failure:
        raise failure[0]
    return result[0]


def _postgres_bin() -> Path:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if not found:
        raise BackendMissing("PostgreSQL is not installed: run scripts/ensure-services.sh")
    return Path(found[-1]).parent


def _as_owner(command: list[str]) -> list[str]:
    # Root cannot run postgres; Debian's package brings the ``postgres`` user.
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *command]
    return command


@dataclass
class PostgresCluster:
    """A running private PostgreSQL cluster on ``127.0.0.1:port`` (user ``postgres``, trust)."""

    bin: Path
    data: Path
    port: int
    _names: itertools.count[int]
    prefix: str = "test"
    """The start of its databases' names."""
    _lending: _Lender | None = None

    def url(self, database: str) -> str:
        """The SQLAlchemy async URL of one database of this cluster."""
        return f"postgresql+asyncpg://postgres@127.0.0.1:{self.port}/{database}"

    def sql(self, statement: str, database: str = "postgres") -> str:
        """Run one SQL statement with psql; its output."""
        done = subprocess.run(
            [
                str(self.bin / "psql"),
                "-h",
                "127.0.0.1",
                "-p",
                str(self.port),
                "-U",
                "postgres",
                "-d",
                database,
                "-v",
                "ON_ERROR_STOP=1",
                "-At",
                "-c",
                statement,
            ],
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            raise RuntimeError(f"psql failed: {statement}: {done.stderr.strip()}")
        return done.stdout

    def new_database(self) -> str:
        """A fresh, migrated database of its own (a copy of the template); its URL."""
        name = self._new_name()
        self.sql(f'CREATE DATABASE "{name}" TEMPLATE {TEMPLATE}{self._copy_strategy}')
        return self.url(name)

    def lend_database(self) -> str:
        """A migrated database in the template's state, for one test; its URL. Hand it back
        with :meth:`give_back` once the test is done with it.

        It is a database an earlier test gave back, made ready while the tests went on, or, when
        none is ready, a new copy of the template (see :class:`_Lender`).
        """
        return self.url(self._lender().lend())

    def give_back(self, url: str) -> None:
        """Hand back a database of :meth:`lend_database`: once nobody is connected to it any
        more, it is made the template again, under a new name, for a later test."""
        self._lender().give_back(url.rsplit("/", 1)[1])

    def settle(self) -> None:
        """Wait until every database given back is ready to be lent again (or dropped)."""
        self._lender().settle()

    def close(self) -> None:
        """Stop lending (before the cluster stops)."""
        if self._lending is not None:
            self._lending.close()
            self._lending = None

    def with_pool_of_its_own(self, prefix: str) -> PostgresCluster:
        """The same cluster, lending databases of its own; their names start with ``prefix``
        and a number of this cluster's. :meth:`close` it."""
        own = f"{prefix}{next(self._names)}"
        return PostgresCluster(self.bin, self.data, self.port, itertools.count(1), own)

    def _new_name(self) -> str:
        return f"{self.prefix}_{os.getpid()}_{next(self._names)}"

    def connect(self, database: str) -> Coroutine[Any, Any, Any]:
        """An asyncpg connection to one database of this cluster (to be awaited)."""
        return asyncpg.connect(host="127.0.0.1", port=self.port, user="postgres", database=database)

    def _lender(self) -> _Lender:
        if self._lending is None:
            self._lending = _Lender(self)
        return self._lending

    @property
    def _copy_strategy(self) -> str:
        # PostgreSQL 15 copies a template through its write-ahead log by default: every copy
        # (about 11 MB, one per test) is written twice. FILE_COPY copies the files, as every
        # version before 15 did: about half the time and half the disk writes per copy.
        version = int(self.bin.parent.name) if self.bin.parent.name.isdigit() else 0
        return " STRATEGY FILE_COPY" if version >= 15 else ""


LEAVE_TIMEOUT_S = 60.0
"""How long a database given back waits for the last of its connections to end; one still in
use after that is never lent again."""


class _Lender:
    """The databases of :meth:`PostgresCluster.lend_database`, on an event loop in a thread of
    its own with one connection to the ``postgres`` database.

    A database given back is made ready for the next test while the tests go on: once nobody
    is connected to it any more, it is renamed (so whatever still holds its old URL cannot
    reach it: a leftover engine of the test that had it finds no database), its schema is
    compared with the template's (a changed one is dropped) and every table it wrote to is
    emptied (:data:`EMPTYING`). A test finds one ready, or gets a new copy of the template
    when none is (which is how there come to be enough of them). Copying the template, 8 MB
    with a checkpoint before and after, took 100–250 ms here at load 8 (and a psql of 30 ms to
    ask for it); making a used database ready, 40–90 ms, and the test does not wait for it.
    """

    def __init__(self, cluster: PostgresCluster) -> None:
        self.cluster = cluster
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.admin: Any = self._run(cluster.connect("postgres"))
        self.asking = asyncio.Lock()  # one statement at a time on the admin's connection
        self.fingerprint: str = self._run(_template_fingerprint(cluster.connect(TEMPLATE)))
        self.ready: collections.deque[str] = collections.deque()
        self.making_ready: set[asyncio.Task[None]] = set()

    def lend(self) -> str:
        """The name of a database in the template's state."""
        name: str = self._run(self._lend())
        return name

    def give_back(self, name: str) -> None:
        self.loop.call_soon_threadsafe(self._start_making_ready, name)

    def settle(self) -> None:
        self._run(self._settle())

    def close(self) -> None:
        self._run(self._close())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join()
        self.loop.close()

    def _run(self, coroutine: Coroutine[Any, Any, Any]) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result()

    async def _ask(self, statement: str, *arguments: Any) -> Any:
        async with self.asking:
            return await self.admin.fetchval(statement, *arguments)

    async def _lend(self) -> str:
        if self.ready:
            return self.ready.popleft()
        name = self.cluster._new_name()
        await self._ask(
            f'CREATE DATABASE "{name}" TEMPLATE {TEMPLATE}{self.cluster._copy_strategy}'
        )
        return name

    def _start_making_ready(self, name: str) -> None:
        task = self.loop.create_task(self._make_ready(name))
        self.making_ready.add(task)
        task.add_done_callback(self.making_ready.discard)

    async def _make_ready(self, old: str) -> None:
        new = self.cluster._new_name()
        deadline = self.loop.time() + LEAVE_TIMEOUT_S
        pause = 0.01
        while True:
            # A rename waits up to 5 s for the others to leave before it fails: ask first.
            if not await self._ask(CONNECTED, old):
                try:
                    await self._ask(f'ALTER DATABASE "{old}" RENAME TO "{new}"')
                    break
                except asyncpg.ObjectInUseError:  # someone came just now
                    pass
            if self.loop.time() > deadline:
                return
            pause = min(2 * pause, 0.5)  # the app's connections end at once; a server's later
            await asyncio.sleep(pause)
        connection = await self.cluster.connect(new)
        try:
            same = await connection.fetchval(SCHEMA_FINGERPRINT) == self.fingerprint
            if same:
                await connection.execute(EMPTYING)
        finally:
            await connection.close()
        if same:
            self.ready.append(new)
        else:
            await self._ask(f'DROP DATABASE "{new}" WITH (FORCE)')

    async def _settle(self) -> None:
        while self.making_ready:
            await asyncio.gather(*self.making_ready)

    async def _close(self) -> None:
        for task in self.making_ready:
            task.cancel()
        await asyncio.gather(*self.making_ready, return_exceptions=True)
        with contextlib.suppress(Exception):  # the cluster may be gone already
            await self.admin.close()


CONNECTED = (
    "SELECT count(*) FROM pg_stat_activity"
    " WHERE datname = $1 AND backend_type <> 'autovacuum worker'"
)
"""How many are connected to a database (autovacuum gives way to a rename by itself)."""

SYSTEM_SCHEMAS = "('pg_catalog', 'information_schema', 'pg_toast')"
SCHEMA_FINGERPRINT = f"""
SELECT md5(string_agg(line, E'\n' ORDER BY line)) FROM (
  SELECT 'schema ' || nspname AS line FROM pg_namespace
   WHERE nspname NOT IN {SYSTEM_SCHEMAS} AND nspname NOT LIKE 'pg_temp_%'
     AND nspname NOT LIKE 'pg_toast_temp_%'
  UNION ALL
  SELECT 'relation ' || n.nspname || '.' || c.relname || ' ' || c.relkind::text
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
   WHERE n.nspname NOT IN {SYSTEM_SCHEMAS} AND c.relpersistence <> 't'
  UNION ALL
  SELECT 'column ' || n.nspname || '.' || c.relname || ' ' || a.attnum || ' ' || a.attname
         || ' ' || format_type(a.atttypid, a.atttypmod) || ' ' || a.attnotnull
         || ' ' || coalesce(pg_get_expr(d.adbin, d.adrelid), '')
    FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace
    LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
   WHERE n.nspname NOT IN {SYSTEM_SCHEMAS} AND a.attnum > 0 AND NOT a.attisdropped
     AND c.relpersistence <> 't'
  UNION ALL
  SELECT 'constraint ' || conrelid::regclass || ' ' || conname || ' '
         || pg_get_constraintdef(oid)
    FROM pg_constraint WHERE connamespace IN
      (SELECT oid FROM pg_namespace WHERE nspname NOT IN {SYSTEM_SCHEMAS})
  UNION ALL
  SELECT 'index ' || indexdef FROM pg_indexes WHERE schemaname NOT IN {SYSTEM_SCHEMAS}
  UNION ALL
  SELECT 'function ' || p.oid::regprocedure::text FROM pg_proc p
    JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname NOT IN {SYSTEM_SCHEMAS}
  UNION ALL
  SELECT 'trigger ' || pg_get_triggerdef(oid) FROM pg_trigger WHERE NOT tgisinternal
  UNION ALL
  SELECT 'type ' || t.typname || ' ' || t.typtype::text FROM pg_type t
    JOIN pg_namespace n ON n.oid = t.typnamespace
   WHERE n.nspname NOT IN {SYSTEM_SCHEMAS} AND t.typtype IN ('e', 'd', 'c', 'r')
  UNION ALL
  SELECT 'label ' || enumtypid::regtype || ' ' || enumsortorder || ' ' || enumlabel
    FROM pg_enum
  UNION ALL
  SELECT 'setting ' || array_to_string(setconfig, ',') FROM pg_db_role_setting
   WHERE setdatabase = (SELECT oid FROM pg_database WHERE datname = current_database())
  UNION ALL
  SELECT 'large objects ' || count(*) FROM pg_largeobject_metadata
  UNION ALL
  SELECT 'version ' || version_num FROM public.alembic_version
) AS everything
"""
"""What a test may have changed besides the rows of the tables, in one line: schemas, tables,
columns, constraints, indexes, functions, triggers, types, settings, large objects and the
migrations' version."""

VERSION_TABLE = "public.alembic_version"


EMPTYING = f"""
DO $$
DECLARE
  written text;
  sequence record;
BEGIN
  SELECT string_agg(c.oid::regclass::text, ', ') INTO written
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
   WHERE c.relkind = 'r' AND n.nspname NOT IN {SYSTEM_SCHEMAS}
     AND c.oid <> '{VERSION_TABLE}'::regclass AND pg_relation_size(c.oid) > 0;
  IF written IS NOT NULL THEN
    EXECUTE 'TRUNCATE ' || written || ' RESTART IDENTITY CASCADE';
  END IF;
  FOR sequence IN SELECT * FROM pg_sequences WHERE last_value IS NOT NULL LOOP
    PERFORM setval(format('%I.%I', sequence.schemaname, sequence.sequencename),
                   sequence.start_value, false);
  END LOOP;
END $$
"""
"""What brings a database of the template's schema back to the template's rows: every table
that was ever written to (its file is no longer empty) but the migrations' version truncated,
which gives it a new empty file as the template's copy has; every sequence that was used set
back to its start. The template's tables are all empty (:func:`_template_fingerprint` checks)."""


async def _template_fingerprint(connect: Coroutine[Any, Any, Any]) -> str:
    """The template's :data:`SCHEMA_FINGERPRINT`, once its tables are found empty."""
    connection = await connect
    try:
        written = await connection.fetch(
            "SELECT c.oid::regclass::text FROM pg_class c"
            " JOIN pg_namespace n ON n.oid = c.relnamespace"
            f" WHERE c.relkind = 'r' AND n.nspname NOT IN {SYSTEM_SCHEMAS}"
            f" AND c.oid <> '{VERSION_TABLE}'::regclass AND pg_relation_size(c.oid) > 0"
        )
        used = await connection.fetch("SELECT * FROM pg_sequences WHERE last_value IS NOT NULL")
        if written or used:  # EMPTYING would lose their rows: teach it to restore them
            raise RuntimeError(f"the template has rows: {written} {used}")
        fingerprint: str = await connection.fetchval(SCHEMA_FINGERPRINT)
        return fingerprint
    finally:
        await connection.close()


@contextmanager
def postgres_cluster(durable: bool = False) -> Iterator[PostgresCluster]:
    """Start a private cluster with a migrated template database; stop and delete it after.

    ``durable``: as an operator runs PostgreSQL (:data:`DURABLE`), for the benchmarks; the
    tests' clusters skip the flushes to the disk (:data:`FAST`)."""
    bin_dir = _postgres_bin()
    _stop_abandoned_clusters(bin_dir)
    data = Path(tempfile.mkdtemp(prefix=PG_PREFIX))
    (data / OWNER_FILE).write_text(str(os.getpid()))
    if os.geteuid() == 0:
        shutil.chown(data, "postgres", "postgres")
    cluster_dir = data / "cluster"
    _run(
        [
            *_as_owner([str(bin_dir / "initdb"), "-D", str(cluster_dir), "-U", "postgres"]),
            "--auth=trust",
            "--no-sync",
            "-E",
            "UTF8",
            "--locale=C",
        ]
    )
    port = _start_postgres(bin_dir, cluster_dir, data, DURABLE if durable else FAST)
    cluster = PostgresCluster(bin_dir, cluster_dir, port, itertools.count(1))
    try:
        cluster.sql(f"CREATE DATABASE {TEMPLATE}")
        run_async(_migrate(cluster.url(TEMPLATE)))
        yield cluster
    finally:
        cluster.close()
        subprocess.run(
            _as_owner([str(bin_dir / "pg_ctl"), "-D", str(cluster_dir), "-m", "immediate", "stop"]),
            capture_output=True,
            check=False,
        )
        _delete_behind(data)


def _delete_behind(folder: Path) -> None:
    """Delete ``folder`` in a process the caller does not wait for.

    A cluster's folder holds a file per table and index of every test's database, much of it
    still being written back to the disk: deleting it waits for that disk, 4 s for a cluster of
    two databases and up to 88 s at the end of a loaded run (the session's last teardown). The
    server is stopped by then; an ``rm`` of its own (left to init, so nothing waits for it)
    deletes the folder while the next tests run. A run killed before that leaves the folder to
    the next run's :func:`_stop_abandoned_clusters`.
    """
    subprocess.run(
        ["sh", "-c", 'rm -rf -- "$1" </dev/null >/dev/null 2>&1 &', "sh", str(folder)],
        stdin=subprocess.DEVNULL,
        check=False,
    )


def _stop_abandoned_clusters(bin_dir: Path) -> None:
    # A test run that was killed (a timeout, Ctrl-C twice) never stops its cluster: the next
    # run stops every cluster whose test process is gone.
    for folder in Path(tempfile.gettempdir()).glob(f"{PG_PREFIX}*"):
        owner = folder / OWNER_FILE
        try:
            pid = int(owner.read_text())
        except (OSError, ValueError):
            continue
        if _alive(pid):
            continue
        stop = [str(bin_dir / "pg_ctl"), "-D", str(folder / "cluster"), "-m", "immediate", "stop"]
        subprocess.run(
            _as_owner(stop),
            capture_output=True,
            check=False,
        )
        shutil.rmtree(folder, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


FAST = "-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
"""The tests need no durability against power loss: no flush to the disk keeps them fast."""
DURABLE = "-c fsync=on -c synchronous_commit=on -c full_page_writes=on"
"""PostgreSQL's defaults, as an operator runs it: a commit returns once its write-ahead log is
flushed to the disk (the benchmarks' clusters: docs/performance.md, "PostgreSQL's log")."""


def _start_postgres(bin_dir: Path, cluster_dir: Path, data: Path, durability: str) -> int:
    # A port can be taken between choosing and binding it: try a few.
    for _ in range(5):
        port = free_port()
        # Sockets live in the temporary folder, so nothing outside it is touched.
        options = f"-p {port} -k {data} -c listen_addresses=127.0.0.1 {durability}"
        options += " -c max_connections=200"
        started = subprocess.run(
            [
                *_as_owner([str(bin_dir / "pg_ctl"), "-D", str(cluster_dir), "-w"]),
                "-t",
                str(int(START_TIMEOUT_S)),
                "-o",
                options,
                "-l",
                str(data / "log"),
                "start",
            ],
            capture_output=True,
            text=True,
            check=False,
        )
        if started.returncode == 0:
            return port
    log = (data / "log").read_text(errors="replace") if (data / "log").exists() else ""
    raise RuntimeError(f"PostgreSQL did not start: {started.stderr}\n{log[-2000:]}")


SQLITE_FILE = "spielcenter.sqlite3"
"""The database file in a data folder (``Settings.database_url``'s default)."""


def sqlite_template(folder: Path) -> Path:
    """A SQLite database migrated to the head in ``folder``; copy it to give a test its own."""
    path = folder / SQLITE_FILE
    run_async(_migrate(f"sqlite+aiosqlite:///{path.resolve()}"))
    # The engine is disposed, so the write-ahead log is checkpointed into the file and gone:
    # the file alone is the whole database.
    assert not path.with_name(f"{SQLITE_FILE}-wal").exists()
    return path


async def _migrate(url: str) -> None:
    engine = make_engine(url)
    try:
        await migrate(engine)
    finally:
        await engine.dispose()


def _run(command: list[str]) -> None:
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{command[0]} failed: {done.stderr.strip() or done.stdout.strip()}")


@dataclass
class RedisServer:
    """A running private redis-server on ``127.0.0.1:port``."""

    port: int

    @property
    def url(self) -> str:
        """Its URL for redis-py."""
        return f"redis://127.0.0.1:{self.port}/0"


@contextmanager
def redis_server() -> Iterator[RedisServer]:
    """Start a redis-server that keeps nothing on disk; stop it after."""
    program = shutil.which("redis-server")
    if program is None:
        raise BackendMissing("redis-server is not installed: run scripts/ensure-services.sh")
    folder = tempfile.mkdtemp(prefix="spielcenter-redis-")
    for _ in range(5):
        port = free_port()
        process = subprocess.Popen(
            [
                program,
                "--port",
                str(port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                folder,
                "--protected-mode",
                "yes",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        if _wait_for_port(port, process):
            break
        process.kill()
        process.wait()
    else:
        raise RuntimeError("redis-server did not start")
    try:
        yield RedisServer(port)
    finally:
        process.terminate()
        process.wait(timeout=10)
        shutil.rmtree(folder, ignore_errors=True)


def _wait_for_port(port: int, process: subprocess.Popen[bytes]) -> bool:
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            return False
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return True
        time.sleep(0.05)
    return False
