"""The solvers' card codes: a card as the small integer ``suit * 16 + rank``.

Both patience solvers search on these codes: the suit is ``code >> 4`` (index in ``S H D C``),
the rank ``code & RANK``, and in Cruel the card a card may be built on is simply ``code + 1``.
"""

from __future__ import annotations

from typing import Final

from spielcenter.games.cards import SUITS, Card

__all__ = ["CODES", "RANK", "decode_card", "encode_card"]

RANK: Final = 15
"""``code & RANK`` is the rank of a card code; ``code >> 4`` its suit index."""

CODES: Final = 64
"""Every card code is below this: a table indexed by card code has this many entries."""


def encode_card(card: Card) -> int:
    """The solver's integer for ``card``: suit index (``S H D C``) times 16 plus rank."""
    return SUITS.index(card.suit) * 16 + card.rank


def decode_card(code: int) -> Card:
    """The card of a solver integer (inverse of :func:`encode_card`)."""
    return Card(code & RANK, SUITS[code >> 4])
