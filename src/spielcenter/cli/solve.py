"""``spielcenter solve`` and ``spielcenter winrate``: the patience solvers on the command line.

``solve GAME --deal N`` prints ``won`` with a winning line, ``lost`` (proven: the search was
exhaustive) or ``unknown`` (the budget ran out), and the positions searched. Its exit status tells
the answer: 0 won, 1 lost, 3 unknown, 2 bad input or a game without a solver.

``winrate GAME --variant V --deals A..B`` solves every deal of a range with a progress bar and
prints the won / lost / unknown counts with 95 % Wilson intervals and the time per deal. With
``--records FILE`` it appends each deal's record to ``FILE`` (a JSON line) as soon as the deal is
solved, and a run started again with the same file and settings resumes: the deals recorded there
are counted from their records, not solved again.

Without ``--budget`` each game gets the budget its win rates were measured at
(:data:`DEFAULT_BUDGETS`).
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import re
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tqdm import tqdm

from spielcenter.games import GameError
from spielcenter.games.base import canonical_name, variants_of
from spielcenter.games.shuffle import DealNumberError, check_deal
from spielcenter.solvers.cruel_winrate import RESULTS, WinRate
from spielcenter.solvers.registry import SolveFunction, solver_of
from spielcenter.solvers.verdict import Verdict

from . import EXIT_BAD_INPUT

EXIT_WON = 0
EXIT_LOST = 1
EXIT_UNKNOWN = 3
_EXITS = {"won": EXIT_WON, "lost": EXIT_LOST, "unknown": EXIT_UNKNOWN}

DEFAULT_BUDGETS = {"cruel": 2_000_000, "crazy-quilt": 5_000_000}
"""Positions per deal when ``--budget`` is not given: the budgets of the published win rates
(docs/winrates.md, docs/winrates-crazy-quilt.md), each about 10 s a deal at most on one core."""

Solver = Callable[[int, str, int, float | None], Verdict]
"""Solve one deal: (deal, variant, positions, seconds or ``None``) to a verdict."""


SOLVING_GC_THRESHOLD = (200_000, 30, 30)
"""The cycle collector's thresholds while a deal is solved (those mypy's build sets for its own
run). The searches make millions of short-lived tuples, lists and nodes but no cycles, and keep
large sets and dictionaries of positions, which each full collection walks: with the defaults
(700, 10, 10) the collector took about a sixth of a deal's CPU time at 5 000 000 positions
(docs/performance.md, *Crazy Quilt at 5 000 000 positions*, session 11). It still runs,
seldom; the thresholds before are restored after the deal."""


@contextlib.contextmanager
def seldom_collected() -> Iterator[None]:
    """Run the block with :data:`SOLVING_GC_THRESHOLD`, and the collector's thresholds as they
    were after it (also when it raises)."""
    before = gc.get_threshold()
    gc.set_threshold(*SOLVING_GC_THRESHOLD)
    try:
        yield
    finally:
        gc.set_threshold(*before)


def deal_solver(solve: SolveFunction) -> Solver:
    """A registry solver as the deal-by-deal measurement calls it (``bench/cruel_winrate.py``),
    each deal with the cycle collector seldom run (:func:`seldom_collected`)."""

    def solve_deal(deal: int, variant: str, budget: int, time_budget: float | None) -> Verdict:
        with seldom_collected():
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
    winrate.add_argument(
        "--records",
        type=Path,
        help="append each deal's record to this JSON-lines file; resume from the deals in it",
    )
    _options(winrate)
    winrate.set_defaults(func=cmd_winrate)


def _options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--variant", help="variant (default: the game's first)")
    budgets = ", ".join(f"{game} {budget:_}" for game, budget in DEFAULT_BUDGETS.items())
    parser.add_argument(
        "--budget",
        type=int,
        help=f"positions to search per deal (default per game: {budgets})",
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
    if args.budget is None:
        args.budget = DEFAULT_BUDGETS.get(name, DEFAULT_BUDGETS["cruel"])
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
    resumed: Sequence[Recorded] = (),
) -> WinRate:
    """Solve each deal, timing it, with a tqdm progress bar on standard error; ``on_deal`` (if
    given) hears each deal's number, verdict and seconds as soon as it is solved. The
    ``resumed`` deals (solved by an earlier run) are counted first and not solved again; the bar
    starts at their number."""
    rate = WinRate(game, variant, first, last)
    done = set()
    for record in sorted(resumed, key=lambda record: record.deal):
        rate.add(record.deal, record.result, record.seconds)
        done.add(record.deal)
    todo = [deal for deal in deals if deal not in done]
    bar = tqdm(
        todo,
        desc=f"{game} {variant}",
        unit="deal",
        disable=not progress,
        initial=len(done),
        total=len(done) + len(todo),
    )
    for deal in bar:
        started = time.perf_counter()
        verdict = solver(deal, variant, budget, time_limit)
        seconds = time.perf_counter() - started
        rate.add(deal, verdict.result, seconds)
        if on_deal is not None:
            on_deal(deal, verdict, seconds)
    return rate


@dataclass(frozen=True)
class Recorded:
    """One deal's record in a ``--records`` file: what a resumed run counts it as."""

    deal: int
    result: str
    seconds: float


def read_records(path: Path, settings: dict[str, object], first: int, last: int) -> list[Recorded]:
    """The deals from ``first`` to ``last`` recorded in ``path`` (none when it does not exist).

    Every record must have been made with ``settings`` (game, variant, budget, time limit):
    counts made otherwise do not add up, so such a file is refused (``ValueError``), as is a
    line that is not a record (a run killed while writing it: remove that line).
    """
    if not path.exists():
        return []
    found: dict[int, Recorded] = {}
    with path.open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            try:
                record = json.loads(line)
                deal, result, seconds = record["deal"], record["result"], record["seconds"]
            except (ValueError, KeyError, TypeError):
                raise ValueError(f"{path}, line {number}: not a deal's record") from None
            if not isinstance(deal, int) or result not in RESULTS:
                raise ValueError(f"{path}, line {number}: not a deal's record")
            other = {key: record.get(key) for key in settings if record.get(key) != settings[key]}
            if other:
                raise ValueError(
                    f"{path} holds records of another measurement ({_settings_text(other)}, "
                    f"not {_settings_text({key: settings[key] for key in other})}): "
                    "give a new file to measure with these settings"
                )
            if first <= deal <= last:
                found[deal] = Recorded(deal, result, float(seconds))
    return list(found.values())


def _settings_text(settings: dict[str, object]) -> str:
    return ", ".join(f"{key} {value}" for key, value in settings.items())


def _record_line(settings: dict[str, object], deal: int, verdict: Verdict, seconds: float) -> str:
    record: dict[str, object] = {**settings, "deal": deal, **_verdict_json(verdict)}
    record["seconds"] = round(seconds, 4)
    return json.dumps(record) + "\n"


def cmd_winrate(args: argparse.Namespace) -> int:
    """Solve a range of deals and print the counts, intervals and times."""
    try:
        name, variant, solver = _resolve(args)
        first, last = parse_range(args.deals)
        settings: dict[str, object] = {
            "game": name,
            "variant": variant,
            "budget": args.budget,
            "time_limit": args.time_limit,
        }
        resumed = [] if args.records is None else read_records(args.records, settings, first, last)
    except (ValueError, OSError) as exc:
        return _error(str(exc))
    on_deal = None
    if args.records is not None:
        path: Path = args.records

        def on_deal(deal: int, verdict: Verdict, seconds: float) -> None:
            with path.open("a", encoding="utf-8") as out:
                out.write(_record_line(settings, deal, verdict, seconds))

    rate = measure(
        name,
        variant,
        range(first, last + 1),
        first,
        last,
        solver,
        args.budget,
        args.time_limit,
        on_deal=on_deal,
        resumed=resumed,
    )
    if args.json:
        sys.stdout.write(json.dumps(rate.as_json()) + "\n")
    else:
        sys.stdout.write(rate.as_text() + "\n")
    return 0
