"""Cruel, the open patience of seed 001, with the variants "stuck" and "perseverance".

The four aces start the foundations; the other 48 cards lie face up in twelve piles of four.
Only a pile's top card moves: to its foundation when it is next, or onto another pile's top card
of the same suit and one rank higher. Empty piles stay empty. A redeal gathers piles 1…12 (each
bottom to top) into one packet, unshuffled, and deals it again in fours from pile 1.

Moves are written ``3f`` (pile 3's top card to its foundation), ``3>7`` (pile 3's top card onto
pile 7) and ``r`` (redeal); ``docs/notation-cruel.md`` has the details.

>>> game = make("classic")
>>> state = game.start(1)
>>> [str(card) for card in state.piles[0]]
['JS', '5C', '6S', 'KD']
>>> [game.format_move(move) for move in game.legal_moves(state)]
['2f', '2>4', '5>3', '7>9', '10f']
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from typing import Any, ClassVar

from .base import (
    JSON,
    Deal,
    Game,
    IllegalMoveError,
    MoveSyntaxError,
    Seat,
    StateFormatError,
    Status,
    UnknownGameError,
)
from .cards import (
    ACE,
    KING,
    SUIT_NAMES,
    SUITS,
    Card,
    CardSyntaxError,
    decode_foundations,
    encode_foundations,
    standard_deck,
)
from .shuffle import DealNumberError, check_deal, shuffled

VARIANTS = ("classic", "stuck", "perseverance")
"""The variant names; the first is the default."""

PILES = 12
"""Piles 1–6 form the top row, 7–12 the bottom row."""
PILE_SIZE = 4
"""Cards per pile in a deal and in every redeal (the last pile may get fewer)."""
ROW = 6

_SUIT_INDEX = {suit: index for index, suit in enumerate(SUITS)}
_DECK = standard_deck()
_SUCCESSOR = {card: higher for card, higher in itertools.pairwise(_DECK) if card.rank < KING}
"""The card each card is built on: the next higher card of its suit (kings have none); the
deck's own cards (see :func:`standard_deck`), as a position's are."""
_CARD_TEXT = {card: str(card) for card in standard_deck()}
"""Each card's notation, written once: a view writes all 48 cards of the layout."""

Pile = tuple[Card, ...]
"""A pile from its bottom card to its top card (the last one, the only one that moves)."""

_PILE_TEXTS: dict[Pile, tuple[str, ...]] = {}
"""Each pile's cards' notation, kept by the pile: a view writes twelve piles and a move changes
two of them (looking a pile up costs half of writing its cards)."""
PILE_TEXTS_KEPT = 50_000
"""Piles whose notation is kept at most (then the table starts afresh): 1 000 games on show
hold 12 000 piles, an entry makes one or two."""


def _pile_texts(pile: Pile) -> tuple[str, ...]:
    texts = tuple(map(_CARD_TEXT.__getitem__, pile))
    if len(_PILE_TEXTS) >= PILE_TEXTS_KEPT:
        _PILE_TEXTS.clear()
    _PILE_TEXTS[pile] = texts
    return texts


@dataclass(frozen=True, slots=True)
class CruelState:
    """A Cruel position: plain, immutable data. Nothing in Cruel is hidden."""

    deal: int
    """The deal number the layout was shuffled with."""
    variant: str
    """One of :data:`VARIANTS`."""
    piles: tuple[Pile, ...]
    """The twelve piles, pile 1 first, each from bottom to top."""
    foundations: tuple[int, int, int, int]
    """The top rank on each foundation, in suit order ``S H D C`` (1 = only the ace)."""
    redeals: int = 0
    """How many redeals have been made."""
    moved: bool = False
    """Whether any card has moved since the last deal (a redeal without one changes nothing)."""

    def foundation(self, suit: str) -> int:
        """The top rank on the foundation of ``suit``."""
        return self.foundations[_SUIT_INDEX[suit]]

    def top(self, pile: int) -> Card | None:
        """The top card of pile ``pile`` (numbered 1–12), ``None`` when it is empty."""
        cards = self.piles[pile - 1]
        return cards[-1] if cards else None

    @property
    def is_won(self) -> bool:
        """All 52 cards are on the foundations."""
        return self.foundations == (KING, KING, KING, KING)


_MOVE_PATTERN = re.compile(r"(?P<source>[1-9][0-9]?)(?:(?P<foundation>f)|>(?P<target>[1-9][0-9]?))")


@dataclass(frozen=True, slots=True)
class CruelMove:
    """One move: a card (or, in Perseverance, a run) from a pile, or a redeal.

    ``source`` is the pile numbered 1–12 that the card leaves (``None`` for a redeal);
    ``target`` is the pile it goes onto (``None``: its foundation, or a redeal).

    >>> CruelMove.parse("3>7")
    CruelMove.parse('3>7')
    >>> str(CruelMove.to_foundation(3)), str(REDEAL)
    ('3f', 'r')
    """

    source: int | None = None
    target: int | None = None

    @classmethod
    def to_foundation(cls, source: int) -> CruelMove:
        """The top card of pile ``source`` to its foundation."""
        return cls(source, None)

    @classmethod
    def onto(cls, source: int, target: int) -> CruelMove:
        """The top card (Perseverance: the fitting run) of pile ``source`` onto pile ``target``."""
        return cls(source, target)

    @property
    def is_redeal(self) -> bool:
        """Whether this move is the redeal ``r``."""
        return self.source is None

    @property
    def is_to_foundation(self) -> bool:
        """Whether this move sends a top card to its foundation (``3f``)."""
        return self.source is not None and self.target is None

    @classmethod
    def parse(cls, text: str) -> CruelMove:
        """Read ``3f``, ``3>7`` or ``r``; raise :class:`MoveSyntaxError` for anything else."""
        if not isinstance(text, str):
            raise MoveSyntaxError(f"a move is text such as '3f', '3>7' or 'r', not {text!r}")
        written = text.strip().lower()
        if written == "r":
            return REDEAL
        match = _MOVE_PATTERN.fullmatch(written)
        if match is None:
            raise MoveSyntaxError(
                f"{text!r} is not a Cruel move: write '3f' (pile 3 to its foundation), "
                "'3>7' (pile 3 onto pile 7) or 'r' (redeal)"
            )
        source = _pile_number(match["source"])
        if match["foundation"]:
            return cls(source, None)
        target = _pile_number(match["target"])
        if target == source:
            raise MoveSyntaxError(f"{text!r}: a pile cannot move onto itself")
        return cls(source, target)

    def __str__(self) -> str:
        if self.source is None:
            return "r"
        if self.target is None:
            return f"{self.source}f"
        return f"{self.source}>{self.target}"

    def __repr__(self) -> str:
        return f"CruelMove.parse({str(self)!r})"


REDEAL = CruelMove()
"""The redeal ``r``."""


def _moves_by_code() -> tuple[list[CruelMove], list[str]]:
    moves = [REDEAL] * ((PILES + 1) << 4)
    for source in range(1, PILES + 1):
        for target in (None, *range(1, PILES + 1)):
            if target != source:
                moves[source << 4 | (target or 0)] = CruelMove(source, target)
    return moves, [str(move) for move in moves]


_MOVE_OF_CODE, _TEXT_OF_CODE = _moves_by_code()
"""Every card move made once, and its notation, by its code ``source << 4 | target`` (target 0:
the foundation): a position's moves are found as codes (:meth:`Cruel.card_move_codes`), and a
view writes their notation without making a move or formatting one."""


def _pile_number(text: str) -> int:
    number = int(text)
    if not 1 <= number <= PILES:
        raise MoveSyntaxError(f"there is no pile {number}: piles are numbered 1–{PILES}")
    return number


def deal_piles(cards: list[Card] | tuple[Card, ...]) -> tuple[Pile, ...]:
    """Deal ``cards`` in order, four to a pile, into piles 1, 2, …; the rest stay empty.

    The first card a pile receives is its bottom card; the last pile dealt may have fewer than four.
    """
    return tuple(
        tuple(cards[start : start + PILE_SIZE]) for start in range(0, PILE_SIZE * PILES, PILE_SIZE)
    )


def redealt(piles: tuple[Pile, ...]) -> tuple[Pile, ...]:
    """The piles after a redeal: piles 1…12, each bottom to top, in one packet, dealt in fours.

    >>> piles = ((Card.parse("5C"), Card.parse("9H")), (Card.parse("KD"),)) + ((),) * 10
    >>> [[str(c) for c in pile] for pile in redealt(piles)[:2]]
    [['5C', '9H', 'KD'], []]
    """
    return deal_piles([card for pile in piles for card in pile])


class Cruel(Game[CruelState, CruelMove]):
    """Cruel as seed 001 gives it: single cards move, redeal at any time, as often as you like.

    The variants are subclasses that override the hooks :attr:`moves_runs`,
    :attr:`redeals_allowed` and :meth:`redeal_refusal`.
    """

    name: ClassVar[str] = "cruel"
    variant = "classic"

    moves_runs: ClassVar[bool] = False
    """Whether a descending run of one suit may move as a unit (Perseverance)."""
    redeals_allowed: ClassVar[int | None] = None
    """How many redeals a game allows; ``None``: any number."""

    # -- start ----------------------------------------------------------------------------------

    def start(self, deal: Deal) -> CruelState:
        """The layout of deal ``deal``: aces to the foundations, the other 48 shuffled in fours."""
        deal = check_deal(deal)
        rest = [card for card in standard_deck() if card.rank != ACE]
        return CruelState(
            deal=deal,
            variant=self.variant,
            piles=deal_piles(shuffled(rest, deal)),
            foundations=(ACE, ACE, ACE, ACE),
        )

    # -- moves ----------------------------------------------------------------------------------

    def run_length(self, pile: Pile) -> int:
        """How many cards at the top of ``pile`` may move together: 1, or in Perseverance the
        descending run of one suit at its top (each card one lower than the card beneath it)."""
        if not self.moves_runs:
            return 1 if pile else 0
        length = 1 if pile else 0
        while length < len(pile):
            upper, lower = pile[-length], pile[-length - 1]
            if lower.suit != upper.suit or lower.rank != upper.rank + 1:
                break
            length += 1
        return length

    def card_moves(self, state: CruelState) -> list[CruelMove]:
        """Every legal move of a card (or run), pile 1 first; a pile's foundation move first."""
        return list(map(_MOVE_OF_CODE.__getitem__, self.card_move_codes(state)))

    def card_move_codes(self, state: CruelState) -> list[int]:
        """:meth:`card_moves` as codes ``source << 4 | target`` (target 0: the foundation)."""
        foundations = state.foundations
        piles = state.piles
        # Where each top card lies, so that a card finds its building target at once (a king's
        # successor, None, lies nowhere).
        tops: dict[Card | None, int] = {
            pile[-1]: number for number, pile in enumerate(piles, 1) if pile
        }
        runs = self.moves_runs
        codes = []
        for number, pile in enumerate(piles, 1):
            if not pile:
                continue
            card = pile[-1]
            source = number << 4
            if foundations[_SUIT_INDEX[card.suit]] == card.rank - 1:
                codes.append(source)
            if runs:
                for base in reversed(pile[-self.run_length(pile) :]):
                    target = tops.get(_SUCCESSOR.get(base))
                    if target is not None:
                        codes.append(source | target)
                continue
            target = tops.get(_SUCCESSOR.get(card))
            if target is not None:
                codes.append(source | target)
        return codes

    def can_move_a_card(self, state: CruelState) -> bool:
        """Whether any card (or run) can move now: :meth:`card_moves` without building the list,
        since :meth:`status` asks this at every step of a playout."""
        foundations = state.foundations
        tops = {pile[-1] for pile in state.piles if pile}
        for pile in state.piles:
            if not pile:
                continue
            card = pile[-1]
            if foundations[_SUIT_INDEX[card.suit]] == card.rank - 1:
                return True
            # Perseverance: a run moves only onto the card above its lowest-placed card.
            base = pile[-self.run_length(pile)] if self.moves_runs else card
            if _SUCCESSOR.get(base) in tops:
                return True
        return False

    def redeal_refusal(self, state: CruelState, card_moves: list[CruelMove]) -> str | None:
        """Why a redeal is not allowed now, or ``None`` when it is; ``card_moves`` are the
        position's :meth:`card_moves`. Variants add their reasons."""
        if not state.moved:
            return "nothing has moved since the last deal: a redeal would give the same layout"
        return None

    def redeals_left(self, state: CruelState) -> int | None:
        """How many redeals remain; ``None`` when they are unlimited."""
        if self.redeals_allowed is None:
            return None
        return max(self.redeals_allowed - state.redeals, 0)

    def legal_moves(self, state: CruelState, seat: Seat = 0) -> list[CruelMove]:
        """Every legal move in a stable order: pile by pile, then the redeal. Empty once over."""
        if seat != 0 or state.is_won:
            return []
        moves = self.card_moves(state)
        if self.redeal_refusal(state, moves) is None:
            moves.append(REDEAL)
        return moves

    def parse_move(self, text: str) -> CruelMove:
        """Read a move: ``3f``, ``3>7`` or ``r`` (see :meth:`CruelMove.parse`)."""
        return CruelMove.parse(text)

    def format_move(self, move: CruelMove) -> str:
        """The canonical notation of ``move``."""
        return str(move)

    def check(self, state: CruelState, move: CruelMove, seat: Seat = 0) -> None:
        """Raise :class:`IllegalMoveError` saying why ``move`` is not allowed now."""
        if seat != 0:
            raise IllegalMoveError(f"{move}: Cruel has one seat, 0, not {seat}")
        if move.source is not None:
            refusal = self._card_refusal(state, move)
            if refusal is None:
                # A card that moves lies on the layout (not won) and can move (not lost): the
                # game goes on, without asking the status (a server checks every move).
                return
        current = self.status(state)
        if current is not Status.PLAYING:
            raise IllegalMoveError(f"{move}: the game is over ({current})")
        if move.source is None:
            reason = self.redeal_refusal(state, self.card_moves(state))
            if reason is not None:
                raise IllegalMoveError(f"r: {reason}")
            return
        raise IllegalMoveError(refusal)

    def _card_refusal(self, state: CruelState, move: CruelMove) -> str | None:
        """Why the card move ``move`` does not fit the layout, or ``None`` when it does."""
        assert move.source is not None
        if move.source == move.target or not 1 <= move.source <= PILES:
            return f"{move}: not a move between two of piles 1–{PILES}"
        card = state.top(move.source)
        if card is None:
            return f"{move}: pile {move.source} is empty"
        if move.target is None:
            needed = state.foundation(card.suit) + 1
            if card.rank == needed:
                return None
            return (
                f"{move}: {card} cannot go to its foundation: the {SUIT_NAMES[card.suit]} "
                f"foundation takes {Card(needed, card.suit)} next"
            )
        if not 1 <= move.target <= PILES:
            return f"{move}: there is no pile {move.target}"
        goal = state.top(move.target)
        if goal is None:
            return f"{move}: pile {move.target} is empty, and empty piles stay empty"
        if self._fitting_length(state.piles[move.source - 1], goal) > 0:
            return None
        what = "a card or a run of one suit" if self.moves_runs else "a card"
        return (
            f"{move}: {card} does not fit on {goal}: "
            f"{what} goes on the next higher card of its suit"
        )

    def _fitting_length(self, pile: Pile, goal: Card) -> int:
        """How many top cards of ``pile`` move onto ``goal``: the part of the top run (a single
        card outside Perseverance) whose lowest-placed card is one below ``goal`` in its suit."""
        for length in range(1, self.run_length(pile) + 1):
            base = pile[-length]
            if base.suit == goal.suit and base.rank + 1 == goal.rank:
                return length
        return 0

    def apply(self, state: CruelState, move: CruelMove, seat: Seat = 0) -> CruelState:
        """The position after the legal ``move`` (not checked here: see :meth:`play`)."""
        if move.source is None:
            return CruelState(
                state.deal,
                state.variant,
                redealt(state.piles),
                state.foundations,
                state.redeals + 1,
                False,
            )
        piles = list(state.piles)
        source = piles[move.source - 1]
        foundations = state.foundations
        if move.target is None:
            card = source[-1]
            index = _SUIT_INDEX[card.suit]
            ranks = list(foundations)
            ranks[index] = card.rank
            foundations = (ranks[0], ranks[1], ranks[2], ranks[3])
            piles[move.source - 1] = source[:-1]
        else:
            target = piles[move.target - 1]
            length = self._fitting_length(source, target[-1]) if self.moves_runs else 1
            piles[move.source - 1] = source[:-length]
            piles[move.target - 1] = target + source[-length:]
        return CruelState(state.deal, state.variant, tuple(piles), foundations, state.redeals, True)

    # -- the end --------------------------------------------------------------------------------

    def status(self, state: CruelState) -> Status:
        """Won with all 52 on the foundations; lost when no move is left (not even a redeal)."""
        if state.is_won:
            return Status.WON
        if self.can_move_a_card(state) or self.redeal_refusal(state, []) is None:
            return Status.PLAYING
        return Status.LOST

    # -- codec and views ------------------------------------------------------------------------

    def encode(self, state: CruelState) -> JSON:
        """The full state as JSON-ready data."""
        return {
            "game": self.name,
            "variant": state.variant,
            "deal": state.deal,
            "piles": [[str(card) for card in pile] for pile in state.piles],
            "foundations": encode_foundations(state.foundations),
            "redeals": state.redeals,
            "moved": state.moved,
        }

    def decode(self, data: JSON) -> CruelState:
        """The state from :meth:`encode`'s output; raise :class:`StateFormatError` if malformed."""
        return _StateReader(self).read(data)

    def view_for(self, state: CruelState, seat: Seat | None = 0) -> JSON:
        """What anyone sees (nothing is hidden), with the status and the legal moves."""
        won = state.is_won
        codes = [] if won else self.card_move_codes(state)
        legal = list(map(_TEXT_OF_CODE.__getitem__, codes))
        if not won and self.redeal_refusal(state, self._moves_of(codes)) is None:
            legal.append(str(REDEAL))
        piles = list(map(_PILE_TEXTS.get, state.piles))
        if None in piles:
            piles = [
                t if t is not None else _pile_texts(p)
                for t, p in zip(piles, state.piles, strict=True)
            ]
        return {
            "game": self.name,
            "variant": state.variant,
            "deal": state.deal,
            "piles": list(map(list, piles)),  # type: ignore[arg-type]
            "foundations": encode_foundations(state.foundations),
            # A game not won goes on exactly while a move is left, a card's or the redeal (when
            # no card can move, every variant's reason to refuse the redeal is the one
            # :meth:`status` asks about).
            "status": str(Status.WON if won else Status.PLAYING if legal else Status.LOST),
            "redeals": state.redeals,
            "redeals_left": self.redeals_left(state),
            "legal": legal,
        }

    def _moves_of(self, codes: list[int]) -> list[CruelMove]:
        """The card moves of :meth:`card_move_codes`, for :meth:`redeal_refusal` (only the
        variant "stuck" reads them)."""
        return list(map(_MOVE_OF_CODE.__getitem__, codes))

    def render(self, state: CruelState, seat: Seat | None = 0) -> str:
        """The layout for people: two rows of six piles (fanned downwards, top card last),
        the foundations and the redeals."""
        lines = [f"Cruel ({state.variant}), deal {state.deal}: {self.status(state)}", ""]
        for first in (1, 1 + ROW):
            numbers = range(first, first + ROW)
            lines.append("".join(f"{number:>4} " for number in numbers).rstrip())
            depth = max(len(state.piles[number - 1]) for number in numbers)
            for level in range(depth):
                cells = [state.piles[number - 1][level : level + 1] for number in numbers]
                lines.append("".join(f"{str(c[0]) if c else '':>4} " for c in cells).rstrip())
            lines.append("")
        tops = "  ".join(str(Card(state.foundation(suit), suit)) for suit in SUITS)
        lines.append(f"Foundations: {tops}")
        left = self.redeals_left(state)
        lines.append(f"Redeals: {state.redeals}" + ("" if left is None else f" ({left} left)"))
        return "\n".join(lines)


class CruelStuck(Cruel):
    """Variant "redeal only when stuck": a redeal is allowed only when no card can move."""

    variant = "stuck"

    def redeal_refusal(self, state: CruelState, card_moves: list[CruelMove]) -> str | None:
        """Classic's reason, or a card that can still move."""
        reason = super().redeal_refusal(state, card_moves)
        if reason is None and card_moves:
            reason = f"redeal only when no card can move, and {card_moves[0]} still can"
        return reason


class Perseverance(Cruel):
    """Perseverance, the older game: descending runs of one suit move as a unit; two redeals."""

    variant = "perseverance"
    moves_runs = True
    redeals_allowed = 2

    def redeal_refusal(self, state: CruelState, card_moves: list[CruelMove]) -> str | None:
        """Classic's reason, or no redeal left."""
        if self.redeals_left(state) == 0:
            return f"no redeals left: Perseverance allows {self.redeals_allowed}"
        return super().redeal_refusal(state, card_moves)


_VARIANT_CLASSES: dict[str, type[Cruel]] = {
    "classic": Cruel,
    "stuck": CruelStuck,
    "perseverance": Perseverance,
}


def make(variant: str = "classic", **options: Any) -> Cruel:
    """The Cruel game of ``variant``; raise :class:`UnknownGameError` for an unknown one."""
    if variant not in _VARIANT_CLASSES:
        raise UnknownGameError(
            f"Cruel has no variant {variant!r}; its variants are {', '.join(VARIANTS)}"
        )
    if options:
        raise UnknownGameError(f"Cruel takes no options, got {', '.join(sorted(options))}")
    return _VARIANT_CLASSES[variant]()


def auto_moves(state: CruelState) -> list[CruelMove]:
    """The moves the auto-move setting makes for the player, in order (each legal after the last).

    Only foundation moves are candidates: a card that goes to its foundation is never needed as a
    building target, because the one card that could be built on it (one lower, same suit) is
    already on the foundation. But it can still matter where it lies: every card on the layout
    takes a place in the next redeal, so taking one away shifts every card after it, and seed 001
    itself advises keeping a card back now and then for a better redeal. So a foundation move is
    made automatically only when it cannot take away any choice:

    * when no redeal can come before the card must go up anyway: in the variant "redeal only when
      stuck" (the card can always move, so no redeal is allowed until it has gone) and once no
      redeal is left (Perseverance after its two);
    * otherwise only for the last card of the layout in redeal order (the top card of the last
      pile that has cards) when the packet ends with its suit running down from the king to it
      (``… KH QH JH`` sends up ``JH``; a lone king at the end counts too). No card can ever be
      put between those cards (the one that would fit, one lower, is on the foundation already)
      and each can only move onto the card just before it in the packet, so the run stays the
      packet's tail for ever: the card can wait at the end, or go up now, and nothing else about
      any later layout depends on which.
      A card merely lying on its next higher card is not enough: after a redeal splits the two,
      the higher one may move elsewhere and the lower one follow it into the middle of the packet.
    """
    game = make(state.variant)
    moves: list[CruelMove] = []
    while True:
        move = _next_auto_move(game, state)
        if move is None:
            return moves
        moves.append(move)
        state = game.apply(state, move)


def _next_auto_move(game: Cruel, state: CruelState) -> CruelMove | None:
    up = [move for move in game.card_moves(state) if move.target is None]
    if not up:
        return None
    if isinstance(game, CruelStuck) or game.redeals_left(state) == 0:
        return up[0]
    last = max((n for n, pile in enumerate(state.piles, 1) if pile), default=0)
    if CruelMove(last, None) not in up:
        return None
    card = state.piles[last - 1][-1]
    run = [Card(rank, card.suit) for rank in range(KING, card.rank - 1, -1)]
    packet = [c for pile in state.piles for c in pile]
    return CruelMove(last, None) if packet[-len(run) :] == run else None


class _StateReader:
    """Reads and validates :meth:`Cruel.encode`'s output, saying what is wrong."""

    def __init__(self, game: Cruel) -> None:
        self.game = game

    def read(self, data: JSON) -> CruelState:
        if not isinstance(data, dict):
            raise StateFormatError(f"a Cruel state is a JSON object, not {type(data).__name__}")
        missing = {"variant", "deal", "piles", "foundations", "redeals", "moved"} - set(data)
        if missing:
            raise StateFormatError(f"a Cruel state needs {', '.join(sorted(missing))}")
        if data.get("game", "cruel") != "cruel":
            raise StateFormatError(f"this is a state of {data['game']!r}, not of 'cruel'")
        if data["variant"] != self.game.variant:
            raise StateFormatError(
                f"this state is of variant {data['variant']!r}; this game is "
                f"{self.game.variant!r} (variants: {', '.join(VARIANTS)})"
            )
        piles = self._piles(data["piles"])
        foundations = decode_foundations(data["foundations"], "foundations")
        self._check_every_card_once(piles, foundations)
        return CruelState(
            deal=self._deal(data["deal"]),
            variant=self.game.variant,
            piles=piles,
            foundations=foundations,
            redeals=self._redeals(data["redeals"]),
            moved=self._flag(data["moved"]),
        )

    def _deal(self, value: Any) -> int:
        try:
            return check_deal(value)
        except DealNumberError as error:
            raise StateFormatError(str(error)) from None

    def _piles(self, value: Any) -> tuple[Pile, ...]:
        if not isinstance(value, list) or len(value) != PILES:
            raise StateFormatError(f"piles must be a list of {PILES} piles")
        if not all(isinstance(pile, list) for pile in value):
            raise StateFormatError("each pile must be a list of cards such as 'TS'")
        return tuple(tuple(self._card(text) for text in pile) for pile in value)

    def _card(self, text: Any) -> Card:
        if not isinstance(text, str):
            raise StateFormatError(f"{text!r} is not a card such as 'TS'")
        try:
            return Card.parse(text)
        except CardSyntaxError as error:
            raise StateFormatError(str(error)) from None

    def _check_every_card_once(
        self, piles: tuple[Pile, ...], foundations: tuple[int, int, int, int]
    ) -> None:
        cards = [card for pile in piles for card in pile]
        cards += [
            Card(r, s) for s, top in zip(SUITS, foundations, strict=True) for r in range(1, top + 1)
        ]
        seen: set[Card] = set()
        for card in cards:
            if card in seen:
                raise StateFormatError(f"{card} appears twice (piles and foundations)")
            seen.add(card)
        if len(seen) != 52:
            lacking = sorted(set(standard_deck()) - seen)
            raise StateFormatError(f"52 cards needed, missing {' '.join(map(str, lacking))}")

    def _redeals(self, value: Any) -> int:
        limit = self.game.redeals_allowed
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise StateFormatError(f"redeals must be a whole number from 0, not {value!r}")
        if limit is not None and value > limit:
            raise StateFormatError(f"{value} redeals made, but {self.game.variant} allows {limit}")
        return value

    def _flag(self, value: Any) -> bool:
        if not isinstance(value, bool):
            raise StateFormatError(f"moved must be true or false, not {value!r}")
        return value
