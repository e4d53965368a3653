"""Dead ends on Crazy Quilt's last pass: a card buried in the waste, and the relaxed game.

With no redeal left the waste is a stack: a card pushed onto every remaining copy of a rank it
needs first is stuck for good (:func:`buried`), and a relaxed game in which every quilt card is
free must be able to found every card (:func:`relaxed_possible`). Both prove a position lost;
the reasoning is in ``docs/winrates-crazy-quilt.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from spielcenter.games.cards import ACE, KING
from spielcenter.solvers.codes import RANK
from spielcenter.solvers.crazy_quilt_position import WON_FND
from spielcenter.solvers.verdict import OutOfBudget

__all__ = ["RELAXED_BUDGET", "RelaxedGame", "buried", "relaxed_possible"]


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


def _buried(code: int, below: bytes, up: int, down: int) -> bool:
    """:func:`buried` with the card's suit's foundation tops ``up`` and ``down``."""
    rank, base = code & RANK, code & ~RANK
    for lo, hi in ((up + 1, rank), (rank + 1, down)):
        if lo > hi:
            continue  # that foundation has passed the card's rank: no home there
        for between in range(lo, hi):
            left = 2 - (between <= up) - (between >= down)
            if left <= below.count(base + between):
                break
        else:
            return False
    return True


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
    one copy left) and ``two`` (both copies left).
    """

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.seen: set[tuple[int, int, bytes, int, bytes]] = set()

    def clears(
        self, left: int, pile: bytes, pushed: int, stack: bytes, fnd: int, one: int, two: int
    ) -> bool:
        """Whether every card can reach a foundation (``True`` too when out of budget)."""
        stack, fnd, one, two = _forced(stack, fnd, one, two)
        if fnd == WON_PACKED:
            return True
        key = (left, pushed, pile, fnd, stack)
        if key in self.seen:
            return False
        self.seen.add(key)
        if len(self.seen) > self.budget:
            raise OutOfBudget
        return self._children(left, pile, pushed, stack, fnd, one, two)

    def _children(
        self, left: int, pile: bytes, pushed: int, stack: bytes, fnd: int, one: int, two: int
    ) -> bool:
        if stack:
            code = stack[-1]
            suit, rank = code >> 4, code & RANK
            if top_of(fnd, suit) == rank - 1 and self.clears(
                left, pile, pushed, stack[:-1], founded_packed(fnd, suit, rank), one, two
            ):
                return True
            if top_of(fnd, 4 + suit) == rank + 1 and self.clears(
                left, pile, pushed, stack[:-1], founded_packed(fnd, 4 + suit, rank), one, two
            ):
                return True
        for slot in range(8):
            code = _wanted(fnd, slot)
            if code and one >> code & 1:
                less, fewer = _taken(code, one, two)
                if self.clears(
                    left, pile, pushed, stack, founded_packed(fnd, slot, code & RANK), less, fewer
                ):
                    return True
        if pushed < len(pile):
            card = pile[pushed]
            suit = card >> 4
            if left == 0 and _buried(card, stack, top_of(fnd, suit), top_of(fnd, 4 + suit)):
                return False
            turned = stack + pile[pushed : pushed + 1]
            return self.clears(left, pile, pushed + 1, turned, fnd, one, two)
        if left > 0 and stack:
            return self.clears(left - 1, stack, 0, b"", fnd, one, two)
        return False


def _forced(stack: bytes, fnd: int, one: int, two: int) -> tuple[bytes, int, int, int]:
    """Found every card of the waste's top and of the quilt that follows on a foundation and
    whose twin is founded or free in the quilt (see :class:`RelaxedGame`)."""
    moved = True
    while moved:
        moved = False
        if stack:
            top = stack[-1]
            suit, rank = top >> 4, top & RANK
            up, down = top_of(fnd, suit), top_of(fnd, 4 + suit)
            slot = suit if up == rank - 1 else 4 + suit if down == rank + 1 else -1
            if slot >= 0 and (rank <= up or rank >= down or one >> top & 1):
                stack, fnd, moved = stack[:-1], founded_packed(fnd, slot, rank), True
                continue
        for slot in range(8):
            code = _wanted(fnd, slot)
            if code and one >> code & 1 and (_twin_founded(code, fnd) or two >> code & 1):
                one, two = _taken(code, one, two)
                fnd, moved = founded_packed(fnd, slot, code & RANK), True
                break
    return stack, fnd, one, two


def packed(fnd: Sequence[int]) -> int:
    """The eight foundation tops (up ``S H D C``, then down) as one number, 4 bits a slot."""
    number = 0
    for slot in range(8):
        number |= fnd[slot] << 4 * slot
    return number


WON_PACKED: Final = packed(WON_FND)


def top_of(fnd: int, slot: int) -> int:
    """The top rank of foundation ``slot`` (0–7) of packed foundations."""
    return fnd >> 4 * slot & RANK


def founded_packed(fnd: int, slot: int, rank: int) -> int:
    """Packed foundations after ``rank`` went onto ``slot``."""
    shift = 4 * slot
    return fnd & ~(RANK << shift) | rank << shift


def _wanted(fnd: int, slot: int) -> int:
    """The card code foundation ``slot`` of packed foundations takes next, or 0 when it is
    finished."""
    top = top_of(fnd, slot)
    if slot < 4:
        return (slot << 4) + top + 1 if top < KING else 0
    return ((slot - 4) << 4) + top - 1 if top > ACE else 0


def _twin_founded(code: int, fnd: int) -> bool:
    suit, rank = code >> 4, code & RANK
    return rank <= top_of(fnd, suit) or rank >= top_of(fnd, 4 + suit)


def _taken(code: int, one: int, two: int) -> tuple[int, int]:
    """The quilt's masks (see :class:`RelaxedGame`) after one copy of ``code`` left it."""
    card = 1 << code
    if two & card:
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
    relaxed = RelaxedGame(budget)
    one = two = 0
    for code in quilt:
        if one >> code & 1:
            two |= 1 << code
        one |= 1 << code
    try:
        possible = relaxed.clears(redeals_left, pile, 0, stack, packed(fnd), one, two)
    except OutOfBudget:
        possible = True
    return possible, len(relaxed.seen)
