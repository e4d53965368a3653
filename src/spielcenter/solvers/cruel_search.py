"""The Cruel solver's searches: depth-first (:meth:`Search.run`) and best-first
(:meth:`Search.best_first`), in the move orders :func:`~spielcenter.solvers.cruel.solve` tries.

* **Transpositions.** Every position is searched once. The key is the list of non-empty piles in
  order (:func:`~spielcenter.solvers.cruel_rules.layout_key`). Whether a card moved since the
  last deal is not in the key: a redeal is only searched when it changes the layout, which
  implies that a card moved (the start position's flag is kept).
* **Forced foundation moves** (:meth:`Search.force`), made without branching only where they
  cannot spoil anything: in the variant "stuck", once no redeal is left, and for the last card
  of the packet when the cards before it, down to its king, are its own suit in order.
* **The last phase of Perseverance without branching**: once no redeal is left, every building
  move is safe too, so that phase is a single playout.
* **Merging two piles is useless** (classic): a lone card built on the top card of the pile just
  before it leaves the packet unchanged; the finer split dominates, so such moves are skipped.
* **Dead positions** are cut (:mod:`~spielcenter.solvers.cruel_dead`).

Pure: no clock unless a deadline is given, no I/O, no randomness.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Final

from spielcenter.solvers.codes import RANK
from spielcenter.solvers.cruel_dead import first_pile_dead, frozen_prefix, pile_dead
from spielcenter.solvers.cruel_rules import (
    ALL_PILES,
    NO_PILE,
    REDEAL,
    UNLIMITED,
    Foundations,
    Move,
    Piles,
    any_build,
    build_onto,
    is_dealt,
    last_pile,
    layout_key,
    notation,
    redealt,
    tail_is_safe,
    to_foundation,
)
from spielcenter.solvers.verdict import OutOfBudget

__all__ = [
    "BEST_FIRST",
    "FEWEST_CARDS",
    "FEWEST_CARDS_NEWEST",
    "LEAST_BLOCKED",
    "MOST_BUILT",
    "REDEAL_FIRST",
    "REVERSED",
    "UPS_FIRST",
    "Frame",
    "Search",
]

# Move orders. No single order finds every win quickly, so :func:`solve` runs a small portfolio.
UPS_FIRST: Final = 0  # foundation moves, building moves, the redeal
REDEAL_FIRST: Final = 1  # the redeal, foundation moves, building moves
# the redeal, building moves from the last pile, foundation moves from the last
REVERSED: Final = 2
# Best-first trials (classic): the open position that looks closest to a win is expanded next.
# They find most of the hard classic wins that every depth-first order misses (a depth-first
# search stays in the first redeals' huge space), each with its own idea of "close".
FEWEST_CARDS: Final = 3  # fewest cards left on the layout
# fewest cards left, a card lying on its next-higher card counting a quarter less
MOST_BUILT: Final = 4
# fewest cards left, a card above a lower card of its suit counting half more
LEAST_BLOCKED: Final = 5
FEWEST_CARDS_NEWEST: Final = 6  # fewest cards left, the newest position first among equals
BEST_FIRST: Final = (FEWEST_CARDS, MOST_BUILT, LEAST_BLOCKED, FEWEST_CARDS_NEWEST)


class Frame:
    """A position on the search path with the moves still to try from it."""

    __slots__ = ("base", "fnd", "key", "left", "moves", "next", "piles")

    def __init__(
        self, piles: Piles, fnd: Foundations, left: int, moves: list[Move], base: int, key: bytes
    ) -> None:
        self.key = key
        self.piles = piles
        self.fnd = fnd
        self.left = left
        self.moves = moves
        self.base = base
        """Length of the line up to and including this position's forced moves."""
        self.next = 0


@dataclass
class Search:
    """One exhaustive search; ``runs`` and ``stuck`` select the variant's rules."""

    runs: bool
    stuck: bool
    budget: int
    coarse_prune: bool = False
    order: int = 0
    """Which move order to try: :data:`UPS_FIRST`, :data:`REDEAL_FIRST` or :data:`REVERSED`."""
    clock: Callable[[], float] | None = None
    deadline: float = 0.0
    nodes: int = 0
    seen: set[bytes] = field(default_factory=set)
    stack: list[Frame] = field(default_factory=list)

    def finished(self) -> set[bytes]:
        """After an interrupted run: the positions searched to the end (all but the path).

        Made from ``seen`` in place: the path is short, while copying ``seen`` (up to a million
        positions) would take a noticeable part of a time budget."""
        self.seen.difference_update(frame.key for frame in self.stack)
        return self.seen

    def force(
        self, piles: Piles, fnd: Foundations, left: int, path: list[str]
    ) -> tuple[Piles, Foundations] | None:
        """Make the forced foundation moves (appending them to ``path``); ``None`` if none."""
        changed = False
        anywhere = self.stuck or left == 0
        while True:
            source = -1
            if anywhere:
                wanted = (fnd[0] + 1, 16 + fnd[1] + 1, 32 + fnd[2] + 1, 48 + fnd[3] + 1)
                for index, pile in enumerate(piles):
                    if pile and pile[-1] in wanted:
                        source = index
                        break
            else:
                last = last_pile(piles)
                if last >= 0:
                    card = piles[last][-1]
                    if fnd[card >> 4] == (card & RANK) - 1 and tail_is_safe(piles, last):
                        source = last
            if source < 0 and left == 0 and self.runs:
                build = any_build(piles, self.runs)
                if build is not None:
                    source, target, cards = build
                    piles = build_onto(piles, source, target, cards)
                    path.append(f"{source + 1}>{target + 1}")
                    changed = True
                    continue
            if source < 0:
                return (piles, fnd) if changed else None
            piles, fnd = to_foundation(piles, fnd, source)
            path.append(f"{source + 1}f")
            changed = True

    def _count(self) -> None:
        """Count a new position, or stop when the budget is spent. Called before the position
        joins ``seen``: every position in ``seen`` but off the path was searched to the end."""
        if self.nodes >= self.budget:
            raise OutOfBudget
        self.nodes += 1
        # The clock is read at the first position and every 128 after (a few milliseconds of
        # search; a reading costs well under 0.1 %), so that a search whose time is up stops at
        # once and one that runs out stops within a few milliseconds of its deadline.
        if self.clock is not None and self.nodes & 127 == 1 and self.clock() >= self.deadline:
            raise OutOfBudget

    def _play_out(
        self, piles: Piles, fnd: Foundations, path: list[str], touched: int
    ) -> bool | None:
        """Perseverance with no redeal left: every move is forced (:func:`any_build`), so the
        position is won exactly when playing every move out clears the layout. ``True`` if it
        does; ``None`` otherwise. A playout counts as one position; one met before is not
        played out again, and a stuck card spares the playout."""
        before = b"\x00" + layout_key(piles)
        if before in self.seen:
            return None
        self._count()
        if not self._dead(piles, 0, touched):
            forced = self.force(piles, fnd, 0, path)
            if forced is not None and not any(forced[0]):
                return True
        self.seen.add(before)
        return None

    def _dead(self, piles: Piles, left: int, touched: int) -> bool:
        """Whether the position is provably lost. ``touched`` is the pile that got cards
        (``ALL_PILES`` after a deal or at the start, ``NO_PILE`` after a foundation move): a pile
        that only lost cards cannot hold a new stuck card."""
        if first_pile_dead(piles, self.runs):
            return True
        if touched == ALL_PILES and left == 0:
            return any(pile_dead(pile, len(pile), self.runs) for pile in piles)
        return (
            left == 0 and touched >= 0 and pile_dead(piles[touched], len(piles[touched]), self.runs)
        )

    def _moves(self, piles: Piles, fnd: Foundations, left: int, fresh: bool) -> list[Move]:
        """The moves worth trying, best first: foundation moves, building moves, the redeal."""
        tops = {pile[-1]: index for index, pile in enumerate(piles) if pile}
        wanted = (fnd[0] + 1, 16 + fnd[1] + 1, 32 + fnd[2] + 1, 48 + fnd[3] + 1)
        ups: list[Move] = []
        builds: list[Move] = []
        previous = -1
        # The top cards in pile order (a dict keeps its order), so no pass over the empty piles.
        for card, index in tops.items():
            if card in wanted:
                ups.append((index, -1, 1))
            cards = 1
            if self.runs:
                pile = piles[index]
                while cards < len(pile) and pile[-cards - 1] == pile[-cards] + 1:
                    cards += 1
                target = tops.get(pile[-cards] + 1)
            else:
                target = tops.get(card + 1)
            # In classic a lone card built on the top card of the pile just before it leaves the
            # packet as it was and only merges two piles: the position before can do all that the
            # position after can (a finer split of the same packet dominates), so skip it.
            if target is not None and not (
                self.coarse_prune and target == previous and len(piles[index]) == 1
            ):
                builds.append((index, target, cards))
            previous = index
        redeal = (
            left > 0 and not fresh and not (self.stuck and (ups or builds)) and not is_dealt(piles)
        )
        if self.order != REDEAL_FIRST and self.order != REVERSED:  # best-first ones too
            return ups + builds + [REDEAL] if redeal else ups + builds
        if self.order == REDEAL_FIRST:
            return [REDEAL, *ups, *builds] if redeal else ups + builds
        builds.reverse()
        ups.reverse()
        return [REDEAL, *builds, *ups] if redeal else builds + ups

    def _visit(
        self,
        piles: Piles,
        fnd: Foundations,
        left: int,
        fresh: bool,
        path: list[str],
        touched: int,
    ) -> bool | Frame | None:
        """Enter a position: ``True`` if won, ``None`` if nothing to search, else its frame."""
        if left == 0 and self.runs:
            return self._play_out(piles, fnd, path, touched)
        dealt = piles if touched == ALL_PILES and left != 0 and is_dealt(piles) else None
        forced = self.force(piles, fnd, left, path)
        if forced is not None:
            (piles, fnd), fresh = forced, False
        if not any(piles):
            return True
        key = layout_key(piles)
        if left != UNLIMITED:
            key = bytes((left,)) + key
        if key in self.seen:
            return None
        self._count()
        self.seen.add(key)
        if self._dead(piles, left, touched):
            return None
        if dealt is not None and frozen_prefix(b"".join(dealt), self.runs):
            return None
        moves = self._moves(piles, fnd, left, fresh)
        if not moves:
            return None
        return Frame(piles, fnd, left, moves, len(path), key)

    def _enter(
        self, piles: Piles, fnd: Foundations, left: int, fresh: bool
    ) -> tuple[list[str], Frame] | list[str] | None:
        """Enter the start position: its winning line if its forced moves win it, ``None`` if
        there is nothing to search, else the line so far (its forced moves) and its frame."""
        path: list[str] = []
        entered = self._visit(piles, fnd, left, fresh, path, ALL_PILES)
        if entered is True:
            return path
        return (path, entered) if isinstance(entered, Frame) else None

    def run(self, piles: Piles, fnd: Foundations, left: int, fresh: bool) -> list[str] | None:
        """A winning line from the position, or ``None`` when there is none."""
        start = self._enter(piles, fnd, left, fresh)
        if not isinstance(start, tuple):
            return start
        path, root = start
        stack = self.stack = [root]
        while stack:
            frame = stack[-1]
            del path[frame.base :]
            if frame.next >= len(frame.moves):
                stack.pop()
                continue
            move = frame.moves[frame.next]
            frame.next += 1
            path.append(notation(move))
            entered = self._visit(*_child(frame, move), False, path, _touched(move))
            if entered is True:
                return path
            if isinstance(entered, Frame):
                stack.append(entered)
        return None

    def best_first(
        self, piles: Piles, fnd: Foundations, left: int, fresh: bool
    ) -> list[str] | None:
        """Like :meth:`run`, but the open position that looks closest to a win (by
        :func:`_closeness`) is expanded next. It searches the same positions with the same
        rules, so it finds a win exactly when there is one; ``None`` means there is none."""
        start = self._enter(piles, fnd, left, fresh)
        if not isinstance(start, tuple):
            return start
        path, root = start
        # Each open position remembers its parent's number and the moves that led from it.
        links: list[tuple[int, list[str]]] = [(-1, path)]
        sign = -1 if self.order == FEWEST_CARDS_NEWEST else 1
        heap = [(_closeness(root.piles, self.order), 0, root)]
        while heap:
            _, tag, frame = heapq.heappop(heap)
            parent = tag * sign
            for move in frame.moves:
                segment = [notation(move)]
                entered = self._visit(*_child(frame, move), False, segment, _touched(move))
                if entered is True:
                    return _line(links, parent) + segment
                if isinstance(entered, Frame):
                    links.append((parent, segment))
                    number = len(links) - 1
                    closeness = _closeness(entered.piles, self.order)
                    heapq.heappush(heap, (closeness, number * sign, entered))
        return None


def _child(frame: Frame, move: Move) -> tuple[Piles, Foundations, int]:
    """The position after ``move`` (before its forced moves): piles, foundations, redeals left."""
    here, fnd, left = frame.piles, frame.fnd, frame.left
    source, target, cards = move
    if source < 0:
        return redealt(here), fnd, left if left == UNLIMITED else left - 1
    if target < 0:
        child, child_fnd = to_foundation(here, fnd, source)
        return child, child_fnd, left
    return build_onto(here, source, target, cards), fnd, left


def _touched(move: Move) -> int:
    """The pile that gets cards by ``move``: ``ALL_PILES`` for a redeal, ``NO_PILE`` when none
    does."""
    source, target, _ = move
    if source < 0:
        return ALL_PILES
    return NO_PILE if target < 0 else target


def _line(links: list[tuple[int, list[str]]], number: int) -> list[str]:
    """The moves from the start to the open position ``number`` of a best-first search."""
    segments: list[list[str]] = []
    while number >= 0:
        number, segment = links[number]
        segments.append(segment)
    return [move for segment in reversed(segments) for move in segment]


def _closeness(piles: Piles, order: int) -> int:
    """How far the layout looks from a win for the best-first ``order`` (smaller is closer).

    Every measure counts the cards left first. :data:`MOST_BUILT` counts a card lying on its
    next-higher card a quarter less (it will go up right after that card); :data:`LEAST_BLOCKED`
    counts a card above a lower card of its suit in its pile half more (it must leave the pile
    before the lower card can go up).
    """
    cards = 0
    extra = 0
    for pile in piles:
        cards += len(pile)
        if order == MOST_BUILT:
            extra -= sum(1 for below, above in pairwise(pile) if above + 1 == below)
        elif order == LEAST_BLOCKED:
            lowest = [64, 64, 64, 64]
            for card in pile:
                if lowest[card >> 4] < card:
                    extra += 1
                else:
                    lowest[card >> 4] = card
    if order == MOST_BUILT:
        return 4 * cards + extra
    if order == LEAST_BLOCKED:
        return 2 * cards + extra
    return cards
