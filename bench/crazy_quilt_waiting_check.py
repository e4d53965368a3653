"""Crazy Quilt's waiting game decided by the tests' referee alone: an independent check of a loss.

    uv run python bench/crazy_quilt_waiting_check.py --variant classic --deal 348 --suits SC
    uv run python bench/crazy_quilt_waiting_check.py --deal 714 --suits HDC --fewer

The waiting game of ``--suits`` (:mod:`spielcenter.solvers.crazy_quilt_waiting`) is searched by
the referee of ``tests/unit/test_crazy_quilt_waiting.py`` (``LazyReferee``: every legal move
tried, positions remembered, a node dropped only when its loose game, decided by ``LazyLoose``,
cannot be cleared; with ``--fewer``, ``FewerLazyReferee``: when that of some set of the kept
suits but one cannot), which shares no code with the solver. A loss it finds is a loss proven twice,
by two searches of the same sound smaller game. Deal 348's spades and clubs take about 1.5
minutes of plain Python and 2 GB (docs/winrates-crazy-quilt.md, *Assignments first*).

It prints the verdict, the nodes expanded and dropped, the loose positions, the CPU time and a
JSON line. It fails (exit 1) if it finds a waiting game of a deal the stored lists hold as
winnable lost (a lost waiting game proves the deal lost).
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

from tqdm import tqdm

from spielcenter.games.crazy_quilt import VARIANTS, QuiltState, make
from spielcenter.solvers import winnable

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.unit.test_crazy_quilt_waiting import FewerLazyReferee, LazyReferee, Node

GAME = "crazy-quilt"


class ShownReferee(LazyReferee):
    """The referee with a progress bar of its expanded nodes."""

    def __init__(self, bar: tqdm, state: QuiltState, suits: str) -> None:
        super().__init__(state, suits)
        self.bar = bar

    def pruned_moves(self, node: Node) -> Iterator[tuple[str, Node]]:
        self.bar.update(1)
        if self.expanded % 50 == 0:
            self.bar.set_postfix(dropped=self.dropped, loose=loose_positions(self))
        yield from super().pruned_moves(node)


class ShownFewerReferee(ShownReferee, FewerLazyReferee):
    """The referee that asks the loose games of the kept suits but one, with a progress bar."""


def loose_positions(referee: LazyReferee) -> int:
    if isinstance(referee, FewerLazyReferee):
        return referee.questions()
    return len(referee.lazy.known)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", choices=sorted(VARIANTS), default="classic")
    parser.add_argument("--deal", type=int, required=True)
    parser.add_argument("--suits", required=True, help="the kept suits, e.g. SC")
    parser.add_argument(
        "--fewer",
        action="store_true",
        help="drop a node when the loose game of the kept suits but one cannot be cleared "
        "(three suits or more; the loose game of all is not asked)",
    )
    args = parser.parse_args(argv)
    suits = args.suits.upper()
    if not suits or any(suit not in "SHDC" for suit in suits) or len(set(suits)) != len(suits):
        parser.error(f"--suits takes distinct letters of SHDC, not {args.suits!r}")
    if args.fewer and len(suits) < 3:
        parser.error("--fewer needs three suits or more")
    state = make(args.variant).start(args.deal)
    started = time.process_time()
    with tqdm(desc=f"{args.variant} {args.deal} {suits}", unit="node") as bar:
        referee = (ShownFewerReferee if args.fewer else ShownReferee)(bar, state, suits)
        won = referee.wins_pruned()
    seconds = time.process_time() - started
    result = {
        "variant": args.variant,
        "deal": args.deal,
        "suits": suits,
        "result": "won" if won else "lost",
        "expanded": referee.expanded,
        "dropped": referee.dropped,
        "fewer": args.fewer,
        "loose_positions": loose_positions(referee),
        "cpu_seconds": round(seconds, 2),
    }
    print(
        f"{args.variant} deal {args.deal} {suits}: {result['result']}, {referee.expanded} nodes "
        f"expanded, {referee.dropped} dropped, {loose_positions(referee)} loose positions, "
        f"{seconds:.1f} CPU s"
    )
    print(
        json.dumps(
            result | {"python": platform.python_version(), "at": datetime.now(UTC).isoformat()}
        )
    )
    if not won and args.deal in winnable.winnable_deals(GAME, args.variant):
        print(f"UNSOUND: deal {args.deal} is listed winnable")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
