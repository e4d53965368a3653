"""``spielcenter deal``, ``replay`` and ``play``: the patience games in the terminal.

The JSON printed by ``--json`` is the engine's ``view_for(state, 0)``: the stock order of Crazy
Quilt is never in it unless ``--reveal`` adds it.
"""

from __future__ import annotations

import argparse
import json
import secrets
import sys
from typing import Any, TextIO

from spielcenter.games import GameError, Record, get_game
from spielcenter.games.base import JSON, Game
from spielcenter.games.shuffle import MAX_DEAL, DealNumberError, check_deal

from . import EXIT_BAD_INPUT

PATIENCE_GAMES = ("cruel", "crazy-quilt")

HELP = """Type a move in the notation, or:
  u  undo the last move        y  redo
  h  hint                      ?  this help
  q  quit
Cruel: 3f (pile 3 to its foundation), 3>7 (pile 3 onto pile 7), r (redeal).
Crazy Quilt: e4u / e4d (card at e4 to its up / down foundation), e4w (onto the waste),
             wu / wd (waste to a foundation), s (turn a stock card), r (redeal)."""


def register(subparsers: Any) -> None:
    """Add ``deal``, ``replay`` and ``play``."""
    deal = subparsers.add_parser("deal", help="show the layout of a deal")
    _common(deal, deal_required=True)
    deal.set_defaults(func=cmd_deal)

    replay = subparsers.add_parser("replay", help="apply moves to a deal and show the result")
    _common(replay, deal_required=True)
    replay.add_argument("--moves", required=True, help='moves separated by spaces: "3f 3>7 r"')
    replay.set_defaults(func=cmd_replay)

    play = subparsers.add_parser("play", help="play in the terminal")
    play.add_argument("game", choices=PATIENCE_GAMES)
    play.add_argument("--deal", type=int, help="deal number (default: a random one)")
    play.add_argument("--variant", help="variant (default: classic)")
    play.set_defaults(func=cmd_play)


def _common(parser: argparse.ArgumentParser, deal_required: bool) -> None:
    parser.add_argument("game", choices=PATIENCE_GAMES)
    parser.add_argument("--deal", type=int, required=deal_required, help="deal number")
    parser.add_argument("--variant", help="variant (default: classic)")
    parser.add_argument("--json", action="store_true", help="print JSON for scripts")
    parser.add_argument(
        "--reveal", action="store_true", help="also print the face-down stock order"
    )


def _game(args: argparse.Namespace) -> Game[Any, Any]:
    return get_game(args.game, args.variant)


def _view(game: Game[Any, Any], state: Any, reveal: bool) -> JSON:
    view = game.view_for(state, 0)
    if reveal:
        hidden = _hidden_stock(game, state)
        if hidden is not None:
            view["stock"] = hidden
    return view


def _hidden_stock(game: Game[Any, Any], state: Any) -> list[str] | None:
    """The face-down stock order (top first), for games that have one."""
    module = sys.modules[type(game).__module__]
    reveal = getattr(module, "reveal", None)
    return None if reveal is None else [str(card) for card in reveal(state)]


def _show(game: Game[Any, Any], state: Any, args: argparse.Namespace, out: TextIO) -> None:
    if args.json:
        json.dump(_view(game, state, args.reveal), out)
        out.write("\n")
        return
    out.write(game.render(state) + "\n")
    if args.reveal and (stock := _hidden_stock(game, state)) is not None:
        out.write("stock (top first): " + " ".join(stock) + "\n")
    out.write(f"status: {game.status(state)}\n")
    legal = " ".join(game.format_move(m) for m in game.legal_moves(state))
    out.write(f"legal: {legal or '-'}\n")


def _error(message: str) -> int:
    sys.stderr.write(f"spielcenter: {message}\n")
    return EXIT_BAD_INPUT


def cmd_deal(args: argparse.Namespace) -> int:
    """Print the start layout of a deal."""
    try:
        game = _game(args)
        state = game.start(check_deal(args.deal))
    except (GameError, DealNumberError) as exc:
        return _error(str(exc))
    _show(game, state, args, sys.stdout)
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    """Apply the moves; the first unreadable or illegal one stops with exit status 2."""
    try:
        game = _game(args)
        state = game.start(check_deal(args.deal))
    except (GameError, DealNumberError) as exc:
        return _error(str(exc))
    for number, text in enumerate(args.moves.split(), start=1):
        try:
            state = game.play(state, text)
        except GameError as exc:
            _show(game, state, args, sys.stdout)
            return _error(f"move {number} ({text!r}) refused: {exc}")
    _show(game, state, args, sys.stdout)
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    """Play in the terminal, reading moves from standard input."""
    try:
        game = _game(args)
        deal = check_deal(args.deal) if args.deal is not None else secrets.randbelow(MAX_DEAL) + 1
    except (GameError, DealNumberError) as exc:
        return _error(str(exc))
    return play_loop(game, deal, sys.stdin, sys.stdout)


def play_loop(game: Game[Any, Any], deal: int, inp: TextIO, out: TextIO) -> int:
    """The terminal player: one command per line until the game ends or the input does."""
    record: Record[Any, Any] = Record(game, deal)
    out.write(f"{game.name} ({game.variant}), deal {deal}. Type ? for help.\n")
    while True:
        out.write(game.render(record.state) + "\n")
        status = game.status(record.state)
        if status.value != "playing":
            out.write(f"Game over: {status}. Deal {deal}, {len(record.moves)} moves.\n")
            return 0
        out.write("> ")
        out.flush()
        line = inp.readline()
        if not line:
            return 0
        command = line.strip()
        if command == "q":
            return 0
        out.write(_answer(game, record, command) + "\n")


def _answer(game: Game[Any, Any], record: Record[Any, Any], command: str) -> str:
    if command in ("?", ""):
        return HELP
    if command == "u":
        return "undone" if record.undo() else "nothing to undo"
    if command == "y":
        return "redone" if record.redo() else "nothing to redo"
    if command == "h":
        return "hint: " + (_hint(game, record) or "no move left")
    try:
        record.play(command)
    except GameError as exc:
        return f"refused: {exc}"
    return f"played {command}"


def _hint(game: Game[Any, Any], record: Record[Any, Any]) -> str | None:
    from spielcenter.solvers.registry import hint

    # The history lets the Crazy Quilt hint remember the stock the player has seen turned.
    return hint(game, record.state, record.moves).move
