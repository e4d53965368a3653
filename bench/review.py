"""Measure the Speedquilt game review (issue 42): its speed, and what its expected points are worth.

    uv run python bench/review.py speed --games 2 --seed 42000 [--min-rounds 12 --tries 40]
    uv run python bench/review.py calibrate --games 20 --seed 43000 [--json calibrate.json]

``--levels`` (default ``strong,normal,easy``) names the computer levels that play.

``speed`` looks, for solo games of each computer level, a duel and a table of four, for the first
``--games`` deals from ``--seed`` whose game lasts ``--min-rounds`` (12) rounds — most games end
earlier, a quilt fills — among ``--tries`` deals (the longest found otherwise), and times the
review of seat 0 of each on this process (the play itself is not timed) in wall-clock and CPU
seconds (on a shared machine the CPU time is the fairer figure); it prints each review with its
rounds and decisions, the median and the slowest, and the load average. ``--deals 42016,42018``
reviews those deals at every table instead of searching.

``calibrate`` plays solo games of each level and two-seat duels of each pair, reviews every seat,
and compares what the review's expected points promise with the points the quilt actually scored
at the end (finished pattern blocks; no solo round bonus). Two predictors are read from the
review: ``actions`` adds up the expected points of every action of hers (sewing, buying, the
bargain bin, a die given), ``sewing`` only those of her sewing. For each it prints the mean error
(predicted − scored), the Pearson correlation over all seats and per level, and the least-squares
line. It also prints the points the review says each level left on the table, per game.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
from tqdm import tqdm

from crazy_quilt_hints import machine  # the same note of when, where and at which load
from spielcenter.bots.review import KINDS, review
from spielcenter.bots.tournament import GameResult, play_game
from spielcenter.games import get_game
from spielcenter.games.speedquilt.rules import Speedquilt

LEVELS = ("strong", "normal", "easy")


def _engine(levels: tuple[str, ...]) -> Speedquilt:
    if len(levels) == 1:
        engine = get_game("speedquilt", "solo")
    else:
        engine = get_game("speedquilt", "table", players=len(levels))
    assert isinstance(engine, Speedquilt)
    return engine


def _play(levels: tuple[str, ...], seed: int) -> GameResult:
    return play_game(list(levels), seed, variant="solo" if len(levels) == 1 else "table")


def _rounds(result: GameResult) -> int:
    """Rounds played: the start player's first rolls."""
    first = next(seat for seat, text in result.moves if text == "roll")
    return sum(1 for seat, text in result.moves if seat == first and text == "roll")


def _long_games(seated: tuple[str, ...], args: argparse.Namespace) -> list[tuple[int, Any]]:
    """The first ``--games`` deals from ``--seed`` on whose game lasts ``--min-rounds`` rounds
    (most games end earlier: a quilt fills), at most ``--tries`` deals; the longest ones found
    if too few reach it."""
    if args.deals:
        return [(deal, _play(seated, deal)) for deal in args.deals]
    played = []
    for k in range(args.tries):
        result = _play(seated, args.seed + k)
        played.append((args.seed + k, result))
        if sum(_rounds(r) >= args.min_rounds for _, r in played) >= args.games:
            break
    played.sort(key=lambda item: -_rounds(item[1]))
    return played[: args.games]


def cmd_speed(args: argparse.Namespace) -> dict[str, Any]:
    """Time the review of seat 0 of long games: solo of each level, a duel, a table of four."""
    levels = args.levels
    four = tuple(levels[k % len(levels)] for k in range(4))
    two = tuple(levels[k % len(levels)] for k in range(2))
    tables = [(level,) for level in levels] + [two, four]
    runs = []
    before = machine()
    for seated in tqdm(tables, unit="table", file=sys.stderr, disable=None):
        engine = _engine(seated)
        for seed, result in _long_games(seated, args):
            began, cpu = time.perf_counter(), time.process_time()
            reviewed = review(engine, seed, result.moves, 0)
            took, cpu = time.perf_counter() - began, time.process_time() - cpu
            runs.append(
                {
                    "levels": list(seated),
                    "seed": seed,
                    "rounds": _rounds(result),
                    "decisions": len(reviewed.judgements),
                    "seconds": round(took, 3),
                    "cpu_seconds": round(cpu, 3),
                }
            )
    report = {"machine": before, "load_after": machine()["load"], "runs": runs}
    for run in runs:
        print(
            f"{','.join(run['levels']):24} deal {run['seed']}: {run['rounds']} rounds, "
            f"{run['decisions']} decisions reviewed in {run['seconds']:.2f} s "
            f"({run['cpu_seconds']:.2f} s of CPU)"
        )
    seconds = [r["seconds"] for r in runs]
    long = [r["seconds"] for r in runs if r["rounds"] >= args.min_rounds]
    cpu = [r["cpu_seconds"] for r in runs]
    report["median_s"], report["max_s"] = statistics.median(seconds), max(seconds)
    report["max_s_long"] = max(long) if long else None
    print(
        f"{len(runs)} reviews: median {statistics.median(seconds):.2f} s, slowest "
        f"{max(seconds):.2f} s; of games with {args.min_rounds}+ rounds ({len(long)}): "
        + (f"slowest {max(long):.2f} s" if long else "none found")
        + f"; CPU median {statistics.median(cpu):.2f} s, most {max(cpu):.2f} s"
    )
    print(f"load {before['load']} before, {report['load_after']} after; commit {before['commit']}")
    return report


def cmd_calibrate(args: argparse.Namespace) -> dict[str, Any]:
    """Expected points of the review against points scored, over the three levels."""
    pairs = [(a, b) for i, a in enumerate(args.levels) for b in args.levels[i + 1 :]]
    tables = [(level,) for level in args.levels] + pairs
    tasks = [(levels, args.seed + k) for levels in tables for k in range(args.games)]
    seats: list[dict[str, Any]] = []
    for levels, seed in tqdm(tasks, unit="game", file=sys.stderr, disable=None):
        result = _play(levels, seed)
        engine = _engine(levels)
        for seat, level in enumerate(levels):
            reviewed = review(engine, seed, result.moves, seat)
            acting = [j for j in reviewed.judgements if j.kind not in ("start", "rerolls")]
            left = reviewed.left_by_kind()
            seats.append(
                {
                    "level": level,
                    "solo": len(levels) == 1,
                    "seed": seed,
                    "scored": sum(points for _, points in result.quilts[seat].values()),
                    "actions": sum(j.own for j in acting),
                    "sewing": sum(j.own for j in acting if j.kind == "sewing"),
                    "left": sum(left.values()),
                    "left_by_kind": {kind: round(left[kind], 2) for kind in KINDS},
                    "mistakes": sum(j.verdict == "mistake" for j in reviewed.judgements),
                    "unclear": sum(j.verdict == "unclear" for j in reviewed.judgements),
                }
            )
    report: dict[str, Any] = {"machine": machine(), "seats": seats, "predictors": {}}
    scored = np.array([s["scored"] for s in seats], dtype=float)
    for name in ("actions", "sewing"):
        predicted = np.array([s[name] for s in seats], dtype=float)
        spread = len(seats) > 1 and np.std(predicted) > 0
        slope, intercept = np.polyfit(predicted, scored, 1) if spread else (0.0, 0.0)
        entry = {
            "mean_error": float(np.mean(predicted - scored)),
            "mean_abs_error": float(np.mean(np.abs(predicted - scored))),
            "r": _r(predicted, scored),
            "fit": [float(slope), float(intercept)],
            "by_level": {},
        }
        for level in args.levels:
            mine = [i for i, s in enumerate(seats) if s["level"] == level]
            entry["by_level"][level] = {
                "seats": len(mine),
                "mean_scored": float(np.mean(scored[mine])),
                "mean_predicted": float(np.mean(predicted[mine])),
                "r": _r(predicted[mine], scored[mine]),
            }
        report["predictors"][name] = entry
        r = "–" if entry["r"] is None else f"{entry['r']:.2f}"
        print(
            f"{name}: mean error {entry['mean_error']:+.1f} points (|error| "
            f"{entry['mean_abs_error']:.1f}), r = {r} over {len(seats)} seats; "
            f"scored ≈ {slope:.2f} × predicted {intercept:+.1f}"
        )
        for level, figures in entry["by_level"].items():
            r = "–" if figures["r"] is None else f"{figures['r']:.2f}"
            print(
                f"  {level:6} {figures['seats']} seats: scored {figures['mean_scored']:.1f}, "
                f"predicted {figures['mean_predicted']:.1f}, r = {r}"
            )
    for level in args.levels:
        mine = [s for s in seats if s["level"] == level]
        per_game = statistics.mean(s["left"] for s in mine)
        mistakes = statistics.mean(s["mistakes"] for s in mine)
        print(f"{level}: {per_game:.1f} expected points left per game, {mistakes:.1f} mistakes")
    print(f"load {report['machine']['load']}; commit {report['machine']['commit']}")
    return report


def _r(x: Any, y: Any) -> float | None:
    """Pearson's r, or ``None`` for fewer than three seats or no spread."""
    if len(x) < 3 or np.std(x) == 0 or np.std(y) == 0:
        return None
    return float(np.corrcoef(x, y)[0, 1])


def _deals(text: str) -> list[int]:
    try:
        return [int(word) for word in text.split(",") if word.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError("deals are whole numbers, e.g. 42016,42018") from None


def _levels(text: str) -> list[str]:
    levels = [word.strip() for word in text.split(",") if word.strip()]
    if not levels or any(level not in LEVELS for level in levels):
        raise argparse.ArgumentTypeError(f"levels are some of {', '.join(LEVELS)}")
    return levels


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    for name, func in (("speed", cmd_speed), ("calibrate", cmd_calibrate)):
        command = commands.add_parser(name)
        command.add_argument("--games", type=int, default=5, help="games per kind of table")
        command.add_argument("--seed", type=int, default=42000, help="deal of the first game")
        command.add_argument("--json", type=Path, help="also write the figures here")
        command.add_argument("--levels", type=_levels, default=list(LEVELS), help="who plays")
        command.set_defaults(func=func)
        if name == "speed":
            command.add_argument("--min-rounds", type=int, default=12, help="rounds to look for")
            command.add_argument("--tries", type=int, default=40, help="deals to search per table")
            command.add_argument(
                "--deals", type=_deals, default=[], help="review these deals (no search)"
            )
    args = parser.parse_args(argv)
    report = args.func(args)
    if args.json is not None:
        args.json.write_text(json.dumps(report, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
