"""Solve a list of Cruel deals one by one and print each verdict, its positions and its time.

    uv run python bench/cruel_deals.py --variant classic --time-limit 10 501 618 863

For iterating on the deals a measurement left undecided (docs/winrates.md lists them); a
tqdm progress bar runs on standard error, and the summary names the deals still undecided.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from tqdm import tqdm

from spielcenter.games import get_game
from spielcenter.games.base import Status
from spielcenter.solvers import cruel


def main() -> int:
    """Solve the deals; exit status 1 when a claimed win does not replay to a won game."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("deals", type=int, nargs="+", help="deal numbers")
    parser.add_argument("--variant", default="classic", choices=cruel.VARIANTS)
    parser.add_argument("--budget", type=int, default=cruel.DEFAULT_NODE_BUDGET)
    parser.add_argument("--time-limit", type=float, default=10.0)
    args = parser.parse_args()
    game = get_game("cruel", args.variant)
    print(f"load average at the start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    counts = dict.fromkeys(("won", "lost", "unknown"), 0)
    undecided: list[int] = []
    bad = 0
    for deal in tqdm(args.deals, desc=f"cruel {args.variant}", unit="deal"):
        started = time.perf_counter()
        verdict = cruel.solve(
            deal, args.variant, node_budget=args.budget, time_budget=args.time_limit
        )
        seconds = time.perf_counter() - started
        counts[verdict.result] += 1
        note = ""
        if verdict.result == "won":
            replayed = game.status(game.replay(deal, verdict.moves)) is Status.WON
            note = f", {len(verdict.moves)} moves, replays to won: {replayed}"
            bad += not replayed
        elif verdict.result == "unknown":
            undecided.append(deal)
        tqdm.write(f"{deal}: {verdict.result}, {verdict.nodes} positions, {seconds:.2f} s{note}")
    print(", ".join(f"{result} {count}" for result, count in counts.items()))
    print("undecided: " + " ".join(map(str, undecided)))
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
