"""Every script in bench/ runs, in a smoke form, so none of them rots between measurements.

Each script is started as its published command would start it, with tiny sizes (a deal or two,
a fraction of a second), in a temporary folder that also takes every file it writes, so the work
tree stays clean. Nothing is timed or compared here: the figures belong to docs/, made by the full
runs on a quiet machine. A script added to bench/ without a smoke run here fails
``test_every_bench_script_has_a_smoke_run``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "bench"
CRUEL_SOLVER = ROOT / "src/spielcenter/solvers/cruel.py"

HONEST_BARE = ["--honest-only", "--rules", "bare", "--honest-budget", "200"]
"""The honest player alone, under its old, unguarded rules."""
DATABASE_URL = "{database_url}"
"""Stands for a fresh database of this test process's PostgreSQL (the ``postgres`` fixture's
session cluster, shared with the other tests): a run on PostgreSQL starts no cluster of its own."""

# Each run: the arguments after the script's name, in the temporary folder; a script that needs
# several (a measurement, then its summary) lists them in order.
SMOKE: dict[str, list[list[str]]] = {
    "bots.py": [
        ["duel", "easy,easy", "--games", "1", "--out", "duel.jsonl"],
        ["solo", "easy", "--games", "1", "--out", "solo.jsonl"],
        ["report", "duel.jsonl", "solo.jsonl", "--histogram", "solo.png"],
        ["balance", "duel.jsonl", "--level", "easy"],
    ],
    "bots_ab.py": [
        ["play", "easy", "easy", "--deals", "1", "--out", "a.jsonl"],
        ["compare", "a.jsonl", "a.jsonl"],
    ],
    "cli.py": [["--runs", "1"]],
    "compiled_solvers.py": [["--game", "cruel", "--deals", "1", "--budget", "2000"]],
    "compression.py": [["--repeat", "2"]],
    "crazy_quilt_hints.py": [["--deals", "1", "--every", "40", "--json", "hints.json"]],
    "crazy_quilt_speed.py": [
        ["--sample", "regression", "--deals", "1", "--budget", "2000", "--save", "speed.json"],
        ["--sample", "regression", "--deals", "1", "--budget", "2000", "--compare", "speed.json"],
    ],
    "crazy_quilt_suits.py": [
        ["--only", "9", "--budget", "2000"],
        ["--only", "9", "--budget", "2000", "--waiting"],
        ["--only", "9", "--budget", "2000", "--waiting", "--sets", "D,HC"],
        [  # the spades, diamonds and clubs lost at once by their diamonds and clubs
            "--only",
            "9",
            "--budget",
            "60000",
            "--waiting",
            "--sets",
            "SDC",
            "--drawn",
            "--fewer-suits",
            "32768",
            "--assignments",
            "1024",
            "--loose",
            "0",
        ],
    ],
    "crazy_quilt_waiting_check.py": [
        ["--deal", "728", "--suits", "D"],
        # lost at the first node: the lazy loose game of the diamonds and clubs cannot be cleared
        ["--deal", "9", "--suits", "SDC", "--fewer"],
    ],
    "crazy_quilt_winrate.py": [
        ["--deals", "1", "--budget", "2000", "--honest-budget", "200", "--jsonl", "cq.jsonl"],
        ["--deals", "2", "--budget", "2000", "--honest-budget", "200", "--jsonl", "cq.jsonl", "-r"],
        # The old rules alone, resumed: the deal-by-deal comparison of a change to the player.
        [*HONEST_BARE, "--deals", "1", "--jsonl", "bare.jsonl"],
        [*HONEST_BARE, "--deals", "2", "--jsonl", "bare.jsonl", "-r"],
    ],
    "crazy_quilt_summary.py": [
        [
            *("crazy_quilt_winrate.py", "--deals", "1", "--budget", "2000"),
            *("--honest-budget", "200", "--jsonl", "cq.jsonl"),
        ],
        ["crazy_quilt_winrate.py", *HONEST_BARE, "--deals", "1", "--jsonl", "bare.jsonl"],
        ["--keep-honest", "honest.jsonl", "cq.jsonl", "bare.jsonl"],
        ["--figure", "cq.png", "classic=cq.jsonl", "--honest", "classic=honest.jsonl"],
    ],
    "cruel_recheck.py": [
        ["--old", str(CRUEL_SOLVER), "--deals", "1..50", "--sample", "2", "--time-limit", "1"],
    ],
    "cruel_winrate.py": [
        ["--deals", "1..2", "--time-limit", "1", "--records", "c.csv", "--json-out", "c.json"],
    ],
    "cruel_summary.py": [
        ["cruel_winrate.py", "--deals", "1..2", "--time-limit", "1", "--records", "c.csv"],
        ["--figure", "c.png", "classic=c.csv"],
    ],
    "engines.py": [["--seconds", "0.05", "--runs", "1"]],
    "entry.py": [
        ["--players", "3", "--rounds", "2", "--in-flight", "2"],
        [
            "--players",
            "2",
            "--rounds",
            "1",
            "--database",
            "postgresql",
            "--database-url",
            DATABASE_URL,
        ],
    ],
    "load.py": [
        # One process on SQLite, two client processes, and the echo: the configuration.
        # No warm-up: the window starts after the players' staggered first second.
        ["--levels", "1:2", "--seconds", "1", "--warm-up", "0", "--json", "load.json"],
        # Two processes on PostgreSQL behind Redis; the second table's person has her socket on
        # the process that does not own it (commands routed, events relayed).
        [
            *("--levels", "2:2", "--seconds", "1", "--warm-up", "0", "--no-echo"),
            *("--database", "postgresql", "--database-url", DATABASE_URL),
            *("--processes", "2", "--clients", "1"),
        ],
    ],
    "pg_log.py": [
        ["--sizes", "1", "2", "--batches", "2", "--games", "2", "--database-url", DATABASE_URL]
    ],
    "review.py": [
        ["speed", "--games", "1", "--levels", "easy", "--tries", "1"],
        ["calibrate", "--games", "1", "--levels", "easy", "--json", "calibrate.json"],
    ],
    "server.py": [
        ["--players", "2", "--seconds", "1", "--warm-up", "0", "--json", "server.json"],
        # Two processes on PostgreSQL behind Redis, the players spread over both.
        [
            *("--players", "4", "--seconds", "1", "--warm-up", "0", "--clients", "1"),
            *("--processes", "2", "--database", "postgresql", "--database-url", DATABASE_URL),
            *("--json", "processes.json"),
        ],
    ],
    "table.py": [
        # Computers and people think in threads: no process to start.
        [
            *("--tables", "2", "--events", "20", "--warm-up", "10", "--pause", "0.001"),
            *("--in-threads", "--profile", "table.prof"),
        ],
    ],
    "speedquilt.py": [["--games", "1", "--runs", "1", "--no-feasibility"]],
    "speedquilt_feasibility.py": [["--queries", "200", "--runs", "1", "--chance-runs", "0"]],
}
NEEDS = {
    "entry.py": ("postgres",),
    "load.py": ("postgres", "redis-server"),
    "pg_log.py": ("postgres",),
    "server.py": ("postgres", "redis-server"),
}
"""Programs a smoke run needs besides Python (the second runs of bench/load.py and
bench/server.py start PostgreSQL and Redis; bench/entry.py's second and bench/pg_log.py run on
PostgreSQL)."""


def test_every_bench_script_has_a_smoke_run() -> None:
    scripts = {path.name for path in BENCH.glob("*.py") if path.name != "__init__.py"}
    assert scripts == set(SMOKE), "give each bench/ script a smoke run in SMOKE (and only those)"


def _missing(programs: tuple[str, ...]) -> list[str]:
    postgres = Path("/usr/lib/postgresql")
    found = {"postgres": postgres.is_dir() and any(postgres.glob("*/bin/postgres"))}
    return [p for p in programs if not found.get(p, shutil.which(p) is not None)]


@pytest.mark.parametrize("script", sorted(SMOKE))
def test_the_bench_script_runs(script: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    missing = _missing(NEEDS.get(script, ()))
    if missing:
        pytest.skip(f"bench/{script} needs {', '.join(missing)}, not installed here")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(BENCH)])}
    for arguments in SMOKE[script]:
        # A run that names another script first is that script's (a summary's records are
        # written by the measuring script).
        runs = arguments[0] if arguments[0] in SMOKE else script
        arguments = arguments[1:] if runs != script else arguments
        if DATABASE_URL in arguments:
            url = request.getfixturevalue("postgres").new_database()
            arguments = [url if a == DATABASE_URL else a for a in arguments]
        done = subprocess.run(
            [sys.executable, str(BENCH / runs), *arguments],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, f"bench/{runs} {' '.join(arguments)}:\n{done.stderr[-3000:]}"
