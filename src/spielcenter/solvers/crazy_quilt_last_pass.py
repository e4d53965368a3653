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
from spielcenter.solvers.crazy_quilt_position import WON_FND, Fnd, founded
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
    suit, rank = code >> 4, code & RANK
    up, down, base = fnd[suit], fnd[4 + suit], suit << 4
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
    """

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.seen: set[bytes] = set()

    def clears(
        self, left: int, pile: bytes, pushed: int, stack: bytes, fnd: Fnd, quilt: bytes
    ) -> bool:
        """Whether every card can reach a foundation (``True`` too when out of budget)."""
        stack, fnd, quilt = self.force(stack, fnd, quilt)
        if fnd == WON_FND:
            return True
        key = b"".join((bytes((left, pushed, len(pile))), bytes(fnd), pile, stack))
        if key in self.seen:
            return False
        self.seen.add(key)
        if len(self.seen) > self.budget:
            raise OutOfBudget
        return self._children(left, pile, pushed, stack, fnd, quilt)

    def _children(
        self, left: int, pile: bytes, pushed: int, stack: bytes, fnd: Fnd, quilt: bytes
    ) -> bool:
        if stack:
            for slot, rank in _ready(stack[-1], fnd):
                if self.clears(left, pile, pushed, stack[:-1], founded(fnd, slot, rank), quilt):
                    return True
        for slot, code in _wanted(fnd):
            if code in quilt:
                rest = quilt.replace(bytes((code,)), b"", 1)
                if self.clears(left, pile, pushed, stack, founded(fnd, slot, code & RANK), rest):
                    return True
        if pushed < len(pile):
            card = pile[pushed]
            if left == 0 and buried(card, stack, fnd):
                return False
            return self.clears(left, pile, pushed + 1, stack + bytes((card,)), fnd, quilt)
        if left > 0 and stack:
            return self.clears(left - 1, stack, 0, b"", fnd, quilt)
        return False

    @staticmethod
    def force(stack: bytes, fnd: Fnd, quilt: bytes) -> tuple[bytes, Fnd, bytes]:
        moved = True
        while moved:
            moved = False
            if stack:
                top = stack[-1]
                ready = _ready(top, fnd)
                if ready and (_twin_founded(top, fnd) or top in quilt):
                    slot, rank = ready[0]
                    stack, fnd, moved = stack[:-1], founded(fnd, slot, rank), True
                    continue
            for slot, code in _wanted(fnd):
                if code in quilt and (_twin_founded(code, fnd) or quilt.count(code) == 2):
                    quilt = quilt.replace(bytes((code,)), b"", 1)
                    fnd, moved = founded(fnd, slot, code & RANK), True
                    break
        return stack, fnd, quilt


def _wanted(fnd: Fnd) -> list[tuple[int, int]]:
    """Each unfinished foundation slot with the card code it takes next."""
    wanted = []
    for suit in range(4):
        if fnd[suit] < KING:
            wanted.append((suit, (suit << 4) + fnd[suit] + 1))
    for suit in range(4):
        if fnd[4 + suit] > ACE:
            wanted.append((4 + suit, (suit << 4) + fnd[4 + suit] - 1))
    return wanted


def _ready(code: int, fnd: Fnd) -> list[tuple[int, int]]:
    """The foundation slots ``code`` follows on now, with its rank."""
    suit, rank = code >> 4, code & RANK
    ready = []
    if fnd[suit] == rank - 1:
        ready.append((suit, rank))
    if fnd[4 + suit] == rank + 1:
        ready.append((4 + suit, rank))
    return ready


def _twin_founded(code: int, fnd: Fnd) -> bool:
    suit, rank = code >> 4, code & RANK
    return rank <= fnd[suit] or rank >= fnd[4 + suit]


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
    cards = bytes(sorted(quilt))
    try:
        possible = relaxed.clears(redeals_left, pile, 0, stack, tuple(fnd), cards)
    except OutOfBudget:
        possible = True
    return possible, len(relaxed.seen)
