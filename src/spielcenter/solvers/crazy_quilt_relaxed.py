"""The relaxed Crazy Quilt game decided by choosing each waiting card's foundation.

In the relaxed game (:class:`spielcenter.solvers.crazy_quilt_last_pass.RelaxedGame`) every quilt
card is free at all times; only the stock and the waste bind: stock cards are pushed onto the waste
in their order, a card leaves the waste only from the top, to a foundation, and a redeal turns the
waste over into the new stock. The question is whether every card can be founded. The solver asks it
at every position with one redeal left, so it has to be answered fast and, to prune, decisively.

**Deciding it.** Call the cards in the stock and the waste the *pile*; every other unfounded card
is *free*. Each pile card ends on one of the two foundations of its suit; fix that choice for
every pile card (an *assignment*, consistent with the copies: each foundation takes one copy of
each rank it still needs, the free copies take whatever the pile copies leave). Then each
foundation waits only for its own pile cards, in rank order, and takes its free copies at once,
and clearing the pile is a matter of popping every card as soon as it can go: popping early
never hurts (the foundation is further on, the waste lower). So the relaxed game can be cleared
exactly when some assignment lets this greedy run clear the pile (:func:`_Assignments.clears`).

The assignments are searched depth first, and a partial assignment is first run *optimistically*
(:func:`_Assignments.bound`): a card with no foundation chosen yet leaves the waste for whichever
foundation could take it, a foundation counts a popped card as there for it, and a foundation
that has passed a card's rank could have waited for it. Every assignment that completes the
partial one is dominated by that run (it has popped no card the optimistic run has not, and its
foundations are no further), so when the optimistic run leaves cards on the waste, no completion
clears it. Otherwise the optimistic run suggests a completion; if that one clears, the answer
is yes, else the search branches on the first card the optimistic run popped without a
foundation chosen. Most questions are answered at the first node, nearly all within a hundred.

Pure: no I/O, no clock, no randomness.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from spielcenter.games.cards import ACE, KING
from spielcenter.solvers.codes import CODES, code_bit

if TYPE_CHECKING:  # mypyc's 64-bit integer; at run time (and as plain Python) simply int
    from mypy_extensions import i64

__all__ = ["ASSIGNMENT_BUDGET", "clearable", "clearable_left"]

ASSIGNMENT_BUDGET: Final = 100
"""Nodes of the assignment search one question may use before it gives the benefit of the
doubt. Nearly every question is answered at the first node or within this budget; the rest are
the long piles early in a deal, nearly all clearable, where more nodes cost more than they prune
(measured in docs/winrates-crazy-quilt.md, "The thoughtful solver", reduction 7)."""

_UP: Final = 0
_DOWN: Final = 1
_OPEN: Final = -1

REPAIRS: Final = 4
"""How often a suggested completion is repaired before the search branches."""


def _risen(base: i64, up: i64, takes: i64) -> i64:
    """An up foundation's top (suit code ``base``) after taking every card it can take now."""
    while up < KING and takes >> base + up + 1 & 1:
        up += 1
    return up


def _fallen(base: i64, down: i64, takes: i64) -> i64:
    """A down foundation's top after taking every card it can take now."""
    while down > ACE and takes >> base + down - 1 & 1:
        down -= 1
    return down


class _OutOfNodes(Exception):
    """The question used its nodes without an answer."""


class _Assignments:
    """One question: the pile (waste bottom to top, then the stock top first) and foundations."""

    def __init__(self, waste: bytes, stock: bytes, fnd: Sequence[int], redeals_left: int) -> None:
        self.cards = waste + stock
        self.in_waste = len(waste)
        self.redeals_left = redeals_left
        self.up0, self.down0 = tuple(fnd[:4]), tuple(fnd[4:])
        self.twin = [-1] * len(self.cards)
        """For each pile card, the index of the other copy of it in the pile, or -1."""
        first = [-1] * CODES  # for each card code, the index of its first copy in the pile
        piled = [0] * CODES  # and how many copies are piled
        for index, code in enumerate(self.cards):
            if first[code] >= 0:
                self.twin[index], self.twin[first[code]] = first[code], index
            else:
                first[code] = index
            piled[code] += 1
        free = [0] * CODES  # for each card code, its copies neither founded nor piled
        self.homeless = False
        for suit in range(4):
            for rank in range(ACE, KING + 1):
                code = (suit << 4) + rank
                need = (rank > self.up0[suit]) + (rank < self.down0[suit])
                free[code] = need - piled[code]
                self.homeless |= free[code] < 0
        self.has_free: i64 = 0
        """The card codes (a bit each) with a free copy there for a foundation that takes it."""
        for code, count in enumerate(free):
            if count >= 1:
                self.has_free |= code_bit(code)
        self.nodes = 0
        self.stuck: list[int] = []
        """The cards the last greedy run left on the waste, the deepest first."""
        self.least = len(self.cards)
        """The fewest cards a greedy run of a complete assignment has left on the waste so far
        (0 once one clears): how far the pile is from clearable, as far as the search saw."""

    def forced(self) -> list[int]:
        """The assignment every completion shares: a card only one foundation still needs goes
        there, and of two piled copies each goes where the other does not."""
        assign = [_OPEN] * len(self.cards)
        for index, code in enumerate(self.cards):
            suit, rank = code >> 4, code & 15
            if not rank > self.up0[suit]:
                assign[index] = _DOWN
            elif not rank < self.down0[suit]:
                assign[index] = _UP
        for index, choice in enumerate(assign):
            if choice != _OPEN:
                self._set(assign, index, choice)
        return assign

    def _set(self, assign: list[int], index: int, choice: int) -> None:
        assign[index] = choice
        other = self.twin[index]
        if other >= 0:
            assign[other] = 1 - choice

    def run(self, assign: list[int], popped_open: list[tuple[int, bool]] | None) -> bool:
        """Pop greedily; with ``popped_open`` the optimistic run, which records in it each card
        popped with no foundation chosen (and whether up could take it). Whether the pile
        clears."""
        optimistic = popped_open is not None
        cards = self.cards
        # Whether each foundation can take a card code when it comes to its rank: a free copy
        # it may have (none of the pile's copies is bound for it), or, in the optimistic run, a
        # popped copy not bound for the other foundation. Kept as two masks of card codes (a
        # bit each), so that a foundation advances by bit tests and nothing is copied.
        up_takes: i64 = self.has_free
        down_takes: i64 = self.has_free
        if not optimistic:
            for index, choice in enumerate(assign):
                if choice == _UP:
                    up_takes &= ~code_bit(cards[index])
                elif choice == _DOWN:
                    down_takes &= ~code_bit(cards[index])
        up, down = list(self.up0), list(self.down0)
        up0, down0 = self.up0, self.down0
        for suit in range(4):
            up[suit] = _risen(suit << 4, up[suit], up_takes)
            down[suit] = _fallen(suit << 4, down[suit], down_takes)
        waste = list(range(self.in_waste))
        stock = list(range(len(cards) - 1, self.in_waste - 1, -1))  # pop() turns the top card
        left = self.redeals_left
        while True:
            while waste:
                top = waste[-1]
                code = cards[top]
                suit, rank, choice = code >> 4, code & 15, assign[top]
                if optimistic:
                    to_up = choice != _DOWN and rank > up0[suit] and up[suit] >= rank - 1
                    to_down = choice != _UP and rank < down0[suit] and down[suit] <= rank + 1
                    if not (to_up or to_down):
                        break
                    if choice == _OPEN and popped_open is not None:
                        popped_open.append((top, to_up))
                    if choice != _DOWN:
                        up_takes |= code_bit(code)
                    if choice != _UP:
                        down_takes |= code_bit(code)
                elif choice == _UP and up[suit] == rank - 1:
                    up[suit] = rank
                elif choice == _DOWN and down[suit] == rank + 1:
                    down[suit] = rank
                else:
                    break
                waste.pop()
                up[suit] = _risen(suit << 4, up[suit], up_takes)
                down[suit] = _fallen(suit << 4, down[suit], down_takes)
            if stock:
                waste.append(stock.pop())
            elif left > 0 and waste:
                stock, waste, left = waste[::-1], [], left - 1
            else:
                self.stuck = waste
                if not optimistic:
                    self.least = min(self.least, len(waste))
                return not waste and not stock

    def clears(self, assign: list[int], budget: int) -> bool:
        """Whether some completion of ``assign`` clears the pile (depth first)."""
        self.nodes += 1
        if self.nodes > budget:
            raise _OutOfNodes
        popped_open: list[tuple[int, bool]] = []
        if not self.run(assign, popped_open):
            return False  # the optimistic run is stuck: so is every completion
        if not popped_open:
            return self.run(assign, None)  # nothing left open: the greedy run decides
        suggested = list(assign)
        for index, to_up in popped_open:
            if suggested[index] == _OPEN:
                self._set(suggested, index, _UP if to_up else _DOWN)
        for index, choice in enumerate(suggested):
            if choice == _OPEN:
                self._set(suggested, index, _UP)
        for _ in range(REPAIRS):
            if self.run(suggested, None):
                return True
            # Flip the deepest card left on the waste that the partial assignment leaves open.
            flip = next((i for i in self.stuck if assign[i] == _OPEN), -1)
            if flip < 0:
                break
            self._set(suggested, flip, 1 - suggested[flip])
        index, to_up = popped_open[0]
        for choice in (_UP, _DOWN) if to_up else (_DOWN, _UP):
            branch = list(assign)
            self._set(branch, index, choice)
            if self.clears(branch, budget):
                return True
        return False


def clearable(
    waste: bytes,
    stock: bytes,
    fnd: Sequence[int],
    redeals_left: int,
    budget: int = ASSIGNMENT_BUDGET,
) -> tuple[bool, int]:
    """Whether the relaxed game can found every card, and the assignment nodes searched.

    ``waste`` bottom to top, ``stock`` top card first (card codes ``suit * 16 + rank``), ``fnd``
    the eight foundation tops (up ``S H D C``, then down); every other unfounded card is free.
    ``False`` proves that no line of the relaxed game, and so of the real one, founds every
    card; out of budget the answer is ``True`` (the benefit of the doubt).
    """
    question = _Assignments(waste, stock, fnd, redeals_left)
    if question.homeless:
        return False, 0  # a card that neither foundation still needs can never leave
    try:
        return question.clears(question.forced(), budget), question.nodes
    except _OutOfNodes:
        return True, question.nodes


def clearable_left(
    waste: bytes,
    stock: bytes,
    fnd: Sequence[int],
    redeals_left: int,
    budget: int = ASSIGNMENT_BUDGET,
) -> tuple[bool, int, int]:
    """:func:`clearable`'s answer and nodes, and how far the pile is from clearable: the fewest
    cards a greedy run of a complete assignment left on the waste (0 when the answer is a proven
    yes; the pile's size when no complete assignment was run). A grade, not a proof: out of
    budget the answer is ``True`` and the cards left are those of the best assignment tried."""
    question = _Assignments(waste, stock, fnd, redeals_left)
    if question.homeless:
        return False, 0, len(question.cards)
    try:
        clears = question.clears(question.forced(), budget)
    except _OutOfNodes:
        return True, question.nodes, question.least
    return clears, question.nodes, 0 if clears else question.least
