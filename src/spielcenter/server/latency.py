"""Where a slow message waited, for development only (docs/performance.md, "Where a slow
entry waits").

With ``SPIELCENTER_LATENCY_TRACE=1`` (off by default, and then nothing is timed) the server
keeps histograms of:

- each stage of a patience entry (``services/games.py`` and ``services/logwriter.py`` name them:
  waiting for the game's lock, waiting for its group commit, the commit itself and its batch
  size, building the view, sending the event) and of a whole socket message;
- each stage of a table's decision (``server/tables.py``, ``services/table_play.py`` and
  ``services/tables.py``): a person's move waiting in the table's queue (``table_queue``),
  check and apply (``table_apply``), its commit (``table_commit``, ``table_commit_own`` for a
  person's own decisions; ``table_lock_wait`` for the tables' own transactions, ``table_end``
  how long a table's last decision held the database, and ``db_turn_wait`` how long a batch of
  the group commit waited for its turn behind them on SQLite), the views with
  legal moves (``table_view``), sending (``table_send``) and the whole of it
  (``table_decision``); a computer's thinking (``computer_think``, begun with its pause), how
  long its move still waited for it once the pause was over (``computer_thought_wait``), the
  thoughts dropped because the position moved on first (``computer_thought_dropped``) and its
  whole turn after the pause (``computer_turn``), which a person's move may wait behind;
- the event loop's lag: a task asks to wake every 10 ms, and how late it wakes is how long
  every socket of the process waited for the one thread that runs them;
- the garbage collector's pauses per generation (``gc.callbacks``): the collector stops that
  same thread;
- what the loop was doing while it stalled: a watcher thread looks every few milliseconds
  whether the lag probe has ticked; once it has not for :data:`STALL_MS`, it takes the loop
  thread's stack (``sys._current_frames``) every look until the loop ticks again, and notes how
  much CPU the loop thread used meanwhile (a stall with little CPU is the machine or the
  interpreter's lock, not the loop's own work). The report keeps the longest stalls with their
  stacks and counts every stack seen in any stall (``stall_stacks``).

At shutdown it writes ``DATA_DIR/latency-<pid>.json``; ``bench/server.py --trace`` reads it
into its rows. The timeline keeps the loop lags and collector pauses longer than
:data:`SLOW_MS` with the moment they ended (``time.perf_counter()``: the machine's monotonic
clock, the same in every process on Linux), so a spike of the benchmark's round trips can be
laid beside its cause.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import os
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

__all__ = ["BUCKETS", "Histogram", "LatencyTrace"]

BUCKETS = (0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000)
"""Upper bounds of the histograms' buckets (milliseconds, or entries for a batch size)."""
TICK_S = 0.010
"""How often the lag probe asks to wake."""
SLOW_MS = 20.0
"""Loop lags and collector pauses at least this long go into the timeline too."""
TIMELINE_MAX = 2000
STALL_MS = 40.0
"""A loop that has not ticked for this long is stalled: the watcher starts taking its stack."""
WATCH_S = 0.005
"""How often the stall watcher looks (the interpreter switches threads every 5 ms as well)."""
STALLS_KEPT = 40
"""The longest stalls kept in the report, each with its stacks."""
STACK_FRAMES = 14
"""Innermost frames kept of a stalled loop's stack."""


class Histogram:
    """Counts per bucket of :data:`BUCKETS` (the last one open), with count, sum and maximum."""

    def __init__(self) -> None:
        self.counts = [0] * (len(BUCKETS) + 1)
        self.n = 0
        self.total = 0.0
        self.max = 0.0

    def add(self, value: float) -> None:
        """Count one value."""
        index = 0
        while index < len(BUCKETS) and value > BUCKETS[index]:
            index += 1
        self.counts[index] += 1
        self.n += 1
        self.total += value
        self.max = max(self.max, value)

    def quantile(self, q: float) -> float | None:
        """The upper bound of the bucket holding the ``q`` quantile (``None`` when empty)."""
        if not self.n:
            return None
        seen = 0
        for index, count in enumerate(self.counts):
            seen += count
            if seen >= q * self.n:
                return BUCKETS[index] if index < len(BUCKETS) else self.max
        return self.max

    def summary(self) -> dict[str, Any]:
        """Counts by bucket bound (``"inf"`` the last), n, mean, max, p50 and p99 bounds."""
        bounds = [str(b) for b in BUCKETS] + ["inf"]
        return {
            "n": self.n,
            "mean": round(self.total / self.n, 3) if self.n else None,
            "max": round(self.max, 3),
            "p50_le": self.quantile(0.5),
            "p99_le": self.quantile(0.99),
            "buckets": {b: c for b, c in zip(bounds, self.counts, strict=True) if c},
        }


class LatencyTrace:
    """The histograms of one server process; :meth:`record` is what the services call."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.stages: dict[str, Histogram] = {}
        self.started = time.perf_counter()
        self.timeline: list[tuple[float, str, float]] = []
        self._gc_started = 0.0
        self._probe: asyncio.Task[None] | None = None
        self._beat = time.perf_counter()
        self._watching = threading.Event()
        self._watcher: threading.Thread | None = None
        self.stalls: list[Stall] = []
        self.stall_stacks: Counter[str] = Counter()

    def record(self, stage: str, value: float) -> None:
        """Count ``value`` (milliseconds, or entries for a batch size) for ``stage``."""
        histogram = self.stages.get(stage)
        if histogram is None:
            histogram = self.stages[stage] = Histogram()
        histogram.add(value)

    def install(self) -> None:
        """Start the lag probe (in the running loop) and time the collector."""
        self._probe = asyncio.get_running_loop().create_task(self._watch_loop())
        gc.callbacks.append(self._on_gc)
        loop_thread = threading.get_ident()
        self._watching.set()
        self._watcher = threading.Thread(
            target=self._watch_stalls, args=(loop_thread,), name="spielcenter-stalls", daemon=True
        )
        self._watcher.start()

    async def uninstall(self) -> Path:
        """Stop watching and write the report; its path."""
        with contextlib.suppress(ValueError):
            gc.callbacks.remove(self._on_gc)
        self._watching.clear()
        if self._watcher is not None:
            self._watcher.join()
        if self._probe is not None:
            self._probe.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._probe
        return self.write()

    def write(self) -> Path:
        """Write ``latency-<pid>.json`` into the folder."""
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self.folder / f"latency-{os.getpid()}.json"
        report = {
            "seconds": round(time.perf_counter() - self.started, 1),
            "gc_thresholds": gc.get_threshold(),
            "gc_frozen_objects": gc.get_freeze_count(),
            "gc_tracked_objects": len(gc.get_objects()),
            "stages": {name: h.summary() for name, h in sorted(self.stages.items())},
            "timeline": [[round(t, 3), what, round(ms, 1)] for t, what, ms in self.timeline],
            "stalls": [stall.summary() for stall in sorted(self.stalls, key=lambda s: -s.ms)],
            "stall_stacks": [
                {"samples": n, "stack": stack} for stack, n in self.stall_stacks.most_common(30)
            ],
        }
        path.write_text(json.dumps(report, indent=1) + "\n")
        return path

    def _slow(self, what: str, ms: float) -> None:
        if ms >= SLOW_MS and len(self.timeline) < TIMELINE_MAX:
            self.timeline.append((time.perf_counter(), what, ms))

    async def _watch_loop(self) -> None:
        while True:
            asked = self._beat = time.perf_counter()
            await asyncio.sleep(TICK_S)
            lag_ms = (time.perf_counter() - asked - TICK_S) * 1000
            self.record("loop_lag", max(0.0, lag_ms))
            self._slow("loop_lag", lag_ms)

    def _watch_stalls(self, loop_thread: int) -> None:
        """In the watcher thread: sample the loop's stack while it has not ticked for
        :data:`STALL_MS` (beyond the probe's own 10 ms)."""
        cpu_clock = time.pthread_getcpuclockid(loop_thread)
        stall: Stall | None = None
        last_beat, cpu_at_beat = self._beat, time.clock_gettime(cpu_clock)
        while self._watching.is_set():
            time.sleep(WATCH_S)
            now, beat = time.perf_counter(), self._beat
            if beat != last_beat:  # the loop ticked since the last look
                last_beat, cpu_at_beat = beat, time.clock_gettime(cpu_clock)
                if stall is not None:  # and that ended its stall
                    stall.close(beat, cpu_at_beat)
                    self._keep(stall)
                    stall = None
            if (now - beat - TICK_S) * 1000 < STALL_MS:
                continue
            if stall is None:
                stall = Stall(beat, cpu_at_beat)
            frame = sys._current_frames().get(loop_thread)
            if frame is not None:
                stack = _stack(frame)
                stall.stacks[stack] += 1
                self.stall_stacks[stack] += 1

    def _keep(self, stall: Stall) -> None:
        self.stalls.append(stall)
        if len(self.stalls) > 4 * STALLS_KEPT:
            self.stalls = sorted(self.stalls, key=lambda s: -s.ms)[:STALLS_KEPT]

    def _on_gc(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._gc_started = time.perf_counter()
            return
        ms = (time.perf_counter() - self._gc_started) * 1000
        what = f"gc_gen{info['generation']}"
        self.record(what, ms)
        self._slow(what, ms)


class Stall:
    """One stall of the loop: from its last tick to the next, the loop thread's CPU meanwhile,
    and the stacks the watcher saw."""

    def __init__(self, beat: float, cpu_s: float) -> None:
        self.beat = beat
        self.ended = beat
        self.cpu_began = cpu_s
        self.ms = 0.0
        self.cpu_ms = 0.0
        self.stacks: Counter[str] = Counter()

    def close(self, next_beat: float, cpu_s: float) -> None:
        """The loop ticked again at ``next_beat`` (its thread's CPU clock at ``cpu_s``)."""
        self.ended = next_beat
        self.ms = (next_beat - self.beat - TICK_S) * 1000
        self.cpu_ms = (cpu_s - self.cpu_began) * 1000

    def summary(self) -> dict[str, Any]:
        """When it ended, how long, the loop's CPU in it, and its stacks (most seen first)."""
        return {
            "ended": round(self.ended, 3),
            "ms": round(self.ms, 1),
            "loop_cpu_ms": round(self.cpu_ms, 1),
            "stacks": [{"samples": n, "stack": s} for s, n in self.stacks.most_common(5)],
        }


def _stack(frame: Any) -> str:
    """The innermost :data:`STACK_FRAMES` frames, innermost first: ``file:line function``."""
    lines: list[str] = []
    while frame is not None and len(lines) < STACK_FRAMES:
        code = frame.f_code
        lines.append(f"{_short(code.co_filename)}:{frame.f_lineno} {code.co_name}")
        frame = frame.f_back
    return " < ".join(lines)


def _short(path: str) -> str:
    """A file's path from its package on (``spielcenter/…``, ``asyncio/…``)."""
    parts = path.split("/")
    for marker in ("spielcenter", "site-packages"):
        if marker in parts:
            return "/".join(parts[parts.index(marker) + (marker == "site-packages") :])
    return "/".join(parts[-2:])
