"""Crazy Quilt with suits alone: which deals a smaller game proves lost.

    uv run python bench/crazy_quilt_suits.py --variant classic --deals 1..1000 \\
        [--size 1 | --sets D,HC] [--budget 3000000] [--only 9,23,83] [--waiting] \\
        [--drawn] [--fewer-suits 4096] [--assignments 1024] [--loose 0]

For each deal (or only the ``--only`` deals) it decides the smaller game of every set of
``--size`` suits, or of the ``--sets`` named
(:func:`spielcenter.solvers.crazy_quilt_suits.alone`: the kept suits' cards follow the rules, the
others get out of their way) with the solver's exhaustive search, at most ``--budget`` positions
each. A smaller game that is lost proves the deal lost
(:mod:`spielcenter.solvers.crazy_quilt_suits`). With ``--waiting`` the smaller game is the
waiting game instead (:mod:`spielcenter.solvers.crazy_quilt_waiting`: the other suits' quilt
cards leave only once a loose foundation or a released card one rank away could take them).
The waiting search's loose questions can draw their answers from others' (``--drawn``), ask the
kept suits but one first with ``--fewer-suits`` assignment nodes each, and have their budgets
set (``--assignments``, ``--loose``; :func:`~spielcenter.solvers.crazy_quilt_waiting.
decide_waiting`).

It prints how many smaller games were won, lost and undecided, the deals proven lost (with their
suits and positions), the undecided ones, the time, and a JSON line. As a check of soundness it
fails (exit 1) if a deal the stored lists hold as winnable comes out lost.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from collections import Counter
from datetime import UTC, datetime
from itertools import combinations
from typing import Any

from tqdm import tqdm

from spielcenter.cli.solve import parse_range
from spielcenter.games.cards import SUITS
from spielcenter.games.crazy_quilt import VARIANTS, make
from spielcenter.solvers import winnable
from spielcenter.solvers.crazy_quilt_position import position_of
from spielcenter.solvers.crazy_quilt_suits import decide_alone
from spielcenter.solvers.crazy_quilt_waiting import (
    LOOSE_ASSIGNMENTS,
    LOOSE_BUDGET,
    decide_waiting,
)

GAME = "crazy-quilt"


def survey(
    variant: str,
    deals: list[int],
    size: int,
    budget: int,
    waiting: bool = False,
    only_sets: list[str] | None = None,
    loose: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Decide every smaller game of ``size`` suits of ``deals`` (only ``only_sets`` if given;
    the waiting games if ``waiting``); the tallies and the findings."""
    game = make(variant)
    kind = "waiting" if waiting else "alone"
    sets = only_sets or ["".join(kept) for kept in combinations(SUITS, size)]
    tally: Counter[str] = Counter()
    lost: list[dict[str, Any]] = []
    undecided: list[str] = []
    started = time.perf_counter()
    label = ",".join(only_sets) if only_sets else f"{size} suit(s)"
    bar = tqdm(deals, desc=f"{variant}, {label} {kind}", unit="deal")
    for deal in bar:
        position = position_of(game.start(deal))
        for suits in sets:

            def show(nodes: int, deal: int = deal, suits: str = suits) -> None:
                bar.set_postfix_str(f"{deal} {suits}: {nodes:,} positions")

            verdict = (
                decide_waiting(position, suits, budget, show, **(loose or {}))
                if waiting
                else decide_alone(position, suits, budget)
            )
            tally[verdict.result] += 1
            if verdict.result == "lost":
                lost.append({"deal": deal, "suits": suits, "positions": verdict.nodes})
            elif verdict.result == "unknown":
                undecided.append(f"{deal} {suits}")
    return {
        "variant": variant,
        "size": size,
        "sets": sets,
        "game": kind,
        "budget": budget,
        "loose": loose or {},
        "deals": len(deals),
        "games": dict(tally),
        "lost": lost,
        "undecided": undecided,
        "seconds": round(time.perf_counter() - started, 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", choices=VARIANTS, default="classic")
    parser.add_argument("--deals", default="1..1000", help="A..B, both included")
    parser.add_argument("--only", help="comma-separated deal numbers instead of --deals")
    parser.add_argument("--size", type=int, choices=(1, 2, 3, 4), default=1)
    parser.add_argument(
        "--sets", help="comma-separated sets of suits (letters of SHDC) instead of --size"
    )
    parser.add_argument("--budget", type=int, default=3_000_000)
    parser.add_argument(
        "--waiting", action="store_true", help="the waiting games instead of the suits alone"
    )
    parser.add_argument(
        "--drawn", action="store_true", help="draw loose answers from others' (with --waiting)"
    )
    parser.add_argument(
        "--fewer-suits",
        type=int,
        default=0,
        help="assignment nodes for each loose question of the kept suits but one (--waiting)",
    )
    parser.add_argument(
        "--assignments", type=int, default=LOOSE_ASSIGNMENTS, help="a loose question's (--waiting)"
    )
    parser.add_argument(
        "--loose", type=int, default=LOOSE_BUDGET, help="a loose game's positions (--waiting)"
    )
    args = parser.parse_args(argv)
    loose = {
        "dominance": args.drawn,
        "projections": args.fewer_suits,
        "assignments": args.assignments,
        "loose_budget": args.loose,
    }
    if args.only:
        deals = [int(deal) for deal in args.only.split(",")]
    else:
        try:
            first, last = parse_range(args.deals)
        except ValueError as exc:
            parser.error(str(exc))
        deals = list(range(first, last + 1))
    only_sets = args.sets.split(",") if args.sets else None
    for suits in only_sets or []:
        if not suits or any(suit not in SUITS for suit in suits):
            parser.error(f"--sets: {suits!r} is not a set of the suits {''.join(SUITS)}")
    result = survey(args.variant, deals, args.size, args.budget, args.waiting, only_sets, loose)
    games = result["games"]
    print(
        f"{args.variant}, {len(deals)} deals, "
        f"{args.sets or str(args.size) + ' suit(s)'} {result['game']}, at most "
        f"{args.budget:,} positions each: {games.get('won', 0)} won, {games.get('lost', 0)} lost, "
        f"{games.get('unknown', 0)} undecided; {result['seconds']} s"
    )
    for found in result["lost"]:
        print(f"  deal {found['deal']} lost: {found['suits']} ({found['positions']:,} positions)")
    if result["undecided"]:
        print(f"  undecided: {', '.join(result['undecided'])}")
    listed = set(winnable.winnable_deals(GAME, args.variant))
    wrong = sorted({found["deal"] for found in result["lost"]} & listed)
    print(
        json.dumps(
            result | {"python": platform.python_version(), "at": datetime.now(UTC).isoformat()}
        )
    )
    if wrong:
        print(f"UNSOUND: listed as winnable but lost {result['game']}: {wrong}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
