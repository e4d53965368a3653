"""French-suited playing cards and their two-character notation.

A card is written as rank then suit: rank one of ``A23456789TJQK``, suit one of ``SHDC``.

>>> Card.parse("TS")
Card.parse('TS')
>>> str(Card(12, "H"))
'QH'
>>> Card.parse("TS").rank
10
"""

from __future__ import annotations

from typing import Final, NamedTuple

from .base import MoveSyntaxError

RANKS: Final = "A23456789TJQK"
SUITS: Final = "SHDC"
ACE: Final = 1
KING: Final = 13

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


class CardSyntaxError(MoveSyntaxError):
    """Text that is not a card in the two-character notation."""


class Card(NamedTuple):
    """One playing card: ``rank`` 1 (ace) … 13 (king), ``suit`` one of ``S H D C``."""

    rank: int
    suit: str

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card from its notation (``"TS"``); raise :class:`CardSyntaxError`."""
        if len(text) != 2 or text[0] not in RANKS or text[1] not in SUITS:
            raise CardSyntaxError(
                f"{text!r} is not a card: write rank {RANKS} then suit {SUITS}, e.g. 'TS'"
            )
        return cls(RANKS.index(text[0]) + 1, text[1])

    def __str__(self) -> str:
        return RANKS[self.rank - 1] + self.suit

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    @property
    def pretty(self) -> str:
        """The card with a suit symbol, for people: ``10♠``."""
        rank = "10" if self.rank == 10 else RANKS[self.rank - 1]
        return rank + SUIT_SYMBOLS[self.suit]


def standard_deck() -> list[Card]:
    """The 52 cards in the fixed unshuffled order: suits ``S H D C``, each ace to king."""
    return [Card(rank, suit) for suit in SUITS for rank in range(ACE, KING + 1)]
