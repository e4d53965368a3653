"""Summarise the per-deal records of ``bench/crazy_quilt_winrate.py --jsonl`` as table rows.

    uv run python bench/crazy_quilt_summary.py classic=/tmp/cq/classic.jsonl ...

Each argument is ``VARIANT=FILE``; a deal recorded twice counts once (its first record), so a
measurement resumed with ``--first`` may append to the same file. It prints, per variant, the
thoughtful solver's won / lost / unknown and the honest player's wins with 95 % Wilson
intervals, and the seconds per deal (median, p99, max) of both, as Markdown table rows.
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


def main(argv: list[str]) -> int:
    """Print the rows; exit status 2 for a malformed argument."""
    print("| variant | deals | thoughtful won | lost | unknown | honest won |")
    print("| --- | --- | --- | --- | --- | --- |")
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
        span = f"{records[0]['deal']}–{records[-1]['deal']}" if records else "none"
        print(
            f"| {variant} | {span} ({total}) | {cell(counts['won'], total)} | "
            f"{cell(counts['lost'], total)} | {cell(counts['unknown'], total)} | "
            f"{cell(honest, total)} |"
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
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
