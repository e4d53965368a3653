"""Cruel's rules on the solver's compact position: piles of card codes, foundations, moves.

A position is (piles, foundations, redeals left). ``piles``: 12 ``bytes`` objects, bottom card
first, of the codes of :mod:`spielcenter.solvers.codes` (so the card a card may be built on is
simply ``card + 1``; a king's ``+ 1`` is no card); ``foundations``: the top rank per suit. A move
is (source, target, cards): target -1 is the foundation, source -1 the redeal.

Also the moves that are safe to make without branching (:func:`tail_is_safe`,
:func:`any_build`), whose proofs are in their docstrings.
"""

from __future__ import annotations

from typing import Final

from spielcenter.games.cards import KING
from spielcenter.solvers.codes import RANK

__all__ = [
    "ALL_PILES",
    "NO_PILE",
    "PILES",
    "PILE_SIZE",
    "REDEAL",
    "UNLIMITED",
    "Foundations",
    "Move",
    "Piles",
    "any_build",
    "build_onto",
    "is_dealt",
    "last_pile",
    "layout_key",
    "notation",
    "redealt",
    "tail_is_safe",
    "to_foundation",
]

PILES: Final = 12
PILE_SIZE: Final = 4
UNLIMITED: Final = 1 << 30
"""Redeals left in a variant without a limit."""
_SEP: Final = b"\x00"
_FULL: Final = bytes([PILE_SIZE] * PILES)
_STARTS: Final = range(0, PILE_SIZE * PILES, PILE_SIZE)

Piles = tuple[bytes, ...]
Foundations = tuple[int, int, int, int]
Move = tuple[int, int, int]
REDEAL: Final[Move] = (-1, -1, 0)
ALL_PILES: Final = -1
"""The pile a redeal (or the start) touches: all of them."""
NO_PILE: Final = -2
"""The pile a foundation move touches: none gets a card."""


def is_dealt(piles: Piles) -> bool:
    """Whether the piles are as a deal of their packet leaves them, gaps aside: every pile with
    cards holds four, but the last one. A redeal of such piles changes nothing."""
    sizes = bytes(map(len, piles)).replace(b"\x00", b"")
    return not sizes or (sizes[-1] <= PILE_SIZE and sizes[:-1] == _FULL[: len(sizes) - 1])


def layout_key(piles: Piles) -> bytes:
    """The transposition key of a layout: its non-empty piles in order (an empty pile never takes
    a card and adds nothing to a redeal, so where gaps lie does not matter)."""
    return _SEP.join(filter(None, piles))


def redealt(piles: Piles) -> Piles:
    """The piles after a redeal: the packet gathered pile by pile and dealt again in fours."""
    packet = b"".join(piles)
    return tuple([packet[start : start + PILE_SIZE] for start in _STARTS])


def to_foundation(piles: Piles, fnd: Foundations, source: int) -> tuple[Piles, Foundations]:
    """The position after the top card of pile ``source`` went up to its foundation."""
    pile = piles[source]
    card = pile[-1]
    ranks = list(fnd)
    ranks[card >> 4] = card & RANK
    new = list(piles)
    new[source] = pile[:-1]
    return tuple(new), (ranks[0], ranks[1], ranks[2], ranks[3])


def build_onto(piles: Piles, source: int, target: int, cards: int) -> Piles:
    """The piles after the top ``cards`` of pile ``source`` were built onto pile ``target``."""
    new = list(piles)
    pile = piles[source]
    new[source] = pile[:-cards]
    new[target] = piles[target] + pile[-cards:]
    return tuple(new)


def notation(move: Move) -> str:
    """The engine's notation of ``move``: ``r``, ``3f`` or ``3>7``."""
    source, target, _ = move
    if source < 0:
        return "r"
    if target < 0:
        return f"{source + 1}f"
    return f"{source + 1}>{target + 1}"


def last_pile(piles: Piles) -> int:
    """The index of the last pile with cards, or -1 when the layout is empty."""
    for index in range(PILES - 1, -1, -1):
        if piles[index]:
            return index
    return -1


def tail_is_safe(piles: Piles, last: int) -> bool:
    """Whether the last card of the packet, if it can go up, is safe to send up at once.

    True when the packet ends K, Q, … down to that card, all of one suit: nothing but the card's
    predecessor (already on the foundation) can ever be put after it, the king never moves before
    it goes up, and each card of the run can only ever be built on the card just before it in the
    packet, so the run stays at the end of the packet and every other card keeps its place in every
    redeal. Without the card the position can do all that it could do with it.
    """
    card = piles[last][-1]
    want = card + 1
    index, height = last, len(piles[last]) - 1
    while (want & RANK) <= KING:
        height -= 1
        while height < 0:
            index -= 1
            if index < 0:
                return False
            height = len(piles[index]) - 1
        if piles[index][height] != want:
            return False
        want += 1
    return True


def any_build(piles: Piles, runs: bool) -> Move | None:
    """The first building move of the layout (pile by pile), or ``None`` if there is none.

    Used in Perseverance once no redeal is left, where every building move is safe: the run
    lands on the next-higher card of its lowest card, the one place it could ever be built;
    nothing else can be built on that card; the card still goes up from there when its turn
    comes (the cards on it are lower, so they go up first), and the longer run it now forms with
    its target moves wherever the target alone could have moved. Uncovering the card beneath
    only adds moves, and without a redeal no move depends on where a card lies in the packet.
    So any winning line from before the move can be replayed after it, and the last phase needs
    no branching at all. (With single cards this is false: the target could no longer leave
    from under the card, so classic and "stuck" never call this.)
    """
    tops = {pile[-1]: index for index, pile in enumerate(piles) if pile}
    for index, pile in enumerate(piles):
        if not pile:
            continue
        cards = 1
        if runs:
            while cards < len(pile) and pile[-cards - 1] == pile[-cards] + 1:
                cards += 1
        target = tops.get(pile[-cards] + 1)
        if target is not None:
            return (index, target, cards)
    return None
