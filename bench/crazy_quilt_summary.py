"""Summarise the per-deal records of ``bench/crazy_quilt_winrate.py --jsonl`` as table rows.

    uv run python bench/crazy_quilt_summary.py [--figure docs/winrates-crazy-quilt.png] \\
        classic=/tmp/cq/classic.jsonl ...

Each argument is ``VARIANT=FILE``; a deal recorded twice counts once (its first record), so a
measurement resumed with ``--first`` may append to the same file. It prints, per variant, the
thoughtful solver's won / lost / unknown and the honest player's wins with 95 % Wilson
intervals, and the seconds per deal (median, p99, max) of both, as Markdown table rows.
``--figure PATH`` also draws the rates: for each variant the honest player's wins and the
thoughtful solver's range (won as the lower bound, won + unknown as the upper), with intervals,
and a mark at the share of the same deals that the stored lists of winnable deals hold (proven
by any solver version, each line replayed; ``spielcenter winnable``) and a mark at the share
not proven lost (the upper bound): the deals one of whose suits alone cannot be founded
(:func:`spielcenter.solvers.crazy_quilt_suits.lost_alone`, at most 100 000 positions a suit)
are lost.

The records of the published measurement are kept in ``docs/records/`` (their winning lines left
out: the lists hold them), so the figure can be redrawn from them as the lists grow.
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path
from typing import Any

from spielcenter.solvers.cruel_winrate import percentile, wilson_interval


def cell(hits: int, trials: int) -> str:
    """``hits — p % (low–high %)`` with the 95 % Wilson interval."""
    low, high = wilson_interval(hits, trials)
    return f"{hits} — {hits / trials:.1%} ({low:.1%}–{high:.1%})"


def seconds(values: list[float]) -> str:
    """Median / p99 / max."""
    return f"{statistics.median(values):.2f} / {percentile(values, 0.99):.2f} / {max(values):.2f}"


def read(path: Path) -> list[dict[str, Any]]:
    """The records of ``path``, one per deal, in deal order."""
    records: dict[int, dict[str, Any]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        records.setdefault(record["deal"], record)
    return [records[deal] for deal in sorted(records)]


Rates = dict[str, tuple[int, int, int, int, int, int]]
"""Per variant: deals, thoughtful won, thoughtful won or unknown, honest won, listed, proven
lost by a suit alone."""

SUIT_BUDGET = 400_000
"""Positions :func:`lost_by_a_suit` gives the four suits of a deal together."""


def listed(variant: str, deals: list[int]) -> int:
    """How many of ``deals`` the stored list of winnable deals of ``variant`` holds."""
    from spielcenter.solvers import winnable

    held = set(winnable.read_list(winnable.list_path("crazy-quilt", variant)))
    return sum(deal in held for deal in deals)


def lost_by_a_suit(variant: str, deals: list[int]) -> list[int]:
    """The ``deals`` of ``variant`` that a suit alone proves lost."""
    from spielcenter.games.crazy_quilt import make
    from spielcenter.solvers.crazy_quilt_position import position_of
    from spielcenter.solvers.crazy_quilt_suits import lost_alone

    game = make(variant)
    return [deal for deal in deals if lost_alone(position_of(game.start(deal)), SUIT_BUDGET).suits]


def draw(rates: Rates, path: Path) -> None:
    """Bars of the rates in ``rates`` with their 95 % Wilson intervals, saved to ``path``: the
    whole scale, and beside it the top of the scale, where the bounds of the thoughtful rate lie
    too close together to be seen on the whole."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, (whole, top) = plt.subplots(
        1,
        2,
        figsize=(11, 2.4 + 0.9 * len(rates)),
        sharey=True,
        gridspec_kw={"width_ratios": [3, 2]},
    )
    for axes in (whole, top):
        _bars(axes, rates)
    whole.set_yticks(range(len(rates)), list(reversed(rates)))
    whole.set_xlim(0, 100)
    whole.set_title("all deals")
    top.set_xlim(85, 100.4)
    top.set_title("the top of the scale, 85–100 %")
    for axes in (whole, top):
        axes.set_xlabel("% of deals")
    handles, labels = whole.get_legend_handles_labels()
    unique = dict(zip(labels, handles, strict=True))
    figure.legend(
        unique.values(), unique.keys(), loc="lower center", ncol=2, fontsize=8, frameon=False
    )
    figure.suptitle("Crazy Quilt: how many deals can be won (1 000 deals per variant)")
    figure.tight_layout(rect=(0, 0.17, 1, 1))
    figure.savefig(path, dpi=120)


def _bars(axes: Any, rates: Rates) -> None:
    for row, (total, won, upper, honest, proven, lost) in enumerate(reversed(rates.values())):
        for offset, hits, colour, label in (
            (0.2, honest, "#d08c2f", "honest player wins"),
            (-0.2, won, "#2f6fb0", "thoughtful solver of the measurement: proven wins"),
        ):
            low, high = wilson_interval(hits, total)
            share = hits / total
            axes.barh(row + offset, 100 * share, height=0.35, color=colour, label=label)
            axes.errorbar(
                100 * share,
                row + offset,
                xerr=[[100 * (share - low)], [100 * (high - share)]],
                color="black",
                capsize=3,
            )
        axes.barh(
            row - 0.2,
            100 * (upper - won) / total,
            left=100 * won / total,
            height=0.35,
            color="none",
            edgecolor="#2f6fb0",
            hatch="//",
            label="not decided (the rate lies below won + unknown)",
        )
        axes.plot(
            100 * proven / total,
            row - 0.2,
            marker="D",
            color="black",
            linestyle="none",
            label="proven winnable by any solver version (the stored lists): the lower bound",
        )
        axes.plot(
            100 * (total - lost) / total,
            row - 0.2,
            marker="|",
            markersize=16,
            markeredgewidth=2.5,
            color="#b02f2f",
            linestyle="none",
            label="not proven lost (a suit alone proves the others lost): the upper bound",
        )


def main(argv: list[str]) -> int:
    """Print the rows; exit status 2 for a malformed argument."""
    figure = None
    if argv[:1] == ["--figure"] and len(argv) > 1:
        figure, argv = Path(argv[1]), argv[2:]
    rates: Rates = {}
    print(
        "| variant | deals | thoughtful won | lost | unknown | honest won | listed "
        "| lost by a suit alone |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    timings = []
    for argument in argv:
        variant, _, name = argument.partition("=")
        if not name:
            print(f"write VARIANT=FILE, not {argument!r}", file=sys.stderr)
            return 2
        records = read(Path(name))
        total = len(records)
        counts = {
            result: sum(r["result"] == result for r in records)
            for result in ("won", "lost", "unknown")
        }
        honest = sum(r["honest"] == "won" for r in records)
        proven = listed(variant, [r["deal"] for r in records])
        lost = lost_by_a_suit(variant, [r["deal"] for r in records])
        rates[variant] = (
            total,
            counts["won"],
            counts["won"] + counts["unknown"],
            honest,
            proven,
            len(lost),
        )
        span = f"{records[0]['deal']}–{records[-1]['deal']}" if records else "none"
        print(
            f"| {variant} | {span} ({total}) | {cell(counts['won'], total)} | "
            f"{cell(counts['lost'], total)} | {cell(counts['unknown'], total)} | "
            f"{cell(honest, total)} | {cell(proven, total)} | "
            f"{len(lost)} ({' '.join(map(str, lost)) or 'none'}) |"
        )
        solver = [r["seconds"] for r in records]
        player = [r["honest_seconds"] for r in records]
        nodes = sum(r["nodes"] for r in records)
        timings.append(
            f"| {variant} | {seconds(solver)} | {seconds(player)} | {nodes / sum(solver):,.0f} |"
        )
    print()
    print(
        "| variant | solver s/deal: median / p99 / max | honest s/deal: median / p99 / max "
        "| positions per second |"
    )
    print("| --- | --- | --- | --- |")
    print("\n".join(timings))
    if figure is not None:
        draw(rates, figure)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
