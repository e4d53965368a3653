"""``spielcenter speedquilt review``: a finished game's decisions against the strong player.

* ``speedquilt review --table ID [--seat N]`` reviews a finished table of the configured database
  (``SPIELCENTER_DATABASE_URL`` / ``SPIELCENTER_DATA_DIR``, or ``--database URL``), ``--game ID``
  a finished solo game there (a campaign stage, a daily quilt: the server's daily secret from
  the settings);
* ``speedquilt review --moves FILE [--seat N]`` reviews a game given as JSON:
  ``{"variant": "table", "players": 2, "deal": 5, "moves": [[0, "choose …"], …]}`` (``variant``
  ``solo`` for a solo game, ``options`` for a campaign stage's; ``seed`` may stand for ``deal``
  and ``levels`` for ``players``, as in the lines ``bench/bots.py`` writes).

Human text by default (the summary, the costliest decisions, every decision that is not fine;
``--all`` lists the fine ones too), ``--json`` for scripts. Exit status 2 for a game that cannot
be reviewed (not over, no such table or seat, a bad file).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from spielcenter.games.base import JSON, GameError

from . import EXIT_BAD_INPUT
from .speedquilt import SUBCOMMANDS


def register(subparsers: Any) -> None:
    """Add ``review`` to the ``speedquilt`` group."""
    command = SUBCOMMANDS["speedquilt"].add_parser(
        "review", help="a finished game's decisions against the strong player"
    )
    source = command.add_mutually_exclusive_group(required=True)
    source.add_argument("--table", help="the id of a finished table in the database")
    source.add_argument("--game", help="the id of a finished solo game (stage, daily quilt)")
    source.add_argument("--moves", type=Path, help="a game as JSON: deal, variant and moves")
    command.add_argument("--seat", type=int, default=0, help="whose decisions (default 0)")
    command.add_argument("--database", help="database URL (default: the server's settings)")
    command.add_argument("--json", action="store_true", help="print the review as JSON")
    command.add_argument("--all", action="store_true", help="list the fine decisions too")
    command.set_defaults(func=cmd_review)


def cmd_review(args: argparse.Namespace) -> int:
    """Review the table or the file; print the review or a clear refusal."""
    from spielcenter.bots.review import ReviewError
    from spielcenter.services.common import ServiceError

    try:
        if args.table is not None or args.game is not None:
            reviewed = _from_database(args)
        else:
            reviewed = _from_file(args)
    except ServiceError as refusal:
        return _refuse(refusal.message)
    except (ReviewError, GameError, OSError, ValueError) as fault:
        return _refuse(str(fault))
    if args.json:
        print(json.dumps(reviewed, indent=1))
    else:
        print(describe(reviewed, everything=args.all))
    return 0


def _refuse(message: str) -> int:
    print(f"spielcenter speedquilt review: {message}", file=sys.stderr)
    return EXIT_BAD_INPUT


def _from_file(args: argparse.Namespace) -> JSON:
    from spielcenter.bots.review import review
    from spielcenter.games import get_game
    from spielcenter.games.speedquilt.rules import Speedquilt

    path: Path = args.moves
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as fault:
        raise ValueError(f"{path} is not JSON: {fault}") from None
    if not isinstance(data, dict) or not isinstance(data.get("moves"), list):
        raise ValueError(f'{path}: expected an object with "deal" and a list "moves"')
    variant = str(data.get("variant", "table"))
    options = dict(data.get("options") or {})
    if variant == "table":
        levels = data.get("levels")
        options.setdefault("players", data.get("players", len(levels) if levels else 2))
    deal = data.get("deal", data.get("seed"))
    if not isinstance(deal, int) or isinstance(deal, bool):
        raise ValueError(f'{path}: "deal" must be a deal number')
    log = _log(data["moves"], path)
    engine = get_game("speedquilt", variant, **options)
    assert isinstance(engine, Speedquilt)
    return review(engine, deal, log, args.seat).to_json(engine)


def _log(moves: list[Any], path: Path) -> list[tuple[int, str]]:
    log = []
    for n, entry in enumerate(moves, 1):
        if not (
            isinstance(entry, list)
            and len(entry) == 2
            and isinstance(entry[0], int)
            and isinstance(entry[1], str)
        ):
            raise ValueError(f'{path}: move {n} must be [seat, "move text"]')
        log.append((entry[0], entry[1]))
    return log


def _from_database(args: argparse.Namespace) -> JSON:
    from spielcenter.games import get_game
    from spielcenter.services.progress import progress_resolver
    from spielcenter.services.review import review_stored_game, review_stored_table
    from spielcenter.settings import Settings
    from spielcenter.store.db import make_engine, make_sessionmaker

    settings = Settings()
    url = args.database or settings.database_url

    async def run() -> JSON:
        engine = make_engine(url)
        try:
            sessions = make_sessionmaker(engine)
            if args.table is not None:
                return await review_stored_table(sessions, args.table, args.seat)
            resolve = progress_resolver(get_game, settings.daily_secret)
            return await review_stored_game(sessions, resolve, args.game)
        finally:
            await engine.dispose()

    return asyncio.run(run())


def _decision_line(d: JSON) -> str:
    hers = "; ".join(d["moves"]) or "nothing"
    best = "; ".join(d["best"])
    line = (
        f"round {d['round']}, position {d['step']} ({d['kind']}): {hers} — "
        f"{d['points']:.1f} expected points; strong: {best} — {d['best_points']:.1f}"
    )
    if d["verdict"] == "fine":
        return f"{line}: fine"
    if d["verdict"] == "unclear":
        doubt = f"{d['loss']:.1f} points, but the valuations differ by {d['noise']:.1f}"
        return f"{line}: unclear ({doubt})"
    return f"{line}: {d['verdict']}, {d['loss']:.1f} points left"


def describe(reviewed: JSON, everything: bool = False) -> str:
    """The review in a few lines for people."""
    summary = reviewed["summary"]
    counts = summary["verdicts"]
    lines = [
        f"Seat {reviewed['seat']}: {reviewed['score']} points, {summary['decisions']} decisions — "
        f"{counts['fine']} fine, {counts['unclear']} unclear, "
        f"{counts['inaccuracy']} inaccurate, {counts['mistake']} mistaken.",
        f"Expected points left on the table (the strong player's valuation): "
        f"{summary['left_total']:.1f} — "
        + ", ".join(f"{kind} {left:.1f}" for kind, left in summary["left"].items()),
    ]
    costliest = [reviewed["decisions"][n] for n in summary["costliest"]]
    if costliest:
        lines.append("Costliest decisions:")
        lines += [f"  {n}. {_decision_line(d)}" for n, d in enumerate(costliest, 1)]
    shown = [d for d in reviewed["decisions"] if everything or d["verdict"] != "fine"]
    if shown:
        lines.append("Every decision:" if everything else "Every decision that is not fine:")
        lines += [f"  {_decision_line(d)}" for d in shown]
    return "\n".join(lines)
