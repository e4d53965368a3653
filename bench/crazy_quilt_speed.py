"""How many positions per second the Crazy Quilt solver searches, and that a faster one still
searches exactly the same positions.

    uv run python bench/crazy_quilt_speed.py [--sample regression|hard|all] [--budget 100000] \\
        [--hard-budget 300000] [--deals 20] [--save FILE] [--compare FILE] [--rows 1]

Runs a fixed sample of searches, each at a budget of positions (no clock, so the answer depends
on the search alone), and prints the positions per second of the whole sample:

* ``regression``: :func:`~spielcenter.solvers.crazy_quilt.solve` (the user's pipeline: the
  honest trial, the suits alone, the thrifty beams, the exhaustive searches) on deals 1 to
  ``--deals`` of each of the four variants at ``--budget`` positions, then the other beams
  (``mixed``, ``widening``, ``restarts``, ``wide-restarts``) and the exhaustive search with the
  check across the redeal and with the suits alone (``split_budget``) on a few deals;
* ``hard``: ``solve`` on classic deals the solver leaves undecided at its default budget
  (docs/winrates-crazy-quilt.md), at ``--hard-budget`` positions: the searches that spend their
  whole budget, where positions per second decide what a user's run decides.

``--save FILE`` writes every search's verdict, positions and line as JSON; ``--compare FILE``
checks them against such a file, exactly, and fails (exit status 1) on any difference: a change
made for speed alone must leave every verdict, position count and line as it was. ``--rows N``
runs the sample N times and prints each row's positions per second (the answers are compared on
every row). A progress bar runs over the searches.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from tqdm import tqdm

from spielcenter import native
from spielcenter.games.crazy_quilt import VARIANTS
from spielcenter.solvers.crazy_quilt import solve, start_state
from spielcenter.solvers.crazy_quilt_beam import run_beams
from spielcenter.solvers.crazy_quilt_position import position_of
from spielcenter.solvers.crazy_quilt_search import decide
from spielcenter.solvers.verdict import Verdict

HARD: tuple[int, ...] = (83, 95, 167, 242, 258, 289)
"""Classic deals left undecided after restarts of 60–120 million positions (issue 41)."""

Case = tuple[str, Callable[[], Verdict]]


def _solve(deal: int, variant: str, budget: int) -> Case:
    return f"solve {variant} {deal} {budget}", lambda: solve(deal, variant, node_budget=budget)


def _beams(name: str, deal: int, variant: str, budget: int) -> Case:
    def run() -> Verdict:
        position = position_of(start_state(deal, variant))
        return run_beams(name, position, node_budget=budget)

    return f"beams {name} {variant} {deal} {budget}", run


def _decide(deal: int, variant: str, budget: int, across: bool, split: int) -> Case:
    def run() -> Verdict:
        position = position_of(start_state(deal, variant))
        verdict, _ = decide(position, budget, None, across, set(), split_budget=split)
        return verdict

    return f"decide {variant} {deal} {budget} across={across} split={split}", run


def cases(sample: str, deals: int, budget: int, hard_budget: int) -> list[Case]:
    """The searches of ``sample`` in their fixed order."""
    chosen: list[Case] = []
    if sample in ("regression", "all"):
        for variant in VARIANTS:
            chosen += [_solve(deal, variant, budget) for deal in range(1, deals + 1)]
        for name in ("mixed", "widening", "restarts", "wide-restarts"):
            chosen += [_beams(name, deal, "classic", budget) for deal in (2, 9)]
        for variant in ("classic", "round-the-corner"):
            chosen.append(_decide(3, variant, budget, across=False, split=0))
            chosen.append(_decide(3, variant, budget, across=True, split=0))
            chosen.append(_decide(4, variant, budget, across=True, split=2_000))
    if sample in ("hard", "all"):
        chosen += [_solve(deal, "classic", hard_budget) for deal in HARD]
    return chosen


def run_row(chosen: list[Case], row: int) -> tuple[dict[str, list[object]], int, float]:
    """Every search of ``chosen``: their answers by name, the positions and the seconds."""
    answers: dict[str, list[object]] = {}
    positions = 0
    seconds = 0.0
    for name, run in tqdm(chosen, desc=f"row {row}", unit="search", leave=False):
        start = time.perf_counter()
        verdict = run()
        seconds += time.perf_counter() - start
        positions += verdict.nodes
        answers[name] = [verdict.result, verdict.nodes, list(verdict.moves)]
    return answers, positions, seconds


def differences(answers: dict[str, list[object]], expected: dict[str, list[object]]) -> list[str]:
    """The searches whose answer is not the expected one (or that the file lacks)."""
    return [name for name in answers if answers[name] != expected.get(name)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", choices=("regression", "hard", "all"), default="all")
    parser.add_argument("--deals", type=int, default=20, help="deals per variant (regression)")
    parser.add_argument("--budget", type=int, default=100_000, help="positions (regression)")
    parser.add_argument("--hard-budget", type=int, default=300_000, help="positions (hard)")
    parser.add_argument("--rows", type=int, default=1)
    parser.add_argument("--save", type=Path)
    parser.add_argument("--compare", type=Path)
    args = parser.parse_args()
    chosen = cases(args.sample, args.deals, args.budget, args.hard_budget)
    expected = json.loads(args.compare.read_text()) if args.compare else None
    print(f"{len(chosen)} searches, {'compiled' if native.active() else 'plain Python'}")
    rates: list[float] = []
    failed = False
    for row in range(1, args.rows + 1):
        answers, positions, seconds = run_row(chosen, row)
        rates.append(positions / seconds)
        print(f"row {row}: {positions} positions in {seconds:.2f} s = {rates[-1]:,.0f} /s")
        if expected is not None:
            wrong = differences(answers, expected)
            failed |= bool(wrong)
            print("the same answers as " + str(args.compare) if not wrong else "DIFFERENT:")
            for name in wrong:
                print(f"  {name}: {answers[name]!s:.200} instead of {expected.get(name)!s:.200}")
        if args.save and row == 1:
            args.save.write_text(json.dumps(answers, indent=0))
    print(f"median {statistics.median(rates):,.0f} positions/s over {len(rates)} rows")
    print(json.dumps({"rows": [round(rate) for rate in rates], "same": not failed}))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
