"""``spielcenter speedquilt tournament``: computer players against each other, measured.

``--players strong,normal[,…]`` names the entrants (one entrant: solo games with the giving turn);
``--games N`` games are played from deal ``--seed S`` on, seats rotated. The command prints win
rates with Wilson 95 % intervals, mean scores and decision times p50/p95/max per entrant
(``--json`` for scripts) and shows a progress bar on stderr. It joins the ``speedquilt`` group of
:mod:`spielcenter.cli.speedquilt` (listed after it in ``COMMAND_MODULES``).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from tqdm import tqdm

from spielcenter.bots import LEVELS
from spielcenter.bots.tournament import GameResult, run_tournament
from spielcenter.games.shuffle import check_deal

from . import EXIT_BAD_INPUT
from .speedquilt import SUBCOMMANDS

MAX_SEATS = 4


def register(subparsers: Any) -> None:
    """Add ``tournament`` to the ``speedquilt`` group."""
    command = SUBCOMMANDS["speedquilt"].add_parser(
        "tournament", help="computer players against each other: win rates, scores, timings"
    )
    command.add_argument(
        "--players", required=True, help="entrants, e.g. strong,normal (one entrant plays solo)"
    )
    command.add_argument("--games", type=int, default=100, help="number of games")
    command.add_argument("--seed", type=int, default=1, help="deal number of the first game")
    command.add_argument("--json", action="store_true", help="print JSON for scripts")
    command.set_defaults(func=cmd_tournament)


def _entrants(text: str) -> list[str]:
    levels = [word.strip().lower() for word in text.split(",")]
    unknown = [level for level in levels if level not in LEVELS]
    if unknown:
        raise ValueError(f"unknown computer player {unknown[0]!r}; known: {', '.join(LEVELS)}")
    if not 1 <= len(levels) <= MAX_SEATS:
        raise ValueError(f"a table seats 1 to {MAX_SEATS} players, not {len(levels)}")
    return levels


def cmd_tournament(args: argparse.Namespace) -> int:
    """Run the tournament and print the summary, or a clear error with exit status 2."""
    try:
        levels = _entrants(args.players)
        if args.games < 1:
            raise ValueError(f"--games must be at least 1, not {args.games}")
        check_deal(args.seed)
        check_deal(args.seed + args.games - 1)
    except ValueError as fault:
        print(f"spielcenter speedquilt tournament: {fault}", file=sys.stderr)
        return EXIT_BAD_INPUT
    variant = "solo" if len(levels) == 1 else "table"
    with tqdm(total=args.games, unit="game", file=sys.stderr, disable=None) as bar:

        def advance(result: GameResult) -> None:
            bar.update(1)

        summaries, _ = run_tournament(
            levels, args.games, args.seed, variant=variant, progress=advance
        )
    report = {
        "players": levels,
        "games": args.games,
        "seed": args.seed,
        "variant": variant,
        "entrants": [summary.to_json() for summary in summaries],
    }
    if args.json:
        print(json.dumps(report, indent=1))
        return 0
    print(f"Speedquilt tournament: {', '.join(levels)}; {args.games} games from deal {args.seed}")
    for entrant in report["entrants"]:
        low, high = entrant["win_rate_95"]
        times = entrant["time_ms"]
        wins = (
            ""
            if variant == "solo"
            else (f"wins {entrant['win_rate']:6.1%} (95% {low:.1%}–{high:.1%})  ")
        )
        print(
            f"{entrant['level']:7} {wins}mean score {entrant['mean_score']:5.1f}  "
            f"decision ms p50 {times['p50']:.1f} p95 {times['p95']:.1f} max {times['max']:.1f}"
        )
    return 0
