"""A beam search over Crazy Quilt's passes before the last: it finds wins the depth-first
search does not reach.

The depth-first search (:mod:`spielcenter.solvers.crazy_quilt_search`) is exact, but on a classic
deal it spends its budget on the last few stock cards of the first pass: after its first choices it
tries every way of ending the pass before it revisits a choice made early. Winning lines dismantle
most of the quilt during the first pass (how much: docs/winrates-crazy-quilt.md, reduction 9)
and leave the waste in an order the last pass can clear, so the early choices are the ones that
matter.

:func:`beam_search` therefore moves through the passes one stock card at a time, keeping the
``width`` most promising positions at each step:

1. From each kept position it collects every position reachable without turning a card
   (foundation moves, building on the waste, the safe moves of the engine's auto-move rule).
2. It orders them by a progress score (cards founded first, see :data:`SCORES`; shaken by a
   seed, see :data:`SHAKE`; in a diverse beam the best of each foundation state first, see
   :data:`PLANS`) and keeps the best ``width`` that the relaxed game across the
   remaining redeals can still clear (:func:`~spielcenter.solvers.crazy_quilt_relaxed.clearable`,
   which proves the others lost; :func:`widening_beams` shares those answers between its beams).
   A *graded* beam checks twice its width of the best positions and keeps those whose check got
   furthest with the waste (:data:`GRADE`, :func:`graded_beams`).
3. Each kept position turns its next stock card, or, with the stock used up, turns the waste
   over; a position that has used its last redeal is handed to the exact search, which decides
   the last pass within :data:`FINAL_BUDGET` positions. Where it gives up, the first
   :data:`LAST_BEAMS` times in a beam, a narrow beam goes through that last pass the same way
   (:meth:`_Beam.last_pass_beam`).
4. When every kept position has died, the beam backs up :data:`BACK_CARDS` cards and goes on
   with the positions ranked just after those it kept there (at most :data:`BACKUPS` times,
   :meth:`_Beam.back_up`; the beams of :func:`thrifty_beams` do not, :data:`THRIFTY_BACKUPS`).

A win found this way is a real line (it replays through the engine). The beam drops positions
without proving them lost, so it answers ``lost`` only when it dropped none: on a small
position, where no step finds more than ``width`` positions, it is an exhaustive search.

Pure and deterministic: no clock (unless a deadline is given), no randomness; ties keep the order in
which the positions were found. It works on the depth-first search's compact position and borrows
its safe moves, its relaxed check and its exact last pass
(:class:`~spielcenter.solvers.crazy_quilt_search.Search`); the moves it gathers are generated here
in the same way as :meth:`~spielcenter.solvers.crazy_quilt_search.Search._children` does (not
shared: that is the depth-first search's hot path, left untouched), and the brute-force tests check
both against the engine.
"""

from __future__ import annotations

import itertools
import time
import zlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from spielcenter.games.cards import ACE, KING
from spielcenter.solvers.codes import RANK
from spielcenter.solvers.crazy_quilt_position import (
    DOWN_MOVE,
    SIGNED_FREES,
    UP_MOVE,
    WASTE_MOVE,
    WON_FND,
    Fnd,
    Position,
    available,
    cell_of,
    founded,
    low_cell,
    signed_cells,
    unsigned_cells,
    vanish,
    vanish_signed,
)
from spielcenter.solvers.crazy_quilt_search import Search
from spielcenter.solvers.verdict import OutOfBudget, Verdict

if TYPE_CHECKING:  # mypyc's 64-bit integer; at run time (and as plain Python) simply int
    from mypy_extensions import i64

__all__ = [
    "ALONE_BUDGET",
    "BACKUPS",
    "BACK_CARDS",
    "BEAMS",
    "BEAM_CHECK_BUDGET",
    "BEAM_WIDTH",
    "BLIND_CARDS",
    "FINAL_BUDGET",
    "FIRST_WIDTH",
    "GRADE",
    "GRADE_POOL",
    "LAST_BEAMS",
    "LAST_WIDTH",
    "SCORES",
    "SHAKE",
    "SHAKEN_BEAMS",
    "SHAKEN_SCORE",
    "THRIFTY_BACKUPS",
    "THRIFTY_CHECK_BUDGET",
    "THRIFTY_RESTARTS",
    "LastPass",
    "alone_restarts",
    "beam_search",
    "blind_restarts",
    "eager_beams",
    "eager_twins",
    "graded_beams",
    "last_pass_beam",
    "mixed_beams",
    "restart_plan",
    "shaken_restarts",
    "thrifty_beams",
    "widening_beams",
]

BEAMS: Final = (
    "eager-restarts",
    "alone-restarts",
    "blind-restarts",
    "thrifty",
    "graded",
    "mixed",
    "widening",
    "restarts",
    "wide-restarts",
    "eager",
    "eager-twins",
)
"""The beams :func:`run_beams` (and so :func:`~spielcenter.solvers.crazy_quilt.solve`) may run;
the first is :func:`~spielcenter.solvers.crazy_quilt.solve`'s default."""

BEAM_WIDTH: Final = 150
"""Positions kept at each step (wider won more classic deals: docs/winrates-crazy-quilt.md,
*The thoughtful solver*, holds the widths tried and their wins)."""

FIRST_WIDTH: Final = 16
"""The width of the first beams of :func:`widening_beams`; each next width is three times that."""

Weights = tuple[int, int]
"""A beam's progress score: points per card founded, per quilt card gone."""

SCORES: Final[tuple[Weights, ...]] = ((2, -1), (1, 0), (1, -1))
"""The progress scores :func:`widening_beams` tries at each width, in this order. Each ranks
cards founded first; a card founded is the only progress the last pass cannot undo, while a
quilt card gone has been founded or, worse, built onto the waste, where it covers the cards the
last pass needs (at one step the stock cards turned are the same, so founded + waste = turned +
gone, and founded alone ranks like founded minus waste). Three scores, since each wins deals the
others miss (measured in docs/winrates-crazy-quilt.md, "The thoughtful solver", reduction 9,
"Progress scores")."""

SHAKEN_SCORE: Final[Weights] = (1, 0)
"""The progress score of the shaken beams (see :data:`SHAKE`)."""

SHAKE: Final = 3
"""How far a shaken beam's ranking may move a position: each gets, on top of its score, a share
of ``SHAKE`` points drawn from the position and the beam's seed, so among positions within a few
founded cards of each other a shaken beam keeps a different choice than an unshaken one (and
each seed another). Shaken beams win deals the unshaken ones leave unknown; the shake and width
were chosen by experiment (measured in docs/winrates-crazy-quilt.md, "The thoughtful solver",
reduction 9, "Shaken beams, and checks shared between beams")."""

SHAKEN_BEAMS: Final = 5
"""The shaken beams :func:`widening_beams` runs at each width after the unshaken ones."""

BEAM_CHECK_BUDGET: Final = 20
"""Assignment nodes one relaxed check may use in the beam (benefit of the doubt after that).
The early checks, on long piles, are nearly always clearable and dearest, so a lower budget than
the exact search's loses few wins for much less time (measured in docs/winrates-crazy-quilt.md,
"The thoughtful solver", reduction 9)."""

THRIFTY_CHECK_BUDGET: Final = 2
"""Assignment nodes one relaxed check may use in the beams of :func:`thrifty_beams`. Most checks
that run out of :data:`BEAM_CHECK_BUDGET`'s 20 nodes prove nothing (on classic deal 24 they
were 62 % of the mixed beams' positions, docs/winrates-crazy-quilt.md, *Why the beams miss
wins the lists hold*); with fewer a beam costs about half as much and the budget runs more of
them. 2 won 11 of 31 unfound classic wins, 4 won 9 of them (measured in
docs/winrates-crazy-quilt.md, *Thrifty beams*)."""

THRIFTY_BACKUPS: Final = 0
"""How often each beam of :func:`thrifty_beams` backs up (:data:`BACKUPS` for the other beams):
never. A beam that backs up up to eight times cost three to four times as much on the deals it
does not win, so within 3 000 000 positions the thrifty beams ran 9-20 beams instead of 18-46
(ten classic deals) and seldom reached their wide restarts; without back-ups they win 24 of the
60 classic wins they missed at 3 000 000 (8 of the 10 the older solver decided) and lose 10 of
the 923 they won (measured in docs/winrates-crazy-quilt.md, *Thrifty beams that do not back
up*)."""

EAGER_RUN: Final = 2
"""How many eager restarts :func:`eager_restarts` runs before each plain one."""

BLIND_CARDS: Final = 8
"""How many stock cards of the first pass a *blind* beam ranks by its shake alone (its score
counts nothing there, :meth:`_Beam.rank`), before it ranks by its score as the others do. The
lists' winning lines hold cards back in the first few stock cards (the beams leave them at card
3, median, where they had founded fewer cards than every position kept:
docs/winrates-crazy-quilt.md, *Eager restarts*), so a score that counts cards founded drops
them there; a blind beam keeps its first cards' positions by chance (a diverse one, the best of
each foundation state first). Blind for 8 cards, the thrifty beams' restarts alone won 13 of the
23 classic wins of the lists the one run missed at 5 000 000 positions (for 4 cards 8, for 16
cards 13, seeing 8), and the blind ones of 4, 8, 12 and 16 cards together 19 of them
(docs/winrates-crazy-quilt.md, *Blind restarts*)."""

THRIFTY_RESTARTS: Final = 6
"""How many narrow restarts :func:`thrifty_beams` runs before each of its wide restarts (two
cycles of :func:`restart_plan`'s widths: 16, 16, 48)."""

GRADE: Final = 1
"""Points a graded beam (:func:`graded_beams`) takes off a position's rank for each card its
relaxed check's best greedy run left on the waste
(:func:`~spielcenter.solvers.crazy_quilt_relaxed.clearable_left`): one card stuck weighs as
much as one card not founded. A graded beam checks :data:`GRADE_POOL` times its width of a
step's best positions and keeps the best of those by that rank."""

GRADE_POOL: Final = 2
"""How many times its width a graded beam checks of a step's best positions before it ranks
them by their grade (:data:`GRADE`)."""

FINAL_BUDGET: Final = 2_000
"""Positions the exact search may use on the last pass of one position the beam hands it."""

ALONE_BUDGET: Final = 500
"""Positions each open suit alone of a position handed to the last pass may search before the
exact search is asked (:meth:`_Beam.last_pass`): a suit alone that cannot be founded proves the
last pass lost (:meth:`~spielcenter.solvers.crazy_quilt_search.Search.suit_alone_lost`). On the
deals the one run leaves undecided most last passes the exact search gives up on are lost so,
each for a few dozen positions (docs/winrates-crazy-quilt.md, *Last passes refuted by a suit
alone*)."""

LAST_WIDTH: Final = 16
"""The width of a beam through the last pass (:meth:`_Beam.last_pass_beam`)."""

LAST_BEAMS: Final = 8
"""How many last passes the exact search gave up on one beam hands to a beam through the last
pass: the first ones, which come from its best positions at the redeal, where the wins lie; a
beam through a last pass is dear and a wide beam hands the exact search many last passes, most
of which it gives up on (measured in docs/winrates-crazy-quilt.md, "Beams through the last
pass")."""

Plan = tuple[Weights, int, bool]
"""One beam of :func:`widening_beams` at each width: its progress score, its seed (0: not
shaken) and whether it is diverse."""

PLANS: Final[tuple[Plan, ...]] = (
    *((weights, 0, False) for weights in SCORES),
    *((weights, 0, True) for weights in SCORES),
    *((SHAKEN_SCORE, seed, False) for seed in range(1, SHAKEN_BEAMS + 1)),
)
"""The beams :func:`widening_beams` runs at each width, in this order: one per progress score
of :data:`SCORES`, then a *diverse* one per score, then :data:`SHAKEN_BEAMS` shaken ones. A
diverse beam keeps the best position of each foundation state before any second one of the
same state: an unshaken beam tends to keep ``width`` variations of one line (the same cards
founded, the same waste but for its last cards), and when that line dies they all die at the
same stock card. Diverse beams win deals the plain ones leave unknown (measured in
docs/winrates-crazy-quilt.md, "The thoughtful solver", reduction 9, "Diverse beams")."""

_GATHER_CAP: Final = 3_000
"""Positions one step may collect before turning. In a narrow beam (up to :data:`SHARED_WIDTH`)
it is shared among the kept positions: each adds at most its share,
``max(_GATHER_CAP // kept, _LEAST_SHARE)``, so such a step holds at most ``kept *
_LEAST_SHARE`` positions when that is more. With one cap for the whole step the first kept
positions' moves used it up and the others were never gathered; the share decided more of the
hard deals (docs/winrates-crazy-quilt.md, *A share of each step for the narrow beams*). Wider
beams keep one cap for the step: with a share each, a beam of 144 gathered up to 28 800
positions a step and the wide restarts no longer won deals 321, 461 and 560 within 1 000 000."""

BACKUPS: Final = 8
"""How often a beam whose kept positions all died backs up (:meth:`_Beam.back_up`) before it
gives up (the beams of :func:`thrifty_beams`: :data:`THRIFTY_BACKUPS`). Chosen on six of the
deals the beams left unknown at 3 000 000 positions (24 113 495 503 504 524; 2, 8 and 16
back-ups of 1, 2, 4 and 8 cards): only back-ups of one or two cards won any (495), and 8 of 2
cards won it soonest (docs/winrates-crazy-quilt.md, *Backing up instead of restarting*)."""

BACK_CARDS: Final = 2
"""How many stock cards a beam backs up when every kept position died."""

RESERVE: Final = 4
"""How many times its width a beam keeps of each step's positions ranked after the kept ones,
to back up to."""

_LEAST_SHARE: Final = 200
"""The fewest positions a kept position of a narrow beam may add to a step."""

SHARED_WIDTH: Final = 16
"""The widest beam whose kept positions each get their share of a step."""


@dataclass(frozen=True)
class LastPass:
    """A position a beam handed to its last pass (it has just used its last redeal: waste
    empty, no redeal left), with the line from the deal's start that reached it. What
    :func:`beam_search` records for ``handed``, and what :func:`last_pass_beam` starts from."""

    position: Position
    line: tuple[str, ...]


_Key = tuple[int, int, bytes, bytes]
"""A step's key of a position: quilt cells emptied, :func:`_head` (foundations and redeals
left), waste, stock. One tuple of four: the beams ask it at every move they gather, and the
bytes the key once was (:func:`_shake_key`) took five objects to make and were hashed whole."""


def _head(fnd: Fnd, left: int) -> int:
    """The foundations' eight ranks (each below 16) and the redeals left as one number."""
    head = left
    for rank in fnd:
        head = head * 16 + rank
    return head


_BELOW_LAST: Final[i64] = (1 << 63) - 1
"""Cells 0 to 62 of a signed mask."""


def _cell_count(cells: i64) -> int:
    """The cells of a :func:`~spielcenter.solvers.crazy_quilt_position.signed_cells` mask."""
    below: int = cells & _BELOW_LAST
    return below.bit_count() + (1 if cells < 0 else 0)


def _shake_key(node: _Node) -> bytes:
    """The position as the bytes a shaken beam's checksum reads (:meth:`_Beam.rank`): emptied
    cells, foundations, redeals left, the waste's length, waste, stock (the step's key until
    2026-12-07; the shakes, and so every shaken beam's choices, are drawn from these bytes)."""
    gone: int = node.gone
    return b"".join(
        (
            gone.to_bytes(8, "little", signed=True),  # the unsigned mask's bytes
            bytes(node.fnd),
            bytes((node.left, len(node.waste))),
            node.waste,
            node.stock,
        )
    )


class _Node:
    """A position in the beam with the line that reached it: the line of the node ``before``
    (none: the empty line), then ``moves``.

    A beam's positions continue each other's lines: as one list each, every position gathered
    copied its whole line (a hundred moves and more late in a deal), and the garbage collector
    walked each copy. The line before is shared with every other position that continues it
    (its node, so a node costs the same whatever the line's length); :attr:`line` spells it out
    when a line is wanted (a win, a last pass). The nodes a kept node's line runs through stay
    alive with it.

    A plain class, not a dataclass: mypyc compiles its ``__init__`` (a dataclass's generated one
    runs as interpreted Python), and the beams make one for every position they gather."""

    def __init__(
        self,
        gone: i64,
        free: i64,
        stock: bytes,
        waste: bytes,
        fnd: Fnd,
        left: int,
        moves: list[str],
        before: _Node | None = None,
    ) -> None:
        self.gone = gone
        """The emptied cells, a :func:`~spielcenter.solvers.crazy_quilt_position.signed_cells`
        mask (cell 63 the sign bit: every mask of the quilt a native 64-bit integer, so the
        beams' moves make no Python long), as is :attr:`free`, the available cells."""
        self.free = free
        self.stock = stock
        self.waste = waste
        self.fnd = fnd
        self.left = left
        self.moves = moves
        self.before = before
        self.points = 0.0
        """The beam's rank of the position (its score, shaken), once ranked."""

    @property
    def line(self) -> list[str]:
        """The moves from the deal's start (or the beam's) that reached the position."""
        pieces: list[list[str]] = []
        node: _Node | None = self
        while node is not None:
            pieces.append(node.moves)
            node = node.before
        line: list[str] = []
        for moves in reversed(pieces):
            line.extend(moves)
        return line

    def score(self, weights: Weights) -> int:
        """Progress: the cards founded and the quilt cards gone, weighted by ``weights``."""
        fnd = self.fnd
        cards = 0
        for suit in range(4):
            cards += fnd[suit] - ACE + KING - fnd[4 + suit]
        per_founded, per_gone = weights
        return per_founded * cards + per_gone * _cell_count(self.gone)


class _Beam:
    """One beam of a fixed width over one position, with its node budget."""

    def __init__(
        self,
        position: Position,
        width: int,
        budget: int,
        deadline: float | None,
        weights: Weights = SCORES[0],
        seed: int = 0,
        checks: dict[bytes, bool] | None = None,
        diverse: bool = False,
        backups: int = BACKUPS,
        check_budget: int = BEAM_CHECK_BUDGET,
        grade: int = 0,
        pool: int = GRADE_POOL,
        eager: bool = False,
        blind: int = 0,
        splits: dict[bytes, bool] | None = None,
    ) -> None:
        self.width = width
        self.blind = blind if seed else 0
        """How many stock cards of the first pass the beam ranks by its shake alone (0: none;
        an unshaken beam is never blind, see :data:`BLIND_CARDS`)."""
        self.blind_until = len(position.stock) - self.blind
        """A position of the first pass with more stock cards than this is ranked blind."""
        self.first_left = position.redeals_left
        """The redeals left at the beam's start: its first pass."""
        self.eager = eager
        """Whether the steps found the quilt's independent cards at once (:meth:`found_eagerly`)."""
        self.grade = grade
        """Points off a position's rank per card its relaxed check's best greedy run left on the
        waste (0: the rank alone decides)."""
        self.pool = pool
        """How many times its width a graded beam checks of a step's best positions."""
        self.backups = backups
        """How often :meth:`run` may back up (:meth:`back_up`) before it gives up."""
        self.weights = weights
        self.seed = seed
        self.diverse = diverse
        self.deadline = deadline
        self.search = Search(
            position.cards,
            position.round_the_corner,
            budget,
            check_budget=check_budget,
            ghosts=position.ghosts,
        )
        if checks is not None:
            self.search.across_known = checks
        if splits is not None:
            # This search never searches (no _dead of its own): it asks the suits alone of the
            # last passes (:meth:`last_pass`), remembered in ``splits``, shared by the caller.
            self.search.split_budget = ALONE_BUDGET
            self.search.split_known = splits
        self.final = Search(
            position.cards, position.round_the_corner, 0, across_redeal=True, ghosts=position.ghosts
        )
        self.budget = budget
        self.limit = _GATHER_CAP
        """How many positions the step being gathered may hold before the next is dropped."""
        self.last_beams = 0
        """How many last passes this beam has handed to :meth:`last_pass_beam` so far."""
        self.handed: list[LastPass] | None = None
        """Where every position handed to the last pass is recorded, when a caller asks."""
        self.complete = True
        """Whether nothing was dropped so far: no position left out for want of width or of
        room, no last pass left undecided. A beam that ends complete without a win has
        searched every line (its other cuts are sound), so the position is lost."""

    @property
    def nodes(self) -> int:
        return self.search.nodes + self.final.nodes

    def _spend(self, nodes: int) -> None:
        self.search.nodes += nodes
        if self.nodes > self.budget:
            raise OutOfBudget
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise OutOfBudget

    def gather(self, node: _Node, found: dict[_Key, _Node]) -> None:
        """Add to ``found`` every position reachable from ``node`` without turning a card."""
        self._gather(
            node.gone, node.free, node.stock, node.waste, node.fnd, node.left, node, "", found
        )

    def _gather(
        self,
        gone: i64,
        free: i64,
        stock: bytes,
        waste: bytes,
        fnd: Fnd,
        left: int,
        before: _Node,
        move: str,
        found: dict[_Key, _Node],
    ) -> None:
        """:meth:`gather` from the position reached by ``before`` and then ``move`` (none when
        empty)."""
        search = self.search
        forced: list[str] = [move] if move else []
        gone, free, waste, fnd = search.force_signed(gone, free, waste, fnd, forced)
        if self.eager:
            gone, free, waste, fnd = self.found_eagerly(gone, free, waste, fnd, forced)
        key = (gone, _head(fnd, left), waste, stock)
        if key in found:
            return
        if len(found) >= self.limit:
            self.complete = False
            return
        here = _Node(gone, free, stock, waste, fnd, left, forced, before)
        found[key] = here
        if fnd == WON_FND:
            return
        top = waste[-1] if waste else 0
        if top:
            suit, rank = top >> 4, top & RANK
            if fnd[suit] == rank - 1:
                grown = founded(fnd, suit, rank)
                self._gather(gone, free, stock, waste[:-1], grown, left, here, "wu", found)
            if fnd[4 + suit] == rank + 1:
                grown = founded(fnd, 4 + suit, rank)
                self._gather(gone, free, stock, waste[:-1], grown, left, here, "wd", found)
        # Only the cells whose cards have a move are visited, in the cells' order.
        touching: i64 = search.signed_touching_of[top] if top else 0
        rest = free & (touching | search.signed_following(fnd))
        while rest:
            low = low_cell(rest)
            rest ^= low
            cell = cell_of(low)
            code = search.cards[cell]
            after = gone | low
            opened = (free | SIGNED_FREES[cell]) & ~after
            if opened & search.signed_ghosts:
                after, opened = vanish_signed(after, opened, search.signed_ghosts)
            suit, rank = code >> 4, code & RANK
            if fnd[suit] == rank - 1:
                grown = founded(fnd, suit, rank)
                self._gather(after, opened, stock, waste, grown, left, here, UP_MOVE[cell], found)
            if fnd[4 + suit] == rank + 1:
                grown = founded(fnd, 4 + suit, rank)
                self._gather(after, opened, stock, waste, grown, left, here, DOWN_MOVE[cell], found)
            if low & touching:
                built = waste + bytes((code,))
                self._gather(after, opened, stock, built, fnd, left, here, WASTE_MOVE[cell], found)

    def found_eagerly(
        self, gone: i64, free: i64, waste: bytes, fnd: Fnd, path: list[str]
    ) -> tuple[i64, i64, bytes, Fnd]:
        """The position after founding every *independent* card of the quilt (appending the
        moves to ``path``), each followed by the safe moves: a free card that can go to a
        foundation (to the up one when both would take it), that cannot be built onto the
        waste's top, and that no free card of the quilt touches (so none could follow it onto
        the waste).

        Such a card's foundation move commutes with every other move of the step, so a step
        gathers it in every subset of the others (docs/winrates-crazy-quilt.md, *Why the beams
        miss wins the lists hold*, *The cap on a step*); founded at once, the step holds only
        the position that founded it, which has founded more and emptied more cells. Not sound
        (a card founded can block its twin's way home, or be wanted on the waste a few moves
        later), so a beam that founds one has dropped something and claims no loss."""
        search = self.search
        top = waste[-1] if waste else 0
        moved = True
        while moved:
            moved = False
            rest = free & search.signed_following(fnd)
            if top:
                rest &= ~search.signed_touching_of[top]
            while rest:
                low = low_cell(rest)
                rest ^= low
                cell = cell_of(low)
                code = search.cards[cell]
                if search.signed_touching_of[code] & free:
                    continue
                suit, rank = code >> 4, code & RANK
                slot = suit if fnd[suit] == rank - 1 else 4 + suit
                fnd = founded(fnd, slot, rank)
                gone |= low
                free = (free | SIGNED_FREES[cell]) & ~gone
                if free & search.signed_ghosts:
                    gone, free = vanish_signed(gone, free, search.signed_ghosts)
                path.append(UP_MOVE[cell] if slot < 4 else DOWN_MOVE[cell])
                self.complete = False
                gone, free, waste, fnd = search.force_signed(gone, free, waste, fnd, path)
                top = waste[-1] if waste else 0
                moved = True
                break
        return gone, free, waste, fnd

    def rank(self, node: _Node) -> float:
        """The position's score, shaken (see :data:`SHAKE`) when the beam has a seed; a blind
        beam's first :data:`BLIND_CARDS` stock cards count the shake alone."""
        blind = self.blind and node.left == self.first_left and len(node.stock) > self.blind_until
        score = 0.0 if blind else float(node.score(self.weights))
        if self.seed:
            score += SHAKE * zlib.crc32(_shake_key(node), self.seed) / 2**32
        return score

    def keep(self, found: dict[_Key, _Node], width: int = 0) -> list[_Node]:
        """The best ``width`` positions (the beam's width unless given) the relaxed game does
        not prove lost (a diverse beam: the best of each foundation state first, see
        :data:`PLANS`)."""
        return self.keep_and_rest(found, width)[0]

    def keep_and_rest(
        self, found: dict[_Key, _Node] | list[_Node], width: int = 0
    ) -> tuple[list[_Node], list[_Node]]:
        """The positions :meth:`keep` keeps from ``found`` (a step's positions, or a list
        already ranked), and those ranked after them, unchecked, in rank order."""
        width = width or self.width
        kept: list[_Node] = []
        if isinstance(found, dict):
            for node in found.values():
                node.points = self.rank(node)
            ranked = sorted(found.values(), key=lambda node: -node.points)
            if self.diverse:
                ranked = _best_of_each_foundation_state_first(ranked)
        else:
            ranked = found
        if self.grade:
            return self.keep_graded(ranked, width)
        for index, node in enumerate(ranked):
            clears = self.search.relaxed_clears(node.stock, node.waste, node.fnd, node.left)
            self._spend(0)
            if not clears:
                continue
            kept.append(node)
            if len(kept) == width:
                self.complete &= index == len(ranked) - 1
                return kept, ranked[index + 1 :]
        return kept, []

    def keep_graded(self, ranked: list[_Node], width: int) -> tuple[list[_Node], list[_Node]]:
        """:meth:`keep_and_rest` of a graded beam: of the first ``pool * width`` positions of
        ``ranked`` the relaxed game does not prove lost, the best ``width`` by their rank less
        ``grade`` points per card their check's best greedy run left on the waste."""
        alive: list[tuple[float, _Node]] = []
        rest: list[_Node] = []
        for index, node in enumerate(ranked):
            cards = self.search.relaxed_left(node.stock, node.waste, node.fnd, node.left)
            self._spend(0)
            if cards < 0:
                continue
            alive.append((node.points - self.grade * cards, node))
            if len(alive) == self.pool * width:
                rest = ranked[index + 1 :]
                break
        order = [node for _, node in sorted(alive, key=lambda pair: -pair[0])]
        if self.diverse:
            order = _best_of_each_foundation_state_first(order)
        if len(order) > width or rest:
            self.complete = False
        return order[:width], order[width:] + rest

    def last_pass(self, node: _Node) -> list[str] | None:
        """A winning line from ``node`` (which just used its last redeal), or ``None``.

        When the beam was given ``splits`` (:func:`alone_restarts`), each open suit alone of
        ``node`` is asked first (:data:`ALONE_BUDGET` positions each, the answers shared through
        ``splits``): one that cannot be founded proves the last pass lost, and the exact search
        is not asked. Then the exact search gets :data:`FINAL_BUDGET` positions. Where it gives
        up, the first :data:`LAST_BEAMS` times in this beam, a beam goes through the last pass
        instead: on the deals left undecided the exact search gave up on most of the last passes
        it was handed, and a narrow beam won some of those in a few ten thousand positions."""
        if self.handed is not None:
            self.handed.append(self.last_pass_of(node))
        if self.search.split_budget and self.search.suit_alone_lost(
            node.gone, node.stock, b"", node.fnd, 0
        ):
            self._spend(0)
            return None  # proven lost: the beam dropped nothing here
        final = self.final
        final.budget = final.nodes + min(FINAL_BUDGET, self.budget - self.nodes)
        line = node.line
        try:
            won = final.search(node.gone, node.free, node.stock, b"", node.fnd, 0, False, line)
        except OutOfBudget:
            if self.nodes >= self.budget:
                raise
            self.complete = False
            if self.last_beams >= LAST_BEAMS:
                return None
            self.last_beams += 1
            return self.last_pass_beam(node)
        return line if won else None

    def last_pass_of(self, node: _Node) -> LastPass:
        """``node`` (which just used its last redeal) as a :class:`LastPass`."""
        search = self.search
        fnd = node.fnd
        position = Position(
            cards=search.cards,
            gone=unsigned_cells(node.gone),
            stock=node.stock,
            waste=node.waste,
            up=(fnd[0], fnd[1], fnd[2], fnd[3]),
            down=(fnd[4], fnd[5], fnd[6], fnd[7]),
            redeals_left=node.left,
            round_the_corner=search.round_the_corner,
            ghosts=search.ghosts,
        )
        return LastPass(position, tuple(node.line))

    def last_pass_beam(self, node: _Node, width: int = LAST_WIDTH) -> list[str] | None:
        """A beam of ``width`` (:data:`LAST_WIDTH` unless asked) through the last pass from
        ``node``, with this beam's score, shake and diversity; a winning line or ``None``. It
        drops positions, so a beam that ends without a win proves nothing (``complete`` is
        already false)."""
        layer = [node]
        while layer:
            found, won = self.spread(layer, width)
            if won is not None:
                return won
            layer = [_turned(here) for here in self.keep(found, width) if here.stock]
        return None

    def spread(
        self, layer: list[_Node], width: int = 0
    ) -> tuple[dict[_Key, _Node], list[str] | None]:
        """Every position reachable from ``layer`` without turning a card (each counts as a
        searched position), and the line of a won one among them, if any. In a beam of
        ``width`` (the beam's own unless given) up to :data:`SHARED_WIDTH` each position of
        ``layer`` gets its share of the step (see :data:`_GATHER_CAP`)."""
        found: dict[_Key, _Node] = {}
        # With one cap for the whole step the first positions' children used it up and the
        # others were never gathered (docs/winrates-crazy-quilt.md, *Why the beams miss wins
        # the lists hold*).
        shared = (width or self.width) <= SHARED_WIDTH
        share = max(_GATHER_CAP // len(layer), _LEAST_SHARE)
        self.limit = _GATHER_CAP
        for node in layer:
            if shared:
                self.limit = len(found) + share
            self.gather(node, found)
        self._spend(len(found))
        for node in found.values():
            if node.fnd == WON_FND:
                return found, node.line
        return found, None

    def run(self, start: _Node) -> list[str] | None:
        """The beam from ``start``; a winning line or ``None``.

        When every kept position has died, the beam backs up (at most ``backups`` times,
        :data:`BACKUPS` unless the caller asked otherwise):
        to the step :data:`BACK_CARDS` cards before, where it goes on with the positions ranked
        just after the ones it kept there (:meth:`back_up`)."""
        layer = [start]
        reserves: list[list[_Node]] = []
        backups = 0
        while True:
            if not layer:
                if backups >= self.backups:
                    return None
                backups += 1
                kept = self.back_up(reserves)
                if not kept:
                    return None
            else:
                found, won = self.spread(layer)
                if won is not None:
                    return won
                kept, rest = self.keep_and_rest(found)
                reserves.append(rest[: self.width * RESERVE])
            layer = []
            for node in kept:
                if node.stock:
                    layer.append(_turned(node))
                elif node.waste and node.left > 0:
                    redealt = _Node(
                        node.gone,
                        node.free,
                        node.waste,
                        b"",
                        node.fnd,
                        node.left - 1,
                        ["r"],
                        node,
                    )
                    if redealt.left > 0:
                        layer.append(redealt)
                    else:
                        line = self.last_pass(redealt)
                        if line is not None:
                            return line

    def back_up(self, reserves: list[list[_Node]]) -> list[_Node]:
        """The next positions to go on from, after every kept position died at the last step
        of ``reserves`` (one list per step: the positions ranked after those kept, untried):
        the best ``width`` of them that the relaxed game does not prove lost, from the step
        :data:`BACK_CARDS` cards back, or the nearest earlier step that has any. ``reserves``
        is cut back to that step (and what it hands on leaves its list); none left: ``[]``.

        The positions kept a few cards before a beam dies were already dead, though no check
        could yet see it (docs/winrates-crazy-quilt.md, *Why the beams miss wins the lists
        hold*); the ones ranked just outside the width there are the nearest untried lines,
        cheaper to follow than a restart from the deal's start (a beam that backs up in this
        way is a limited-discrepancy beam search)."""
        step = len(reserves) - 1 - BACK_CARDS
        while step >= 0:
            del reserves[step + 1 :]
            kept, rest = self.keep_and_rest(reserves[step])
            reserves[step] = rest
            if kept:
                return kept
            step -= 1
        return []


def _turned(node: _Node) -> _Node:
    """``node`` after turning its next stock card."""
    return _Node(
        node.gone,
        node.free,
        node.stock[1:],
        node.waste + node.stock[:1],
        node.fnd,
        node.left,
        ["s"],
        node,
    )


def _best_of_each_foundation_state_first(ranked: list[_Node]) -> list[_Node]:
    """``ranked`` reordered: the best position of each foundation state, in rank order, then
    all the others in rank order."""
    states: set[Fnd] = set()
    best: list[_Node] = []
    others: list[_Node] = []
    for node in ranked:
        if node.fnd in states:
            others.append(node)
        else:
            states.add(node.fnd)
            best.append(node)
    return best + others


def beam_search(
    position: Position,
    *,
    width: int = BEAM_WIDTH,
    node_budget: int,
    deadline: float | None = None,
    weights: Weights = SCORES[0],
    seed: int = 0,
    checks: dict[bytes, bool] | None = None,
    diverse: bool = False,
    handed: list[LastPass] | None = None,
    backups: int = BACKUPS,
    check_budget: int = BEAM_CHECK_BUDGET,
    grade: int = 0,
    eager: bool = False,
    blind: int = 0,
    splits: dict[bytes, bool] | None = None,
) -> Verdict:
    """Look for a win from ``position`` by the beam (see the module's docstring), ranking
    positions by the progress score ``weights``, shaken by ``seed`` when it is not 0 (see
    :data:`SHAKE`; a shaken beam is as pure as the others: the shake is a checksum of the
    position and the seed), keeping the best of each foundation state first when ``diverse``
    (see :data:`PLANS`). ``checks`` holds the answers of the relaxed checks to share with
    other beams over the same position: every beam asks them with the same budget, so an answer
    is the same whichever beam asked first, and a beam that finds one there spends nothing on it
    (the beam's verdict and line are the same with or without them).

    Answers ``won`` with a line in the engine's notation; ``lost`` when the beam emptied without
    having dropped a position (then it searched every line); otherwise ``unknown``, also when
    ``node_budget`` positions are spent (gathered positions count one each, a relaxed check's
    nodes ten, the last pass's searched positions one). With no redeal left there are no passes
    to steer, and the exact search alone decides (``unknown``, no positions). ``deadline`` (a
    :func:`time.monotonic` time) is the only use of a clock, and only when given.
    ``handed``, when given, receives every position the beam hands to its last pass, in turn
    (``bench/crazy_quilt_last_passes.py`` shows where a deal's beams get to). ``backups``: how
    often the beam may back up when every kept position died (:data:`BACKUPS`; 0: never, the
    beams before 2026-12-07). ``check_budget``: the assignment nodes of one relaxed check
    (:data:`BEAM_CHECK_BUDGET`; :data:`THRIFTY_CHECK_BUDGET` in :func:`thrifty_beams`); beams
    sharing ``checks`` must ask them with the same budget. ``grade``: when positive, the beam
    checks :data:`GRADE_POOL` times its width of each step's best positions and keeps the best
    of them by their rank less ``grade`` points per card their check's best greedy run left
    on the waste (:data:`GRADE`, :func:`graded_beams`; 0: by the rank alone). ``eager``: the
    steps found the quilt's independent cards at once (:meth:`_Beam.found_eagerly`,
    :func:`eager_twins`); a beam that founded one so claims no loss. ``blind``: a shaken beam
    ranks the positions of its first pass's first ``blind`` stock cards by its shake alone
    (:data:`BLIND_CARDS`, :func:`blind_restarts`; 0: by its score, shaken, throughout).
    ``splits``: when given, each last pass's open suits alone are asked before the exact search
    (:data:`ALONE_BUDGET` positions each) and their answers kept there, to share with other
    beams over the same position as ``checks`` does the relaxed checks' (``None``: not asked).
    """
    if position.redeals_left == 0:
        return Verdict("unknown", [], 0)
    beam = _Beam(
        position,
        max(width, 1),
        max(node_budget, 0),
        deadline,
        weights,
        seed,
        checks,
        diverse,
        max(backups, 0),
        max(check_budget, 1),
        max(grade, 0),
        GRADE_POOL,
        eager,
        max(blind, 0),
        splits,
    )
    beam.handed = handed
    start = _start(position, [])
    return _verdict(beam, lambda: beam.run(start))


def _start(position: Position, line: list[str]) -> _Node:
    """A beam's first node: ``position``, its available cards (ghosts gone), reached by
    ``line``."""
    gone, free = vanish(position.gone, available(position.gone), position.ghosts)
    fnd = position.up + position.down
    left = position.redeals_left
    return _Node(
        signed_cells(gone), signed_cells(free), position.stock, position.waste, fnd, left, line
    )


def _verdict(beam: _Beam, run: Callable[[], list[str] | None]) -> Verdict:
    """The verdict of ``beam`` running ``run``: ``won`` with its line; ``lost`` when it
    found none and dropped nothing; ``unknown`` otherwise and when its budget ran out."""
    try:
        line = run()
    except (OutOfBudget, RecursionError):
        return Verdict("unknown", [], beam.nodes)
    if line is not None:
        return Verdict("won", line, beam.nodes)
    return Verdict("lost" if beam.complete else "unknown", [], beam.nodes)


def last_pass_beam(
    last: LastPass,
    *,
    node_budget: int,
    width: int = LAST_WIDTH,
    weights: Weights = SCORES[0],
    seed: int = 0,
    diverse: bool = True,
) -> Verdict:
    """A beam through the last pass alone, from ``last`` (a position a beam handed to its last
    pass, see ``handed`` of :func:`beam_search`): of ``width`` positions, ranked by
    ``weights``, shaken by ``seed``, diverse unless asked otherwise, as every beam's own
    beams through the last pass are (:meth:`_Beam.last_pass_beam`). A won line runs from the
    deal's start (``last.line`` and then the last pass); ``lost`` only when the beam dropped
    nothing, ``unknown`` otherwise and when ``node_budget`` positions are spent. For trials
    of other widths and scores than the solver's (``bench/crazy_quilt_last_passes.py``)."""
    position = last.position
    if width < 1:
        raise ValueError(f"a beam keeps at least one position, not {width}")
    if position.redeals_left != 0 or position.waste:
        raise ValueError("a last pass starts with no redeal left and an empty waste")
    beam = _Beam(position, width, max(node_budget, 0), None, weights, seed, None, diverse)
    start = _start(position, list(last.line))
    return _verdict(beam, lambda: beam.last_pass_beam(start, width))


def widening_beams(
    position: Position, *, node_budget: int, deadline: float | None = None
) -> Verdict:
    """Beams of width :data:`FIRST_WIDTH`, three times that, nine times … each width with the
    beams of :data:`PLANS` (a plain and a diverse beam per progress score, then shaken beams),
    until one decides (wins, or searches everything) or ``node_budget`` positions are spent.
    Narrow beams are cheap and win some deals wide ones do not (a beam keeps what looks best
    next to what else it found), so the narrowest go first. The beams share the answers of
    their relaxed checks, most of a beam's cost (measured in docs/winrates-crazy-quilt.md,
    "The thoughtful solver", reduction 9, "Shaken beams, and checks shared between beams")."""
    return _beams_in_turn(position, _widening(), node_budget, deadline)


BeamPlan = tuple[int, Weights, int, bool]
"""One beam of a sequence run by :func:`_beams_in_turn`: its width, progress score, seed (0:
not shaken) and whether it is diverse."""

KindPlan = tuple[BeamPlan, int, bool, int]
"""One beam of a sequence run by :func:`_kinds_in_turn`: its plan, its grade, whether it
founds eagerly and for how many stock cards it is blind (see :data:`BLIND_CARDS`)."""

GradedPlan = tuple[BeamPlan, int]
"""One beam of a sequence run by :func:`_graded_in_turn`: its plan and its grade (0: ranked by
its score alone; see :data:`GRADE`)."""


def _widening() -> Iterator[BeamPlan]:
    """The beams of :func:`widening_beams`: those of :data:`PLANS` at each width in turn."""
    for power in itertools.count():
        width = FIRST_WIDTH * 3**power
        for weights, seed, diverse in PLANS:
            yield width, weights, seed, diverse


def _beams_in_turn(
    position: Position,
    plans: Iterable[BeamPlan],
    node_budget: int,
    deadline: float | None,
    check_budget: int = BEAM_CHECK_BUDGET,
    backups: int = BACKUPS,
) -> Verdict:
    """Run the beams of ``plans`` one after the other, sharing their relaxed checks (each of
    ``check_budget`` assignment nodes), each backing up at most ``backups`` times, until one
    decides (wins, or searches everything), ``node_budget`` positions are spent, the deadline
    passes or the plans run out."""
    return _graded_in_turn(position, _ungraded(plans), node_budget, deadline, check_budget, backups)


def _ungraded(plans: Iterable[BeamPlan]) -> Iterator[GradedPlan]:
    """``plans``, each beam ungraded (a generator function, as :func:`_restarts` is)."""
    for plan in plans:
        yield plan, 0


def _graded_in_turn(
    position: Position,
    plans: Iterable[GradedPlan],
    node_budget: int,
    deadline: float | None,
    check_budget: int = BEAM_CHECK_BUDGET,
    backups: int = BACKUPS,
) -> Verdict:
    """:func:`_beams_in_turn` with each beam's grade (see :data:`GRADE`; 0: ungraded)."""
    return _kinds_in_turn(position, _not_eager(plans), node_budget, deadline, check_budget, backups)


def _not_eager(plans: Iterable[GradedPlan]) -> Iterator[KindPlan]:
    """``plans``, no beam founding eagerly (a generator function: the plans may never end)."""
    for plan, grade in plans:
        yield plan, grade, False, 0


def _kinds_in_turn(
    position: Position,
    plans: Iterable[KindPlan],
    node_budget: int,
    deadline: float | None,
    check_budget: int,
    backups: int,
    alone: bool = False,
) -> Verdict:
    """The one loop of every schedule: :func:`_beams_in_turn` with each beam's grade (see
    :data:`GRADE`) and whether it founds eagerly (:meth:`_Beam.found_eagerly`); with ``alone``
    the beams ask each last pass's suits alone first, sharing the answers
    (:func:`alone_restarts`)."""
    checks: dict[bytes, bool] = {}
    splits: dict[bytes, bool] | None = {} if alone else None
    nodes = 0
    for (width, weights, seed, diverse), grade, eager, blind in plans:
        if nodes >= node_budget:
            break
        verdict = beam_search(
            position,
            width=width,
            node_budget=node_budget - nodes,
            deadline=deadline,
            weights=weights,
            seed=seed,
            checks=checks,
            diverse=diverse,
            check_budget=check_budget,
            grade=grade,
            backups=backups,
            eager=eager,
            blind=blind,
            splits=splits,
        )
        nodes += verdict.nodes
        if verdict.result != "unknown" or position.redeals_left == 0:
            return Verdict(verdict.result, verdict.moves, nodes)
        if deadline is not None and time.monotonic() > deadline:
            break
    return Verdict("unknown", [], nodes)


RESTART_WIDE: Final = 3
"""Every ``RESTART_WIDE``-th restart of :func:`shaken_restarts` is a beam of width
``RESTART_WIDE * FIRST_WIDTH``; the others have :data:`FIRST_WIDTH`."""


def restart_plan(seed: int) -> tuple[int, Weights]:
    """The width and progress score of restart ``seed`` (1, 2, 3, …) of :func:`shaken_restarts`:
    the scores of :data:`SCORES` in turn, every third beam three times as wide."""
    wide = seed % RESTART_WIDE == 0
    return (FIRST_WIDTH * RESTART_WIDE if wide else FIRST_WIDTH), SCORES[seed % len(SCORES)]


def shaken_restarts(
    position: Position, *, node_budget: int, deadline: float | None = None
) -> Verdict:
    """Diverse shaken beams with seeds 1, 2, 3, … (widths and scores by :func:`restart_plan`)
    until one decides or ``node_budget`` positions are spent; they share their relaxed checks.

    Where :func:`widening_beams` gives up on a deal, its beams mostly died early: every position
    they kept was a variation of one line, proven dead at the same stock card, and a wider beam
    keeps more variations of the same line. Many narrow beams, each shaken by its own seed and
    keeping the best of each foundation state first, try many different early lines for the
    price of a few wide beams; they win many deals
    :func:`~spielcenter.solvers.crazy_quilt.solve` leaves unknown at the same budget (measured in
    docs/winrates-crazy-quilt.md, reduction 9, *Shaken restarts*). Deterministic: a restart's
    shake is drawn from its seed, so the same budget gives the same verdict and line.
    """
    return _beams_in_turn(position, _restarts(), node_budget, deadline)


def _restarts() -> Iterator[BeamPlan]:
    """The beams of :func:`shaken_restarts`: diverse, seeds 1, 2, 3, … (a generator function:
    compiled by mypyc, the same generator expression over the endless :func:`itertools.count`
    hung)."""
    for seed in itertools.count(1):
        width, weights = restart_plan(seed)
        yield width, weights, seed, True


WIDE_WIDTH: Final = FIRST_WIDTH * 9
"""The width of every beam of :func:`wide_restarts`: nine times :data:`FIRST_WIDTH`."""

WIDE_FIRST_SEED: Final = 1001
"""The seed of the first of :func:`wide_restarts`; far past the seeds :func:`shaken_restarts`
reaches in any budget we run, so a deal they gave up on meets new shakes."""


def wide_restart_plan(seed: int, width: int = WIDE_WIDTH) -> tuple[int, Weights]:
    """The width and progress score of the wide restart with ``seed`` (1001, 1002, …): width
    ``width`` (:data:`WIDE_WIDTH` unless asked), the scores of :data:`SCORES` in turn."""
    return width, SCORES[seed % len(SCORES)]


def wide_restarts(
    position: Position,
    *,
    node_budget: int,
    deadline: float | None = None,
    width: int = WIDE_WIDTH,
) -> Verdict:
    """Diverse shaken beams of width ``width`` (:data:`WIDE_WIDTH` unless asked) with seeds
    1001, 1002, … (by :func:`wide_restart_plan`) until one decides or ``node_budget``
    positions are spent; they share their relaxed checks.

    For the deals the narrow restarts of :func:`shaken_restarts` left unknown even at
    100 000 000 positions. There the narrow beams die early because each keeps too few
    variations of a good early line to get one through the pass; a wide beam keeps enough, and
    its shake and its diversity still send each restart down other lines. A restart costs
    about nine narrow ones, so these come second (what they won: docs/winrates-crazy-quilt.md,
    *Wide shaken beams*). Deterministic, as the narrow restarts
    are. Other widths are for trials (``bench/crazy_quilt_beams.py --width``).
    """
    if width < 1:
        raise ValueError(f"a beam keeps at least one position, not {width}")
    return _beams_in_turn(position, _wide_restarts(width), node_budget, deadline)


def _wide_restarts(width: int) -> Iterator[BeamPlan]:
    """The beams of :func:`wide_restarts` (a generator function, as :func:`_restarts` is)."""
    for seed in itertools.count(WIDE_FIRST_SEED):
        beam_width, weights = wide_restart_plan(seed, width)
        yield beam_width, weights, seed, True


def thrifty_beams(
    position: Position, *, node_budget: int, deadline: float | None = None
) -> Verdict:
    """The beams of :func:`widening_beams` at :data:`FIRST_WIDTH`, then in turn
    :data:`THRIFTY_RESTARTS` narrow restarts (:func:`shaken_restarts`' beams in their order)
    and a wide restart (:func:`wide_restarts`' beams in their order), every beam's relaxed checks of
    :data:`THRIFTY_CHECK_BUDGET` nodes and no beam backing up (:data:`THRIFTY_BACKUPS`), until
    one decides or ``node_budget`` positions are spent; they share their relaxed checks.

    :func:`~spielcenter.solvers.crazy_quilt.solve`'s beams since 2026-12-07. Since the beams
    back up (:data:`BACKUPS`), the eleven narrow widening beams spend most of a budget of
    3 000 000 positions on a deal they do not win, and the wider widening beams and wide
    restarts of :func:`mixed_beams` after them seldom got far; the narrow restarts, each
    shaken and diverse, win many of those deals in one cheap beam, and with checks that give
    up sooner every beam costs less and the budget runs more of them; for the same reason a beam
    that dies gives the budget on to the next instead of backing up. The wide restarts stay,
    one after each few narrow ones: some deals only they win cheaply (classic 461, 560); before
    the narrow ones, each cost a deal the narrow restarts win (classic 193, 202).
    Measured in docs/winrates-crazy-quilt.md, *Thrifty beams*."""
    return _beams_in_turn(
        position, _thrifty(), node_budget, deadline, THRIFTY_CHECK_BUDGET, THRIFTY_BACKUPS
    )


def _thrifty() -> Iterator[BeamPlan]:
    """The beams of :func:`thrifty_beams` (a generator function, as :func:`_restarts` is)."""
    widening = _widening()
    wide = _wide_restarts(WIDE_WIDTH)
    restarts = _restarts()
    for _ in PLANS:
        yield next(widening)
    while True:
        for _ in range(THRIFTY_RESTARTS):
            yield next(restarts)
        yield next(wide)


def graded_beams(position: Position, *, node_budget: int, deadline: float | None = None) -> Verdict:
    """The beams of :func:`thrifty_beams`, each restart followed by its graded twin (the same
    width, score and seed, ranked by :data:`GRADE`), until one decides or ``node_budget``
    positions are spent; they share their relaxed checks (of :data:`THRIFTY_CHECK_BUDGET`
    nodes). Unlike the thrifty beams, each backs up (:data:`BACKUPS`), as when they were
    measured.

    Selectable (``beams="graded"``), not the default. A beam commits to a waste order many cards
    before any check can prove it dead (docs/winrates-crazy-quilt.md, *Why the beams miss wins
    the lists hold*); the graded beams rank their best positions by how far the check's best
    greedy run got with the waste, and win deals the thrifty restarts with the same seeds leave
    unknown, while missing others those win. In turn, the two kinds won 4 of 20 deals the
    thrifty beams left unknown at 3 000 000 positions, but the graded twins delay the thrifty
    restarts, and the one-run table showed thrifty wins found late (classic 105, 202, 228) lost
    for it: no better than the thrifty beams on classic 1–312 (measured in
    docs/winrates-crazy-quilt.md, *Graded beams*)."""
    return _graded_in_turn(position, _graded(), node_budget, deadline, THRIFTY_CHECK_BUDGET)


def eager_beams(position: Position, *, node_budget: int, deadline: float | None = None) -> Verdict:
    """The beams of :func:`thrifty_beams`, every step founding the quilt's independent cards
    at once (:meth:`_Beam.found_eagerly`), until one decides or ``node_budget`` positions are
    spent; they share their relaxed checks (of :data:`THRIFTY_CHECK_BUDGET` nodes). For trials:
    at 3 000 000 positions they won 27 of 60 classic deals the thrifty beams miss, and lost 3
    of 41 the thrifty beams win (measured in docs/winrates-crazy-quilt.md, *Eager founding*);
    :func:`eager_twins` runs both."""
    return _eager_in_turn(position, _eager(_thrifty(), False), node_budget, deadline)


def eager_twins(position: Position, *, node_budget: int, deadline: float | None = None) -> Verdict:
    """The beams of :func:`thrifty_beams`, each followed by its eager twin (the same width,
    score and seed, every step founding the quilt's independent cards at once,
    :meth:`_Beam.found_eagerly`), until one decides or ``node_budget`` positions are spent; they
    share their relaxed checks (of :data:`THRIFTY_CHECK_BUDGET` nodes).

    A step of a narrow beam holds at most a share of :data:`_GATHER_CAP` positions for each kept
    position, and most of a capped step was the same few moves in every subset of founding
    (docs/winrates-crazy-quilt.md, *Why the beams miss wins the lists hold*): founding the
    independent cards at once, each kept position's share reaches other wastes, and the eager
    beams win many deals the thrifty ones miss; they miss some the thrifty ones win, so each
    beam runs both ways. Selectable (``beams="eager-twins"``), not the default: at 3 000 000
    positions they won 16 of 60 classic deals the thrifty beams miss and kept 41 of 41 decided
    ones, but lost 20 of the 49 that the thrifty beams win only after 1 400 000 positions, for
    half the budget goes to the other family. Measured in docs/winrates-crazy-quilt.md,
    *Eager founding*."""
    return _eager_in_turn(position, _eager(_thrifty(), True), node_budget, deadline)


EagerPlan = tuple[BeamPlan, bool]
"""One beam of a sequence run by :func:`_eager_in_turn`: its plan and whether it founds
eagerly (:meth:`_Beam.found_eagerly`)."""


def _eager(plans: Iterable[BeamPlan], twins: bool) -> Iterator[EagerPlan]:
    """``plans``, each beam eager, after its plain twin when ``twins`` (a generator function,
    as :func:`_restarts` is)."""
    for plan in plans:
        if twins:
            yield plan, False
        yield plan, True


def _eager_in_turn(
    position: Position, plans: Iterable[EagerPlan], node_budget: int, deadline: float | None
) -> Verdict:
    """:func:`_beams_in_turn` with checks of :data:`THRIFTY_CHECK_BUDGET` nodes, each beam
    founding eagerly or not as its plan says."""
    kinds = _ungraded_kinds(plans)
    return _kinds_in_turn(position, kinds, node_budget, deadline, THRIFTY_CHECK_BUDGET, BACKUPS)


def _ungraded_kinds(plans: Iterable[EagerPlan]) -> Iterator[KindPlan]:
    """``plans``, every beam ungraded (a generator function: the plans may never end)."""
    for plan, eager in plans:
        yield plan, 0, eager, 0


def _graded() -> Iterator[GradedPlan]:
    """The beams of :func:`graded_beams` (a generator function, as :func:`_restarts` is)."""
    thrifty = _thrifty()
    for _ in PLANS:
        yield next(thrifty), 0
    for plan in thrifty:
        yield plan, 0
        yield plan, GRADE


def eager_restarts(
    position: Position, *, node_budget: int, deadline: float | None = None
) -> Verdict:
    """The narrow widening beams of :func:`thrifty_beams`, then its restarts (six narrow, a
    wide one, in turn) founding the quilt's independent cards at once
    (:meth:`_Beam.found_eagerly`), and after every :data:`EAGER_RUN` of them one of the thrifty
    beams' own plain restarts (in their order), until one decides or ``node_budget`` positions
    are spent; they share their relaxed checks (of :data:`THRIFTY_CHECK_BUDGET` nodes) and none
    backs up (:data:`THRIFTY_BACKUPS`).

    :func:`~spielcenter.solvers.crazy_quilt.solve`'s beams since 2026-12-07 (session 11). A
    step of an eager beam holds each independent foundation move once, not in every subset of
    the others, so its share reaches other wastes, and eager restarts win classic deals the
    plain ones miss at 5 000 000 positions (14 of the 33 wins of the lists the thrifty beams
    missed). The narrow widening beams stay plain and first: they win most deals cheaply, and
    some (classic 974, its first beam) only plainly; plain restarts stay in the cycle, for some
    deals only they win (classic 448, 777, 968). Measured in docs/winrates-crazy-quilt.md,
    *Eager restarts*."""
    return _kinds_in_turn(
        position, _eager_restarts(), node_budget, deadline, THRIFTY_CHECK_BUDGET, THRIFTY_BACKUPS
    )


def _eager_restarts() -> Iterator[KindPlan]:
    """The beams of :func:`eager_restarts` (a generator function, as :func:`_restarts` is)."""
    eager = _thrifty()
    plain = _thrifty()
    for _ in PLANS:
        yield next(eager), 0, False, 0
        next(plain)
    for count, plan in enumerate(eager, start=1):
        yield plan, 0, True, 0
        if count % EAGER_RUN == 0:
            yield next(plain), 0, False, 0


def alone_restarts(
    position: Position, *, node_budget: int, deadline: float | None = None
) -> Verdict:
    """The beams of :func:`eager_restarts` in their order, each asking the suits alone of every
    last pass it would hand to the exact search first (:data:`ALONE_BUDGET` positions a suit,
    the answers shared by the run's beams): a suit alone that cannot be founded proves the pass
    lost for a few dozen positions where the exact search spent up to :data:`FINAL_BUDGET`.

    Selectable, not yet :func:`~spielcenter.solvers.crazy_quilt.solve`'s default: on the
    classic deals measured it wins 289 (no search had), 555 and 735 and seven unknown deals past
    1 000, and keeps the margin deals, but the one-run tables have not been made with it
    (docs/winrates-crazy-quilt.md, *Last passes refuted by a suit alone*)."""
    return _kinds_in_turn(
        position,
        _eager_restarts(),
        node_budget,
        deadline,
        THRIFTY_CHECK_BUDGET,
        THRIFTY_BACKUPS,
        alone=True,
    )


def blind_restarts(
    position: Position, *, node_budget: int, deadline: float | None = None
) -> Verdict:
    """The beams of :func:`eager_restarts` in their order, each plain restart of width
    :data:`FIRST_WIDTH` *blind*: it ranks its first pass's first :data:`BLIND_CARDS` stock
    cards by its shake alone, then by its score; until one decides or ``node_budget``
    positions are spent; they share their relaxed checks (of :data:`THRIFTY_CHECK_BUDGET`
    nodes) and none backs up (:data:`THRIFTY_BACKUPS`).

    Selectable (``beams="blind-restarts"``), not the default. The lists' winning lines that the
    other beams miss hold cards back in the first few stock cards, where a score that counts
    cards founded ranks them low; a narrow blind restart keeps other first cards. The widening
    beams, the eager restarts and the wider plain restarts run as in :func:`eager_restarts`, in
    the same places. Alone, the thrifty beams' restarts blind for 8 stock cards won 13 of the
    23 classic wins of the lists that :func:`eager_restarts` miss at 5 000 000 positions (seeing,
    8); in this schedule they share the budget, and on classic 1-1 000 they won 2 of them
    (357, 456) and lost 643, a seeing narrow restart's win (measured in
    docs/winrates-crazy-quilt.md, *Blind restarts*)."""
    return _kinds_in_turn(
        position, _blind_restarts(), node_budget, deadline, THRIFTY_CHECK_BUDGET, THRIFTY_BACKUPS
    )


def _blind_restarts() -> Iterator[KindPlan]:
    """The beams of :func:`blind_restarts` (a generator function, as :func:`_restarts` is)."""
    for plan, grade, eager, _blind in _eager_restarts():
        width, _weights, seed, diverse = plan
        narrow = width == FIRST_WIDTH and seed != 0 and diverse
        yield plan, grade, eager, BLIND_CARDS if narrow and not eager else 0


def mixed_beams(position: Position, *, node_budget: int, deadline: float | None = None) -> Verdict:
    """The beams of :func:`widening_beams` at :data:`FIRST_WIDTH`, then, from the next width on,
    each widening beam followed by a wide restart (:func:`wide_restarts`' beams in their order),
    until one decides or ``node_budget`` positions are spent; they share their relaxed checks.

    The narrow widening beams win most deals cheaply. Past them the widening beams and the
    wide restarts win different deals, and a single budget cannot know in advance which kind a
    deal needs, so they take turns (a schedule of two searches, as constraint models and other
    solvers are combined for Klondike); measured in docs/winrates-crazy-quilt.md, *A schedule
    of widening beams and wide restarts*."""
    return _beams_in_turn(position, _mixed(), node_budget, deadline)


def _mixed() -> Iterator[BeamPlan]:
    """The beams of :func:`mixed_beams` (a generator function, as :func:`_restarts` is)."""
    widening = _widening()
    wide = _wide_restarts(WIDE_WIDTH)
    for _ in PLANS:
        yield next(widening)
    while True:
        yield next(widening)
        yield next(wide)


def run_beams(
    name: str, position: Position, *, node_budget: int, deadline: float | None = None
) -> Verdict:
    """The beams named ``name`` (one of :data:`BEAMS`: ``eager-restarts``, ``alone-restarts``,
    ``blind-restarts``, ``thrifty``, ``graded``, ``mixed``, ``widening``, ``restarts``,
    ``wide-restarts``, ``eager`` or ``eager-twins``) run on ``position``."""
    if name == "graded":
        return graded_beams(position, node_budget=node_budget, deadline=deadline)
    if name == "eager-twins":
        return eager_twins(position, node_budget=node_budget, deadline=deadline)
    if name == "alone-restarts":
        return alone_restarts(position, node_budget=node_budget, deadline=deadline)
    if name == "blind-restarts":
        return blind_restarts(position, node_budget=node_budget, deadline=deadline)
    if name == "eager-restarts":
        return eager_restarts(position, node_budget=node_budget, deadline=deadline)
    if name == "eager":
        return eager_beams(position, node_budget=node_budget, deadline=deadline)
    if name == "thrifty":
        return thrifty_beams(position, node_budget=node_budget, deadline=deadline)
    if name == "mixed":
        return mixed_beams(position, node_budget=node_budget, deadline=deadline)
    if name == "widening":
        return widening_beams(position, node_budget=node_budget, deadline=deadline)
    if name == "restarts":
        return shaken_restarts(position, node_budget=node_budget, deadline=deadline)
    if name == "wide-restarts":
        return wide_restarts(position, node_budget=node_budget, deadline=deadline)
    raise ValueError(f"no beams {name!r}; the beams are {', '.join(BEAMS)}")
