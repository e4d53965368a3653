"""The yarn dice as a counter-based stream, and the deck orders derived from a game's deal.

The value of the die of colour ``c`` in roll ``k`` of round ``r`` in turn ``t`` (``s0``…``s3`` for
a seat's own turn, ``g`` for the solo giving turn) is

    u = blake2b(b"speedquilt-dice/1|" + domain|t|r|k|c, key=KEY, digest_size=8)  (big-endian)
    value = 1 + SplitMix64(u).below(6)

so a die's value depends only on where it is rolled, never on what was kept before. For games
dealt from a deal number KEY is the number as 8 big-endian bytes and the domain is empty; for a
game dealt from a secret seed KEY is the seed's bytes (32) and the domain is empty; for the daily
quilt KEY is the server's secret and the domain is the day (``2026-11-29``): the same day gives
everyone the same dice, and nobody without the secret can compute them.

The decks and the start player (:func:`deal_order`): from a deal number, SplitMix64 gives two
64-bit shuffle seeds and the start player (:func:`deck_seeds`, frozen for the golden deals); from
a secret seed, each is drawn from its own keyed stream of the whole seed (``games/seeds.py``), so
no 64-bit value stands between the seed and the deal.

>>> DiceKey.for_deal(1).value("s0", 1, 1, Colour.RED) in range(1, 7)
True
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

from spielcenter.games.base import Deal
from spielcenter.games.seeds import KeyedStream, SecretSeed, keyed_shuffled
from spielcenter.games.shuffle import MAX_DEAL, SplitMix64, check_deal, shuffled

from .model import COLOURS, Colour

__all__ = [
    "DealOrder",
    "DeckSeeds",
    "DiceKey",
    "daily_deal",
    "deal_order",
    "deck_seeds",
    "giving_turn",
    "own_turn",
]

_DICE_TAG = b"speedquilt-dice/1|"
_DEAL_TAG = b"speedquilt-daily-deal/1|"
PATTERN_STREAM = "speedquilt/pattern"
KIT_STREAM = "speedquilt/kit"
START_STREAM = "speedquilt/start"
"""The labels of the keyed streams of a game dealt from a secret seed (``games/seeds.py``)."""
SECRET_MAX = 64
"""blake2b accepts keys of at most 64 bytes."""


def own_turn(seat: int) -> str:
    """The turn label of a seat's own turn in the dice stream."""
    return f"s{seat}"


def giving_turn() -> str:
    """The turn label of the solo giving turn in the dice stream."""
    return "g"


@dataclass(frozen=True)
class DiceKey:
    """The key and domain of a game's dice stream."""

    key: bytes
    domain: str = ""

    @classmethod
    def for_deal(cls, deal: int) -> DiceKey:
        """The dice of an ordinary game: keyed by its deal number."""
        return cls(deal.to_bytes(8, "big"))

    @classmethod
    def for_seed(cls, seed: SecretSeed) -> DiceKey:
        """The dice of a game dealt from a secret seed: keyed by all of its bytes."""
        return cls(seed.value)

    @classmethod
    def for_day(cls, day: str, secret: bytes) -> DiceKey:
        """The dice of the daily quilt of ``day``, keyed by the server's secret."""
        if not 1 <= len(secret) <= SECRET_MAX:
            raise ValueError(f"the daily secret must have 1 to {SECRET_MAX} bytes")
        return cls(secret, day)

    def value(self, turn: str, round_no: int, roll: int, colour: Colour) -> int:
        """The value (1–6) of the die of ``colour`` in that roll."""
        message = f"{self.domain}|{turn}|{round_no}|{roll}|{colour}".encode()
        digest = hashlib.blake2b(_DICE_TAG + message, key=self.key, digest_size=8).digest()
        return 1 + SplitMix64(int.from_bytes(digest, "big")).below(6)

    def roll(
        self, turn: str, round_no: int, roll: int, colours: tuple[Colour, ...] = COLOURS
    ) -> dict[Colour, int]:
        """The values of the dice of ``colours`` in that roll."""
        return {c: self.value(turn, round_no, roll, c) for c in colours}


@dataclass(frozen=True)
class DeckSeeds:
    """What the deal number decides at the start: the two shuffles and the start player."""

    pattern: int
    kit: int
    start_player: int


def deck_seeds(deal: int, seats: int) -> DeckSeeds:
    """SplitMix64(deal): output 1 shuffles the pattern deck, output 2 the kit deck, then
    ``below(seats)`` draws the start player."""
    rng = SplitMix64(deal)
    pattern = rng.next_u64()
    kit = rng.next_u64()
    return DeckSeeds(pattern, kit, rng.below(seats))


@dataclass(frozen=True)
class DealOrder:
    """What a game's deal decides at the start: both decks shuffled (top first, catalogue ids)
    and the start player."""

    pattern: list[str]
    kit: list[str]
    start_player: int


def deal_order(
    deal: Deal, pattern_ids: Sequence[str], kit_ids: Sequence[str], seats: int
) -> DealOrder:
    """The shuffled decks and the start player of ``deal`` (a deal number or a secret seed).

    A deal number: the pattern deck is shuffled with ``deck_seeds(...).pattern``, the kit deck
    with ``.kit`` (SplitMix64, unchanged since the first release). A secret seed: the pattern deck
    with the stream ``speedquilt/pattern``, the kit deck with ``speedquilt/kit``, and the start
    player is ``below(seats)`` of the stream ``speedquilt/start``.
    """
    if isinstance(deal, SecretSeed):
        return DealOrder(
            keyed_shuffled(pattern_ids, deal, PATTERN_STREAM),
            keyed_shuffled(kit_ids, deal, KIT_STREAM),
            KeyedStream(deal, START_STREAM).below(seats),
        )
    seeds = deck_seeds(check_deal(deal), seats)
    return DealOrder(
        shuffled(pattern_ids, seeds.pattern), shuffled(kit_ids, seeds.kit), seeds.start_player
    )


def daily_deal(day: str, secret: bytes) -> int:
    """The deal number of the daily quilt of ``day`` (1 … 2^63−1), keyed by the server secret."""
    digest = hashlib.blake2b(_DEAL_TAG + day.encode(), key=secret, digest_size=8).digest()
    return int.from_bytes(digest, "big") % MAX_DEAL + 1
