"""The shop: two shelves that slide right to fill a gap, refilled at the left from their decks."""

from __future__ import annotations

from .model import Deck
from .state import GameState

__all__ = ["find_on_shelf", "take_from_shelf", "take_rightmost"]


def find_on_shelf(state: GameState, block_id: str) -> tuple[Deck, int] | None:
    """The shelf and slot of ``block_id`` in the shop, or ``None`` if it is not for sale."""
    for deck, shelf in state.shelves.items():
        if block_id in shelf:
            return deck, shelf.index(block_id)
    return None


def take_from_shelf(state: GameState, deck: Deck, slot: int) -> str:
    """Take the block in ``slot`` off the shelf of ``deck``.

    The blocks left of the gap slide one slot right, and the top block of the deck enters at the
    left; an empty deck leaves the gap there.
    """
    shelf = state.shelves[deck]
    block_id = shelf[slot]
    if block_id is None:
        raise ValueError(f"slot {slot} of the {deck} shelf is empty")
    pile = state.decks[deck]
    newcomer = pile.pop(0) if pile else None
    state.shelves[deck] = [newcomer, *shelf[:slot], *shelf[slot + 1 :]]
    return block_id


def take_rightmost(state: GameState, deck: Deck) -> str | None:
    """Take the rightmost block of a shelf (solo: it leaves the shop); ``None`` if it is empty."""
    shelf = state.shelves[deck]
    filled = [i for i, block_id in enumerate(shelf) if block_id is not None]
    return take_from_shelf(state, deck, filled[-1]) if filled else None
