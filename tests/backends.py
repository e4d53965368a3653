"""Private PostgreSQL and Redis servers for the tests, started from Debian's packages.

``scripts/ensure-services.sh`` (run by ``make test``) installs the packages. Each test process
(each xdist worker) starts its own PostgreSQL cluster — ``initdb`` into a temporary folder,
``pg_ctl`` on a free loopback port — and its own ``redis-server``, and stops them at the end.
PostgreSQL refuses to run as root, so as root the cluster belongs to Debian's ``postgres`` user.

A test gets a database of its own: a copy of a template that was migrated once, which is much
faster than migrating every test's database. The same holds for SQLite (:func:`sqlite_template`):
a file migrated once per test process is copied into each test's data folder, where the app's
start then finds the schema at its head and changes nothing (migrating a new file from scratch
costs a fifth of a second or more; the whole suite makes a thousand such apps).
"""

from __future__ import annotations

import asyncio
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
        name = f"test_{os.getpid()}_{next(self._names)}"
        self.sql(f'CREATE DATABASE "{name}" TEMPLATE {TEMPLATE}{self._copy_strategy}')
        return self.url(name)

    @property
    def _copy_strategy(self) -> str:
        # PostgreSQL 15 copies a template through its write-ahead log by default: every copy
        # (about 11 MB, one per test) is written twice. FILE_COPY copies the files, as every
        # version before 15 did: about half the time and half the disk writes per copy.
        version = int(self.bin.parent.name) if self.bin.parent.name.isdigit() else 0
        return " STRATEGY FILE_COPY" if version >= 15 else ""


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
