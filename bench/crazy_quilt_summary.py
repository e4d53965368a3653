"""Summarise the per-deal records of ``bench/crazy_quilt_winrate.py --jsonl`` (or of
``spielcenter winrate crazy-quilt --records``, with the honest player's from ``--honest``) as table
rows.

    uv run python bench/crazy_quilt_summary.py [--figure docs/winrates-crazy-quilt.png] \\
        classic=/tmp/cq/classic.jsonl ... [--honest classic=HONEST.jsonl ...]
    uv run python bench/crazy_quilt_summary.py --keep-honest OUT GUARDED.jsonl BARE.jsonl ...

Each argument is ``VARIANT=FILE``; a deal recorded twice counts once (its first record), so a
measurement resumed with ``--first`` may append to the same file. It prints, per variant, the
thoughtful solver's won / lost / unknown and the honest player's wins with 95 % Wilson
intervals, and the seconds per deal (median, p99, max) of both, as Markdown table rows.
``--figure PATH`` also draws the rates: for each variant the honest player's wins and the
thoughtful solver's range (won as the lower bound, won + unknown as the upper), with intervals,
and a mark at the share of the same deals proven winnable (won in the records, or held by the
stored lists of winnable deals, proven by any solver version, each line replayed; ``spielcenter
winnable``) and a mark at the share not proven lost (the upper bound): the deals one of whose
suits alone cannot be founded (:func:`spielcenter.solvers.crazy_quilt_suits.lost_alone`, at
most 100 000 positions a suit), the deals the records hold as ``lost`` (each a proof of
``solve``) and the deals of :data:`LOST_WAITING` (the waiting game of some suits is lost;
too long a search to repeat here, so a list that ``tests/unit/test_crazy_quilt_waiting.py``
proves again) are lost.

``--honest VARIANT=FILE`` (after the other arguments) takes the honest player's rate of
``VARIANT`` from FILE instead, the records of a longer ``--honest-only`` run, and prints a row for
it: its wins, and, when the records keep a ``bare`` result, the wins of the old rules
(``--rules bare``) on the same deals, compared deal by deal.

``--keep-honest OUT FILE...`` writes the honest records of the FILEs (``--honest-only`` runs, a
deal's first record counting) to OUT in the compact form kept in ``docs/records/``: one line a
deal with its guarded result and seconds, and the ``bare`` result where a ``--rules bare`` run
holds the deal; only deals a guarded run holds are kept.

The records of the published measurement are kept in ``docs/records/`` (their winning lines left
out: the lists hold them), so the figure can be redrawn from them as the lists grow; the honest
player's longer runs in ``docs/records/crazy-quilt-honest/``.
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


Rates = dict[str, tuple[int, int, int, int, int, int, int]]
"""Per variant: deals, thoughtful won, thoughtful won or unknown, honest won, the honest player's
deals, proven won (:func:`proven_won`), proven lost (:func:`proven_lost`)."""

SUIT_BUDGET = 400_000
"""Positions :func:`lost_by_a_suit` gives the four suits of a deal together."""

LOST_WAITING: dict[str, dict[int, str]] = {
    "classic": {9: "DC", 348: "SC", 714: "HDC", 728: "D", 2655: "SC", 3544: "HC"},
    "round-the-corner": {9: "DC", 348: "SC", 714: "HDC", 728: "D", 2655: "SC", 3544: "HC"},
}
"""Per variant, the deals proven lost by the waiting game of one, two or three suits
(:func:`spielcenter.solvers.crazy_quilt_waiting.decide_waiting`), with those suits: classic and
round-the-corner deal 728's diamonds, lost at 4 275 positions each (8 161 with the exact loose
game alone, 377 879 and 377 951 before it), and deal 9's diamonds and clubs, lost at the first
node in 20 864, and deal 348's spades and clubs, lost at 5 421 449 (5 920 459 round the
corner: the whole search, 1 742 nodes, its loose questions all answered by the assignment search;
28 696 with answers drawn from others' and the single suits asked first), and deal 714's hearts,
diamonds and clubs, lost at 2 158 731 (2 428 243 round the corner) with answers drawn and the
pairs asked first, and deal 2655's spades and clubs, lost at 166 139 (166 175 round the corner)
with answers drawn and the single suits asked first, and deal 3544's hearts and clubs, lost at
18 614 (18 638 round the corner) so (docs/winrates-crazy-quilt.md, *Waiting
ghosts*, *Exact loose games in the waiting search*, *Assignments first*, *Three suits*,
*Pairs in the one run* and *Classic and round the corner to deal 6 500*; each loss of two or
three suits checked again by the tests' independent referee,
``bench/crazy_quilt_waiting_check.py``). Not searched again by the summary; the test
``test_the_summarys_waiting_losses_are_proven_again`` searches every entry."""


def proven_won(variant: str, records: list[dict[str, Any]]) -> int:
    """How many deals of ``records`` are proven winnable: won in the records themselves (a line
    of ``solve`` that the engine replays; the one-run records keep a sample of them to be solved
    again, ``tests/unit/test_crazy_quilt_one_run_records.py``) or held by the stored list of
    winnable deals of ``variant`` (proven by any solver version, each line replayed). The lists
    reach deal 1 594 only, so on 10 000 deals the run's own wins carry the lower bound."""
    from spielcenter.solvers import winnable

    held = set(winnable.read_list(winnable.list_path("crazy-quilt", variant)))
    return sum(record["result"] == "won" or record["deal"] in held for record in records)


def lost_by_a_suit(variant: str, deals: list[int]) -> list[int]:
    """The ``deals`` of ``variant`` that a suit alone proves lost."""
    from spielcenter.games.crazy_quilt import make
    from spielcenter.solvers.crazy_quilt_position import position_of
    from spielcenter.solvers.crazy_quilt_suits import lost_alone

    game = make(variant)
    return [deal for deal in deals if lost_alone(position_of(game.start(deal)), SUIT_BUDGET).suits]


def proven_lost(variant: str, records: list[dict[str, Any]]) -> list[int]:
    """The deals of ``records`` proven lost: by a suit alone, by the records' own ``lost``
    (a proof of ``solve``: a knot, a suit alone or waiting, an exhaustive search) or by a suit's
    waiting game (:data:`LOST_WAITING`); in deal order."""
    deals = [record["deal"] for record in records]
    lost = set(lost_by_a_suit(variant, deals))
    lost |= {record["deal"] for record in records if record["result"] == "lost"}
    lost |= set(LOST_WAITING.get(variant, {})) & set(deals)
    return sorted(lost)


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
        _bars(axes, rates, written=axes is whole)
    whole.set_yticks(
        range(len(rates)),
        [
            f"{variant}\nsolver: {rates[variant][0]:,} deals\nhonest: {rates[variant][4]:,} deals"
            for variant in reversed(rates)
        ],
    )
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
    solved = sorted({rate[0] for rate in rates.values()})
    figure.suptitle(
        "Crazy Quilt: how many deals can be won "
        f"(thoughtful solver: {' / '.join(f'{n:,}' for n in solved)} deals per variant)"
    )
    figure.tight_layout(rect=(0, 0.17, 1, 1))
    figure.savefig(path, dpi=120)


def _bars(axes: Any, rates: Rates, written: bool) -> None:
    """The bars of ``rates`` on ``axes``; ``written``: the honest player's rate in figures
    beside its bar (on the whole scale, where it lies)."""
    for row, (total, won, upper, honest, played, proven, lost) in enumerate(
        reversed(rates.values())
    ):
        for offset, hits, trials, colour, label in (
            (0.2, honest, played, "#d08c2f", "honest player wins"),
            (-0.2, won, total, "#2f6fb0", "thoughtful solver, one run a deal: proven wins"),
        ):
            low, high = wilson_interval(hits, trials)
            share = hits / trials
            axes.barh(row + offset, 100 * share, height=0.35, color=colour, label=label)
            if not written and high < 0.86:
                continue  # on the top of the scale only a stub of the interval would show
            axes.errorbar(
                100 * share,
                row + offset,
                xerr=[[100 * (share - low)], [100 * (high - share)]],
                color="black",
                capsize=3,
            )
            if written and colour == "#d08c2f":
                axes.text(100 * high + 1, row + offset, f"{share:.1%}", va="center", fontsize=9)
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
            label="proven winnable (the run's wins and the stored lists): the lower bound",
        )
        axes.plot(
            100 * (total - lost) / total,
            row - 0.2,
            marker="|",
            markersize=16,
            markeredgewidth=2.5,
            color="#b02f2f",
            linestyle="none",
            label="not proven lost (the rest are: by a suit alone, the waiting game of one to "
            "three suits, or solve): the upper bound",
        )


def keep_honest(out: Path, sources: list[Path]) -> int:
    """Write the compact honest records of ``sources`` to ``out``; how many deals."""
    guarded: dict[int, dict[str, Any]] = {}
    bare: dict[int, str] = {}
    for source in sources:
        for record in read(source):
            if record.get("rules", "guarded") == "bare":
                bare.setdefault(record["deal"], record["honest"])
            else:
                guarded.setdefault(record["deal"], record)
    with out.open("w", encoding="utf-8") as file:
        for deal in sorted(guarded):
            kept = {key: guarded[deal][key] for key in ("deal", "honest", "honest_seconds")}
            if deal in bare:
                kept["bare"] = bare[deal]
            file.write(json.dumps(kept, separators=(",", ":")) + "\n")
    return len(guarded)


def honest_row(variant: str, records: list[dict[str, Any]]) -> str:
    """The honest player's row: its wins, the old rules' on the deals with a ``bare`` result
    (deal by deal: newly won, and lost that the old rules won), its seconds per deal."""
    total = len(records)
    span = f"{records[0]['deal']}–{records[-1]['deal']}" if records else "none"
    won = sum(r["honest"] == "won" for r in records)
    paired = [r for r in records if "bare" in r]
    before = sum(r["bare"] == "won" for r in paired)
    gained = sum(r["honest"] == "won" and r["bare"] != "won" for r in paired)
    dropped = [r["deal"] for r in paired if r["bare"] == "won" and r["honest"] != "won"]
    now = sum(r["honest"] == "won" for r in paired)
    compared = (
        f"{len(paired)} | {cell(before, len(paired))} | {cell(now, len(paired))} | {gained} | "
        f"{len(dropped)}"
        if paired
        else "0 | | | |"
    )
    return (
        f"| {variant} | {span} ({total}) | {cell(won, total)} | {compared} | "
        f"{seconds([r['honest_seconds'] for r in records])} |"
    )


def main(argv: list[str]) -> int:
    """Print the rows; exit status 2 for a malformed argument."""
    if argv[:1] == ["--keep-honest"] and len(argv) > 2:
        kept = keep_honest(Path(argv[1]), [Path(name) for name in argv[2:]])
        print(f"{argv[1]}: {kept} deals")
        return 0
    figure = None
    if argv[:1] == ["--figure"] and len(argv) > 1:
        figure, argv = Path(argv[1]), argv[2:]
    at = argv.index("--honest") if "--honest" in argv else len(argv)
    argv, honest_argv = argv[:at], argv[at + 1 :]
    honest_records: dict[str, list[dict[str, Any]]] = {}
    for argument in honest_argv:
        variant, _, name = argument.partition("=")
        if not name:
            print(f"write --honest VARIANT=FILE, not {argument!r}", file=sys.stderr)
            return 2
        honest_records[variant] = read(Path(name))
    rates: Rates = {}
    print(
        "| variant | deals | thoughtful won | lost | unknown | honest won | proven won "
        "| proven lost (by any proof) |"
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
        played = honest_records.get(variant, records)
        honest = sum(r["honest"] == "won" for r in played)
        proven = proven_won(variant, records)
        lost = proven_lost(variant, records)
        rates[variant] = (
            total,
            counts["won"],
            counts["won"] + counts["unknown"],
            honest,
            len(played),
            proven,
            len(lost),
        )
        span = f"{records[0]['deal']}–{records[-1]['deal']}" if records else "none"
        print(
            f"| {variant} | {span} ({total}) | {cell(counts['won'], total)} | "
            f"{cell(counts['lost'], total)} | {cell(counts['unknown'], total)} | "
            f"{cell(honest, len(played))} | {cell(proven, total)} | "
            f"{len(lost)} ({' '.join(map(str, lost)) or 'none'}) |"
        )
        solver = [r["seconds"] for r in records]
        player = [r["honest_seconds"] for r in played]
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
    if honest_records:
        print()
        print(
            "| variant | honest deals | honest won | compared with the old rules "
            "| old rules won | honest won there | newly won | lost that the old rules won "
            "| honest s/deal: median / p99 / max |"
        )
        print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
        for variant, records in honest_records.items():
            print(honest_row(variant, records))
    if figure is not None:
        draw(rates, figure)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
