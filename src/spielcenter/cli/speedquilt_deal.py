"""``spielcenter speedquilt deal --seed N --players K [--json] [--reveal]``: a Speedquilt deal.

Shows what the deal number decides: the shop, every seat's dealt four, the start player and the
deck sizes. The deck orders stay hidden unless ``--reveal`` adds them. It joins the ``speedquilt``
group that :mod:`spielcenter.cli.speedquilt` registers (listed after it in ``COMMAND_MODULES``).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from spielcenter.games import GameError, get_game
from spielcenter.games.shuffle import DealNumberError
from spielcenter.games.speedquilt.model import Deck
from spielcenter.games.speedquilt.state import GameState

from . import EXIT_BAD_INPUT
from .speedquilt import SUBCOMMANDS


def register(subparsers: Any) -> None:
    """Add ``deal`` to the ``speedquilt`` group."""
    deal = SUBCOMMANDS["speedquilt"].add_parser("deal", help="show the start of a Speedquilt deal")
    deal.add_argument("--seed", type=int, required=True, help="deal number (1 … 2^63−1)")
    deal.add_argument("--players", type=int, default=2, help="seats at the table (1–4)")
    deal.add_argument("--json", action="store_true", help="print JSON for scripts")
    deal.add_argument("--reveal", action="store_true", help="also print the deck orders")
    deal.set_defaults(func=cmd_deal)


def deal_json(state: GameState, reveal: bool = False) -> dict[str, Any]:
    """The dealt position as JSON-ready data."""
    data: dict[str, Any] = {
        "seed": state.deal,
        "players": len(state.seats),
        "start_player": state.start_player,
        "shop": {str(d): list(shelf) for d, shelf in state.shelves.items()},
        "hands": [list(seat.hand) for seat in state.seats],
        "decks": {str(d): len(pile) for d, pile in state.decks.items()},
    }
    if reveal:
        data["deck_order"] = {str(d): list(pile) for d, pile in state.decks.items()}
    return data


def cmd_deal(args: argparse.Namespace) -> int:
    """Print the deal, or a clear error (exit status 2) for a bad seed or seat count."""
    try:
        engine = get_game("speedquilt", "table", players=args.players)
        state = engine.start(args.seed)
    except (GameError, DealNumberError) as fault:
        print(f"spielcenter speedquilt deal: {fault}", file=sys.stderr)
        return EXIT_BAD_INPUT
    data = deal_json(state, args.reveal)
    if args.json:
        print(json.dumps(data, indent=1))
        return 0
    seats = len(state.seats)
    print(f"Speedquilt deal {state.deal}, {seats} seat(s); start player: seat {state.start_player}")
    print(f"Top shelf (pattern blocks): {_row(state.shelves[Deck.PATTERN])}")
    print(f"Bottom shelf (kits):        {_row(state.shelves[Deck.KIT])}")
    for seat, hand in enumerate(data["hands"]):
        print(f"Seat {seat} is dealt:            {' '.join(hand)}")
    print(f"Decks: {data['decks']['pattern']} pattern blocks, {data['decks']['kit']} kits")
    if args.reveal:
        for deck, order in data["deck_order"].items():
            print(f"{deck} deck, top first: {' '.join(order)}")
    return 0


def _row(shelf: list[str | None]) -> str:
    return " ".join(block_id or "--" for block_id in shelf)
