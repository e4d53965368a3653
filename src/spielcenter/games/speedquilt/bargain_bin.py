"""The bargain bin (Wühlkorb): after the last roll, if nothing else was done; the only action.

Either one or two dice go on patches (no completion needed, the block must stay finishable), or
the top block of a deck is drawn blind — seen only by the drawer — and then laid into the quilt or
put back under its deck.
"""

from __future__ import annotations

from . import model
from .kits import dice_seen_by
from .model import Cell
from .moves import BinDice, BinDraw, BinPlace
from .options import Context
from .placing import fill, fill_reason
from .setup import empty_block
from .state import GameState
from .turn import BASE_ROLLS, own_turn_of

__all__ = [
    "apply_bin_dice",
    "apply_bin_draw",
    "apply_bin_place",
    "apply_bin_return",
    "reason_bin_dice",
    "reason_bin_draw",
    "reason_bin_place",
    "reason_bin_return",
]


def _bin_reason(state: GameState, seat: int) -> str | None:
    turn = own_turn_of(state, seat)
    if turn is None:
        return "the bargain bin is open only in your own turn"
    if turn.rolls < BASE_ROLLS:
        return "the bargain bin opens only after the last roll"
    if turn.bin_used:
        return "the bargain bin was used already in this turn"
    if turn.actions:
        return "the bargain bin is open only if nothing else was done in this turn"
    if turn.revealed:
        return (
            "the bargain bin stays closed: a block from a deck was shown in this turn,"
            " so a draw would no longer be blind"
        )
    return None


def reason_bin_dice(ctx: Context, state: GameState, move: BinDice, seat: int) -> str | None:
    """One or two dice on patches."""
    why = _bin_reason(state, seat)
    if why:
        return why
    turn = state.turn
    assert turn is not None
    planned = [(p.colour, p.block_id, p.patch) for p in move.placements]
    return fill_reason(ctx, state.seats[seat].quilt, planned, dice_seen_by(turn, seat))


def apply_bin_dice(ctx: Context, state: GameState, move: BinDice, seat: int) -> None:
    """Put the dice on the patches."""
    turn = state.turn
    assert turn is not None
    planned = [(p.colour, p.block_id, p.patch) for p in move.placements]
    fill(state.seats[seat].quilt, planned, dice_seen_by(turn, seat))
    turn.used.extend(p.colour for p in move.placements)
    _binned(state)


def _binned(state: GameState) -> None:
    turn = state.turn
    assert turn is not None
    turn.bin_used = turn.rolling_over = True
    turn.undo.clear()


def reason_bin_draw(state: GameState, move: BinDraw, seat: int) -> str | None:
    """A blind draw from a deck."""
    why = _bin_reason(state, seat)
    if why:
        return why
    if not state.decks[move.deck]:
        return f"the {move.deck} deck is empty"
    return None


def apply_bin_draw(state: GameState, move: BinDraw) -> None:
    """Take the top block of the deck; only the drawer sees it."""
    turn = state.turn
    assert turn is not None
    turn.drawn = (move.deck, state.decks[move.deck].pop(0))
    _binned(state)


def _drawn_reason(state: GameState, seat: int) -> str | None:
    turn = own_turn_of(state, seat)
    if turn is None or turn.drawn is None:
        return "you have not drawn a block from the bargain bin"
    return None


def reason_bin_place(state: GameState, move: BinPlace, seat: int) -> str | None:
    """Laying the drawn block into the quilt."""
    why = _drawn_reason(state, seat)
    if why:
        return why
    if not model.can_place(state.seats[seat].quilt.keys(), move.cell):
        return f"the drawn block cannot lie at {move.cell[0]},{move.cell[1]}"
    return None


def apply_bin_place(ctx: Context, state: GameState, move: BinPlace, seat: int) -> None:
    """The drawn block enters the quilt, all patches empty."""
    turn = state.turn
    assert turn is not None and turn.drawn is not None
    cell: Cell = move.cell
    state.seats[seat].quilt[cell] = empty_block(ctx, turn.drawn[1])
    turn.drawn = None
    turn.undo.clear()  # a snapshot from while the block was out would lose it again


def reason_bin_return(state: GameState, seat: int) -> str | None:
    """Putting the drawn block back."""
    return _drawn_reason(state, seat)


def apply_bin_return(state: GameState) -> None:
    """The drawn block goes under its deck."""
    turn = state.turn
    assert turn is not None and turn.drawn is not None
    deck, block_id = turn.drawn
    state.decks[deck].append(block_id)
    turn.drawn = None
    turn.undo.clear()  # a snapshot from while the block was out would lose it again
