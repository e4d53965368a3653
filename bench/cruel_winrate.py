"""Measure the Cruel solver: won / lost / unknown over a range of deals, and time per deal.

    uv run python bench/cruel_winrate.py --variant classic --deals 1..300 --time-limit 10

Prints the summary (counts with 95 % Wilson intervals, median / p99 / max seconds per deal) and,
with ``--json-out FILE``, writes it as JSON too. With ``--records FILE`` each deal's verdict,
positions and seconds go to a CSV file as soon as it is solved (``deal,result,nodes,seconds``);
the published runs keep theirs in ``docs/records/cruel-VARIANT.csv``, from which
``bench/cruel_summary.py`` draws the figure. A tqdm progress bar runs on standard error.
"""

from __future__ import annotations

import argparse
import csv
import json
import platform
import sys
from contextlib import ExitStack
from datetime import UTC, datetime
from pathlib import Path

from spielcenter.cli.solve import deal_solver, measure, parse_range
from spielcenter.solvers.cruel import DEFAULT_NODE_BUDGET, Verdict
from spielcenter.solvers.cruel import solve as cruel_solve

RECORD_FIELDS = ("deal", "result", "nodes", "seconds")
"""The columns of ``--records``: one row per deal."""


def main(argv: list[str] | None = None) -> int:
    """Run the measurement; returns the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--variant", default="classic", choices=("classic", "stuck", "perseverance")
    )
    parser.add_argument("--deals", default="1..300", help="range A..B (default 1..300)")
    parser.add_argument(
        "--budget", type=int, default=DEFAULT_NODE_BUDGET, help="positions per deal"
    )
    parser.add_argument("--time-limit", type=float, default=10.0, help="seconds per deal")
    parser.add_argument("--json-out", type=Path, help="also write the summary as JSON here")
    parser.add_argument("--records", type=Path, help="write each deal's record to this CSV file")
    args = parser.parse_args(argv)
    first, last = parse_range(args.deals)
    with ExitStack() as stack:
        on_deal = None
        if args.records is not None:
            handle = args.records.open("w", newline="", encoding="utf-8")
            rows = csv.writer(stack.enter_context(handle))
            rows.writerow(RECORD_FIELDS)

            def on_deal(deal: int, verdict: Verdict, seconds: float) -> None:
                rows.writerow((deal, verdict.result, verdict.nodes, f"{seconds:.6f}"))

        rate = measure(
            "cruel",
            args.variant,
            range(first, last + 1),
            first,
            last,
            deal_solver(cruel_solve),
            args.budget,
            args.time_limit,
            on_deal=on_deal,
        )
    print(rate.as_text())
    if args.json_out is not None:
        summary = rate.as_json()
        summary["command"] = " ".join(
            ["uv run python bench/cruel_winrate.py", *(argv or sys.argv[1:])]
        )
        summary["budget"] = args.budget
        summary["time_limit"] = args.time_limit
        summary["date"] = datetime.now(UTC).isoformat(timespec="seconds")
        summary["python"] = platform.python_version()
        args.json_out.write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
