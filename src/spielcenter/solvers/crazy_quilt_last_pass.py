"""Dead ends on Crazy Quilt's last pass: a card buried in the waste, and the relaxed game.

With no redeal left the waste is a stack: a card pushed onto every remaining copy of a rank it
needs first is stuck for good (:func:`buried`), and a relaxed game in which every quilt card is
free must be able to found every card (:func:`relaxed_possible`). Both prove a position lost;
the reasoning is in ``docs/winrates-crazy-quilt.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from spielcenter.games.cards import ACE, KING
from spielcenter.solvers.codes import RANK, code_bit
from spielcenter.solvers.crazy_quilt_position import WON_FND
from spielcenter.solvers.verdict import OutOfBudget

if TYPE_CHECKING:  # mypyc's 64-bit integer; at run time (and as plain Python) simply int
    from mypy_extensions import i64

__all__ = [
    "RELAXED_BUDGET",
    "RelaxedGame",
    "buried",
    "quilt_masks",
    "relaxed_possible",
    "relaxed_possible_of",
]


def buried(code: int, below: bytes, fnd: Sequence[int]) -> bool:
    """Whether the card ``code``, put on a waste holding ``below`` with no redeal left, is stuck.

    ``fnd`` holds the foundations' top ranks: up ``S H D C``, then down ``S H D C``. The card can
    leave the waste only to a foundation, and nothing beneath it can leave before it does. Going
    up needs one copy of each rank between the up foundation's top and the card; if every copy
    of such a rank not yet founded lies beneath the card, that home is closed for good. The same
    holds downwards. With both homes closed the game is lost.
    """
    suit = code >> 4
    return _buried(code, below, fnd[suit], fnd[4 + suit])


def _buried(code: i64, below: bytes, up: i64, down: i64) -> bool:
    """:func:`buried` with the card's suit's foundation tops ``up`` and ``down``."""
    rank = code & RANK
    if up + 1 == rank or rank + 1 == down:
        return False  # a foundation takes it at once
    piled = _piled(code >> 4, below)
    return _closed(up + 1, rank, up, down, piled) and _closed(rank + 1, down, up, down, piled)


def _piled(suit: i64, below: bytes) -> i64:
    """How many copies of each rank of ``suit`` lie in ``below``: 2 bits a rank (one pass over
    the waste, instead of a count of it for each rank)."""
    piled: i64 = 0
    card: i64
    for card in below:
        if card >> 4 == suit:
            piled += code_bit(2 * (card & RANK))
    return piled


def _closed(lo: i64, hi: i64, up: i64, down: i64, piled: i64) -> bool:
    """Whether the home that needs the ranks ``lo`` to ``hi - 1`` first is closed for good:
    every copy not yet founded of one of them lies beneath the card (``piled``, see
    :func:`_piled`); also when ``lo > hi``, a foundation that has passed the card's rank."""
    if lo > hi:
        return True
    between: i64
    for between in range(lo, hi):
        left: i64 = 2
        if between <= up:
            left -= 1
        if between >= down:
            left -= 1
        if left <= piled >> 2 * between & 3:
            return True
    return False


RELAXED_BUDGET: Final = 2_000
"""Positions one relaxed check may search before it gives the benefit of the doubt."""


class RelaxedGame:
    """Crazy Quilt with the quilt's geometry relaxed away: can the stock and waste be cleared?

    The waste is a stack: stock cards are pushed in order, a card leaves only from the top, to a
    foundation, and a redeal turns the stack into the new stock. In this relaxation every quilt
    card is free at all times and goes to a foundation whenever it follows there. Every real line
    maps onto a relaxed one (a quilt card built onto the waste stays free instead: on the waste
    it could only cover cards), so when the relaxation cannot found every card, the real game
    cannot either.

    A card that follows on a foundation now is founded without branching when its twin is
    founded or free in the quilt: the twin can stand in for it at any later time. Otherwise both
    foundations and waiting are tried. With no redeal left a card is never pushed onto cards it
    needs (:func:`buried`). A position is (redeals left, stock, cards turned, stack, foundations):
    what is left in the quilt follows from them.

    The search runs at nearly every position of the last pass, so its position is kept in plain
    numbers (no tuple or list is made for a move): the foundations packed into one number
    (:func:`packed`, 4 bits a slot) and the quilt as two masks of card codes, ``one`` (at least
    one copy left) and ``two`` (both copies left). They are ``i64``: compiled, mypyc keeps them
    in machine registers (every card code is below 62, so no mask reaches the sign bit); as
    plain Python they are ordinary ints.
    """

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.seen: set[tuple[int, bytes, bytes]] = set()
        """The positions searched: (:func:`_head`, pile, stack)."""

    def clears(
        self, left: int, pile: bytes, pushed: int, stack: bytes, fnd: i64, one: i64, two: i64
    ) -> bool:
        """Whether every card can reach a foundation (``True`` too when out of budget)."""
        stack, fnd, one, two = _forced(stack, fnd, one, two)
        if fnd == WON_PACKED:
            return True
        key = (_head(left, pushed, fnd), pile, stack)
        if key in self.seen:
            return False
        self.seen.add(key)
        if len(self.seen) > self.budget:
            raise OutOfBudget
        return self._children(left, pile, pushed, stack, fnd, one, two)

    def _children(
        self, left: int, pile: bytes, pushed: int, stack: bytes, fnd: i64, one: i64, two: i64
    ) -> bool:
        if stack:
            code: i64 = stack[-1]
            suit, rank = code >> 4, code & RANK
            if top_of(fnd, suit) == rank - 1 and self.clears(
                left, pile, pushed, stack[:-1], founded_packed(fnd, suit, rank), one, two
            ):
                return True
            if top_of(fnd, 4 + suit) == rank + 1 and self.clears(
                left, pile, pushed, stack[:-1], founded_packed(fnd, 4 + suit, rank), one, two
            ):
                return True
        slot: i64
        for slot in range(8):
            code = _wanted(fnd, slot)
            if code != 0 and one >> code & 1 != 0:
                less, fewer = _taken(code, one, two)
                if self.clears(
                    left, pile, pushed, stack, founded_packed(fnd, slot, code & RANK), less, fewer
                ):
                    return True
        if pushed < len(pile):
            card: i64 = pile[pushed]
            suit = card >> 4
            if left == 0 and _buried(card, stack, top_of(fnd, suit), top_of(fnd, 4 + suit)):
                return False
            turned = stack + pile[pushed : pushed + 1]
            return self.clears(left, pile, pushed + 1, turned, fnd, one, two)
        if left > 0 and stack:
            return self.clears(left - 1, stack, 0, b"", fnd, one, two)
        return False


def _forced(stack: bytes, fnd: i64, one: i64, two: i64) -> tuple[bytes, i64, i64, i64]:
    """Found every card of the waste's top and of the quilt that follows on a foundation and
    whose twin is founded or free in the quilt (see :class:`RelaxedGame`)."""
    moved = True
    while moved:
        moved = False
        if stack:
            top: i64 = stack[-1]
            suit, rank = top >> 4, top & RANK
            up, down = top_of(fnd, suit), top_of(fnd, 4 + suit)
            slot: i64 = -1
            if up == rank - 1:
                slot = suit
            elif down == rank + 1:
                slot = 4 + suit
            if slot >= 0 and (rank <= up or rank >= down or one >> top & 1 != 0):
                stack, fnd, moved = stack[:-1], founded_packed(fnd, slot, rank), True
                continue
        # The quilt's cards, slot by slot: _wanted, _twin_founded and _taken written out (this
        # loop runs at every relaxed position; mypyc calls each helper as a C function).
        for slot in range(8):
            wanted: i64 = fnd >> 4 * slot & RANK
            if slot < 4:
                if wanted >= KING:
                    continue
                code = (slot << 4) + wanted + 1
            else:
                if wanted <= ACE:
                    continue
                code = ((slot - 4) << 4) + wanted - 1
            if one >> code & 1 == 0:
                continue
            suit, rank = code >> 4, code & RANK
            if two >> code & 1 != 0:
                two &= ~code_bit(code)
            elif rank <= fnd >> 4 * suit & RANK or rank >= fnd >> 4 * (4 + suit) & RANK:
                one &= ~code_bit(code)
            else:
                continue
            fnd, moved = founded_packed(fnd, slot, rank), True
            break
    return stack, fnd, one, two


def packed(fnd: Sequence[int]) -> int:
    """The eight foundation tops (up ``S H D C``, then down) as one number, 4 bits a slot."""
    number = 0
    for slot in range(8):
        number |= fnd[slot] << 4 * slot
    return number


WON_PACKED: Final = packed(WON_FND)


def _head(left: i64, pushed: i64, fnd: i64) -> i64:
    """Redeals left, cards turned and packed foundations (32 bits) as one number, a distinct one
    for each (``left`` below 256, ``pushed`` below 2**23): the key of a position holds one number
    to hash and box instead of three. (Multiplied, not shifted: see :func:`code_bit`.)"""
    return (pushed * 256 + left) * 4_294_967_296 + fnd


def top_of(fnd: i64, slot: i64) -> i64:
    """The top rank of foundation ``slot`` (0–7) of packed foundations."""
    return fnd >> 4 * slot & RANK


def founded_packed(fnd: i64, slot: i64, rank: i64) -> i64:
    """Packed foundations after ``rank`` went onto ``slot``."""
    shift = 4 * slot
    return fnd + ((rank - top_of(fnd, slot)) << shift)


def _wanted(fnd: i64, slot: i64) -> i64:
    """The card code foundation ``slot`` of packed foundations takes next, or 0 when it is
    finished."""
    top = top_of(fnd, slot)  # (if statements: mypyc boxes a conditional expression's i64)
    if slot < 4:
        if top < KING:
            return (slot << 4) + top + 1
        return 0
    if top > ACE:
        return ((slot - 4) << 4) + top - 1
    return 0


def _twin_founded(code: i64, fnd: i64) -> bool:
    suit, rank = code >> 4, code & RANK
    return rank <= top_of(fnd, suit) or rank >= top_of(fnd, 4 + suit)


def _taken(code: i64, one: i64, two: i64) -> tuple[i64, i64]:
    """The quilt's masks (see :class:`RelaxedGame`) after one copy of ``code`` left it."""
    card: i64 = code_bit(code)
    if two & card != 0:
        return one, two & ~card
    return one & ~card, two


def relaxed_possible(
    stack: bytes,
    pile: bytes,
    quilt: bytes,
    fnd: Sequence[int],
    redeals_left: int,
    budget: int = RELAXED_BUDGET,
) -> tuple[bool, int]:
    """Whether the relaxed game (see :class:`RelaxedGame`) can found every card, and its positions.

    ``stack`` is the waste (bottom to top), ``pile`` the stock (top card first), ``quilt`` the
    codes of the cards left in the quilt, ``fnd`` the eight foundation tops (up, then down).
    ``False`` proves that the position is lost; out of budget the answer is ``True`` (the
    benefit of the doubt). :func:`~spielcenter.solvers.crazy_quilt_relaxed.clearable` decides
    the same game by another route, much faster across a redeal.
    """
    one, two = quilt_masks(quilt)
    return relaxed_possible_of(stack, pile, one, two, fnd, redeals_left, budget)


def quilt_masks(quilt: bytes) -> tuple[int, int]:
    """The masks of card codes of the cards ``quilt`` holds (see :class:`RelaxedGame`): ``one``,
    the codes with at least one copy there, and ``two``, those with both."""
    one = two = 0
    for code in quilt:
        if one >> code & 1:
            two |= 1 << code
        one |= 1 << code
    return one, two


def relaxed_possible_of(
    stack: bytes,
    pile: bytes,
    one: int,
    two: int,
    fnd: Sequence[int],
    redeals_left: int,
    budget: int = RELAXED_BUDGET,
) -> tuple[bool, int]:
    """:func:`relaxed_possible` of the quilt given as its masks ``one`` and ``two``
    (:func:`quilt_masks`): the relaxed game reads no more of the quilt than these, so two
    quilts with the same cards in other cells get the same answer and positions."""
    relaxed = RelaxedGame(budget)
    try:
        possible = relaxed.clears(redeals_left, pile, 0, stack, packed(fnd), one, two)
    except OutOfBudget:
        possible = True
    return possible, len(relaxed.seen)
