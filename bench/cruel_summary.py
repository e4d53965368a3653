"""Summarise the per-deal records of ``bench/cruel_winrate.py --records`` and draw them.

    uv run python bench/cruel_summary.py [--figure docs/winrates-cruel.png] \\
        classic=docs/records/cruel-classic.csv stuck=docs/records/cruel-stuck.csv \\
        perseverance=docs/records/cruel-perseverance.csv

Each argument is ``VARIANT=FILE``. It prints, per variant, the won / lost / unknown counts with
95 % Wilson intervals and the seconds per deal (median, p99, max) as Markdown table rows, and
the undecided deals. ``--figure PATH`` also draws the shares of each variant as stacked bars
(won, undecided, proven lost) and, beside them, how many deals were decided within a given time
(the targets of issue 9 marked: a median under 0.1 s, at most 10 s a deal).
"""

from __future__ import annotations

import csv
import sys
from pathlib import Path
from typing import Any

from spielcenter.solvers.cruel_winrate import RESULTS, WinRate, percentile, wilson_interval

COLOURS = {"won": "#2f6fb0", "unknown": "#b8b8b8", "lost": "#b02f2f"}
LABELS = {"won": "won (a line that replays)", "unknown": "undecided", "lost": "proven lost"}
NAMES = {"classic": "classic", "stuck": "redeal only when stuck", "perseverance": "Perseverance"}


def read(variant: str, path: Path) -> WinRate:
    """The records of ``path`` (one row per deal) counted as a :class:`WinRate`."""
    with path.open(newline="", encoding="utf-8") as handle:
        rows = sorted(csv.DictReader(handle), key=lambda row: int(row["deal"]))
    if not rows:
        raise ValueError(f"{path} holds no records")
    rate = WinRate("cruel", variant, int(rows[0]["deal"]), int(rows[-1]["deal"]))
    for row in rows:
        rate.add(int(row["deal"]), row["result"], float(row["seconds"]))
    return rate


def cell(hits: int, trials: int) -> str:
    """``hits — p % (low–high %)`` with the 95 % Wilson interval."""
    low, high = wilson_interval(hits, trials)
    return f"{hits:,} — {hits / trials:.2%} ({low:.2%}–{high:.2%})".replace(",", " ")


def row(rate: WinRate) -> str:
    """The Markdown row of one variant."""
    total = rate.deals
    times = " / ".join(
        f"{value:.4g} s"
        for value in (
            percentile(rate.seconds, 0.5),
            percentile(rate.seconds, 0.99),
            max(rate.seconds),
        )
    )
    counts = " | ".join(cell(rate.counts[result], total) for result in RESULTS)
    return f"| {NAMES[rate.variant]} | {rate.first}..{rate.last} | {counts} | {times} |"


def draw(rates: list[WinRate], path: Path) -> None:
    """The shares as stacked bars and the time to a verdict as curves, saved to ``path``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, (shares, times) = plt.subplots(
        1, 2, figsize=(12, 3.6), gridspec_kw={"width_ratios": [3, 2]}
    )
    _shares(shares, rates)
    _times(times, rates)
    deals = {rate.deals for rate in rates}
    count = f"{deals.pop():,}".replace(",", " ") if len(deals) == 1 else "several numbers of"
    figure.suptitle(f"Cruel: how many deals can be won ({count} deals per variant)")
    figure.tight_layout()
    figure.savefig(path, dpi=120)


def _shares(axes: Any, rates: list[WinRate]) -> None:
    for place, rate in enumerate(reversed(rates)):
        left = 0.0
        for result in ("won", "unknown", "lost"):
            share = 100 * rate.counts[result] / rate.deals
            axes.barh(
                place,
                share,
                left=left,
                height=0.6,
                color=COLOURS[result],
                label=LABELS[result] if place == 0 else None,
            )
            if share >= 4:
                axes.text(
                    left + share / 2,
                    place,
                    f"{share:.1f} %",
                    ha="center",
                    va="center",
                    color="white",
                    fontsize=9,
                )
            left += share
        unknown = rate.counts["unknown"]
        axes.text(101, place, f"{unknown} undecided", va="center", fontsize=8)
    axes.set_yticks(range(len(rates)), [NAMES[rate.variant] for rate in reversed(rates)])
    axes.set_xlim(0, 118)
    axes.set_xticks(range(0, 101, 20))
    axes.set_xlabel("% of deals")
    axes.legend(loc="upper center", bbox_to_anchor=(0.45, -0.2), ncol=3, fontsize=8, frameon=False)


def _times(axes: Any, rates: list[WinRate]) -> None:
    for rate in rates:
        ordered = sorted(rate.seconds)
        shares = [100 * (index + 1) / len(ordered) for index in range(len(ordered))]
        axes.step(ordered, shares, where="post", label=NAMES[rate.variant])
    for limit, text in ((0.1, "median target 0.1 s"), (10.0, "limit 10 s")):
        axes.axvline(limit, color="black", linestyle=":", linewidth=1)
        axes.text(limit * 1.1, 4, text, rotation=90, fontsize=8, va="bottom")
    axes.axhline(50, color="grey", linewidth=0.5)
    axes.set_xscale("log")
    axes.set_xlabel("seconds to the verdict (log scale)")
    axes.set_ylabel("% of deals answered")
    axes.set_ylim(0, 101)
    axes.legend(loc="upper left", fontsize=8)


def main(argv: list[str]) -> int:
    """Print the rows; exit status 2 for a malformed argument."""
    figure = None
    if argv[:1] == ["--figure"] and len(argv) > 1:
        figure, argv = Path(argv[1]), argv[2:]
    rates = []
    for argument in argv:
        variant, _, name = argument.partition("=")
        if variant not in NAMES or not name:
            print(f"write VARIANT=FILE with a variant of {', '.join(NAMES)}", file=sys.stderr)
            return 2
        rates.append(read(variant, Path(name)))
    print("| variant | deals | won | lost (proven) | unknown | time per deal: median / p99 / max |")
    print("| --- | --- | --- | --- | --- | --- |")
    for rate in rates:
        print(row(rate))
    for rate in rates:
        print(f"undecided, {NAMES[rate.variant]}: {' '.join(map(str, rate.unknown_deals)) or '-'}")
    if figure is not None:
        draw(rates, figure)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
