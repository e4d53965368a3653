"""Issue 40: where a batch of the group commit goes on PostgreSQL, one way against another.

    uv run python bench/pg_log.py [--sizes 1 10 50] [--batches 300] [--games 50]
    uv run python bench/pg_log.py --database-url URL   # a database of a running PostgreSQL

On a private PostgreSQL run as an operator runs it (``tests/backends.py``, ``DURABLE``: every
commit waits for its write-ahead log on the disk), ``--games`` games of one account; then batches
of patience entries, one entry per game (its next seq) with its game's new summary, written in
turn, a batch at a time, by each way:

- ``sqlalchemy``: the log writer's way before store/postgres_log.py, a transaction on a pooled
  connection (``engine.begin()``) and the two Core statements of ``append_entries``;
- ``one statement``: ``PostgresLogAppender`` (store/postgres_log.py), one statement on a
  connection of its own;
- ``one statement, no flush``: the same with ``synchronous_commit`` off for its connection, so
  the difference is what waiting for the disk costs (the product keeps it on).

Per way and batch size: the wall time of a batch (p50, p90), this process's CPU per batch, the
requests it sent the server per batch (each waits for its answer: the round trips; counted on
the socket transports of a plain asyncio loop) and the PostgreSQL processes' CPU per batch (the
cluster's processes, from /proc). The ways take turns batch by batch, so a busy host weighs on
each alike.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import time
from asyncio import selector_events
from collections import defaultdict
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine
from tqdm import tqdm

from spielcenter.store.db import make_engine, make_sessionmaker
from spielcenter.store.models import Account, GameRecord
from spielcenter.store.postgres_log import PostgresLogAppender
from spielcenter.store.repositories import NewEntry, append_entries

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.backends import postgres_cluster

Batch = list[tuple[NewEntry, dict[str, Any]]]
REQUESTS = [0]
"""Writes to any socket transport of the loop: the requests sent to the server."""


def count_requests() -> None:
    """Count every write of the loop's socket transports (asyncpg writes a request at once)."""
    write = selector_events._SelectorSocketTransport.write

    def counted(self: Any, data: Any) -> None:
        REQUESTS[0] += 1
        write(self, data)

    selector_events._SelectorSocketTransport.write = counted  # type: ignore[method-assign]


def server_cpu_s(data: Path | None) -> float:
    """CPU seconds of the cluster's processes: the postmaster and its children (none when its
    folder is not this machine's to read)."""
    try:
        postmaster = int((data / "postmaster.pid").read_text().split()[0]) if data else 0
    except OSError:
        postmaster = 0
    if not postmaster:
        return 0.0
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid = int(stat.parent.name)
        if pid == postmaster or int(fields[1]) == postmaster:
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


async def new_games(engine: AsyncEngine, count: int) -> list[str]:
    created = datetime.now(UTC)
    ids = [f"g{n:04d}" for n in range(count)]
    async with make_sessionmaker(engine).begin() as db:
        db.add(Account(id="anna", settings={}, created_at=created))
        await db.flush()
        for game_id in ids:
            db.add(
                GameRecord(
                    id=game_id,
                    account_id="anna",
                    game="cruel",
                    variant="classic",
                    deal=1,
                    status="playing",
                    last_seq=0,
                    moves=0,
                    created_at=created,
                )
            )
    return ids


class Seqs:
    """The next seq of every game (each way writes the same games, the seqs run on)."""

    def __init__(self, ids: list[str]) -> None:
        self.next = dict.fromkeys(ids, 0)

    def batch(self, ids: list[str]) -> Batch:
        now = datetime.now(UTC)
        batch: Batch = []
        for game_id in ids:
            self.next[game_id] += 1
            seq = self.next[game_id]
            summary = {
                "last_seq": seq,
                "moves": seq,
                "status": "playing",
                "started_at": now,
                "finished_at": None,
            }
            batch.append((NewEntry(game_id, seq, "move", "a1", now), summary))
        return batch


@contextmanager
def database_url(url: str | None) -> Iterator[str]:
    """``url``, or a fresh database of a private PostgreSQL run as an operator runs it."""
    if url is not None:
        yield url
        return
    with postgres_cluster(durable=True) as cluster:
        yield cluster.new_database()


async def measure(args: argparse.Namespace, url: str) -> list[dict[str, Any]]:
    count_requests()
    engine = make_engine(url)
    async with engine.connect() as connection:
        data = Path(await connection.scalar(text("SELECT current_setting('data_directory')")))
    ids = await new_games(engine, args.games)
    appender = PostgresLogAppender(engine)
    no_flush = PostgresLogAppender(engine)
    no_flush._options["server_settings"] = {"synchronous_commit": "off"}

    async def sqlalchemy(batch: Batch) -> None:
        async with engine.begin() as connection:
            await append_entries(connection, batch)

    ways: dict[str, Callable[[Batch], Awaitable[None]]] = {
        "sqlalchemy": sqlalchemy,
        "one statement": appender.append,
        "one statement, no flush": no_flush.append,
    }
    seqs = Seqs(ids)
    rows = []
    for size in args.sizes:
        walls: dict[str, list[float]] = defaultdict(list)
        cpu: dict[str, float] = defaultdict(float)
        server: dict[str, float] = defaultdict(float)
        requests: dict[str, int] = defaultdict(int)
        for way in ways.values():  # warm: connections open, statements prepared
            await way(seqs.batch(ids[:size]))
        for number in tqdm(range(args.batches), desc=f"batches of {size}", leave=False):
            for name, way in ways.items():
                batch = seqs.batch(ids[number % (args.games - size + 1) :][:size])
                began_server, sent = server_cpu_s(data), REQUESTS[0]
                began_cpu, began = time.process_time(), time.perf_counter()
                await way(batch)
                walls[name].append((time.perf_counter() - began) * 1000)
                cpu[name] += time.process_time() - began_cpu
                requests[name] += REQUESTS[0] - sent
                server[name] += server_cpu_s(data) - began_server
        for name in ways:
            ordered = sorted(walls[name])
            rows.append(
                {
                    "way": name,
                    "batch": size,
                    "wall_ms_p50": round(statistics.median(ordered), 3),
                    "wall_ms_p90": round(ordered[int(0.9 * len(ordered))], 3),
                    "cpu_ms_per_batch": round(1000 * cpu[name] / args.batches, 3),
                    "requests_per_batch": round(requests[name] / args.batches, 2),
                    "server_cpu_ms_per_batch": round(1000 * server[name] / args.batches, 3),
                    "load_avg": round(os.getloadavg()[0], 2),
                }
            )
    await appender.close()
    await no_flush.close()
    await engine.dispose()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1, 10, 50])
    parser.add_argument("--batches", type=int, default=300, help="batches per way and size")
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--database-url", metavar="URL", help="a database of a running PostgreSQL")
    args = parser.parse_args()
    if max(args.sizes) > args.games:
        parser.error("a batch holds one entry per game: --games at least the largest size")
    with database_url(args.database_url) as url:
        rows = asyncio.run(measure(args, url))  # a plain asyncio loop: its transports counted
    for row in rows:
        print(json.dumps(row))


if __name__ == "__main__":
    main()
