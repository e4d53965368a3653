"""Ladder: a tiny patience used only by the server tests, with a face-down stock like Crazy Quilt.

The cards A♠ … 4♠ are shuffled into a face-down stock. ``d`` turns the top stock card onto the
waste; ``wf`` plays the waste's top card to the foundation if it is the next rank; ``r`` turns
the waste over into a new stock (at most ``REDEALS`` times, only when the stock is empty). The
game is won with all cards on the foundation and lost when no move is left.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from spielcenter.games.base import JSON, Game, MoveSyntaxError, Seat, StateFormatError, Status
from spielcenter.games.shuffle import shuffled

CARDS = ("AS", "2S", "3S", "4S")
REDEALS = 2
MOVES = ("d", "wf", "r")


@dataclass(frozen=True)
class LadderState:
    """The position; ``stock`` is listed bottom first (its last card is turned next)."""

    deal: int
    stock: tuple[str, ...]
    waste: tuple[str, ...] = ()
    foundation: int = 0
    redeals: int = 0


class Ladder(Game[LadderState, str]):
    """The rules of Ladder."""

    name = "ladder"
    variant = "classic"

    def start(self, deal: int) -> LadderState:
        return LadderState(deal, tuple(shuffled(list(CARDS), deal)))

    def legal_moves(self, state: LadderState, seat: Seat = 0) -> list[str]:
        moves = []
        if state.waste and CARDS.index(state.waste[-1]) == state.foundation:
            moves.append("wf")
        if state.stock:
            moves.append("d")
        elif state.waste and state.redeals < REDEALS:
            moves.append("r")
        return moves

    def parse_move(self, text: str) -> str:
        if text not in MOVES:
            raise MoveSyntaxError(f"{text!r} is not a Ladder move; moves are d, wf and r")
        return text

    def format_move(self, move: str) -> str:
        return move

    def apply(self, state: LadderState, move: str, seat: Seat = 0) -> LadderState:
        if move == "d":
            return replace(state, stock=state.stock[:-1], waste=(*state.waste, state.stock[-1]))
        if move == "wf":
            return replace(state, waste=state.waste[:-1], foundation=state.foundation + 1)
        return replace(
            state, stock=tuple(reversed(state.waste)), waste=(), redeals=state.redeals + 1
        )

    def status(self, state: LadderState) -> Status:
        if state.foundation == len(CARDS):
            return Status.WON
        return Status.PLAYING if self.legal_moves(state) else Status.LOST

    def encode(self, state: LadderState) -> JSON:
        return {
            "deal": state.deal,
            "stock": list(state.stock),
            "waste": list(state.waste),
            "foundation": state.foundation,
            "redeals": state.redeals,
        }

    def decode(self, data: JSON) -> LadderState:
        try:
            return LadderState(
                data["deal"],
                tuple(data["stock"]),
                tuple(data["waste"]),
                data["foundation"],
                data["redeals"],
            )
        except (KeyError, TypeError) as exc:
            raise StateFormatError(str(exc)) from exc

    def view_for(self, state: LadderState, seat: Seat | None) -> JSON:
        return {
            "stock_count": len(state.stock),
            "waste": list(state.waste),
            "foundation": state.foundation,
            "redeals": state.redeals,
        }


def line_to(status: Status, deal: int) -> list[str]:
    """A sequence of moves from the start of ``deal`` that ends the game with ``status``."""
    game = Ladder()

    def search(state: LadderState, line: list[str]) -> list[str] | None:
        if game.status(state) is status:
            return line
        for move in game.legal_moves(state):
            found = search(game.apply(state, move), [*line, move])
            if found is not None:
                return found
        return None

    found = search(game.start(deal), [])
    if found is None:
        raise ValueError(f"deal {deal} of Ladder cannot end {status.value}")
    return found


def resolve(name: str, variant: str | None = None, **options: Any) -> Game[Any, Any]:
    """The registry of the tests: Ladder, and every real game."""
    if name == "ladder":
        return Ladder()
    from spielcenter.games.base import get_game

    return get_game(name, variant, **options)
