"""The configuration of one Speedquilt engine: table games, campaign stages and daily quilts.

A campaign stage or a daily quilt is not separate code, only other numbers: how many seats, how
many rounds, the target score, the shelf sizes, and for the daily quilt the day and the server's
secret that key its dice. :class:`Context` bundles the options with the catalogue for the rules.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from spielcenter.games.base import Deal, UnknownGameError
from spielcenter.games.seeds import SecretSeed

from .catalogue import Catalogue
from .dice import DiceKey
from .model import Block, Deck

__all__ = ["TABLE_SAFETY_ROUNDS", "Context", "Options"]

TABLE_SAFETY_ROUNDS = 30
"""A table game ends after this round at the latest."""
SOLO_ROUNDS = 12
SOLO_BONUS_PER_ROUND = 2
SHELF_SIZE = 4
MAX_SEATS = 4


@dataclass(frozen=True)
class Options:
    """Everything that makes one Speedquilt engine differ from another.

    ``rounds`` defaults to 12 for one seat and to the safety end (30) for a table. ``target`` (solo
    only) decides between ``won`` and ``lost``; without one a solo game is just ``finished``.
    ``day`` and ``secret`` make a daily quilt: its dice are keyed by them.
    """

    players: int = 2
    rounds: int | None = None
    target: int | None = None
    top_shelf: int = SHELF_SIZE
    bottom_shelf: int = SHELF_SIZE
    bonus_per_round: int = SOLO_BONUS_PER_ROUND
    day: str | None = None
    secret: bytes | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if not 1 <= self.players <= MAX_SEATS:
            raise UnknownGameError(f"Speedquilt seats 1 to {MAX_SEATS} players, not {self.players}")
        if self.rounds is not None and self.rounds < 1:
            raise UnknownGameError(f"a game needs at least one round, not {self.rounds}")
        if not (1 <= self.top_shelf <= SHELF_SIZE and 1 <= self.bottom_shelf <= SHELF_SIZE):
            raise UnknownGameError(f"shelves hold 1 to {SHELF_SIZE} blocks")
        if (self.day is None) != (self.secret is None):
            raise UnknownGameError("a daily quilt needs both the day and the server secret")
        if self.target is not None and self.players != 1:
            raise UnknownGameError("a target score belongs to solo games only")

    @property
    def solo(self) -> bool:
        """One seat: the solo rules with the giving turn."""
        return self.players == 1

    @property
    def max_rounds(self) -> int:
        """The last round that can be played."""
        if self.rounds is not None:
            return self.rounds
        return SOLO_ROUNDS if self.solo else TABLE_SAFETY_ROUNDS

    def shelf_size(self, deck: Deck) -> int:
        """How many slots the shelf of ``deck`` has."""
        return self.top_shelf if deck is Deck.PATTERN else self.bottom_shelf


@dataclass(frozen=True)
class Context:
    """The fixed things the rules consult: options and catalogue."""

    options: Options
    catalogue: Catalogue

    @property
    def seats(self) -> int:
        """How many seats the table has."""
        return self.options.players

    def block(self, block_id: str) -> Block:
        """The catalogue block with this id."""
        return self.catalogue.block(block_id)

    def dice_key(self, deal: Deal) -> DiceKey:
        """The key of the dice stream of the game with this deal (a number or a secret seed)."""
        if self.options.day is not None and self.options.secret is not None:
            return DiceKey.for_day(self.options.day, self.options.secret)
        if isinstance(deal, SecretSeed):
            return DiceKey.for_seed(deal)
        return DiceKey.for_deal(deal)
