"""The Crazy Quilt solver: decides whether a Crazy Quilt position can be won, knowing the stock.

:func:`solve` searches depth-first over every position reachable from a deal or an engine state,
in all four variants. It returns a winning line in the engine's move notation (``e4u``, ``wd``,
``s``, ``r`` …; every line replays through :mod:`spielcenter.games.crazy_quilt`), proves that
none exists (``lost`` is only answered once the whole reachable space was searched), or gives up
when its node budget is spent (``unknown``). The result type is the Cruel solver's
:class:`~spielcenter.solvers.cruel.Verdict`.

What keeps it exact and fast (each reduction is sound; the reasoning is in
``docs/winrates-crazy-quilt.md``):

* **A compact position.** Cards are small integers ``suit * 16 + rank``; the quilt is a 64-bit
  mask of the cells already emptied plus a mask of the available cells, updated on each removal
  (a gap only ever frees the cards whose short ends face it); stock and waste are ``bytes``.
* **Transpositions.** Every move is irreversible (a quilt card leaves, a foundation grows, a
  stock card is turned, a redeal is used up), so the positions form a DAG and each is searched
  once. The two copies of a card are the same integer, so equal piles are equal keys.
* **Turning as one move.** Turning k stock cards is one step that lands on a stock card that can
  be used at once (it goes to a foundation, or a quilt card can be built on it); see
  :meth:`_Search._turns`. After such a step, quilt-to-foundation moves are not tried: they do not
  depend on the stock or the waste, so they could equally have been made before turning.
* **Safe foundation moves** are made without branching: the engine's auto-move rule
  (:func:`spielcenter.games.crazy_quilt.auto_moves`), whose proof is in its docstring.
* **Dead ends on the last pass.** With no redeal left the waste is a stack: a card pushed onto
  every remaining copy of a rank it needs first is stuck for good (:func:`buried`), and a relaxed
  game in which every quilt card is free must be able to found every card
  (:func:`relaxed_possible`).
* **Across the last redeal.** With one redeal left, the same relaxed game with the redeal still
  to come must be able to clear (:meth:`_Search._relaxed_clears`), decided by choosing
  each waiting card's foundation (:mod:`spielcenter.solvers.crazy_quilt_relaxed`); each answer
  is asked once per deal.
* **Move order.** Foundation moves, then building on the waste, then turning (fewest cards first),
  the redeal last. Before searching, :func:`solve` lets the honest player
  (:mod:`spielcenter.solvers.crazy_quilt_honest`) try: any winning line proves ``won``. Then
  beams over the passes before the last (:mod:`spielcenter.solvers.crazy_quilt_beam`) get three
  quarters of the budget: they revisit the early choices a depth-first search leaves for last
  (on classic deals 1–30 :func:`solve` won 13 at 300 000 positions with them, the depth-first
  search 7 at 1 000 000). Then a plain search gets a quarter of what is left, and the search
  with the check across the redeal the rest, skipping what the plain one searched to the end.
* **Suits alone.** Between the honest player's trial and the beams, each suit is tried alone
  (:mod:`spielcenter.solvers.crazy_quilt_suits`): its cards follow the rules, the other suits'
  quilt cards are *ghosts* (:attr:`Position.ghosts`) that leave as soon as they are available.
  Every line of the deal is a line of that smaller game, so a smaller game searched to the end
  without a win proves the deal ``lost`` (classic deal 175: its diamonds cannot all be founded).

The search is pure: no clock unless a ``time_budget`` is given, no I/O, no randomness.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Final

from spielcenter.games.base import Status
from spielcenter.games.cards import ACE, KING, SUITS, Card
from spielcenter.games.crazy_quilt import (
    CELL_NAMES,
    CELLS,
    OUTSIDE,
    SHORT_ENDS,
    VARIANTS,
    QuiltState,
    is_won,
    make,
)
from spielcenter.games.shuffle import check_deal
from spielcenter.solvers.crazy_quilt_relaxed import ASSIGNMENT_BUDGET, clearable
from spielcenter.solvers.cruel import Verdict

__all__ = [
    "BEAMS",
    "DEFAULT_NODE_BUDGET",
    "Position",
    "Verdict",
    "buried",
    "decode_card",
    "encode_card",
    "position_of",
    "relaxed_possible",
    "solve",
    "solve_position",
]

DEFAULT_NODE_BUDGET: Final = 500_000
"""Positions searched before :func:`solve` answers ``unknown`` (about 15–30 s on a laptop core)."""

_RANK: Final = 15  # code & _RANK is the rank, code >> 4 the suit index
_ALL: Final = (1 << CELLS) - 1


def encode_card(card: Card) -> int:
    """The solver's integer for ``card``: suit index (``S H D C``) times 16 plus rank."""
    return SUITS.index(card.suit) * 16 + card.rank


def decode_card(code: int) -> Card:
    """The card of a solver integer (inverse of :func:`encode_card`)."""
    return Card(code & _RANK, SUITS[code >> 4])


# -- the quilt's geometry as bit masks -----------------------------------------------------------


def _bit(cell: int) -> int:
    return 1 << cell


def _frees() -> tuple[int, ...]:
    """For each cell c, the cells whose short end faces c: emptying c makes them available."""
    masks = [0] * CELLS
    for cell, ends in enumerate(SHORT_ENDS):
        for end in ends:
            if end != OUTSIDE:
                masks[end] |= _bit(cell)
    return tuple(masks)


_FREES: Final = _frees()
_EDGE: Final = sum(_bit(c) for c, ends in enumerate(SHORT_ENDS) if OUTSIDE in ends)
"""Cells with a short end beyond the quilt's edge: available while they hold a card."""


def _available(gone: int) -> int:
    """The available cells of a quilt whose emptied cells are ``gone`` (computed from scratch)."""
    free = _EDGE
    for cell in range(CELLS):
        if gone >> cell & 1:
            free |= _FREES[cell]
    return free & ~gone & _ALL


def _vanish(gone: int, free: int, ghosts: int) -> tuple[int, int]:
    """Empty every ghost cell that is available, and the ghosts that frees, until none is."""
    while free & ghosts:
        fresh = free & ghosts
        gone |= fresh
        while fresh:
            low = fresh & -fresh
            fresh ^= low
            free |= _FREES[low.bit_length() - 1]
        free &= ~gone
    return gone, free


# -- the position ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Position:
    """A Crazy Quilt position in the solver's compact form (full knowledge of the stock).

    ``cards`` are the quilt's 64 card codes (0 where the cell was empty from the start); ``gone``
    the mask of empty cells; ``stock`` top card first; ``waste`` bottom to top; ``up`` / ``down``
    the foundations' top ranks per suit ``S H D C``.
    """

    cards: bytes
    gone: int
    stock: bytes
    waste: bytes
    up: tuple[int, int, int, int]
    down: tuple[int, int, int, int]
    redeals_left: int
    round_the_corner: bool
    ghosts: int = 0
    """Cells (a bit each) whose cards a relaxation left out: they leave once available."""


def position_of(state: QuiltState) -> Position:
    """The compact position of an engine state."""
    cards = bytes(0 if card is None else encode_card(card) for card in state.quilt)
    gone = sum(_bit(cell) for cell, card in enumerate(state.quilt) if card is None)
    return Position(
        cards=cards,
        gone=gone,
        stock=bytes(encode_card(card) for card in state.stock),
        waste=bytes(encode_card(card) for card in state.waste),
        up=state.up,
        down=state.down,
        redeals_left=state.redeals_left,
        round_the_corner=state.round_the_corner,
    )


# -- the search ----------------------------------------------------------------------------------
#
# Inside the search a node is (gone, free, stock, waste, fnd, left): ``free`` the available cells,
# ``fnd`` a tuple of 8 ranks (up S H D C, then down S H D C), so a foundation is a slot 0–7.

Fnd = tuple[int, ...]
_WON_FND: Final[Fnd] = (KING,) * 4 + (ACE,) * 4


class _OutOfBudget(Exception):
    """The node or time budget is spent."""


def _founded(fnd: Fnd, slot: int, rank: int) -> Fnd:
    return (*fnd[:slot], rank, *fnd[slot + 1 :])


def buried(code: int, below: bytes, fnd: Sequence[int]) -> bool:
    """Whether the card ``code``, put on a waste holding ``below`` with no redeal left, is stuck.

    ``fnd`` holds the foundations' top ranks: up ``S H D C``, then down ``S H D C``. The card can
    leave the waste only to a foundation, and nothing beneath it can leave before it does. Going
    up needs one copy of each rank between the up foundation's top and the card; if every copy
    of such a rank not yet founded lies beneath the card, that home is closed for good. The same
    holds downwards. With both homes closed the game is lost.
    """
    suit, rank = code >> 4, code & _RANK
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

ASSIGNMENT_WEIGHT: Final = 10
"""Search positions one node of :func:`~spielcenter.solvers.crazy_quilt_relaxed.clearable`
counts as, for its cost in time. Measured by ``bench/crazy_quilt_checks.py`` (the 25 067
questions the beam and the search ask on classic deals 1–4): a node took 164 µs when this was
set, about 17 plain-search positions of 9.7 µs; since its foundations advance by table lookups
(2026-11-30) it takes 76 µs, about 8. Left at 10, so budgets and verdicts did not move."""


class _Relaxed:
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
        stack, fnd, quilt = self._force(stack, fnd, quilt)
        if fnd == _WON_FND:
            return True
        key = b"".join((bytes((left, pushed, len(pile))), bytes(fnd), pile, stack))
        if key in self.seen:
            return False
        self.seen.add(key)
        if len(self.seen) > self.budget:
            raise _OutOfBudget
        return self._children(left, pile, pushed, stack, fnd, quilt)

    def _children(
        self, left: int, pile: bytes, pushed: int, stack: bytes, fnd: Fnd, quilt: bytes
    ) -> bool:
        if stack:
            for slot, rank in _ready(stack[-1], fnd):
                if self.clears(left, pile, pushed, stack[:-1], _founded(fnd, slot, rank), quilt):
                    return True
        for slot, code in _wanted(fnd):
            if code in quilt:
                rest = quilt.replace(bytes((code,)), b"", 1)
                if self.clears(left, pile, pushed, stack, _founded(fnd, slot, code & _RANK), rest):
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
    def _force(stack: bytes, fnd: Fnd, quilt: bytes) -> tuple[bytes, Fnd, bytes]:
        moved = True
        while moved:
            moved = False
            if stack:
                top = stack[-1]
                ready = _ready(top, fnd)
                if ready and (_twin_founded(top, fnd) or top in quilt):
                    slot, rank = ready[0]
                    stack, fnd, moved = stack[:-1], _founded(fnd, slot, rank), True
                    continue
            for slot, code in _wanted(fnd):
                if code in quilt and (_twin_founded(code, fnd) or quilt.count(code) == 2):
                    quilt = quilt.replace(bytes((code,)), b"", 1)
                    fnd, moved = _founded(fnd, slot, code & _RANK), True
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
    suit, rank = code >> 4, code & _RANK
    ready = []
    if fnd[suit] == rank - 1:
        ready.append((suit, rank))
    if fnd[4 + suit] == rank + 1:
        ready.append((4 + suit, rank))
    return ready


def _twin_founded(code: int, fnd: Fnd) -> bool:
    suit, rank = code >> 4, code & _RANK
    return rank <= fnd[suit] or rank >= fnd[4 + suit]


def relaxed_possible(
    stack: bytes,
    pile: bytes,
    quilt: bytes,
    fnd: Sequence[int],
    redeals_left: int,
    budget: int = RELAXED_BUDGET,
) -> tuple[bool, int]:
    """Whether the relaxed game (see :class:`_Relaxed`) can found every card, and its positions.

    ``stack`` is the waste (bottom to top), ``pile`` the stock (top card first), ``quilt`` the
    codes of the cards left in the quilt, ``fnd`` the eight foundation tops (up, then down).
    ``False`` proves that the position is lost; out of budget the answer is ``True`` (the
    benefit of the doubt). :func:`~spielcenter.solvers.crazy_quilt_relaxed.clearable` decides
    the same game by another route, much faster across a redeal.
    """
    relaxed = _Relaxed(budget)
    cards = bytes(sorted(quilt))
    try:
        possible = relaxed.clears(redeals_left, pile, 0, stack, tuple(fnd), cards)
    except _OutOfBudget:
        possible = True
    return possible, len(relaxed.seen)


@dataclass
class _Search:
    """One exhaustive search over positions sharing the quilt ``cards`` and the variant."""

    cards: bytes
    round_the_corner: bool
    budget: int
    clock: Callable[[], float] | None = None
    deadline: float = 0.0
    nodes: int = 0
    seen: set[bytes] = field(default_factory=set)
    cells_of: dict[int, int] = field(default_factory=dict)
    """For each card code, the mask of the cells that hold it from the start."""
    across_redeal: bool = False
    """Check the relaxed game across the last redeal at every position with one redeal left."""
    across_known: dict[bytes, bool] = field(default_factory=dict)
    """The answers of those checks so far, by redeals left, stock, waste and foundations."""
    check_budget: int = ASSIGNMENT_BUDGET
    """Nodes one of those checks may use (benefit of the doubt after that)."""
    ghosts: int = 0
    """Cells that empty themselves as soon as they are available (:attr:`Position.ghosts`)."""

    def __post_init__(self) -> None:
        for cell, code in enumerate(self.cards):
            if code:
                self.cells_of[code] = self.cells_of.get(code, 0) | _bit(cell)

    # -- the rules on the compact node ---------------------------------------------------------

    def _touch(self, a: int, b: int) -> bool:
        """Same suit and one rank apart (king and ace too, round the corner)."""
        if a >> 4 != b >> 4:
            return False
        gap = abs(a - b)
        return gap == 1 or (self.round_the_corner and gap == KING - ACE)

    def _in_quilt(self, code: int, gone: int) -> bool:
        return bool(self.cells_of.get(code, 0) & ~gone)

    def _safe_slot(self, code: int, fnd: Fnd, gone: int) -> int:
        """The foundation slot (0–7) ``code`` may go to safely, or -1 (engine's auto-move rule).

        Safe when the card's twin is already founded (one home left) and no card of its suit one
        rank away is in the quilt (so it can never be needed as a base on the waste).
        """
        suit, rank = code >> 4, code & _RANK
        if fnd[suit] == rank - 1 and fnd[4 + suit] <= rank:
            slot = suit
        elif fnd[4 + suit] == rank + 1 and fnd[suit] >= rank:
            slot = 4 + suit
        else:
            return -1
        base = suit << 4
        lower = rank - 1 if rank > ACE else (KING if self.round_the_corner else 0)
        higher = rank + 1 if rank < KING else (ACE if self.round_the_corner else 0)
        if lower and self._in_quilt(base + lower, gone):
            return -1
        if higher and self._in_quilt(base + higher, gone):
            return -1
        return slot

    def _force(
        self, gone: int, free: int, waste: bytes, fnd: Fnd, path: list[str]
    ) -> tuple[int, int, bytes, Fnd]:
        """Make every safe foundation move (appending them to ``path``)."""
        moved = True
        while moved:
            moved = False
            if waste:
                slot = self._safe_slot(waste[-1], fnd, gone)
                if slot >= 0:
                    fnd = _founded(fnd, slot, waste[-1] & _RANK)
                    waste = waste[:-1]
                    path.append("wu" if slot < 4 else "wd")
                    moved = True
                    continue
            rest = free
            while rest:
                low = rest & -rest
                cell = low.bit_length() - 1
                rest ^= low
                code = self.cards[cell]
                slot = self._safe_slot(code, fnd, gone)
                if slot >= 0:
                    fnd = _founded(fnd, slot, code & _RANK)
                    gone |= low
                    free = (free | _FREES[cell]) & ~gone
                    if free & self.ghosts:
                        gone, free = _vanish(gone, free, self.ghosts)
                    path.append(CELL_NAMES[cell] + ("u" if slot < 4 else "d"))
                    moved = True
                    break
        return gone, free, waste, fnd

    def _relaxed(self, gone: int, stock: bytes, waste: bytes, fnd: Fnd, left: int) -> bool:
        """The relaxed check (:func:`relaxed_possible`); its positions count as searched."""
        possible, positions = relaxed_possible(waste, stock, self._quilt(gone), fnd, left)
        self.nodes += positions
        return possible

    def _relaxed_clears(self, stock: bytes, waste: bytes, fnd: Fnd, left: int = 1) -> bool:
        """The relaxed check of a position with ``left`` redeals left (at least one), decided by
        :func:`~spielcenter.solvers.crazy_quilt_relaxed.clearable` (its nodes count as searched
        positions, :data:`ASSIGNMENT_WEIGHT` each).

        Many positions share stock, waste and foundations (they differ in which copies left the
        quilt, or in its cells): the relaxed game depends on those alone, so each is asked once.
        """
        key = b"".join((bytes(fnd), bytes((left, len(stock))), stock, waste))
        known = self.across_known.get(key)
        if known is None:
            known, nodes = clearable(waste, stock, fnd, left, self.check_budget)
            self.nodes += nodes * ASSIGNMENT_WEIGHT
            self.across_known[key] = known
        return known

    def _quilt(self, gone: int) -> bytes:
        """The codes of the cards left in the quilt."""
        return bytes(code for cell, code in enumerate(self.cards) if code and not gone >> cell & 1)

    def _usable(self, top: int, free: int, fnd: Fnd) -> bool:
        """Whether the waste top ``top`` can be used at once: founded, or built on."""
        suit, rank = top >> 4, top & _RANK
        if fnd[suit] == rank - 1 or fnd[4 + suit] == rank + 1:
            return True
        rest = free
        while rest:
            low = rest & -rest
            rest ^= low
            if self._touch(self.cards[low.bit_length() - 1], top):
                return True
        return False

    # -- the depth-first search ----------------------------------------------------------------

    def _enter(self, key: bytes) -> bool:
        """Record a new position; ``False`` if it was searched before.

        The budget is checked before the position joins ``seen``: every position in ``seen``
        but off the path of an interrupted search was searched to the end.
        """
        if key in self.seen:
            return False
        self.nodes += 1
        if self.nodes > self.budget:
            raise _OutOfBudget
        if self.clock is not None and self.nodes & 1023 == 0 and self.clock() > self.deadline:
            raise _OutOfBudget
        self.seen.add(key)
        return True

    def search(
        self,
        gone: int,
        free: int,
        stock: bytes,
        waste: bytes,
        fnd: Fnd,
        left: int,
        turned: bool,
        path: list[str],
    ) -> bool:
        """Whether the node can be won; on success ``path`` ends with the winning line.

        ``turned``: the last step turned stock cards, so quilt-to-foundation moves (which could
        have been made before turning) are not tried.
        """
        mark = len(path)
        forced = self._force(gone, free, waste, fnd, path)
        if len(path) > mark:
            gone, free, waste, fnd = forced
            turned = False
        if fnd == _WON_FND:
            return True
        key = b"".join(
            (
                gone.to_bytes(8, "little"),
                bytes(fnd),
                bytes((left, turned, len(stock))),
                stock,
                waste,
            )
        )
        if turned and key[:17] + b"\x00" + key[18:] in self.seen:
            return self._fail(path, mark)
        if not self._enter(key):
            return self._fail(path, mark)
        try:
            if not self._dead(gone, stock, waste, fnd, left, turned) and self._children(
                gone, free, stock, waste, fnd, left, turned, path
            ):
                return True
        except (_OutOfBudget, RecursionError):
            # Interrupted: the position was not searched to the end, so it must not count as
            # lost for a later search that starts from this one's positions.
            self.seen.discard(key)
            raise
        return self._fail(path, mark)

    def _dead(
        self, gone: int, stock: bytes, waste: bytes, fnd: Fnd, left: int, turned: bool
    ) -> bool:
        """Whether a relaxed game proves the position lost: the last pass's (at its start and
        after each turn step), or the one across the last redeal (with one redeal left)."""
        if left == 0 and (turned or not waste):
            return not self._relaxed(gone, stock, waste, fnd, left)
        if left == 1 and self.across_redeal:
            return not self._relaxed_clears(stock, waste, fnd)
        return False

    @staticmethod
    def _fail(path: list[str], mark: int) -> bool:
        del path[mark:]
        return False

    def _children(
        self,
        gone: int,
        free: int,
        stock: bytes,
        waste: bytes,
        fnd: Fnd,
        left: int,
        turned: bool,
        path: list[str],
    ) -> bool:
        top = waste[-1] if waste else 0
        cards = self.cards
        # The waste's top card to a foundation.
        if top:
            suit, rank = top >> 4, top & _RANK
            for slot, want, word in ((suit, rank - 1, "wu"), (4 + suit, rank + 1, "wd")):
                if fnd[slot] == want:
                    path.append(word)
                    if self.search(
                        gone, free, stock, waste[:-1], _founded(fnd, slot, rank), left, False, path
                    ):
                        return True
                    path.pop()
        # Available quilt cards to a foundation, then onto the waste.
        builds: list[int] = []
        rest = free
        while rest:
            low = rest & -rest
            rest ^= low
            cell = low.bit_length() - 1
            code = cards[cell]
            if top and self._touch(code, top):
                builds.append(cell)
            if turned:
                continue
            suit, rank = code >> 4, code & _RANK
            after = gone | low
            opened = (free | _FREES[cell]) & ~after
            if opened & self.ghosts:
                after, opened = _vanish(after, opened, self.ghosts)
            for slot, want, mark in ((suit, rank - 1, "u"), (4 + suit, rank + 1, "d")):
                if fnd[slot] == want:
                    path.append(CELL_NAMES[cell] + mark)
                    if self.search(
                        after, opened, stock, waste, _founded(fnd, slot, rank), left, False, path
                    ):
                        return True
                    path.pop()
        for cell in builds:
            if left == 0 and buried(cards[cell], waste, fnd):
                continue
            low = _bit(cell)
            after = gone | low
            path.append(CELL_NAMES[cell] + "w")
            opened = (free | _FREES[cell]) & ~after
            if opened & self.ghosts:
                after, opened = _vanish(after, opened, self.ghosts)
            if self.search(
                after, opened, stock, waste + cards[cell : cell + 1], fnd, left, False, path
            ):
                return True
            path.pop()
        if not turned and self._turns(gone, free, stock, waste, fnd, left, path):
            return True
        if not stock and waste and left > 0:
            # After a redeal the waste is empty: the only useful next step is turning again.
            path.append("r")
            if self._turns(gone, free, waste, b"", fnd, left - 1, path):
                return True
            path.pop()
        return False

    def _turns(
        self,
        gone: int,
        free: int,
        stock: bytes,
        waste: bytes,
        fnd: Fnd,
        left: int,
        path: list[str],
    ) -> bool:
        """Turn k = 1, 2 … stock cards as one step.

        Only landings worth stopping at are searched: the new top card can be used at once
        (founded or built on), or the stock is empty and a redeal is left. Stopping anywhere
        else can only be followed by a quilt-to-foundation move, which could have come first,
        or by turning on.
        """
        for k in range(1, len(stock) + 1):
            top = stock[k - 1]
            if left == 0 and buried(top, waste + stock[: k - 1], fnd):
                return False  # turning on leaves the card stuck above what it needs
            if self._usable(top, free, fnd) or (k == len(stock) and left > 0):
                path.extend("s" * k)
                if self.search(gone, free, stock[k:], waste + stock[:k], fnd, left, True, path):
                    return True
                del path[-k:]
        return False


# -- the public face ---------------------------------------------------------------------------


def solve_position(
    position: Position,
    *,
    node_budget: int = DEFAULT_NODE_BUDGET,
    time_budget: float | None = None,
    across_redeal: bool = False,
) -> Verdict:
    """Decide a compact :class:`Position` (see :func:`solve`).

    ``across_redeal`` adds the relaxed check across the last redeal at every position with one
    redeal left (:meth:`_Search._relaxed_clears`): its first checks in a deal are its
    dearest, so :func:`solve` uses it after a plain search; the honest player uses it from the
    start (its searches begin after a redeal, on shorter piles), and so do the hints.
    """
    deadline = None if time_budget is None else time.monotonic() + time_budget
    verdict, _ = _decide(position, node_budget, deadline, across_redeal, set())
    return verdict


def _decide(
    position: Position,
    node_budget: int,
    deadline: float | None,
    across_redeal: bool,
    lost: set[bytes],
    checks: dict[bytes, bool] | None = None,
) -> tuple[Verdict, set[bytes]]:
    """One search of ``position``; ``lost`` holds positions an earlier search of the same
    deal searched to the end without a win, ``checks`` (when given) the answers of the relaxed
    checks across the redeal so far, and it gets this search's answers too. Returns the verdict
    and, when the budget ran out, the positions this search (and the earlier ones) searched to
    the end."""
    search = _Search(
        position.cards,
        position.round_the_corner,
        max(node_budget, 0),
        seen=lost,
        across_redeal=across_redeal,
        ghosts=position.ghosts,
    )
    if checks is not None:
        search.across_known = checks
    if deadline is not None:
        search.clock = time.monotonic
        search.deadline = deadline
    path: list[str] = []
    gone, free = _vanish(position.gone, _available(position.gone), position.ghosts)
    fnd = position.up + position.down
    try:
        won = search.search(
            gone,
            free,
            position.stock,
            position.waste,
            fnd,
            position.redeals_left,
            False,
            path,
        )
    except (_OutOfBudget, RecursionError):
        # A line deeper than Python's stack allows is left undecided, never guessed. The
        # positions left in ``seen`` were all searched to the end (the others left it).
        return Verdict("unknown", [], search.nodes), search.seen
    if won:
        return Verdict("won", path, search.nodes), set()
    return Verdict("lost", [], search.nodes), set()


BEAM_SHARE: Final = 3
""":func:`solve` gives the beams (:mod:`spielcenter.solvers.crazy_quilt_beam`) 3/4 of its
budget, after the honest player's trial."""

BEAMS: Final = ("widening", "restarts", "wide-restarts")
"""The beams :func:`solve` may run (its ``beams``)."""

SUITS_SHARE: Final = 20
""":func:`solve` gives the suits alone (:mod:`spielcenter.solvers.crazy_quilt_suits`) 1/20 of its
budget, shared by the four suits, after the honest player's trial."""

PLAIN_SHARE: Final = 4
""":func:`solve` gives a plain search (no check across the redeal) 1/4 of what the beams left."""


def solve(
    position: int | QuiltState,
    variant: str | None = None,
    *,
    node_budget: int = DEFAULT_NODE_BUDGET,
    time_budget: float | None = None,
    beams: str = "widening",
) -> Verdict:
    """Decide the Crazy Quilt ``position`` (a deal number or an engine state), stock known.

    ``variant`` defaults to the state's own variant, or ``classic`` for a deal number; it must
    match the state's. The search stops with ``unknown`` after ``node_budget`` positions or,
    if given, ``time_budget`` seconds (the only use of a clock, and only when asked). ``lost``
    means the whole reachable space was searched without finding a win.

    ``beams`` names the beams' share of the search: ``widening``
    (:func:`~spielcenter.solvers.crazy_quilt_beam.widening_beams`, the default), ``restarts``
    (:func:`~spielcenter.solvers.crazy_quilt_beam.shaken_restarts`) or ``wide-restarts``
    (:func:`~spielcenter.solvers.crazy_quilt_beam.wide_restarts`, for deals the others gave up
    on). At 3 000 000 positions on
    classic deals 1–200 the restarts won 182 and the widening beams 179, in 10 % more time and
    with half as many positions again for a median win (docs/winrates-crazy-quilt.md, *Shaken
    restarts*), so the default stays.
    """
    if beams not in BEAMS:  # checked before the honest trial spends anything
        raise ValueError(f"no beams {beams!r}; the beams are {', '.join(BEAMS)}")
    state = start_state(position, variant)
    if is_won(state):
        return Verdict("won", [], 0)
    # Any winning line proves "won": the honest player's game (it ignores the stock until its
    # first redeal) often is one, and costs a fraction of the budget.
    from spielcenter.solvers.crazy_quilt_honest import play_from

    trial = play_from(state, node_budget // 20)
    if trial.status is Status.WON:
        return Verdict("won", trial.moves, trial.nodes)
    # Then each suit alone, the other cards out of its way: if one suit cannot be founded even
    # so, no line founds every card (:mod:`spielcenter.solvers.crazy_quilt_suits`). Nearly
    # every suit alone is won within a few hundred positions, so this costs little.
    from spielcenter.solvers.crazy_quilt_suits import lost_alone

    compact = position_of(state)
    alone = lost_alone(compact, node_budget // SUITS_SHARE)
    if alone.suits:
        return Verdict("lost", [], trial.nodes + alone.nodes, proof=str(alone))
    # Then beams over the passes before the last, which reach far more wins than a depth-first
    # search of the same size (they revisit the early choices); on small positions a beam that
    # drops nothing is exhaustive and proves a loss.
    from spielcenter.solvers.crazy_quilt_beam import run_beams

    deadline = None if time_budget is None else time.monotonic() + time_budget
    beamed = run_beams(beams, compact, node_budget=node_budget * BEAM_SHARE // 4, deadline=deadline)
    nodes = trial.nodes + alone.nodes + beamed.nodes
    if beamed.result != "unknown":
        return Verdict(beamed.result, beamed.moves, nodes)
    # Then a plain search: wins that lie early in its order cost it the fewest positions. Then
    # the same search with the check across the redeal, which pays in long searches; it skips
    # what the plain one searched to the end (those positions are lost whatever the pruning).
    lost: set[bytes] = set()
    for across_redeal in (False, True):
        rest = node_budget - nodes
        budget = rest // PLAIN_SHARE if not across_redeal else rest
        verdict, lost = _decide(compact, max(budget, 0), deadline, across_redeal, lost)
        nodes += verdict.nodes
        if verdict.result != "unknown" or (deadline is not None and time.monotonic() > deadline):
            break
    return Verdict(verdict.result, verdict.moves, nodes)


def start_state(position: int | QuiltState, variant: str | None = None) -> QuiltState:
    """The engine state for a deal number (in ``variant``) or a state (checked against it)."""
    if variant is not None and variant not in VARIANTS:
        raise ValueError(
            f"Crazy Quilt has no variant {variant!r}; its variants are {', '.join(VARIANTS)}"
        )
    if isinstance(position, QuiltState):
        if variant is not None and variant != position.variant:
            raise ValueError(f"the state is of variant {position.variant!r}, not {variant!r}")
        return position
    if isinstance(position, bool) or not isinstance(position, int):
        raise ValueError(f"a deal number or a Crazy Quilt state, not {position!r}")
    return make(variant or "classic").start(check_deal(position))
