"""Paired A/B runs of computer-player variants: the same deals and seatings for A and B.

    uv run python bench/bots_ab.py play strong normal --deals 1000 --seed 700000 --out a.jsonl
    uv run python bench/bots_ab.py play strong-x normal --deals 1000 --seed 700000 --out b.jsonl
    uv run python bench/bots_ab.py compare a.jsonl b.jsonl

``play`` runs the tournament's own seat rotation (deal ``seed + k``, seats rotated by ``k``), so
two runs with the same seed play the same deals in the same seats; one JSON line per game, a tqdm
bar on stderr. ``compare`` pairs the games by deal and reports the first entrant's win rate in
each run and the paired difference with its 95 % interval (the deal's luck cancels out).

A variant (bench only, never in the product) is a subclass of a level with one change, named
``<level>-<change>``, so each change can be measured alone: register it in ``LEVELS`` from the
module that defines it before ``play`` runs. The variants measured so far are in docs/bots.md; their
code is in commit e83c571 (``git show e83c571:bench/bots_variants.py``).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any

from tqdm import tqdm

from spielcenter.bots import LEVELS
from spielcenter.bots.tournament import GameResult, run_tournament, wilson


def _check_known(name: str) -> None:
    """Refuse a player that ``get_bot`` does not know (the tournament plays levels by name)."""
    if name not in LEVELS:
        known = ", ".join(sorted(LEVELS))
        raise SystemExit(f"unknown player {name!r}: register the variant in LEVELS first; {known}")


def _play(args: argparse.Namespace) -> int:
    for name in (args.candidate, args.opponent):
        _check_known(name)
    bar = tqdm(total=args.deals, desc=f"{args.candidate} vs {args.opponent}", file=sys.stderr)
    with Path(args.out).open("w", encoding="utf-8") as out:

        def write(result: GameResult) -> None:
            # The fields of bench/bots.py's lines, so that its report and balance read these too.
            buys = [(s, text.split()[1]) for s, text in result.moves if text.startswith("buy ")]
            bought = [[b for s, b in buys if s == seat] for seat in range(len(result.levels))]
            line = {
                "seed": result.seed,
                "variant": "table",
                "options": {},
                "levels": result.levels,
                "scores": result.scores,
                "places": result.places,
                "times": result.times,
                "quilts": result.quilts,
                "bought": bought,
            }
            out.write(json.dumps(line) + "\n")
            out.flush()
            bar.update()

        run_tournament([args.candidate, args.opponent], args.deals, args.seed, progress=write)
    bar.close()
    return 0


def _share(game: dict[str, Any], seat: int) -> float:
    """The seat's share of the win (a shared first place is half a win)."""
    places = game["places"]
    return 1 / places.count(1) if places[seat] == 1 else 0.0


def _entrant_rows(path: str) -> tuple[str, dict[int, tuple[float, int, int]]]:
    """The first entrant's name and per deal its win share, its score, the other's score."""
    rows: dict[int, tuple[float, int, int]] = {}
    first = ""
    for k, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines()):
        game = json.loads(line)
        seat = k % 2  # run_tournament seats entrant 0 at seat k % 2 (rotated by k)
        first = first or game["levels"][seat]
        rows[game["seed"]] = (_share(game, seat), game["scores"][seat], game["scores"][1 - seat])
    return first, rows


def _compare(args: argparse.Namespace) -> int:
    name_a, a = _entrant_rows(args.a)
    name_b, b = _entrant_rows(args.b)
    deals = sorted(set(a) & set(b))
    n = len(deals)
    for name, rows in ((name_a, a), (name_b, b)):
        wins = sum(rows[d][0] for d in deals)
        low, high = wilson(wins, n)
        mine = sum(rows[d][1] for d in deals) / n
        theirs = sum(rows[d][2] for d in deals) / n
        print(
            f"{name}: wins {wins / n:.1%} (95% {low:.1%}–{high:.1%}), "
            f"mean score {mine:.1f} vs {theirs:.1f}, {n} deals"
        )
    diffs = [b[d][0] - a[d][0] for d in deals]
    mean = sum(diffs) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in diffs) / max(1, n - 1))
    half = 1.96 * sd / math.sqrt(n)
    low, high = mean - half, mean + half
    print(f"paired difference {name_b} − {name_a}: {mean:+.1%} (95% {low:+.1%}…{high:+.1%})")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    play = commands.add_parser("play")
    play.add_argument("candidate")
    play.add_argument("opponent")
    play.add_argument("--deals", type=int, default=1000)
    play.add_argument("--seed", type=int, default=700_000)
    play.add_argument("--out", required=True)
    compare = commands.add_parser("compare")
    compare.add_argument("a")
    compare.add_argument("b")
    args = parser.parse_args()
    return _play(args) if args.command == "play" else _compare(args)


if __name__ == "__main__":
    sys.exit(main())
