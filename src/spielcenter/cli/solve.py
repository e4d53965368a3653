"""``spielcenter solve`` and ``spielcenter winrate``: the patience solvers on the command line.

``solve GAME --deal N`` prints ``won`` with a winning line, ``lost`` (proven: the search was
exhaustive) or ``unknown`` (the budget ran out), and the positions searched. Its exit status tells
the answer: 0 won, 1 lost, 3 unknown, 2 bad input or a game without a solver.

``winrate GAME --variant V --deals A..B`` solves every deal of a range with a progress bar and
prints the won / lost / unknown counts with 95 % Wilson intervals and the time per deal.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections.abc import Callable, Iterable
from typing import Any

from tqdm import tqdm

from spielcenter.games import GameError
from spielcenter.games.base import canonical_name, variants_of
from spielcenter.games.shuffle import DealNumberError, check_deal
from spielcenter.solvers.cruel import DEFAULT_NODE_BUDGET
from spielcenter.solvers.cruel_winrate import WinRate
from spielcenter.solvers.registry import SolveFunction, solver_of
from spielcenter.solvers.verdict import Verdict

from . import EXIT_BAD_INPUT

EXIT_WON = 0
EXIT_LOST = 1
EXIT_UNKNOWN = 3
_EXITS = {"won": EXIT_WON, "lost": EXIT_LOST, "unknown": EXIT_UNKNOWN}

Solver = Callable[[int, str, int, float | None], Verdict]
"""Solve one deal: (deal, variant, positions, seconds or ``None``) to a verdict."""


def deal_solver(solve: SolveFunction) -> Solver:
    """A registry solver as the deal-by-deal measurement calls it (``bench/cruel_winrate.py``)."""

    def solve_deal(deal: int, variant: str, budget: int, time_budget: float | None) -> Verdict:
        return solve(deal, variant, node_budget=budget, time_budget=time_budget)

    return solve_deal


def register(subparsers: Any) -> None:
    """Add ``solve`` and ``winrate``."""
    solve = subparsers.add_parser(
        "solve",
        help="decide whether a deal can be won",
        description="Exit status: 0 won, 1 lost (proven), 3 unknown (budget spent), 2 bad input.",
    )
    solve.add_argument("game", help="cruel or crazy-quilt")
    solve.add_argument("--deal", type=int, required=True, help="deal number")
    _options(solve)
    solve.set_defaults(func=cmd_solve)

    winrate = subparsers.add_parser("winrate", help="solve a range of deals and count the results")
    winrate.add_argument("game", help="cruel or crazy-quilt")
    winrate.add_argument("--deals", required=True, help="a range of deal numbers: A..B")
    _options(winrate)
    winrate.set_defaults(func=cmd_winrate)


def _options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--variant", help="variant (default: the game's first)")
    parser.add_argument(
        "--budget",
        type=int,
        default=DEFAULT_NODE_BUDGET,
        help=f"positions to search per deal (default {DEFAULT_NODE_BUDGET})",
    )
    parser.add_argument("--time-limit", type=float, help="seconds per deal (default: none)")
    parser.add_argument("--json", action="store_true", help="print JSON for scripts")


def _error(message: str) -> int:
    sys.stderr.write(f"spielcenter: {message}\n")
    return EXIT_BAD_INPUT


def _resolve(args: argparse.Namespace) -> tuple[str, str, Solver]:
    """The game name, variant and solver; raises ``ValueError`` with the reason."""
    try:
        name = canonical_name(args.game)
        variants = variants_of(name)
    except GameError as exc:
        raise ValueError(str(exc)) from None
    variant = args.variant or variants[0]
    if variant not in variants:
        raise ValueError(f"{name} has no variant {variant!r}; its variants: {', '.join(variants)}")
    if args.budget <= 0:
        raise ValueError(f"the budget must be a positive number of positions, not {args.budget}")
    if args.time_limit is not None and args.time_limit <= 0:
        raise ValueError(f"the time limit must be positive, not {args.time_limit}")
    solver = solver_of(name)
    if solver is None:
        raise ValueError(f"{name}: not yet supported (no solver for this game yet)")
    return name, variant, deal_solver(solver.solve)


def cmd_solve(args: argparse.Namespace) -> int:
    """Solve one deal and print the verdict; the exit status is the answer."""
    try:
        name, variant, solver = _resolve(args)
        deal = check_deal(args.deal)
    except (ValueError, DealNumberError) as exc:
        return _error(str(exc))
    verdict = solver(deal, variant, args.budget, args.time_limit)
    if args.json:
        out = {"game": name, "variant": variant, "deal": deal, **_verdict_json(verdict)}
        sys.stdout.write(json.dumps(out) + "\n")
    else:
        sys.stdout.write(_verdict_text(name, variant, deal, verdict) + "\n")
    return _EXITS[verdict.result]


def _verdict_json(verdict: Verdict) -> dict[str, object]:
    out: dict[str, object] = {
        "result": verdict.result,
        "moves": verdict.moves,
        "nodes": verdict.nodes,
    }
    if verdict.proof:
        out["proof"] = verdict.proof
    return out


def _verdict_text(name: str, variant: str, deal: int, verdict: Verdict) -> str:
    head = f"{name} {variant} deal {deal}: {verdict.result} ({verdict.nodes} positions searched)"
    if verdict.result == "won":
        return f"{head}\nmoves ({len(verdict.moves)}): {' '.join(verdict.moves)}"
    if verdict.result == "lost" and verdict.proof:
        return f"{head}\nno winning line exists: {verdict.proof}"
    if verdict.result == "lost":
        return f"{head}\nno winning line exists (the search was exhaustive)"
    return f"{head}\nundecided: the budget ran out"


_RANGE = re.compile(r"\s*(\d+)\s*\.\.\s*(\d+)\s*")


def parse_range(text: str) -> tuple[int, int]:
    """Read ``A..B`` (both included); raise ``ValueError`` unless 1 ≤ A ≤ B are deal numbers."""
    match = _RANGE.fullmatch(text)
    if match is None:
        raise ValueError(f"{text!r} is not a range of deals: write A..B, e.g. 1..300")
    first, last = int(match[1]), int(match[2])
    try:
        check_deal(first)
        check_deal(last)
    except DealNumberError as exc:
        raise ValueError(str(exc)) from None
    if first > last:
        raise ValueError(f"the range {text!r} is empty: the first deal comes after the last")
    return first, last


def measure(
    game: str,
    variant: str,
    deals: Iterable[int],
    first: int,
    last: int,
    solver: Solver,
    budget: int,
    time_limit: float | None = None,
    progress: bool = True,
    on_deal: Callable[[int, Verdict, float], None] | None = None,
) -> WinRate:
    """Solve each deal, timing it, with a tqdm progress bar on standard error; ``on_deal`` (if
    given) hears each deal's number, verdict and seconds as soon as it is solved."""
    rate = WinRate(game, variant, first, last)
    for deal in tqdm(list(deals), desc=f"{game} {variant}", unit="deal", disable=not progress):
        started = time.perf_counter()
        verdict = solver(deal, variant, budget, time_limit)
        seconds = time.perf_counter() - started
        rate.add(deal, verdict.result, seconds)
        if on_deal is not None:
            on_deal(deal, verdict, seconds)
    return rate


def cmd_winrate(args: argparse.Namespace) -> int:
    """Solve a range of deals and print the counts, intervals and times."""
    try:
        name, variant, solver = _resolve(args)
        first, last = parse_range(args.deals)
    except ValueError as exc:
        return _error(str(exc))
    rate = measure(
        name, variant, range(first, last + 1), first, last, solver, args.budget, args.time_limit
    )
    if args.json:
        sys.stdout.write(json.dumps(rate.as_json()) + "\n")
    else:
        sys.stdout.write(rate.as_text() + "\n")
    return 0
