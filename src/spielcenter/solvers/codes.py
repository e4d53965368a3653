"""The solvers' card codes: a card as the small integer ``suit * 16 + rank``.

Both patience solvers search on these codes: the suit is ``code >> 4`` (index in ``S H D C``),
the rank ``code & RANK``, and in Cruel the card a card may be built on is simply ``code + 1``.
"""

from __future__ import annotations

from typing import Final

from spielcenter.games.cards import SUITS, Card

__all__ = ["CODES", "RANK", "code_bit", "decode_card", "encode_card"]

RANK: Final = 15
"""``code & RANK`` is the rank of a card code; ``code >> 4`` its suit index."""

CODES: Final = 64
"""Every card code is below this: a table indexed by card code has this many entries."""


def code_bit(code: int) -> int:
    """The bit of a card code in a mask of codes (every code is below 62, so a mask of them fits
    a 64-bit ``i64``). The searches that keep such masks in ``i64`` take their bits from here:
    mypyc computes ``1 << code`` written in ``i64`` code with a 32-bit C int, which loses every
    code from 32 up (tests/unit/test_native.py checks the compiled searches against plain
    Python)."""
    return 1 << code


def encode_card(card: Card) -> int:
    """The solver's integer for ``card``: suit index (``S H D C``) times 16 plus rank."""
    return SUITS.index(card.suit) * 16 + card.rank


def decode_card(code: int) -> Card:
    """The card of a solver integer (inverse of :func:`encode_card`)."""
    return Card(code & RANK, SUITS[code >> 4])
