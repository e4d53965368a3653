"""Crazy Quilt beams alone on chosen deals: which of the solver's beams win them, at what cost.

    uv run python bench/crazy_quilt_beams.py --variant classic --beams wide-restarts \\
        --only 9,95,289 [--budget 60000000] [--width 432] [--jsonl FILE] [--add-winnable]

For each deal of ``--only`` (or of the range ``--deals A..B``) it runs the beams named by
``--beams`` (:func:`spielcenter.solvers.crazy_quilt_beam.run_beams`: ``widening``, ``restarts``
or ``wide-restarts``) alone, without the rest of the solver, with at most ``--budget``
positions a deal; ``--width`` gives the wide restarts another width than their 144 (a trial).
This is the search ``spielcenter winnable grow --restarts`` or
``--wide-restarts`` runs, with the figures a run should publish: each deal's verdict,
positions and seconds, and at the end the deals won and not won.

``--jsonl FILE`` appends one JSON record per deal (with a won deal's line); ``--add-winnable``
adds every won deal to the stored list of winnable deals after replaying its line through the
engine to a won game (as ``winnable grow`` does, and safely while another run grows the list).
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from tqdm import tqdm

from spielcenter.cli.solve import parse_range
from spielcenter.games.crazy_quilt import VARIANTS
from spielcenter.games.shuffle import check_deal
from spielcenter.solvers import winnable
from spielcenter.solvers.crazy_quilt import BEAMS, Verdict, position_of, start_state
from spielcenter.solvers.crazy_quilt_beam import wide_restarts

GAME = "crazy-quilt"


def solve(args: argparse.Namespace, deal: int) -> Verdict:
    """The beams' verdict on ``deal``: as ``winnable grow`` searches, or wide restarts of
    ``--width``."""
    if args.width is None:
        return winnable.solve_deal(GAME, args.variant, deal, args.budget, beams=args.beams)
    position = position_of(start_state(deal, args.variant))
    return wide_restarts(position, node_budget=args.budget, width=args.width)


def run(args: argparse.Namespace, deals: list[int]) -> list[dict[str, Any]]:
    """Run the beams on every deal; one record per deal."""
    records = []
    path = winnable.list_path(GAME, args.variant)
    bar = tqdm(deals, desc=f"{args.variant} {args.beams}", unit="deal")
    for deal in bar:
        began = time.perf_counter()
        verdict = solve(args, deal)
        record: dict[str, Any] = {
            "deal": deal,
            "variant": args.variant,
            "beams": args.beams,
            "width": args.width,
            "result": verdict.result,
            "nodes": verdict.nodes,
            "seconds": round(time.perf_counter() - began, 1),
        }
        if verdict.result == "won":
            record["replays"] = winnable.replays_to_won(GAME, args.variant, deal, verdict.moves)
            record["moves"] = verdict.moves
            if args.add_winnable and record["replays"]:
                winnable.add_proof(path, GAME, args.variant, deal, verdict.moves)
        if args.jsonl is not None:
            with args.jsonl.open("a", encoding="utf-8") as out:
                out.write(json.dumps(record) + "\n")
        records.append(record)
        bar.set_postfix(won=sum(r["result"] == "won" for r in records))
    return records


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", choices=VARIANTS, default="classic")
    parser.add_argument("--beams", choices=BEAMS, default="wide-restarts")
    parser.add_argument("--deals", default="1..10", help="A..B, both included")
    parser.add_argument("--only", help="comma-separated deal numbers instead of --deals")
    parser.add_argument("--budget", type=int, default=60_000_000, help="positions per deal")
    parser.add_argument("--width", type=int, help="wide restarts of this width (a trial)")
    parser.add_argument("--jsonl", type=Path, help="append one JSON record per deal here")
    parser.add_argument(
        "--add-winnable", action="store_true", help="add the won deals to the winnable list"
    )
    args = parser.parse_args(argv)
    try:
        if args.only:
            deals = [check_deal(int(deal)) for deal in args.only.split(",")]
        else:
            first, last = parse_range(args.deals)
            deals = list(range(first, last + 1))
    except ValueError as exc:
        parser.error(str(exc))
    if args.width is not None and (args.beams != "wide-restarts" or args.width < 1):
        parser.error("--width is a positive width, for --beams wide-restarts only")
    if args.budget <= 0:
        parser.error(f"--budget must be a positive number of positions, not {args.budget}")
    records = run(args, deals)
    for record in records:
        print(
            f"  deal {record['deal']}: {record['result']}, {record['nodes']:,} positions, "
            f"{record['seconds']} s"
        )
    won = [r["deal"] for r in records if r["result"] == "won" and r["replays"]]
    summary = {
        "variant": args.variant,
        "beams": args.beams,
        "budget": args.budget,
        "width": args.width,
        "won": won,
        "not_won": [r["deal"] for r in records if r["deal"] not in won],
        "seconds": round(sum(r["seconds"] for r in records), 1),
        "python": platform.python_version(),
        "at": datetime.now(UTC).isoformat(),
    }
    print(f"{args.variant}, {args.beams}, {args.budget:,} positions a deal: won {won or 'none'}")
    print(json.dumps(summary))
    return 1 if any(r["result"] == "won" and not r["replays"] for r in records) else 0


if __name__ == "__main__":
    raise SystemExit(main())
