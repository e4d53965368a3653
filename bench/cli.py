"""Wall time of the ``spielcenter`` command, as a user starts it (median of several runs).

    uv run python bench/cli.py [--runs 15]

Each run starts the installed entry point (``.venv/bin/spielcenter``) in a fresh process, so
the figure includes Python's start and every import the command makes; the CPU time of the child
is printed beside it (on a busy machine wall time grows, CPU time hardly). Issue 40 asks for a
patience deal in ≤ 150 ms wall on a quiet machine.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from tqdm import tqdm

COMMANDS = (
    ("deal cruel --deal 1", ["deal", "cruel", "--deal", "1"]),
    ("deal crazy-quilt --deal 1 --json", ["deal", "crazy-quilt", "--deal", "1", "--json"]),
    ("speedquilt deal --seed 1", ["speedquilt", "deal", "--seed", "1"]),
    ("--help", ["--help"]),
)


def entry_point() -> str:
    """The ``spielcenter`` script beside this interpreter (the one ``uv run`` installs)."""
    beside = Path(sys.executable).with_name("spielcenter")
    found = str(beside) if beside.exists() else shutil.which("spielcenter")
    if found is None:
        raise SystemExit("no spielcenter command: run `uv sync` first")
    return found


def one_run(command: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds of one run of the command in a fresh process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, env=os.environ.copy())
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    program = entry_point()
    results: dict[str, list[tuple[float, float]]] = {name: [] for name, _ in COMMANDS}
    with tqdm(total=args.runs * len(COMMANDS), desc="runs", unit="run") as bar:
        for _ in range(args.runs):
            for name, words in COMMANDS:
                results[name].append(one_run([program, *words]))
                bar.update()
    print(f"load average {os.getloadavg()[0]:.1f}; median of {args.runs} runs")
    print("| command | wall ms | CPU ms |")
    print("| --- | ---: | ---: |")
    for name, runs in results.items():
        wall = statistics.median(w for w, _ in runs) * 1000
        cpu = statistics.median(c for _, c in runs) * 1000
        print(f"| `spielcenter {name}` | {wall:.0f} | {cpu:.0f} |")


if __name__ == "__main__":
    main()
