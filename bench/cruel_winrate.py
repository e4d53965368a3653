"""Measure the Cruel solver: won / lost / unknown over a range of deals, and time per deal.

    uv run python bench/cruel_winrate.py --variant classic --deals 1..300 --time-limit 10

Prints the summary (counts with 95 % Wilson intervals, median / p99 / max seconds per deal) and,
with ``--json-out FILE``, writes it as JSON too. A tqdm progress bar runs on standard error.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
from datetime import UTC, datetime
from pathlib import Path

from spielcenter.cli.solve import SOLVERS, measure, parse_range
from spielcenter.solvers.cruel import DEFAULT_NODE_BUDGET


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
    args = parser.parse_args(argv)
    first, last = parse_range(args.deals)
    rate = measure(
        "cruel",
        args.variant,
        range(first, last + 1),
        first,
        last,
        SOLVERS["cruel"],
        args.budget,
        args.time_limit,
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
