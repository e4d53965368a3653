"""Memory snapshots of a running server, for development only (docs/performance.md, "Soak").

With ``SPIELCENTER_TRACEMALLOC=N`` (N frames kept per allocation; 0, the default, is off and
costs nothing) the server starts :mod:`tracemalloc` as it starts, and each ``SIGUSR1`` writes
``DATA_DIR/memory-K.txt``: the allocation sites that grew most since the first snapshot and
since the previous one, the live objects per type that grew (numpy's data and other C
allocations the interpreter does not see show there as a count of arrays), and the running
asyncio tasks. ``bench/load.py --tracemalloc`` asks for one after every soak window.

tracemalloc slows the process and adds its own bookkeeping to it, so a traced run measures
where memory goes, not how much or how fast.
"""

from __future__ import annotations

import asyncio
import gc
import signal
import tracemalloc
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

__all__ = ["MemoryWatch", "object_counts"]

TOP_SITES = 25
TOP_TYPES = 25


def object_counts(objects: Iterable[object] | None = None) -> Counter[str]:
    """Live objects the garbage collector tracks, per type name (module-qualified)."""
    # Counted per type first, then named: a name built for each of a million objects is an
    # allocation each, which tracemalloc traces (seconds per report in a traced server).
    per_type = Counter(map(type, gc.get_objects() if objects is None else objects))
    counts: Counter[str] = Counter()
    for kind, count in per_type.items():
        counts[f"{kind.__module__}.{kind.__qualname__}"] += count
    return counts


class MemoryWatch:
    """tracemalloc snapshots written to numbered files on ``SIGUSR1``."""

    def __init__(self, folder: Path, frames: int) -> None:
        self.folder = folder
        self.frames = frames
        self.first: tracemalloc.Snapshot | None = None
        self.previous: tracemalloc.Snapshot | None = None
        self.first_counts: Counter[str] = Counter()
        self.taken = 0

    def install(self) -> None:
        """Start tracing and answer ``SIGUSR1`` with a report (in the running event loop)."""
        tracemalloc.start(self.frames)
        self.folder.mkdir(parents=True, exist_ok=True)
        asyncio.get_running_loop().add_signal_handler(signal.SIGUSR1, self.report)

    def uninstall(self) -> None:
        """Stop answering the signal and stop tracing."""
        asyncio.get_running_loop().remove_signal_handler(signal.SIGUSR1)
        tracemalloc.stop()

    def report(self) -> Path:
        """Take a snapshot and write its comparison with the first and the previous one."""
        gc.collect()
        snapshot = tracemalloc.take_snapshot().filter_traces(
            [tracemalloc.Filter(False, tracemalloc.__file__)]
        )
        counts = object_counts()
        self.taken += 1
        if self.first is None:
            self.first, self.first_counts = snapshot, counts
        traced, peak = tracemalloc.get_traced_memory()
        lines = [
            f"snapshot {self.taken}: traced {traced / 2**20:.1f} MiB (peak {peak / 2**20:.1f}),"
            f" {sum(counts.values())} gc objects, {len(asyncio.all_tasks())} asyncio tasks",
            "",
            f"## grown since snapshot 1, by line (top {TOP_SITES})",
            *_diff(snapshot, self.first, "lineno"),
            "",
            f"## grown since snapshot {max(self.taken - 1, 1)}, by line (top {TOP_SITES})",
            *_diff(snapshot, self.previous or self.first, "lineno"),
            "",
            f"## grown since snapshot 1, by file (top {TOP_SITES})",
            *_diff(snapshot, self.first, "filename"),
            "",
            "## grown since snapshot 1, by call stack (top 10)",
            *_stacks(snapshot, self.first),
            "",
            f"## live objects per type, grown since snapshot 1 (top {TOP_TYPES})",
            *_count_diff(counts, self.first_counts),
        ]
        self.previous = snapshot
        path = self.folder / f"memory-{self.taken}.txt"
        path.write_text("\n".join(lines) + "\n")
        return path


def _diff(now: tracemalloc.Snapshot, then: tracemalloc.Snapshot, key: str) -> list[str]:
    stats = now.compare_to(then, key)
    return [str(s) for s in stats[:TOP_SITES]]


def _stacks(now: tracemalloc.Snapshot, then: tracemalloc.Snapshot) -> list[str]:
    lines: list[str] = []
    for stat in now.compare_to(then, "traceback")[:10]:
        lines.append(f"{stat.size_diff / 2**20:+.2f} MiB, {stat.count_diff:+d} blocks")
        lines += [f"    {line}" for line in stat.traceback.format(limit=8)]
    return lines


def _count_diff(now: Counter[str], then: Counter[str]) -> list[str]:
    grown = Counter({k: v - then.get(k, 0) for k, v in now.items() if v > then.get(k, 0)})
    return [
        f"{count:+9d}  {kind}  (now {now[kind]})" for kind, count in grown.most_common(TOP_TYPES)
    ]
