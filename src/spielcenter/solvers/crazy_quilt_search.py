"""The Crazy Quilt solver's exhaustive depth-first search (:class:`Search`, :func:`decide`).

:func:`~spielcenter.solvers.crazy_quilt.solve` runs it after the cheaper trials; the beams use its
rules on the compact node (:meth:`Search.force`, :meth:`Search.touch`,
:meth:`Search.relaxed_clears`), the honest player and the hints call :func:`solve_position`.

* **Transpositions.** Every move is irreversible (a quilt card leaves, a foundation grows, a
  stock card is turned, a redeal is used up), so the positions form a DAG and each is searched
  once. The two copies of a card are the same integer, so equal piles are equal keys.
* **Turning as one move.** Turning k stock cards is one step that lands on a stock card that can
  be used at once (it goes to a foundation, or a quilt card can be built on it); see
  :meth:`Search.turns`. After such a step, quilt-to-foundation moves are not tried: they do not
  depend on the stock or the waste, so they could equally have been made before turning.
* **Safe foundation moves** are made without branching: the engine's auto-move rule
  (:func:`spielcenter.games.crazy_quilt.auto_moves`), whose proof is in its docstring.
* **Dead ends** on the last pass (:mod:`~spielcenter.solvers.crazy_quilt_last_pass`) and across
  the last redeal (:meth:`Search.relaxed_clears`, :mod:`~spielcenter.solvers.crazy_quilt_relaxed`).
* **Move order.** Foundation moves, then building on the waste, then turning (fewest cards first),
  the redeal last.

Pure: no clock unless a deadline is given, no I/O, no randomness.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

from spielcenter.games.cards import ACE, KING
from spielcenter.games.crazy_quilt import CELLS
from spielcenter.solvers.codes import CODES, RANK, code_bit
from spielcenter.solvers.crazy_quilt_last_pass import buried, relaxed_possible_of
from spielcenter.solvers.crazy_quilt_position import (
    DOWN_MOVE,
    FREES,
    SIGNED_FREES,
    UP_MOVE,
    WASTE_MOVE,
    WON_FND,
    Fnd,
    Position,
    available,
    bit,
    cell_of,
    founded,
    low_cell,
    signed_cells,
    touches,
    unsigned_cells,
    vanish,
    vanish_signed,
)
from spielcenter.solvers.crazy_quilt_relaxed import ASSIGNMENT_BUDGET, clearable, clearable_left
from spielcenter.solvers.verdict import OutOfBudget, Verdict

if TYPE_CHECKING:  # mypyc's 64-bit integer; at run time (and as plain Python) simply int
    from mypy_extensions import i64

__all__ = ["ASSIGNMENT_WEIGHT", "DEFAULT_NODE_BUDGET", "Search", "decide", "solve_position"]

DEFAULT_NODE_BUDGET: Final = 500_000
"""Positions searched before :func:`~spielcenter.solvers.crazy_quilt.solve` answers ``unknown``
(about 15–30 s on a laptop core)."""

ASSIGNMENT_WEIGHT: Final = 10
"""Search positions one node of :func:`~spielcenter.solvers.crazy_quilt_relaxed.clearable`
counts as, for its cost in time when it was set. A node has grown cheaper since; the weight stays,
so that a budget means what it meant in every earlier measurement (the timings are in
docs/winrates-crazy-quilt.md, *The thoughtful solver*)."""


_FOLLOW_KNOWN: Final = 1 << 16
"""The most foundations whose :meth:`Search.following` a search remembers (it forgets them
all and starts again when full: a few megabytes at most)."""


class _Followers:
    """:meth:`Search.following` and :meth:`Search.safe_candidates` of one state of the
    foundations, as Python ints and as signed masks (a plain class: mypyc keeps the signed
    ones as native 64-bit integers)."""

    def __init__(self, signed_following: i64, signed_safe: i64) -> None:
        self.signed_following = signed_following
        self.signed_safe = signed_safe
        self.following = unsigned_cells(signed_following)
        self.safe = unsigned_cells(signed_safe)
        self.fnd_bytes = b""
        """The foundations' bytes in the exact search's keys, made when it first asks
        (:meth:`Search.fnd_bytes`; the beams never do)."""


@dataclass
class Search:
    """One exhaustive search over positions sharing the quilt ``cards`` and the variant."""

    cards: bytes
    round_the_corner: bool
    budget: int
    clock: Callable[[], float] | None = None
    deadline: float = 0.0
    nodes: int = 0
    seen: set[bytes] = field(default_factory=set)
    cells_of: list[int] = field(default_factory=lambda: [0] * CODES)
    """For each card code (an index 0–63), the mask of the cells that hold it from the start
    (0 for a code no card has)."""
    across_redeal: bool = False
    """Check the relaxed game across the last redeal at every position with one redeal left."""
    across_known: dict[bytes, bool] = field(default_factory=dict)
    """The answers of those checks so far, by redeals left, stock, waste and foundations."""
    check_budget: int = ASSIGNMENT_BUDGET
    """Nodes one of those checks may use (benefit of the doubt after that)."""
    across_left: dict[bytes, int] = field(default_factory=dict)
    """The grades of those checks asked by :meth:`relaxed_left` so far, by the same keys."""
    ghosts: int = 0
    """Cells that empty themselves as soon as they are available (:attr:`Position.ghosts`)."""
    split_budget: int = 0
    """When positive, a position is also dead when one of its unfinished suits alone (every
    other quilt card a ghost, :mod:`~spielcenter.solvers.crazy_quilt_suits`) is proven lost by a
    search of at most this many positions: :meth:`suit_alone_lost`."""
    split_known: dict[bytes, bool] = field(default_factory=dict)
    """The answers of those searches so far, by suit and the suit's own position."""
    relaxed_known: dict[bytes, tuple[bool, int]] = field(default_factory=dict)
    """The answers and positions of the last pass's relaxed checks (:meth:`_relaxed`) so far,
    by foundations, redeals left, waste, stock and the cards left in the quilt."""

    signed_cells_of: list[i64] = field(default_factory=list)
    """:attr:`cells_of` as native 64-bit integers (:func:`signed_cells`), for :meth:`_follow`."""
    touching_of: list[int] = field(default_factory=list)
    """For each card code, :meth:`touching`'s mask of cells (made once: it depends on the
    cards' first cells alone; 0 for a code no card has)."""
    last_fnd: Fnd = ()
    """The foundations :meth:`following` was last asked about, and its answers: a search asks
    again for the same foundations right after :meth:`force` did (the same tuple object)."""
    last_following: int = 0
    last_safe: int = 0
    """:meth:`safe_candidates` of :attr:`last_fnd`."""
    last_signed_following: i64 = 0
    last_signed_safe: i64 = 0
    """The same two as :func:`~spielcenter.solvers.crazy_quilt_position.signed_cells` masks."""
    last_known: _Followers = field(default_factory=lambda: _Followers(0, 0))
    """The answers of :attr:`last_fnd` (their :attr:`_Followers.fnd_bytes` for :meth:`search`)."""
    signed_touching_of: list[i64] = field(default_factory=list)
    """:attr:`touching_of` as signed masks."""
    follow_known: dict[Fnd, _Followers] = field(default_factory=dict)
    """:meth:`_follow`'s answers so far, by foundations (at most :data:`_FOLLOW_KNOWN`)."""
    signed_ghosts: i64 = 0
    """:attr:`ghosts` as a signed mask."""

    def __post_init__(self) -> None:
        for cell, code in enumerate(self.cards):
            if code:
                self.cells_of[code] |= bit(cell)
        self.signed_cells_of = [signed_cells(cells) for cells in self.cells_of]
        self.touching_of = [
            self._touching(code) if ACE <= code & RANK <= KING else 0 for code in range(CODES)
        ]
        self.signed_touching_of = [signed_cells(cells) for cells in self.touching_of]
        self.signed_ghosts = signed_cells(self.ghosts)

    # -- the rules on the compact node ---------------------------------------------------------

    def touch(self, a: int, b: int) -> bool:
        """Same suit and one rank apart (king and ace too, round the corner)."""
        return touches(a, b, self.round_the_corner)

    def touching(self, top: int) -> int:
        """The cells whose card :meth:`touches <touch>` the card ``top``: a mask to pick the
        cards that can be built onto a waste with ``top`` on top without trying every card."""
        return self.touching_of[top]

    def _touching(self, top: int) -> int:
        """:meth:`touching` computed from :attr:`cells_of`."""
        cells_of = self.cells_of
        cells = cells_of[top - 1] | cells_of[top + 1]  # no card has rank 0 or 14: no cells
        if self.round_the_corner:
            rank = top & RANK
            if rank == ACE:
                cells |= cells_of[top + KING - ACE]
            elif rank == KING:
                cells |= cells_of[top - (KING - ACE)]
        return cells

    def following(self, fnd: Fnd) -> int:
        """The cells whose card follows on a foundation of ``fnd`` (the rank after an up
        foundation's top, or before a down one's): only these can go to a foundation now."""
        if fnd is not self.last_fnd:
            self._follow(fnd)
        return self.last_following

    def safe_candidates(self, fnd: Fnd) -> int:
        """The cells of :meth:`following` whose card's twin is already founded (one home left):
        the only cells whose card :meth:`_safe_slot` may find a safe slot for, so :meth:`force`
        asks it of these alone (most positions have none)."""
        if fnd is not self.last_fnd:
            self._follow(fnd)
        return self.last_safe

    def _follow(self, fnd: Fnd) -> None:
        """:meth:`following` and :meth:`safe_candidates` of ``fnd``, remembered: for the next
        question about the same tuple in :attr:`last_fnd`, for other tuples of the same
        foundations in :attr:`follow_known` (many positions share their foundations)."""
        known = self.follow_known.get(fnd)
        if known is None:
            known = self._followers(fnd)
            if len(self.follow_known) >= _FOLLOW_KNOWN:
                self.follow_known.clear()
            self.follow_known[fnd] = known
        self.last_fnd = fnd
        self.last_signed_following = known.signed_following
        self.last_signed_safe = known.signed_safe
        self.last_following = known.following
        self.last_safe = known.safe
        self.last_known = known

    def _followers(self, fnd: Fnd) -> _Followers:
        """:meth:`_follow`'s answers made from :attr:`signed_cells_of` as native 64-bit
        integers: with cells 62 and 63 the masks are Python longs, and each of the eight
        operations on one made a new object."""
        cells_of = self.signed_cells_of
        cells: i64 = 0
        safe: i64 = 0
        for suit in range(4):
            base = suit << 4
            up = fnd[suit]
            down = fnd[4 + suit]
            moving: i64 = cells_of[base + up + 1] | cells_of[base + down - 1]
            cells |= moving
            # The up foundation's next card (rank up + 1) is safe only when the down foundation
            # is at most that rank, and the down one's next (down - 1) only when the up
            # foundation is at least that rank: both say down <= up + 1 (_safe_slot's test).
            if down <= up + 1:
                safe |= moving
        return _Followers(cells, safe)

    def signed_following(self, fnd: Fnd) -> i64:
        """:meth:`following` as a signed mask."""
        if fnd is not self.last_fnd:
            self._follow(fnd)
        return self.last_signed_following

    def signed_safe_candidates(self, fnd: Fnd) -> i64:
        """:meth:`safe_candidates` as a signed mask."""
        if fnd is not self.last_fnd:
            self._follow(fnd)
        return self.last_signed_safe

    def fnd_bytes(self, fnd: Fnd) -> bytes:
        """``bytes(fnd)``, remembered with :meth:`following` (``bytes`` of a tuple goes through
        the interpreter: a search asked it twice at every position)."""
        if fnd is not self.last_fnd:
            self._follow(fnd)
        known = self.last_known
        if not known.fnd_bytes:
            known.fnd_bytes = bytes(fnd)
        return known.fnd_bytes

    def _safe_slot(self, code: int, fnd: Fnd, gone: int) -> int:
        """The foundation slot (0–7) ``code`` may go to safely, or -1 (engine's auto-move rule).

        Safe when the card's twin is already founded (one home left) and no card of its suit one
        rank away is in the quilt (so it can never be needed as a base on the waste).
        """
        slot = _twin_home(code, fnd)
        if slot < 0:
            return -1
        # The cells of the cards one rank away (:meth:`touching`: king and ace too, round the
        # corner), all asked in one operation (``gone`` is a Python long once cell 62 or 63 is
        # empty, and each operation on it makes a new object).
        if gone | self.touching_of[code] != gone:
            return -1
        return slot

    def _safe_slot_signed(self, code: int, fnd: Fnd, gone: i64) -> int:
        """:meth:`_safe_slot` with ``gone`` a signed mask."""
        slot = _twin_home(code, fnd)
        if slot < 0 or gone | self.signed_touching_of[code] != gone:
            return -1
        return slot

    def force(
        self, gone: int, free: int, waste: bytes, fnd: Fnd, path: list[str]
    ) -> tuple[int, int, bytes, Fnd]:
        """Make every safe foundation move (appending them to ``path``)."""
        moved = True
        while moved:
            moved = False
            if waste:
                slot = self._safe_slot(waste[-1], fnd, gone)
                if slot >= 0:
                    fnd = founded(fnd, slot, waste[-1] & RANK)
                    waste = waste[:-1]
                    path.append("wu" if slot < 4 else "wd")
                    moved = True
                    continue
            rest = free & self.safe_candidates(fnd)  # no other card has a safe slot
            while rest:
                low = rest & -rest
                cell = low.bit_length() - 1
                rest ^= low
                code = self.cards[cell]
                slot = self._safe_slot(code, fnd, gone)
                if slot >= 0:
                    fnd = founded(fnd, slot, code & RANK)
                    gone |= low
                    free = (free | FREES[cell]) & ~gone
                    if free & self.ghosts:
                        gone, free = vanish(gone, free, self.ghosts)
                    path.append(UP_MOVE[cell] if slot < 4 else DOWN_MOVE[cell])
                    moved = True
                    break
        return gone, free, waste, fnd

    def force_signed(
        self, gone: i64, free: i64, waste: bytes, fnd: Fnd, path: list[str]
    ) -> tuple[i64, i64, bytes, Fnd]:
        """:meth:`force` on :func:`~spielcenter.solvers.crazy_quilt_position.signed_cells`
        masks (the beams'): the same moves in the same order, no Python long made."""
        moved = True
        while moved:
            moved = False
            if waste:
                slot = self._safe_slot_signed(waste[-1], fnd, gone)
                if slot >= 0:
                    fnd = founded(fnd, slot, waste[-1] & RANK)
                    waste = waste[:-1]
                    path.append("wu" if slot < 4 else "wd")
                    moved = True
                    continue
            rest = free & self.signed_safe_candidates(fnd)  # no other card has a safe slot
            while rest:
                low = low_cell(rest)
                cell = cell_of(low)
                rest ^= low
                code = self.cards[cell]
                slot = self._safe_slot_signed(code, fnd, gone)
                if slot >= 0:
                    fnd = founded(fnd, slot, code & RANK)
                    gone |= low
                    free = (free | SIGNED_FREES[cell]) & ~gone
                    if free & self.signed_ghosts:
                        gone, free = vanish_signed(gone, free, self.signed_ghosts)
                    path.append(UP_MOVE[cell] if slot < 4 else DOWN_MOVE[cell])
                    moved = True
                    break
        return gone, free, waste, fnd

    def _relaxed(self, gone: i64, stock: bytes, waste: bytes, fnd: Fnd, left: int) -> bool:
        """The relaxed check (:func:`~spielcenter.solvers.crazy_quilt_last_pass
        .relaxed_possible`); its positions count as searched.

        The relaxed game depends on the foundations, redeals left, waste, stock and which cards
        (not which cells) are left in the quilt, and is deterministic: positions that share
        these (a card's twin left instead of it, a step reached turned and not) get the answer
        and the positions counted the first time, without searching the game again."""
        one, two = self._quilt_masks(gone)
        key = b"".join(
            (
                self.fnd_bytes(fnd),
                _step_bytes(left, False, len(waste)),
                one.to_bytes(8, "little"),
                two.to_bytes(8, "little"),
                waste,
                stock,
            )
        )
        known = self.relaxed_known.get(key)
        if known is None:
            known = relaxed_possible_of(waste, stock, one, two, fnd, left)
            self.relaxed_known[key] = known
        possible, positions = known
        self.nodes += positions
        return possible

    def relaxed_clears(self, stock: bytes, waste: bytes, fnd: Fnd, left: int = 1) -> bool:
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

    def relaxed_left(self, stock: bytes, waste: bytes, fnd: Fnd, left: int = 1) -> int:
        """:meth:`relaxed_clears` graded: -1 when the relaxed game is proven lost, otherwise how
        far the pile is from clearable (the fewest cards a greedy run of the check's assignments
        left, 0 when it clears; :func:`~spielcenter.solvers.crazy_quilt_relaxed.clearable_left`).
        The answer is :meth:`relaxed_clears`' (it is recorded for it too); the nodes count the
        same, and a position whose check was already answered lost costs nothing."""
        key = b"".join((bytes(fnd), bytes((left, len(stock))), stock, waste))
        grade = self.across_left.get(key)
        if grade is None:
            if self.across_known.get(key) is False:
                grade = -1
            else:
                clears, nodes, cards = clearable_left(waste, stock, fnd, left, self.check_budget)
                self.nodes += nodes * ASSIGNMENT_WEIGHT
                self.across_known[key] = clears
                grade = cards if clears else -1
            self.across_left[key] = grade
        return grade

    def _quilt_masks(self, gone: i64) -> tuple[int, int]:
        """:func:`~spielcenter.solvers.crazy_quilt_last_pass.quilt_masks` of the cards left in
        the quilt: ``one``, the card codes (a bit each) with a copy in a cell not ``gone`` (a
        :func:`~spielcenter.solvers.crazy_quilt_position.signed_cells` mask), and ``two``, those
        with both copies there. The last pass's relaxed check asks this at every turn step."""
        cards = self.cards
        one: i64 = 0
        two: i64 = 0
        cell: i64
        for cell in range(CELLS):
            if gone >> cell & 1:  # cell 63 too: the sign bit, shifted in again
                continue
            code: i64 = cards[cell]
            if code:
                card: i64 = code_bit(code)
                if one & card:
                    two |= card
                one |= card
        return one, two

    def _usable(self, top: int, free: i64, fnd: Fnd) -> bool:
        """Whether the waste top ``top`` can be used at once: founded, or built on (``free`` a
        signed mask)."""
        suit, rank = top >> 4, top & RANK
        if fnd[suit] == rank - 1 or fnd[4 + suit] == rank + 1:
            return True
        return free & self.signed_touching_of[top] != 0

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
            raise OutOfBudget
        if self.clock is not None and self.nodes & 1023 == 0 and self.clock() > self.deadline:
            raise OutOfBudget
        self.seen.add(key)
        return True

    def search(
        self,
        gone: i64,
        free: i64,
        stock: bytes,
        waste: bytes,
        fnd: Fnd,
        left: int,
        turned: bool,
        path: list[str],
    ) -> bool:
        """Whether the node can be won; on success ``path`` ends with the winning line.

        ``gone`` and ``free`` are :func:`~spielcenter.solvers.crazy_quilt_position.signed_cells`
        masks (native 64-bit integers compiled, whatever cells they hold). ``turned``: the last
        step turned stock cards, so quilt-to-foundation moves (which could have been made before
        turning) are not tried.
        """
        mark = len(path)
        forced = self.force_signed(gone, free, waste, fnd, path)
        if len(path) > mark:
            gone, free, waste, fnd = forced
            turned = False
        if fnd == WON_FND:
            return True
        emptied: int = gone
        key = b"".join(
            (
                emptied.to_bytes(8, "little", signed=True),  # the unsigned mask's bytes
                self.fnd_bytes(fnd),
                _step_bytes(left, turned, len(stock)),
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
        except (OutOfBudget, RecursionError):
            # Interrupted: the position was not searched to the end, so it must not count as
            # lost for a later search that starts from this one's positions.
            self.seen.discard(key)
            raise
        return self._fail(path, mark)

    def _dead(
        self, gone: i64, stock: bytes, waste: bytes, fnd: Fnd, left: int, turned: bool
    ) -> bool:
        """Whether a relaxed game proves the position lost: the last pass's (at its start and
        after each turn step), or the one across the last redeal (with one redeal left)."""
        if left == 0 and (turned or not waste):
            return not self._relaxed(gone, stock, waste, fnd, left)
        if left == 1 and self.across_redeal and not self.relaxed_clears(stock, waste, fnd):
            return True
        return self.split_budget > 0 and self.suit_alone_lost(gone, stock, waste, fnd, left)

    def suit_alone_lost(self, gone: i64, stock: bytes, waste: bytes, fnd: Fnd, left: int) -> bool:
        """Whether one unfinished suit of the position, alone, is proven lost.

        The suit alone is the position's smaller game (:func:`spielcenter.solvers.crazy_quilt_suits
        .alone`): every line from the position, the other suits' moves dropped, is a line of it,
        so its loss is the position's. Only asked when two or more suits are unfinished (with
        one, the suit alone is the position itself). Each suit's game is searched once: its key
        is the suit's own position (the quilt after the ghosts vanished, its stock, waste and
        foundations), which many positions of the larger game share.
        """
        open_suits = [s for s in range(4) if fnd[s] != KING or fnd[4 + s] != ACE]
        if len(open_suits) < 2:
            return False
        emptied = unsigned_cells(gone)
        for suit in open_suits:
            ghosts = self.ghosts
            cards = bytearray(self.cards)
            for cell, code in enumerate(self.cards):
                if code and code >> 4 != suit:
                    cards[cell] = 0
                    if not emptied >> cell & 1:
                        ghosts |= bit(cell)
            after, _ = vanish(emptied, available(emptied), ghosts)
            own_stock = bytes(code for code in stock if code >> 4 == suit)
            own_waste = bytes(code for code in waste if code >> 4 == suit)
            key = b"".join(
                (
                    bytes((suit, left, len(own_stock), fnd[suit], fnd[4 + suit])),
                    after.to_bytes(8, "little"),
                    own_stock,
                    own_waste,
                )
            )
            known = self.split_known.get(key)
            if known is None:
                up = tuple(fnd[s] if s == suit else KING for s in range(4))
                down = tuple(fnd[4 + s] if s == suit else ACE for s in range(4))
                alone = Position(
                    bytes(cards),
                    after,
                    own_stock,
                    own_waste,
                    (up[0], up[1], up[2], up[3]),
                    (down[0], down[1], down[2], down[3]),
                    left,
                    self.round_the_corner,
                    ghosts,
                )
                verdict, _ = decide(alone, self.split_budget, None, True, set())
                self.nodes += verdict.nodes
                known = verdict.result == "lost"
                self.split_known[key] = known
            if known:
                return True
        return False

    @staticmethod
    def _fail(path: list[str], mark: int) -> bool:
        del path[mark:]
        return False

    def _children(
        self,
        gone: i64,
        free: i64,
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
            suit, rank = top >> 4, top & RANK
            for slot, want, word in ((suit, rank - 1, "wu"), (4 + suit, rank + 1, "wd")):
                if fnd[slot] == want:
                    path.append(word)
                    if self.search(
                        gone, free, stock, waste[:-1], founded(fnd, slot, rank), left, False, path
                    ):
                        return True
                    path.pop()
        # Available quilt cards to a foundation, then onto the waste (only the cells whose
        # cards can make such a move are visited, in the cells' order).
        touching: i64 = self.signed_touching_of[top] if top else 0
        following: i64 = 0 if turned else self.signed_following(fnd)
        builds = free & touching
        rest = free & following
        while rest:
            low = low_cell(rest)
            rest ^= low
            cell = cell_of(low)
            code = cards[cell]
            suit, rank = code >> 4, code & RANK
            after = gone | low
            opened = (free | SIGNED_FREES[cell]) & ~after
            if opened & self.signed_ghosts:
                after, opened = vanish_signed(after, opened, self.signed_ghosts)
            if fnd[suit] == rank - 1:
                path.append(UP_MOVE[cell])
                if self.search(
                    after, opened, stock, waste, founded(fnd, suit, rank), left, False, path
                ):
                    return True
                path.pop()
            if fnd[4 + suit] == rank + 1:
                path.append(DOWN_MOVE[cell])
                if self.search(
                    after, opened, stock, waste, founded(fnd, 4 + suit, rank), left, False, path
                ):
                    return True
                path.pop()
        while builds:
            low = low_cell(builds)
            builds ^= low
            cell = cell_of(low)
            if left == 0 and buried(cards[cell], waste, fnd):
                continue
            after = gone | low
            path.append(WASTE_MOVE[cell])
            opened = (free | SIGNED_FREES[cell]) & ~after
            if opened & self.signed_ghosts:
                after, opened = vanish_signed(after, opened, self.signed_ghosts)
            if self.search(
                after, opened, stock, waste + cards[cell : cell + 1], fnd, left, False, path
            ):
                return True
            path.pop()
        if not turned and self.turns(gone, free, stock, waste, fnd, left, path):
            return True
        if not stock and waste and left > 0:
            # After a redeal the waste is empty: the only useful next step is turning again.
            path.append("r")
            if self.turns(gone, free, waste, b"", fnd, left - 1, path):
                return True
            path.pop()
        return False

    def turns(
        self,
        gone: i64,
        free: i64,
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
                for _ in range(k):  # (extending by "s" * k went through the interpreter)
                    path.append("s")
                if self.search(gone, free, stock[k:], waste + stock[:k], fnd, left, True, path):
                    return True
                del path[-k:]
        return False


_STEP_BYTES: Final = tuple(
    bytes((left, turned, size)) for size in range(256) for turned in (0, 1) for left in range(4)
)
"""``bytes((left, turned, size))`` made once, for :func:`_step_bytes`."""


def _step_bytes(left: int, turned: bool, size: int) -> bytes:
    """``bytes((left, turned, size))``: redeals left, turned, and the stock's size in the keys
    of :meth:`Search.search` (the waste's in :meth:`Search._relaxed`'s), from
    :data:`_STEP_BYTES` when it holds them (``bytes`` of a tuple goes through the
    interpreter)."""
    if 0 <= left < 4 and 0 <= size < 256:
        return _STEP_BYTES[(size * 2 + turned) * 4 + left]
    return bytes((left, turned, size))


def _twin_home(code: int, fnd: Fnd) -> int:
    """The foundation slot ``code`` goes to when its twin is already founded (one home left and
    the card next on it), or -1: the first half of :meth:`Search._safe_slot`."""
    suit, rank = code >> 4, code & RANK
    if fnd[suit] == rank - 1 and fnd[4 + suit] <= rank:
        return suit
    if fnd[4 + suit] == rank + 1 and fnd[suit] >= rank:
        return 4 + suit
    return -1


def solve_position(
    position: Position,
    *,
    node_budget: int = DEFAULT_NODE_BUDGET,
    time_budget: float | None = None,
    across_redeal: bool = False,
) -> Verdict:
    """Decide a compact :class:`Position` (see :func:`~spielcenter.solvers.crazy_quilt.solve`).

    ``across_redeal`` adds the relaxed check across the last redeal at every position with one
    redeal left (:meth:`Search.relaxed_clears`): its first checks in a deal are its dearest, so
    :func:`~spielcenter.solvers.crazy_quilt.solve` uses it after a plain search; the honest player
    uses it from the start (its searches begin after a redeal, on shorter piles), and so do the
    hints.
    """
    deadline = None if time_budget is None else time.monotonic() + time_budget
    verdict, _ = decide(position, node_budget, deadline, across_redeal, set())
    return verdict


def decide(
    position: Position,
    node_budget: int,
    deadline: float | None,
    across_redeal: bool,
    lost: set[bytes],
    checks: dict[bytes, bool] | None = None,
    split_budget: int = 0,
    splits: dict[bytes, bool] | None = None,
) -> tuple[Verdict, set[bytes]]:
    """One search of ``position``; ``lost`` holds positions an earlier search of the same
    deal searched to the end without a win, ``checks`` (when given) the answers of the relaxed
    checks across the redeal so far, and it gets this search's answers too. ``split_budget``
    (when positive) drops every position one of whose suits alone is proven lost within that
    many positions (:meth:`Search.suit_alone_lost`); ``splits`` (when given) gets those answers.
    Returns the verdict and, when the budget ran out, the positions this search (and the
    earlier ones) searched to the end."""
    search = Search(
        position.cards,
        position.round_the_corner,
        max(node_budget, 0),
        seen=lost,
        across_redeal=across_redeal,
        ghosts=position.ghosts,
        split_budget=split_budget,
    )
    if checks is not None:
        search.across_known = checks
    if splits is not None:
        search.split_known = splits
    if deadline is not None:
        search.clock = time.monotonic
        search.deadline = deadline
    path: list[str] = []
    gone, free = vanish(position.gone, available(position.gone), position.ghosts)
    fnd = position.up + position.down
    try:
        won = search.search(
            signed_cells(gone),
            signed_cells(free),
            position.stock,
            position.waste,
            fnd,
            position.redeals_left,
            False,
            path,
        )
    except (OutOfBudget, RecursionError):
        # A line deeper than Python's stack allows is left undecided, never guessed. The
        # positions left in ``seen`` were all searched to the end (the others left it).
        return Verdict("unknown", [], search.nodes), search.seen
    if won:
        return Verdict("won", path, search.nodes), set()
    return Verdict("lost", [], search.nodes), set()
