"""``spielcenter winnable``: the stored lists of proven winnable deals.

``winnable grow GAME --variant V --count N`` solves the next ``N`` deal numbers not yet in the
list (from ``--start``, else from just after the list's last number), replays each winning line
through the engine and adds the deals it won, each with its line, to
``solvers/winnable/<game>-<variant>.txt``; the file is rewritten after every new win, so an
interrupted run keeps what it proved. With ``--restarts`` (Crazy Quilt) the deals are searched by
the beams' shaken restarts instead of the solver: they win deals the solver leaves unknown; with
``--wide-restarts`` by the wide restarts, for deals the narrow ones left unknown. Two runs may
grow the same list at once (one a core): each adds its wins to the list as it is then, and skips
the deals the other has won.
``winnable list GAME --variant V`` prints how many deals the list holds and their range.
Exit status: 0 done, 2 bad input or a malformed list.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from tqdm import tqdm

from spielcenter.games import GameError
from spielcenter.games.base import canonical_name, variants_of
from spielcenter.games.shuffle import DealNumberError, check_deal
from spielcenter.solvers import winnable
from spielcenter.solvers.winnable import WinnableListError

from . import EXIT_BAD_INPUT

DEFAULT_BUDGETS = {"cruel": 2_000_000, "crazy-quilt": 1_000_000}
"""Positions per deal when ``--budget`` is not given (the budgets of docs/winrates*.md)."""


def register(subparsers: Any) -> None:
    """Add ``winnable grow`` and ``winnable list``."""
    parser = subparsers.add_parser("winnable", help="the lists of proven winnable deals")
    commands = parser.add_subparsers(dest="winnable_command", required=True, metavar="ACTION")

    grow = commands.add_parser("grow", help="solve further deals and add the proven wins")
    _game_options(grow)
    grow.add_argument("--count", type=int, required=True, help="how many deals to solve")
    grow.add_argument("--start", type=int, help="first deal to try (default: after the last)")
    grow.add_argument("--budget", type=int, help="positions per deal (default: per game)")
    grow.add_argument("--time-limit", type=float, help="seconds per deal (default: none)")
    grow.add_argument("--minutes", type=float, help="stop after this many minutes in all")
    beams = grow.add_mutually_exclusive_group()
    beams.add_argument(
        "--restarts",
        action="store_const",
        const="restarts",
        dest="beams",
        help="Crazy Quilt: search with many shaken narrow beams instead of the solver",
    )
    beams.add_argument(
        "--wide-restarts",
        action="store_const",
        const="wide-restarts",
        dest="beams",
        help="Crazy Quilt: search with shaken beams nine times as wide instead of the solver",
    )
    grow.add_argument("--quiet", action="store_true", help="no progress bar")
    grow.set_defaults(func=cmd_grow)

    listing = commands.add_parser("list", help="how many deals a list holds, and their range")
    _game_options(listing)
    listing.set_defaults(func=cmd_list)


def _game_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help="cruel or crazy-quilt")
    parser.add_argument("--variant", help="variant (default: the game's first)")


def _error(message: str) -> int:
    sys.stderr.write(f"spielcenter: {message}\n")
    return EXIT_BAD_INPUT


def _game_and_variant(args: argparse.Namespace) -> tuple[str, str]:
    """The checked game and variant; raises ``ValueError`` with the reason."""
    try:
        name = canonical_name(args.game)
    except GameError as exc:
        raise ValueError(str(exc)) from None
    if name not in DEFAULT_BUDGETS:
        raise ValueError(f"{name}: no solver, so no winnable deals (only cruel and crazy-quilt)")
    variant = args.variant or variants_of(name)[0]
    winnable.list_path(name, variant)  # checks the variant
    return name, variant


def _check_grow(args: argparse.Namespace) -> None:
    if args.count <= 0:
        raise ValueError(f"--count must be a positive number of deals, not {args.count}")
    if args.start is not None:
        try:
            check_deal(args.start)
        except DealNumberError as exc:
            raise ValueError(str(exc)) from None
    if args.budget is not None and args.budget <= 0:
        raise ValueError(f"the budget must be a positive number of positions, not {args.budget}")
    for option, value in (("--time-limit", args.time_limit), ("--minutes", args.minutes)):
        if value is not None and value <= 0:
            raise ValueError(f"{option} must be positive, not {value}")
    if args.beams is not None and canonical_name(args.game) != "crazy-quilt":
        raise ValueError(
            f"--{args.beams} is for crazy-quilt only (the shaken restarts of its beams)"
        )


def cmd_grow(args: argparse.Namespace) -> int:
    """Solve the next deals not in the list and add the proven wins."""
    try:
        name, variant = _game_and_variant(args)
        _check_grow(args)
        path = winnable.list_path(name, variant)
        known = winnable.read_proofs(path)  # read once here to refuse a malformed list
    except (ValueError, WinnableListError) as exc:
        return _error(str(exc))
    budget = args.budget or DEFAULT_BUDGETS[name]
    deal = args.start if args.start is not None else max(known, default=0) + 1
    stop_at = None if args.minutes is None else time.monotonic() + 60 * args.minutes
    tried: list[int] = []
    added = 0
    bar = tqdm(total=args.count, desc=f"{name} {variant}", unit="deal", disable=args.quiet)
    while len(tried) < args.count and (stop_at is None or time.monotonic() < stop_at):
        if deal not in winnable.read_proofs(path):  # again: another run may have won it
            line = winnable.proven_line(
                name, variant, deal, budget, args.time_limit, beams=args.beams
            )
            if line is not None and winnable.add_proof(path, name, variant, deal, line):
                added += 1
            tried.append(deal)
            bar.update(1)
            bar.set_postfix(won=added)
        deal += 1
    bar.close()
    tried_range = f"deals {tried[0]}..{tried[-1]}" if tried else "no deal"
    sys.stdout.write(
        f"{name} {variant}: tried {len(tried)} ({tried_range}), {added} proven winnable added\n"
        f"{_summary(name, variant, winnable.read_list(path))}\n"
    )
    return 0


def _summary(name: str, variant: str, deals: tuple[int, ...]) -> str:
    if not deals:
        return f"{name} {variant}: no proven winnable deals yet"
    return f"{name} {variant}: {len(deals)} proven winnable deals, {deals[0]}..{deals[-1]}"


def cmd_list(args: argparse.Namespace) -> int:
    """Print the count and range of a list."""
    try:
        name, variant = _game_and_variant(args)
        deals = winnable.read_list(winnable.list_path(name, variant))
    except (ValueError, WinnableListError) as exc:
        return _error(str(exc))
    sys.stdout.write(_summary(name, variant, deals) + "\n")
    return 0
