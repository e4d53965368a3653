"""Where a slow message waited, for development only (docs/performance.md, "Where a slow
entry waits").

With ``SPIELCENTER_LATENCY_TRACE=1`` (off by default, and then nothing is timed) the server
keeps histograms of:

- each stage of a patience entry (``services/games.py`` and ``services/logwriter.py`` name them:
  waiting for the game's lock, waiting for its group commit, the commit itself and its batch
  size, building the view, sending the event) and of a whole socket message;
- each stage of a table's decision (``server/tables.py``, ``services/table_play.py`` and
  ``services/tables.py``): a person's move waiting in the table's queue (``table_queue``),
  check and apply (``table_apply``), its commit (``table_commit``; ``table_lock_wait`` for the
  tables' own transactions), the views with legal moves (``table_view``), sending
  (``table_send``) and the whole of it (``table_decision``); a computer's thinking
  (``computer_think``, in a thread) and its whole turn (``computer_turn``), which a person's
  move may wait behind;
- the event loop's lag: a task asks to wake every 10 ms, and how late it wakes is how long
  every socket of the process waited for the one thread that runs them;
- the garbage collector's pauses per generation (``gc.callbacks``): the collector stops that
  same thread.

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
import time
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

    async def uninstall(self) -> Path:
        """Stop watching and write the report; its path."""
        with contextlib.suppress(ValueError):
            gc.callbacks.remove(self._on_gc)
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
        }
        path.write_text(json.dumps(report, indent=1) + "\n")
        return path

    def _slow(self, what: str, ms: float) -> None:
        if ms >= SLOW_MS and len(self.timeline) < TIMELINE_MAX:
            self.timeline.append((time.perf_counter(), what, ms))

    async def _watch_loop(self) -> None:
        while True:
            asked = time.perf_counter()
            await asyncio.sleep(TICK_S)
            lag_ms = (time.perf_counter() - asked - TICK_S) * 1000
            self.record("loop_lag", max(0.0, lag_ms))
            self._slow("loop_lag", lag_ms)

    def _on_gc(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._gc_started = time.perf_counter()
            return
        ms = (time.perf_counter() - self._gc_started) * 1000
        what = f"gc_gen{info['generation']}"
        self.record(what, ms)
        self._slow(what, ms)
