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

from collections.abc import Sequence
from typing import Any, Final, NamedTuple

from .base import MoveSyntaxError, StateFormatError

RANKS: Final = "A23456789TJQK"
SUITS: Final = "SHDC"
ACE: Final = 1
KING: Final = 13

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_NAMES: Final = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
"""The English name of each suit letter, for messages."""

Foundations = tuple[int, int, int, int]
"""The top rank of one foundation per suit, in the order ``S H D C``."""


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


_DECK = tuple(Card(rank, suit) for suit in SUITS for rank in range(ACE, KING + 1))


def standard_deck() -> list[Card]:
    """The 52 cards in the fixed unshuffled order: suits ``S H D C``, each ace to king.

    The same 52 objects every time: a position dealt from them finds its cards in the tables
    the engines keep by card (the successor of a card, its notation) at the first key compared,
    where an equal card made anew is compared field by field (a Cruel view looks up all 48).
    """
    return list(_DECK)


def encode_foundations(tops: Sequence[int]) -> dict[str, str]:
    """The JSON of one foundation per suit: each suit's top rank as a character.

    >>> encode_foundations((1, 13, 2, 10))
    {'S': 'A', 'H': 'K', 'D': '2', 'C': 'T'}
    """
    return {suit: RANKS[rank - 1] for suit, rank in zip(SUITS, tops, strict=True)}


def decode_foundations(value: Any, what: str) -> Foundations:
    """Read :func:`encode_foundations`'s JSON back; raise ``StateFormatError`` naming ``what``
    (``"foundations"``, ``"the up foundations"`` …) when it is not one rank per suit."""
    if not isinstance(value, dict) or sorted(value) != sorted(SUITS):
        raise StateFormatError(f"{what} must map each suit of {SUITS} to its top rank")
    ranks = []
    for suit in SUITS:
        text = value[suit]
        if not isinstance(text, str) or len(text) != 1 or text not in RANKS:
            raise StateFormatError(f"{what}, suit {suit}: {text!r} is not a rank of {RANKS}")
        ranks.append(RANKS.index(text) + 1)
    return (ranks[0], ranks[1], ranks[2], ranks[3])
