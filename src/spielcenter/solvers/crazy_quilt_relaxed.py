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
        piled: i64 = 0  # the card codes (a bit each) with a copy in the pile
        piled_twice: i64 = 0  # and those with both
        for index, code in enumerate(self.cards):
            if first[code] >= 0:
                self.twin[index], self.twin[first[code]] = first[code], index
                piled_twice |= code_bit(code)
            else:
                first[code] = index
                piled |= code_bit(code)
        # For each card code, its copies neither founded nor piled: a negative count is a
        # card no foundation needs any more (homeless), a positive one a free copy.
        homeless = False
        has_free: i64 = 0
        suit: i64
        rank: i64
        for suit in range(4):
            up, down = self.up0[suit], self.down0[suit]
            for rank in range(ACE, KING + 1):
                card: i64 = (suit << 4) + rank
                free: i64 = 0
                if rank > up:
                    free += 1
                if rank < down:
                    free += 1
                free -= (piled >> card & 1) + (piled_twice >> card & 1)  # two decks: two copies
                if free < 0:
                    homeless = True
                elif free >= 1:
                    has_free |= code_bit(card)
        self.homeless = homeless
        self.has_free: i64 = has_free
        """The card codes (a bit each) with a free copy there for a foundation that takes it."""
        self.nodes = 0
        self.waste_stack = [0] * len(self.cards)
        """The waste of a greedy run (:meth:`run`): pile indices, bottom to top."""
        self.stock_stack = [0] * len(self.cards)
        """The stock of a greedy run after a redeal: pile indices, top card first."""
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
        # The foundations' tops packed in two numbers, 4 bits a suit, and the waste as a stack
        # of pile indices in a list made once per question (a depth, no list grown or
        # shrunk): no Python object is made while the run pops and turns. The stock is the
        # pile's cards after the waste in their order, then, after a redeal, the waste's
        # cards from the bottom up (kept in the second list).
        up0, down0 = self.up0, self.down0
        ups: i64 = 0
        downs: i64 = 0
        suit: i64
        for suit in range(4):
            ups |= _risen(suit << 4, up0[suit], up_takes) << 4 * suit
            downs |= _fallen(suit << 4, down0[suit], down_takes) << 4 * suit
        waste = self.waste_stack
        redealt = self.stock_stack
        depth: i64 = self.in_waste
        place: i64
        for place in range(depth):
            waste[place] = place
        head: i64 = depth  # the next card turned: a pile index, or one of ``redealt``
        end: i64 = len(cards)
        from_redeal = False
        left = self.redeals_left
        while True:
            while depth > 0:
                top: i64 = waste[depth - 1]
                code: i64 = cards[top]
                choice = assign[top]
                suit = code >> 4
                rank = code & 15
                up: i64 = ups >> 4 * suit & 15
                down: i64 = downs >> 4 * suit & 15
                if optimistic:
                    to_up = choice != _DOWN and rank > up0[suit] and up >= rank - 1
                    to_down = choice != _UP and rank < down0[suit] and down <= rank + 1
                    if not (to_up or to_down):
                        break
                    if choice == _OPEN and popped_open is not None:
                        popped_open.append((top, to_up))
                    if choice != _DOWN:
                        up_takes |= code_bit(code)
                    if choice != _UP:
                        down_takes |= code_bit(code)
                elif choice == _UP and up == rank - 1:
                    up = rank
                elif choice == _DOWN and down == rank + 1:
                    down = rank
                else:
                    break
                depth -= 1
                # (never a negative number shifted: an up top only rises, a down top falls)
                shift = 4 * suit
                ups += (_risen(suit << 4, up, up_takes) - (ups >> shift & 15)) << shift
                downs -= ((downs >> shift & 15) - _fallen(suit << 4, down, down_takes)) << shift
            if head < end:
                if from_redeal:
                    waste[depth] = redealt[head]
                else:
                    waste[depth] = head
                depth += 1
                head += 1
            elif left > 0 and depth > 0:
                for place in range(depth):
                    redealt[place] = waste[place]
                head, end, depth, from_redeal, left = 0, depth, 0, True, left - 1
            else:
                self.stuck = waste[:depth]
                if not optimistic:
                    self.least = min(self.least, depth)
                return depth == 0

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
