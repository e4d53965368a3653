"""Crazy Quilt hints: how long a player waits for the hint button (the honest player's choice).

    uv run python bench/crazy_quilt_hints.py --variant classic --first 1 --deals 10 --every 3 \\
        [--json FILE]

For each deal it plays the honest player's game (10 000 positions a search, as measured in
docs/winrates-crazy-quilt.md) and, at every ``--every``-th position of it, asks for the hint as
the server does (:func:`spielcenter.solvers.hints.crazy_quilt_hint` with the moves played so
far, which it replays to find the stock the player remembers), timing each call. It prints the
milliseconds per hint (count, median, p90, p99, max) for the whole run and apart for the two
kinds of hint: before the first redeal (the guarded rule of thumb, with its eight stock orders
drawn from the unseen cards) and after it (the solver, from the stock the player now knows). The
machine's load is printed at the start and the end: figures taken beside other work say so.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import time
from pathlib import Path
from typing import Any

from tqdm import tqdm

from spielcenter.games.crazy_quilt import REDEAL, VARIANTS, make
from spielcenter.solvers.crazy_quilt_honest import play_honestly
from spielcenter.solvers.cruel_winrate import percentile
from spielcenter.solvers.hints import crazy_quilt_hint

HONEST_BUDGET = 10_000
"""Positions a search of the honest player whose games are sampled (the measured player's)."""


def machine() -> dict[str, Any]:
    """When, at which commit, on how many cores and at which load the run was made."""
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        commit = "?"
    return {
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "commit": commit,
        "cpus": os.cpu_count(),
        "load": [round(x, 2) for x in os.getloadavg()],
    }


def spread(values: list[float]) -> dict[str, float]:
    """Count, median, p90, p99 and max of milliseconds."""
    if not values:
        return {"hints": 0}
    return {
        "hints": len(values),
        "median": round(statistics.median(values), 2),
        "p90": round(percentile(values, 0.90), 2),
        "p99": round(percentile(values, 0.99), 2),
        "max": round(max(values), 2),
    }


def hint_times(variant: str, deal: int, every: int) -> dict[str, list[float]]:
    """Milliseconds of the hints at every ``every``-th position of the honest game of ``deal``,
    by kind: ``before`` the first redeal and ``after`` it."""
    game = make(variant)
    moves = play_honestly(deal, variant, HONEST_BUDGET).moves
    state = game.start(deal)
    times: dict[str, list[float]] = {"before": [], "after": []}
    redealt = False
    for played, move in enumerate(moves):
        if played % every == 0:
            clock = time.perf_counter()
            crazy_quilt_hint(game, state, moves[:played])
            times["after" if redealt else "before"].append(1000 * (time.perf_counter() - clock))
        redealt = redealt or move == REDEAL
        state = game.play(state, move)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--variant", choices=VARIANTS, default="classic")
    parser.add_argument("--first", type=int, default=1, help="first deal number")
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--every", type=int, default=3, help="a hint at every n-th position")
    parser.add_argument("--json", type=Path, help="write the figures here too")
    args = parser.parse_args()
    began = machine()
    kinds: dict[str, list[float]] = {"before": [], "after": []}
    deals = range(args.first, args.first + args.deals)
    for deal in tqdm(deals, desc=f"{args.variant} hints", unit="deal"):
        for kind, values in hint_times(args.variant, deal, args.every).items():
            kinds[kind] += values
    figures = {
        "variant": args.variant,
        "deals": f"{deals.start}–{deals.stop - 1}",
        "every": args.every,
        "all": spread(kinds["before"] + kinds["after"]),
        "before the first redeal": spread(kinds["before"]),
        "after it": spread(kinds["after"]),
        "began": began,
        "ended": machine(),
    }
    for kind in ("all", "before the first redeal", "after it"):
        print(f"{args.variant}, {kind}: ms per hint {figures[kind]}")
    print(f"load at the start {began['load']}, at the end {figures['ended']['load']}")
    if args.json is not None:
        args.json.write_text(json.dumps(figures, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
