"""Crazy Quilt win rates: the thoughtful solver (stock known) and the honest player (stock unseen).

    uv run python bench/crazy_quilt_winrate.py --variant classic --first 1 --deals 1000 \\
        [--budget 200000] [--honest-budget 50000] [--minutes 60] \\
        [--beams eager-restarts|blind-restarts|thrifty|graded|mixed|widening|restarts|\\
        wide-restarts|eager|eager-twins] [--jsonl FILE [--resume]] \\
        [--add-winnable] [--honest-only] [--rules guarded|bare]

For consecutive deals from ``--first`` on, until ``--deals`` are done or ``--minutes`` have
passed (the deal in progress is finished), it runs

* the thoughtful solver (:func:`spielcenter.solvers.crazy_quilt.solve`, ``--budget`` positions
  per deal, its beams named by ``--beams``): won / lost / unknown;
* the honest player (:func:`spielcenter.solvers.crazy_quilt_honest.play_honestly`, its solver
  limited to ``--honest-budget`` positions each time it comes to know the stock): won or lost.

``--honest-only`` skips the thoughtful solver, to measure a change to the honest player alone.
``--rules bare`` lets the honest player play its rules of thumb unguarded (the rules of
2026-12-05, some 50 times quicker), to compare a change with them deal by deal on the same deals;
the default ``guarded`` is the player the hints are (``HonestPlayer.guarded``).

It prints the counts with 95 % Wilson intervals, the time per deal (median, p99, max) and a
JSON line. ``--jsonl FILE`` appends one JSON record per deal (verdict, positions, seconds, the
honest player's result, and a won deal's winning line); ``--add-winnable`` adds every deal the
solver won, with its line, to the stored list of winnable deals (``spielcenter winnable``),
after replaying the line through the engine to a won game, exactly as ``spielcenter winnable
grow`` does. ``--resume`` continues a run that stopped: the deals already in the ``--jsonl`` file
are counted from their records (made with the same budgets and beams, or it refuses) and not
played again; the progress bar starts at their number.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from tqdm import tqdm

from spielcenter.games.crazy_quilt import VARIANTS, make
from spielcenter.solvers import winnable
from spielcenter.solvers.crazy_quilt import BEAMS, solve
from spielcenter.solvers.crazy_quilt_honest import HonestGame, play_from
from spielcenter.solvers.cruel_winrate import percentile, wilson_interval

GAME = "crazy-quilt"


def share(hits: int, trials: int) -> str:
    """``hits/trials = p % [low %, high %]`` with the 95 % Wilson interval."""
    low, high = wilson_interval(hits, trials)
    rate = hits / trials if trials else 0.0
    return f"{hits}/{trials} = {rate:.1%} [{low:.1%}, {high:.1%}]"


def times(values: list[float]) -> str:
    """Median, p99 and max of a list of seconds."""
    if not values:
        return "no deals"
    return (
        f"median {statistics.median(values):.2f} s, p99 {percentile(values, 0.99):.2f} s, "
        f"max {max(values):.2f} s"
    )


def add_to_winnable(variant: str, deal: int, moves: list[str]) -> bool:
    """Add ``deal`` to the winnable list if ``moves`` replay to a won game; whether it did."""
    if not winnable.replays_to_won(GAME, variant, deal, moves):
        return False
    winnable.add_proof(winnable.list_path(GAME, variant), GAME, variant, deal, moves)
    return True


SETTINGS = ("budget", "honest_budget", "beams", "honest_only", "rules")
"""What a record keeps of the run's settings: a resumed run must have the same ones."""

RULES = ("guarded", "bare")
"""The honest player's rules: guarded by the relaxed game across the redeal, or bare."""

UNRECORDED = {"rules": "guarded"}
"""A setting older records do not keep, and what they were made with (``--rules`` came after
the guard, 2026-12-06)."""


def play_honestly(deal: int, variant: str, node_budget: int, rules: str) -> HonestGame:
    """The honest player's game of ``deal`` under ``rules`` (one of :data:`RULES`)."""
    return play_from(make(variant).start(deal), node_budget, guarded=rules == "guarded")


def recorded(path: Path, settings: dict[str, Any], deals: range) -> dict[int, dict[str, Any]]:
    """The records of ``deals`` in ``path`` (none when it does not exist), by deal; raises
    ``SystemExit`` when one was made with other settings or a line is not a record."""
    if not path.exists():
        return {}
    found: dict[int, dict[str, Any]] = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        try:
            record = json.loads(line)
            deal = record["deal"]
        except (ValueError, KeyError, TypeError):
            raise SystemExit(f"{path}, line {number}: not a deal's record") from None
        made = {key: record.get(key, UNRECORDED.get(key)) for key in settings}
        other = {key: made[key] for key in settings if made[key] != settings[key]}
        if other:
            raise SystemExit(
                f"{path}, line {number}: made with {other}, not {settings}: resume into a new file"
            )
        if deal in deals:
            found[deal] = record
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--variant", choices=VARIANTS, default="classic")
    parser.add_argument("--first", type=int, default=1, help="first deal number")
    parser.add_argument("--deals", type=int, default=1000, help="at most this many deals")
    parser.add_argument("--minutes", type=float, default=600.0, help="stop after this long")
    parser.add_argument("--budget", type=int, default=200_000, help="solver positions per deal")
    parser.add_argument("--honest-budget", type=int, default=50_000)
    parser.add_argument("--beams", choices=BEAMS, default=BEAMS[0], help="the solver's beams")
    parser.add_argument("--jsonl", type=Path, help="append one JSON record per deal here")
    parser.add_argument(
        "--add-winnable", action="store_true", help="add the won deals to the winnable list"
    )
    parser.add_argument(
        "--honest-only", action="store_true", help="run the honest player alone, not the solver"
    )
    parser.add_argument(
        "--rules",
        choices=RULES,
        default=RULES[0],
        help="the honest player's rules (bare: unguarded)",
    )
    parser.add_argument(
        "-r",
        "--resume",
        action="store_true",
        help="count the deals already in --jsonl, play the rest",
    )
    args = parser.parse_args()
    if args.resume and args.jsonl is None:
        parser.error("--resume continues the records of --jsonl FILE: give the file")
    settings = {key: getattr(args, key) for key in SETTINGS}
    deals = range(args.first, args.first + args.deals)
    earlier = recorded(args.jsonl, settings, deals) if args.resume else {}

    counts = {"won": 0, "lost": 0, "unknown": 0}
    honest_won = 0
    solve_times: list[float] = []
    honest_times: list[float] = []
    nodes = 0
    added = 0
    began = time.perf_counter()
    for record in earlier.values():
        if "result" in record:
            counts[record["result"]] += 1
            solve_times.append(record["seconds"])
            nodes += record["nodes"]
        honest_times.append(record["honest_seconds"])
        honest_won += record["honest"] == "won"
    deal = args.first
    with tqdm(total=args.deals, desc=args.variant, unit="deal", initial=len(earlier)) as bar:
        while deal < args.first + args.deals:
            if time.perf_counter() - began > args.minutes * 60:
                break
            if deal in earlier:
                deal += 1
                continue
            verdict = None
            if not args.honest_only:
                clock = time.perf_counter()
                verdict = solve(deal, args.variant, node_budget=args.budget, beams=args.beams)
                solve_times.append(time.perf_counter() - clock)
                counts[verdict.result] += 1
                nodes += verdict.nodes
            clock = time.perf_counter()
            honest = play_honestly(deal, args.variant, args.honest_budget, args.rules)
            honest_times.append(time.perf_counter() - clock)
            honest_won += honest.status.value == "won"
            if args.add_winnable and verdict is not None and verdict.result == "won":
                added += add_to_winnable(args.variant, deal, verdict.moves)
            if args.jsonl is not None:
                record: dict[str, Any] = {
                    "deal": deal,
                    **settings,
                    "honest": honest.status.value,
                    "honest_seconds": round(honest_times[-1], 4),
                }
                if verdict is not None:
                    record |= {
                        "result": verdict.result,
                        "nodes": verdict.nodes,
                        "seconds": round(solve_times[-1], 4),
                    }
                if verdict is not None and verdict.result == "won":
                    record["moves"] = verdict.moves  # the proof, for the winnable lists
                with args.jsonl.open("a", encoding="utf-8") as out:
                    out.write(json.dumps(record) + "\n")
            deal += 1
            bar.update(1)
            if args.honest_only:
                bar.set_postfix(honest=honest_won)
            else:
                bar.set_postfix(won=counts["won"], lost=counts["lost"], honest=honest_won)
    done = len(honest_times)  # every deal played or counted from its record
    solving = sum(solve_times)
    print(f"Crazy Quilt, {args.variant}: deals {args.first}–{deal - 1} ({done} deals)")
    if not args.honest_only:
        print(f"  thoughtful won     {share(counts['won'], done)}")
        print(f"  thoughtful lost    {share(counts['lost'], done)}")
        print(f"  thoughtful unknown {share(counts['unknown'], done)}")
    print(f"  honest won         {share(honest_won, done)}")
    if done and solving:
        print(f"  solver: {times(solve_times)} per deal, {nodes / solving:,.0f} positions/s")
    if done:
        print(f"  honest: {times(honest_times)} per deal")
    if args.add_winnable:
        print(f"  winnable list: {added} won deals replayed and listed")
    summary = {
        "variant": args.variant,
        "first": args.first,
        "deals": done,
        "budget": args.budget,
        "beams": args.beams,
        "honest_budget": args.honest_budget,
        "rules": args.rules,
        "thoughtful": None if args.honest_only else counts,
        "honest_won": honest_won,
        "solve_seconds": solving,
        "solve_median": statistics.median(solve_times) if solve_times else 0.0,
        "solve_p99": percentile(solve_times, 0.99),
        "solve_max": max(solve_times, default=0.0),
        "honest_seconds": sum(honest_times),
        "honest_median": statistics.median(honest_times) if done else 0.0,
        "positions_per_second": nodes / solving if solving else 0.0,
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "python": platform.python_version(),
    }
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
