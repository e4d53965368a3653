"""Win rates of a range of deals: counting verdicts, Wilson intervals and time percentiles.

The measuring loop lives in the CLI (``spielcenter winrate``) and in ``bench/cruel_winrate.py``;
this module only does the arithmetic, so that it can be tested exactly.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

Z95 = 1.959963984540054
"""The two-sided 95 % quantile of the standard normal distribution."""

RESULTS = ("won", "lost", "unknown")


def wilson_interval(hits: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion ``hits / trials`` (95 % by default).

    >>> wilson_interval(0, 0)
    (0.0, 1.0)
    >>> [round(x, 4) for x in wilson_interval(50, 100)]
    [0.4038, 0.5962]
    """
    if trials <= 0:
        return (0.0, 1.0)
    if not 0 <= hits <= trials:
        raise ValueError(f"hits must lie in 0 … {trials}, not {hits}")
    share = hits / trials
    square = z * z / trials
    centre = (share + square / 2) / (1 + square)
    half = z * math.sqrt(share * (1 - share) / trials + square / (4 * trials)) / (1 + square)
    # At 0 or all hits the bound is exactly 0 or 1; say so rather than trust the rounding.
    low = 0.0 if hits == 0 else max(0.0, centre - half)
    high = 1.0 if hits == trials else min(1.0, centre + half)
    return (low, high)


def percentile(values: Sequence[float], share: float) -> float:
    """The nearest-rank percentile (``share`` from 0 to 1) of ``values``; 0 for none.

    >>> percentile([3.0, 1.0, 2.0], 0.5)
    2.0
    """
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(share * len(ordered)))
    return ordered[rank - 1]


@dataclass
class WinRate:
    """The verdicts and solving times of a range of deals."""

    game: str
    variant: str
    first: int
    last: int
    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(RESULTS, 0))
    seconds: list[float] = field(default_factory=list)
    unknown_deals: list[int] = field(default_factory=list)

    def add(self, deal: int, result: str, seconds: float) -> None:
        """Count one deal's verdict and its solving time."""
        if result not in self.counts:
            raise ValueError(f"a verdict is one of {', '.join(RESULTS)}, not {result!r}")
        self.counts[result] += 1
        self.seconds.append(seconds)
        if result == "unknown":
            self.unknown_deals.append(deal)

    @property
    def deals(self) -> int:
        """How many deals were counted."""
        return sum(self.counts.values())

    def as_json(self) -> dict[str, object]:
        """Counts, shares with 95 % Wilson intervals, and time per deal (median, p99, max)."""
        total = self.deals
        return {
            "game": self.game,
            "variant": self.variant,
            "deals": f"{self.first}..{self.last}",
            "count": total,
            "results": {
                result: {
                    "count": self.counts[result],
                    "share": self.counts[result] / total if total else 0.0,
                    "wilson95": list(wilson_interval(self.counts[result], total)),
                }
                for result in RESULTS
            },
            "seconds": {
                "median": percentile(self.seconds, 0.5),
                "p99": percentile(self.seconds, 0.99),
                "max": max(self.seconds, default=0.0),
            },
            "unknown_deals": self.unknown_deals,
        }

    def as_text(self) -> str:
        """The summary for people, one line per verdict."""
        total = self.deals
        lines = [f"{self.game} {self.variant}, deals {self.first}..{self.last} ({total} deals)"]
        for result in RESULTS:
            count = self.counts[result]
            low, high = wilson_interval(count, total)
            share = count / total if total else 0.0
            lines.append(f"  {result:<8}{count:>7}  {share:7.2%}  (95% CI {low:.2%} – {high:.2%})")
        median = percentile(self.seconds, 0.5)
        p99 = percentile(self.seconds, 0.99)
        most = max(self.seconds, default=0.0)
        lines.append(f"  time per deal: median {median:.4f} s, p99 {p99:.3f} s, max {most:.3f} s")
        if self.unknown_deals:
            lines.append("  unknown: " + " ".join(map(str, self.unknown_deals)))
        return "\n".join(lines)
