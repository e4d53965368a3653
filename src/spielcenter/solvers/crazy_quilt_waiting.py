"""Crazy Quilt with some suits kept and the others' quilt cards *waiting*: a smaller game whose
loss proves the deal lost, stronger than the suits alone.

In the suits alone (:mod:`~spielcenter.solvers.crazy_quilt_suits`) a quilt card of another suit
is a ghost: it leaves the moment one of its short ends is free. A real card cannot: it leaves
only to a foundation of its suit whose top is one rank away, or onto the waste onto a card of its
suit one rank away. Here the other suits' quilt cards leave only when, besides a free short end,
one of those could have happened (a *waiting ghost*):

* the kept suits' cards follow the real rules (as in the suits alone); the stock holds every card
  in its order on the first pass, the waste only the kept suits' cards;
* a card of another suit turned from the stock, or a waiting ghost that left, is *released*;
* each other suit has *loose foundations*: a released copy of a rank lets both of its foundations
  pass that rank (the up one from its ace, the down one from its king, each rank in order);
* a waiting ghost leaves (and is released) as soon as its cell is available and either a loose
  foundation of its suit has reached a neighbouring rank (up at rank − 1 or higher, down at
  rank + 1 or lower) or a card of its suit one rank away (king and ace too, round the corner)
  has been released;
* the game is won when every kept card is founded, the stock and the waste are empty and the
  loose foundations are complete.

**Why a loss of this game is a loss of the deal.** Follow any real line and, alongside it, this
game: the kept suits' moves as they are, a turn of a card of another suit on the first pass as a
turn that releases it (later passes hold the kept cards only), everything else as the game's own
eager steps. By induction over the real line:

1. every cell empty in the real quilt is empty here: a real card of another suit leaves from an
   available cell (available here too, with at least the same gaps) to a foundation (whose real
   top the loose foundation has reached or passed, by 3) or onto a card of its suit one rank away
   on the waste (which was turned or left the quilt before, so it is released, by 2); either way
   the waiting ghost has left already;
2. every card of another suit that was turned or left the real quilt is released here;
3. each loose foundation is at or beyond the real one: a real foundation takes a copy that left
   the quilt or was turned (released, by 2), and a loose foundation passes every released rank;
4. the waste here is the real waste without the other suits' cards, in the same order; so
   whenever a kept card goes onto the real waste or leaves it (its top then is a kept card), the
   same move is legal here, and the redeal turns the same kept cards.

A won real line ends with every card founded, so the line here ends won. If no line of this game
wins, no real line does. It keeps the stock's order and the redeals exactly for the kept suits
and the geometry for all; it relaxes only the other suits' foundations (one released copy lets
both pass) and their waste (which cannot block here).

**Searching it.** Depth first, positions remembered (every step is irreversible); turning k cards is
one step that stops where the new top can be used, a card was released, or the stock ends (anything
else in between could have been done before turning, as in
:mod:`~spielcenter.solvers.crazy_quilt_search`); a position is dropped when the *loose game* of its
kept cards (every kept quilt card free, the other suits complete) cannot be cleared: a line of this
game, its other suits' moves dropped, is a line of the loose game (:class:`LooseGame`, whose
docstring gives the argument). That question is first put to
:func:`~spielcenter.solvers.crazy_quilt_relaxed.clearable_left` (an assignment search of the same
relaxed game within a small budget: its no is a proof, its proven yes keeps the node); what it
leaves open is decided exactly by :class:`LooseGame`'s own search, which gives the benefit of the
doubt only out of its budget. So ``lost`` comes only from a search that dropped no node a line could
win. The moves are tried in one of two orders (:class:`WaitingSearch`, ``last_first``): the waste's
top, the quilt's cards, the stock (the first found wins nearly every suit within a few hundred
positions), or the reverse, the stock first and the quilt's cells from the last (the order of the
tests' referee, which wins the games the first order cannot finish: classic 862 ♦ in 358 positions).
A lost game costs the same in either order (every node is searched).

A position is remembered as one int (its empty cells, foundation
tops, the numbers of its stock and waste among those met, redeals left); the other suits' state
is two card masks that follow from it (:class:`WaitingSearch`). The module is compiled with the
solvers (:data:`spielcenter.native.MODULES`). What it decides: docs/winrates-crazy-quilt.md,
*Waiting ghosts* and *Faster waiting games*.

Pure: no I/O, no clock, no randomness.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Final

from spielcenter.games.cards import ACE, KING, SUIT_NAMES, SUITS
from spielcenter.games.crazy_quilt import CELL_NAMES
from spielcenter.solvers.codes import RANK
from spielcenter.solvers.crazy_quilt_position import FREES, Position, available, bit, touches
from spielcenter.solvers.crazy_quilt_relaxed import clearable_left
from spielcenter.solvers.verdict import OutOfBudget, Verdict

__all__ = [
    "FIRST_ROUND",
    "LOOSE_ASSIGNMENTS",
    "LOOSE_BUDGET",
    "PAIR_ASSIGNMENTS",
    "PAIR_SUITS_FIRST",
    "LooseGame",
    "WaitingProof",
    "WaitingSearch",
    "behind",
    "decide_waiting",
    "loose_answer",
    "loose_clears",
    "lost_waiting",
    "lost_waiting_in_rounds",
    "packed_tops",
]

_SUIT_RANKS: Final = (1 << (KING + 1)) - (1 << ACE)
"""A suit's ranks in its 16 bits of a card mask (bit ``suit * 16 + rank`` per card)."""

PROGRESS_EVERY: Final = 1 << 20
"""Positions between two calls of a search's ``progress`` (for long runs' progress bars)."""

FIRST_ROUND: Final = 16
""":func:`lost_waiting_in_rounds` first gives each suit 1/16 of its budget: a won waiting game
stops, and nearly every suit's is won within a few hundred positions (docs/winrates-crazy-
quilt.md, *The waiting game in solve*)."""


PAIR_SUITS_FIRST: Final = 1 << 12
"""Assignment nodes of each single suit's loose question in :func:`lost_waiting_in_rounds`'s
whole searches of the pairs, asked before the pair's own question (a no is a proof)."""

PAIR_ASSIGNMENTS: Final = 1 << 10
"""Assignment nodes of a pair's own loose question in :func:`lost_waiting_in_rounds`'s whole
searches of the pairs (no loose game after them): a small share lets the search reach the jam
instead of paying for questions it cannot answer (classic deal 2655 ♠♣: lost at 54 982
positions with it, 166 139 with :data:`LOOSE_ASSIGNMENTS` and the loose game;
docs/winrates-crazy-quilt.md, *Pairs in the one run*)."""

LOOSE_BUDGET: Final = 1 << 18
"""Positions one question to :class:`LooseGame` may search before it gives the benefit of the
doubt (answers that the kept cards can be cleared)."""

LOOSE_ASSIGNMENTS: Final = 1 << 17
"""Nodes of :func:`~spielcenter.solvers.crazy_quilt_relaxed.clearable_left`'s assignment search
one loose question may use (never more than the search has left) before :class:`LooseGame`
decides it. Both are exact; on the loose games of two suits the assignment search is the faster
by two orders (classic 9 ♠♣: about 4 000 assignment nodes, 8 ms, where the loose game searches
about a million positions, 2–4 s; docs/winrates-crazy-quilt.md, *Assignments first*)."""

LOOSE_KEPT: Final = 1 << 22
"""Answers a :class:`LooseGame` remembers before it forgets them all and starts again."""


class _OutOfLoose(Exception):
    """A question to the loose game used its positions without an answer."""


class LooseGame:
    """The *loose game* of the kept cards, decided exactly: every kept card still in the quilt
    is free at all times, and the stock and the waste (the kept cards only, in their order)
    bind as in the real game. A card leaves the waste from its top to a foundation; the stock is
    turned one card at a time; a redeal turns the waste over into the stock. The other suits'
    foundations are complete (``fnd`` says so). Won when every kept card is founded.

    **Why it bounds the waiting game.** A line of the waiting game from a node, its turns of
    other suits' cards and its waiting ghosts dropped, is a line of the game where every kept
    quilt card is free from the start (a free card may do whatever an available one may; the
    stock and the waste hold the same kept cards in the same order). Two reductions keep it
    exact while making it small:

    1. *A free card never goes onto the waste.* A winning line that puts one there still wins
       with the card left free: it is founded from where it lies when the line founds it from
       the waste; the waste and the stock without it have the line's tops whenever a stock card
       leaves the waste, and turning a card or redealing asks nothing of the top.
    2. *A free card none of whose copies is in the pile (stock and waste) is founded at once*
       when a foundation takes it. Each foundation takes one copy of each rank it still needs;
       with no copy in the pile, the copies left are free and can go wherever they are needed
       whenever it suits, so putting one on a foundation that takes it now loses nothing, and a
       foundation further on only lets more cards onto it (its next rank is a rank no other
       card of the line needs from it but the copies of that card).

    Every other move is tried (the waste's top or a free card with a copy in the pile onto each
    foundation that takes it, a turn, a redeal), each position remembered with its answer; every
    move founds or turns a card or spends a redeal, so no line comes back. A question that
    needs more than ``budget`` positions is answered *clearable* (the benefit of the doubt:
    a check that prunes must never drop a node that might be won).
    """

    def __init__(self, budget: int = LOOSE_BUDGET) -> None:
        self.budget = budget
        self.nodes = 0
        """Positions searched by every question so far."""
        self.spent = 0
        self.known: dict[bytes, bool] = {}
        self.counts: list[int] = [0] * 64
        """Free copies of each card (code ``suit * 16 + rank``)."""
        self.piled: list[int] = [0] * 64
        """Copies of each card in the stock and the waste."""
        self.fnd: list[int] = [0] * 8
        self.free = 0

    def clears(self, waste: bytes, stock: bytes, fnd: Sequence[int], left: int) -> bool:
        """Whether every kept card can be founded: ``waste`` bottom to top and ``stock`` top
        first (kept cards only), ``fnd`` the eight foundation tops, ``left`` redeals left; every
        other unfounded card is free. ``False`` is a proof; out of budget the answer is
        ``True``."""
        counts = [0] * 64
        piled = [0] * 64
        for suit in range(len(SUITS)):
            up, down = fnd[suit], fnd[4 + suit]
            for rank in range(ACE, KING + 1):
                counts[suit * 16 + rank] = 2 - int(rank <= up) - int(rank >= down)
        for card in waste + stock:
            counts[card] -= 1
            piled[card] += 1
            if counts[card] < 0:
                return False  # a card that neither foundation still needs can never leave
        self.counts = counts
        self.piled = piled
        self.fnd = list(fnd)
        self.free = sum(counts)
        self.spent = 0
        if len(self.known) > LOOSE_KEPT:
            self.known = {}
        try:
            return self._clears(stock, waste, left)
        except _OutOfLoose:
            return True
        finally:
            self.nodes += self.spent

    def _wanted(self, slot: int) -> int:
        """The card the foundation ``slot`` takes next (0 when complete)."""
        top = self.fnd[slot]
        rank = top + 1 if slot < 4 else top - 1
        if rank < ACE or rank > KING:
            return 0
        return (slot & 3) * 16 + rank

    def _clears(self, stock: bytes, waste: bytes, left: int) -> bool:
        fnd = self.fnd
        counts = self.counts
        piled = self.piled
        applied: list[int] = []
        moved = True
        while moved:  # reduction 2: the free cards with no copy in the pile
            moved = False
            for slot in range(8):
                card = self._wanted(slot)
                while card and counts[card] > 0 and piled[card] == 0:
                    counts[card] -= 1
                    fnd[slot] = card & RANK
                    self.free -= 1
                    applied.append(slot << 8 | card)
                    moved = True
                    card = self._wanted(slot)
        if not self.free and not stock and not waste:
            known = True
        else:
            key = bytes(fnd) + bytes((left, len(stock))) + stock + waste
            found = self.known.get(key)
            if found is None:
                self.spent += 1
                if self.spent > self.budget:
                    raise _OutOfLoose
                known = self._moves(stock, waste, left)
                self.known[key] = known
            else:
                known = found
        for done in reversed(applied):
            card = done & 255
            counts[card] += 1
            self.free += 1
            slot = done >> 8
            fnd[slot] = fnd[slot] - 1 if slot < 4 else fnd[slot] + 1
        return known

    def _moves(self, stock: bytes, waste: bytes, left: int) -> bool:
        fnd = self.fnd
        counts = self.counts
        piled = self.piled
        if waste:
            card = waste[-1]
            for slot in (card >> 4, 4 + (card >> 4)):
                if self._wanted(slot) == card:
                    before = fnd[slot]
                    fnd[slot] = card & RANK
                    piled[card] -= 1
                    won = self._clears(stock, waste[:-1], left)
                    fnd[slot] = before
                    piled[card] += 1
                    if won:
                        return True
        for slot in range(8):
            card = self._wanted(slot)
            if card and counts[card] > 0:
                before = fnd[slot]
                fnd[slot] = card & RANK
                counts[card] -= 1
                self.free -= 1
                won = self._clears(stock, waste, left)
                fnd[slot] = before
                counts[card] += 1
                self.free += 1
                if won:
                    return True
        if stock:
            return self._clears(stock[1:], waste + stock[:1], left)
        if left > 0 and waste:
            return self._clears(waste, b"", left - 1)
        return False


def loose_clears(
    waste: bytes,
    pile: bytes,
    fnd: Sequence[int],
    left: int,
    loose: LooseGame,
    budget: int = LOOSE_ASSIGNMENTS + LOOSE_BUDGET,
    assignments: int = LOOSE_ASSIGNMENTS,
    loose_budget: int = LOOSE_BUDGET,
) -> tuple[bool, int]:
    """Whether the loose game of the kept cards (``waste`` bottom to top, ``pile`` the stock's
    kept cards top first, ``fnd`` the eight foundation tops, ``left`` redeals left; every other
    unfounded card free) can be cleared, and the positions spent: first the assignment search
    (:func:`~spielcenter.solvers.crazy_quilt_relaxed.clearable_left`, the same relaxed game,
    exact within ``assignments`` nodes: its no is a proof, and so is its yes when it ran a
    complete assignment that clears), then, if it ran out, ``loose`` (:class:`LooseGame`,
    within ``loose_budget`` positions), never more than ``budget`` positions in all. ``False``
    is a proof; out of the budgets the answer is ``True``, the benefit of the doubt."""
    known, _, nodes = loose_answer(waste, pile, fnd, left, loose, budget, assignments, loose_budget)
    return known, nodes


def loose_answer(
    waste: bytes,
    pile: bytes,
    fnd: Sequence[int],
    left: int,
    loose: LooseGame,
    budget: int = LOOSE_ASSIGNMENTS + LOOSE_BUDGET,
    assignments: int = LOOSE_ASSIGNMENTS,
    loose_budget: int = LOOSE_BUDGET,
) -> tuple[bool, bool, int]:
    """:func:`loose_clears`'s answer, whether it is a proof (a no always is; a yes when a
    search found the kept cards cleared, not when both ran out), and the positions spent."""
    known, nodes, cards_left = clearable_left(waste, pile, fnd, left, min(assignments, budget))
    proven = not known or not cards_left
    if not proven:  # out of its budget: the loose game decides exactly
        before = loose.nodes
        loose.budget = min(loose_budget, max(budget - nodes, 0))
        known = loose.clears(waste, pile, fnd, left)
        nodes += loose.nodes - before
        proven = not known or loose.spent <= loose.budget
    return known, proven, nodes


def packed_tops(fnd: Sequence[int]) -> int:
    """The eight foundation tops of ``fnd`` in one number, 4 bits each, the up ones first (the
    searches' keys and :func:`behind` read them so)."""
    tops = 0
    for top in fnd:
        tops = tops << 4 | top
    return tops


def behind(tops: int, ahead: int) -> bool:
    """Whether the foundations ``tops`` (:func:`packed_tops`) are each at or behind those of
    ``ahead``: every up top at or below, every down top at or above."""
    for slot in range(8):
        shift = 4 * (7 - slot)
        mine = tops >> shift & 15
        theirs = ahead >> shift & 15
        if mine > theirs if slot < 4 else mine < theirs:
            return False
    return True


@dataclass(frozen=True)
class WaitingProof:
    """What :func:`lost_waiting` found: the kept suits of a lost waiting game, or none."""

    suits: str
    """The kept suits (``"D"``, ``"SC"`` …) whose game is lost; empty when none is."""
    nodes: int
    """Positions the searches spent in all."""

    def __str__(self) -> str:
        names = " and ".join(SUIT_NAMES[suit] for suit in self.suits)
        return (
            f"the {names} cannot all be founded, even if every other card leaves the quilt "
            "as soon as a foundation or a card one rank away could take it"
        )


def _dropped(
    suit: int, waste: bytes, pile: bytes, fnd: tuple[int, ...]
) -> tuple[bytes, bytes, tuple[int, ...]]:
    """A loose question without the cards of ``suit``: its foundations complete, its cards
    gone from the waste and the pile."""
    after = list(fnd)
    after[suit], after[4 + suit] = KING, ACE
    return (
        bytes([code for code in waste if code >> 4 != suit]),
        bytes([code for code in pile if code >> 4 != suit]),
        tuple(after),
    )


class WaitingSearch:
    """One exhaustive search of the waiting game of a position with ``kept`` suits (indices).

    The other suits' state is two card masks (bit ``suit * 16 + rank``), plain ints that need
    no copying: ``released``, the ranks of which a copy has been released (one copy is as good
    as two: the rules ask only whether one has), and ``leaving``, the cards whose waiting ghosts
    may leave now (recomputed for a suit when a new rank of it is released). A position is
    remembered as one int: the empty cells, the eight foundation tops (4 bits each), the stock
    and the waste (each by its number among the distinct ones met), redeals left, turned.
    ``last_first`` tries the stock (or the redeal) first, then the available cards from the last
    cell, each onto the waste before a foundation, then the waste's top; otherwise the reverse.
    """

    def __init__(
        self,
        position: Position,
        kept: frozenset[int],
        budget: int,
        progress: Callable[[int], None] | None = None,
        every: int = PROGRESS_EVERY,
        last_first: bool = True,
        loose_budget: int = LOOSE_BUDGET,
        assignments: int = LOOSE_ASSIGNMENTS,
        dominance: bool = False,
        projections: int = 0,
    ) -> None:
        if position.ghosts:
            raise ValueError("the waiting game starts from a whole position, without ghosts")
        self.kept = kept
        self.kept_suits = sum(1 << suit for suit in kept)
        self.round_the_corner = position.round_the_corner
        self.cards = position.cards
        self.budget = budget
        self.nodes = 0
        self.progress = progress
        self.every = max(every, 1)
        self.report = self.every
        self.seen: set[int] = set()
        self.checks: dict[int, bool] = {}
        self.dominance = dominance
        self.projections = projections
        """Assignment nodes for each loose question of the kept suits but one, asked before
        the question of all (0: not asked). The loose game of fewer suits bounds that of more
        (a line clearing all clears the others, their cards dropped), and it is cheaper."""
        self.drawn = 0
        """Loose answers drawn from others' (:meth:`dominated`)."""
        self.projected = 0
        """Loose questions answered no by the question of fewer suits."""
        self.answers: dict[bytes, tuple[list[tuple[int, int, int]], list[tuple[int, int, int]]]]
        self.answers = {}
        """The proven loose answers for each pile: those that clear, then those that do not,
        each as (cards turned, foundation tops, redeals left) (:meth:`dominated`)."""
        self.asked: dict[tuple[bytes, int], bool] = {}
        """Every loose question asked (its pile; cards turned, foundation tops and redeals left
        in one int) and its answer, a benefit of the doubt too (a yes never drops a node)."""
        self.loose = LooseGame()
        self.last_first = last_first
        self.loose_budget = loose_budget
        self.assignments = assignments
        self.stocks: dict[bytes, int] = {}
        """Each distinct stock met, numbered."""
        self.stock_owns: list[int] = []
        """For each stock's number, the number of its kept cards (in :attr:`owns`)."""
        self.owns: dict[bytes, int] = {}
        self.own_cards: list[bytes] = []
        self.wastes: dict[bytes, int] = {}
        self.base = [(position.up[s], position.down[s]) for s in range(len(SUITS))]
        self.complete = 0
        """The ranks the other suits' loose foundations must pass to be complete."""
        for suit in range(len(SUITS)):
            if suit not in kept:
                up, down = self.base[suit]
                ranks = ((1 << (KING + 1)) - (1 << (up + 1))) | ((1 << down) - (1 << ACE))
                self.complete |= (ranks & _SUIT_RANKS) << (16 * suit)
        self.waiting = 0
        for cell, code in enumerate(position.cards):
            if code and code >> 4 not in kept and not position.gone >> cell & 1:
                self.waiting |= bit(cell)
        self.position = position

    # -- the rules ---------------------------------------------------------------------------

    def touch(self, a: int, b: int) -> bool:
        """Same suit and one rank apart (king and ace too, round the corner)."""
        return touches(a, b, self.round_the_corner)

    def may_leave(self, released: int, suit: int) -> int:
        """The cards of ``suit`` (as a card mask) whose waiting ghosts may leave once the ranks
        ``released`` are released: a loose foundation has reached a neighbouring rank (up at
        rank − 1 or higher, down at rank + 1 or lower) or a card one rank away was released."""
        shift = 16 * suit
        mine = released >> shift & _SUIT_RANKS
        up, down = self.base[suit]
        while up < KING and mine >> (up + 1) & 1:
            up += 1
        while down > ACE and mine >> (down - 1) & 1:
            down -= 1
        # up >= rank - 1 for the ranks up to up + 1; down <= rank + 1 from down - 1 on
        reach = ((1 << (up + 2)) - 1) | (_SUIT_RANKS & ~((1 << max(down - 1, 0)) - 1))
        near = mine << 1 | mine >> 1
        if self.round_the_corner:
            if mine >> KING & 1:
                near |= 1 << ACE
            if mine >> ACE & 1:
                near |= 1 << KING
        return ((reach | near) & _SUIT_RANKS) << shift

    def release(self, code: int, released: int, leaving: int) -> tuple[int, int]:
        """``released`` and ``leaving`` once ``code`` is released."""
        if released >> code & 1:
            return released, leaving
        released |= 1 << code
        suit = code >> 4
        leaving = leaving & ~(_SUIT_RANKS << (16 * suit)) | self.may_leave(released, suit)
        return released, leaving

    def settle(
        self, gone: int, free: int, waste: bytes, released: int, leaving: int
    ) -> tuple[int, int, bytes, int, int]:
        """The eager steps: release the other suits' cards on the waste (turned ones) and let
        every waiting ghost that may leave go, until none may."""
        kept = self.kept_suits
        while waste and not kept >> (waste[-1] >> 4) & 1:
            released, leaving = self.release(waste[-1], released, leaving)
            waste = waste[:-1]
        moved = True
        while moved:
            moved = False
            rest = free & self.waiting
            while rest:
                low = rest & -rest
                rest ^= low
                cell = low.bit_length() - 1
                code = self.cards[cell]
                if leaving >> code & 1:
                    released, leaving = self.release(code, released, leaving)
                    gone |= low
                    free = (free | FREES[cell]) & ~gone
                    moved = True
        return gone, free, waste, released, leaving

    # -- remembering -------------------------------------------------------------------------

    def stock_number(self, stock: bytes) -> int:
        number = self.stocks.get(stock)
        if number is None:
            number = len(self.stocks)
            self.stocks[stock] = number
            kept = self.kept_suits
            own = bytes([code for code in stock if kept >> (code >> 4) & 1])
            own_number = self.owns.get(own)
            if own_number is None:
                own_number = len(self.owns)
                self.owns[own] = own_number
                self.own_cards.append(own)
            self.stock_owns.append(own_number)
        return number

    def waste_number(self, waste: bytes) -> int:
        number = self.wastes.get(waste)
        if number is None:
            number = len(self.wastes)
            self.wastes[waste] = number
        return number

    def dead(
        self, stock: int, waste: bytes, wasted: int, fnd: tuple[int, ...], tops: int, left: int
    ) -> bool:
        """The relaxed game of the kept cards alone cannot be cleared (asked once each); the
        waste holds kept cards only."""
        own = self.stock_owns[stock]
        key = ((own << 32 | wasted) << 32 | tops) << 2 | left
        known = self.checks.get(key)
        if known is None:
            known = self.clears(waste, self.own_cards[own], fnd, left)
            self.checks[key] = known
        return not known

    def clears(self, waste: bytes, pile: bytes, fnd: tuple[int, ...], left: int) -> bool:
        """Whether the loose game of the kept cards (``waste`` bottom to top, ``pile`` the
        stock's kept cards top first, ``fnd`` the eight foundation tops, ``left`` redeals
        left) may be cleared: first, with :attr:`projections`, the question of each set of the
        kept suits but one, then that of all (:meth:`ask`). ``False`` is a proof."""
        if self.projections and len(self.kept) > 1:
            for suit in sorted(self.kept):
                if not self.ask(*_dropped(suit, waste, pile, fnd), left, self.projections):
                    self.projected += 1
                    return False
        return self.ask(waste, pile, fnd, left, self.assignments)

    def ask(
        self, waste: bytes, pile: bytes, fnd: tuple[int, ...], left: int, assignments: int
    ) -> bool:
        """The answer to a loose question: drawn from the proven answers to others
        (:meth:`dominated`) or searched (:func:`loose_answer`, within ``assignments`` nodes of
        the assignment search and :attr:`loose_budget` positions of the loose game); with
        drawing or :attr:`projections`, every answer is remembered (a benefit of the doubt too:
        a yes drops no node), the proven ones also to draw others from."""
        tops = packed_tops(fnd)
        sequence = waste + pile
        key = (sequence, (len(waste) << 40 | tops) << 2 | left)
        known = self.asked.get(key)
        if known is not None:
            return known
        known = self.dominated(sequence, len(waste), tops, left)
        if known is not None:
            self.drawn += 1
            self.asked[key] = known
            return known
        known, proven, nodes = loose_answer(
            waste,
            pile,
            fnd,
            left,
            self.loose,
            max(self.budget - self.nodes, 0),
            assignments,
            self.loose_budget,
        )
        self.nodes += nodes
        if proven and self.dominance:
            answers = self.answers.setdefault(sequence, ([], []))
            answers[0 if known else 1].append((len(waste), tops, left))
        if self.dominance or self.projections:  # else each question is asked once anyway
            self.asked[key] = known
        return known

    def dominated(self, sequence: bytes, turned: int, tops: int, left: int) -> bool | None:
        """A loose question's answer that follows from a proven answer to another question of
        the same pile (``sequence``: the waste bottom to top, then the kept stock top first),
        or ``None``. Question A *reaches* B when B's pile has at least as many cards turned,
        B's foundations are each at or ahead of A's, and A has at least as many redeals left:
        from A, turning the extra cards and founding the cards in between from the free ones
        gives B (A has a free copy of a card for each foundation that passes it in B but not
        in A, more than B has, and B's are not fewer than none unless B is lost at once), and a
        redeal left over is never needed. So a line clearing B clears A after those moves:
        B cleared proves A clearable, A not clearable proves B not clearable."""
        if not self.dominance:
            return None
        answers = self.answers.get(sequence)
        if answers is None:
            return None
        for other, other_tops, other_left in answers[1]:
            if other <= turned and other_left >= left and behind(other_tops, tops):
                return False
        for other, other_tops, other_left in answers[0]:
            if turned <= other and left >= other_left and behind(tops, other_tops):
                return True
        return None

    # -- the search ------------------------------------------------------------------------

    def start(self) -> tuple[int, int, bytes, tuple[int, ...], int, int]:
        """The first node: the empty cells, the available cells, the waste (kept cards), the
        foundation tops (the other suits' complete), ``released`` and ``leaving``."""
        position = self.position
        released = 0
        leaving = 0
        for suit in range(len(SUITS)):
            if suit not in self.kept:
                leaving |= self.may_leave(0, suit)
        fnd = list(position.up + position.down)
        for suit in range(len(SUITS)):
            if suit not in self.kept:
                fnd[suit], fnd[4 + suit] = KING, ACE
        # The other suits' cards on the waste are released at once (a card is released no
        # earlier than it could be founded, and releasing one sooner only relaxes the game).
        for code in position.waste:
            if code >> 4 not in self.kept:
                released, leaving = self.release(code, released, leaving)
        waste = bytes([code for code in position.waste if code >> 4 in self.kept])
        gone, free, waste, released, leaving = self.settle(
            position.gone, available(position.gone), waste, released, leaving
        )
        return gone, free, waste, tuple(fnd), released, leaving

    def dead_at_start(self) -> bool:
        """Whether the first node's loose game cannot be cleared (the search's first question;
        its positions count in :attr:`nodes`)."""
        _, _, waste, fnd, _, _ = self.start()
        tops = packed_tops(fnd)
        stocked = self.stock_number(self.position.stock)
        wasted = self.waste_number(waste)
        return self.dead(stocked, waste, wasted, fnd, tops, self.position.redeals_left)

    def run(self) -> Verdict:
        position = self.position
        gone, free, waste, fnd, released, leaving = self.start()
        path: list[str] = []
        try:
            won = self.search(
                gone,
                free,
                position.stock,
                waste,
                fnd,
                released,
                leaving,
                position.redeals_left,
                False,
                path,
            )
        except (OutOfBudget, RecursionError):
            return Verdict("unknown", [], self.nodes)
        return Verdict("won", path, self.nodes) if won else Verdict("lost", [], self.nodes)

    def _won(self, stock: bytes, waste: bytes, fnd: tuple[int, ...], released: int) -> bool:
        return (
            not stock
            and not waste
            and fnd == (KING,) * 4 + (ACE,) * 4
            and released & self.complete == self.complete
        )

    def _step(
        self,
        gone: int,
        free: int,
        stock: bytes,
        waste: bytes,
        fnd: tuple[int, ...],
        released: int,
        leaving: int,
        left: int,
        path: list[str],
    ) -> bool:
        gone, free, waste, released, leaving = self.settle(gone, free, waste, released, leaving)
        return self.search(gone, free, stock, waste, fnd, released, leaving, left, False, path)

    def search(
        self,
        gone: int,
        free: int,
        stock: bytes,
        waste: bytes,
        fnd: tuple[int, ...],
        released: int,
        leaving: int,
        left: int,
        turned: bool,
        path: list[str],
    ) -> bool:
        """Whether the node can be won; on success ``path`` ends with the winning line."""
        if self._won(stock, waste, fnd, released):
            return True
        # The released cards follow from the rest of the key: a card of another suit is
        # released once it is out of the quilt and out of the stock.
        tops = packed_tops(fnd)
        stocked = self.stock_number(stock)
        wasted = self.waste_number(waste)
        unturned = (((gone << 32 | tops) << 32 | stocked) << 32 | wasted) << 3 | left << 1
        if turned and unturned in self.seen:
            return False
        key = unturned | 1 if turned else unturned
        if key in self.seen:
            return False
        self.nodes += 1
        if self.nodes > self.budget:
            raise OutOfBudget
        if self.nodes >= self.report and self.progress is not None:
            self.report = self.nodes + self.every
            self.progress(self.nodes)
        self.seen.add(key)
        if self.dead(stocked, waste, wasted, fnd, tops, left):
            return False
        # the waste's top is always a kept card (the others are released at once)
        if self.last_first:
            if self._deal(gone, free, stock, waste, fnd, released, leaving, left, turned, path):
                return True
            if self._quilt(gone, free, stock, waste, fnd, released, leaving, left, turned, path):
                return True
            return self._waste(gone, free, stock, waste, fnd, released, leaving, left, path)
        if self._waste(gone, free, stock, waste, fnd, released, leaving, left, path):
            return True
        if self._quilt(gone, free, stock, waste, fnd, released, leaving, left, turned, path):
            return True
        return self._deal(gone, free, stock, waste, fnd, released, leaving, left, turned, path)

    def _waste(
        self,
        gone: int,
        free: int,
        stock: bytes,
        waste: bytes,
        fnd: tuple[int, ...],
        released: int,
        leaving: int,
        left: int,
        path: list[str],
    ) -> bool:
        """The waste's top onto a foundation."""
        if not waste:
            return False
        mark = len(path)
        top = waste[-1]
        suit, rank = top >> 4, top & RANK
        slots = ((suit, rank - 1, "wu"), (4 + suit, rank + 1, "wd"))
        for slot, want, word in reversed(slots) if self.last_first else slots:
            if fnd[slot] == want:
                path.append(word)
                after = (*fnd[:slot], rank, *fnd[slot + 1 :])
                if self._step(gone, free, stock, waste[:-1], after, released, leaving, left, path):
                    return True
                del path[mark:]
        return False

    def _quilt(
        self,
        gone: int,
        free: int,
        stock: bytes,
        waste: bytes,
        fnd: tuple[int, ...],
        released: int,
        leaving: int,
        left: int,
        turned: bool,
        path: list[str],
    ) -> bool:
        """An available kept card onto a foundation (not right after a turn: it could have
        gone before) or onto the waste."""
        mark = len(path)
        cards = self.cards
        top = waste[-1] if waste else 0
        rest = free & ~self.waiting
        while rest:
            low = 1 << (rest.bit_length() - 1) if self.last_first else rest & -rest
            rest ^= low
            cell = low.bit_length() - 1
            code = cards[cell]
            suit, rank = code >> 4, code & RANK
            emptied = gone | low
            opened = (free | FREES[cell]) & ~emptied
            onto = bool(top) and self.touch(code, top)
            if onto and self.last_first:
                path.append(CELL_NAMES[cell] + "w")
                after_waste = waste + bytes([code])
                if self._step(
                    emptied, opened, stock, after_waste, fnd, released, leaving, left, path
                ):
                    return True
                del path[mark:]
            if not turned:
                slots = ((suit, rank - 1, "u"), (4 + suit, rank + 1, "d"))
                for slot, want, word in reversed(slots) if self.last_first else slots:
                    if fnd[slot] == want:
                        path.append(CELL_NAMES[cell] + word)
                        after = (*fnd[:slot], rank, *fnd[slot + 1 :])
                        if self._step(
                            emptied, opened, stock, waste, after, released, leaving, left, path
                        ):
                            return True
                        del path[mark:]
            if onto and not self.last_first:
                path.append(CELL_NAMES[cell] + "w")
                after_waste = waste + bytes([code])
                if self._step(
                    emptied, opened, stock, after_waste, fnd, released, leaving, left, path
                ):
                    return True
                del path[mark:]
        return False

    def _deal(
        self,
        gone: int,
        free: int,
        stock: bytes,
        waste: bytes,
        fnd: tuple[int, ...],
        released: int,
        leaving: int,
        left: int,
        turned: bool,
        path: list[str],
    ) -> bool:
        """Turn cards from the stock, or redeal when it is empty."""
        if (
            stock
            and not turned
            and self.turns(gone, free, stock, waste, fnd, released, leaving, left, path)
        ):
            return True
        if not stock and left > 0:
            mark = len(path)
            path.append("r")
            if self.turns(gone, free, waste, b"", fnd, released, leaving, left - 1, path):
                return True
            del path[mark:]
        return False

    def _usable(self, top: int, free: int, fnd: tuple[int, ...]) -> bool:
        suit, rank = top >> 4, top & RANK
        if fnd[suit] == rank - 1 or fnd[4 + suit] == rank + 1:
            return True
        rest = free & ~self.waiting
        while rest:
            low = rest & -rest
            rest ^= low
            if self.touch(self.cards[low.bit_length() - 1], top):
                return True
        return False

    def turns(
        self,
        gone: int,
        free: int,
        stock: bytes,
        waste: bytes,
        fnd: tuple[int, ...],
        released: int,
        leaving: int,
        left: int,
        path: list[str],
    ) -> bool:
        """Turn k = 1, 2 … cards as one step, stopping where the new top can be used, a card
        of another suit was released (the position changed), or the stock ends."""
        mark = len(path)
        for k in range(1, len(stock) + 1):
            before = gone
            gone, free, landed, released, leaving = self.settle(
                gone, free, waste + stock[k - 1 : k], released, leaving
            )
            changed = gone != before or len(landed) == len(waste)
            waste = landed
            if changed or k == len(stock) or self._usable(waste[-1], free, fnd):
                path.extend("s" * k)
                if self.search(
                    gone,
                    free,
                    stock[k:],
                    waste,
                    fnd,
                    released,
                    leaving,
                    left,
                    not changed,
                    path,
                ):
                    return True
                del path[mark:]
        return False


def decide_waiting(
    position: Position,
    suits: str,
    node_budget: int,
    progress: Callable[[int], None] | None = None,
    every: int = PROGRESS_EVERY,
    last_first: bool = True,
    dominance: bool = False,
    projections: int = 0,
    assignments: int = LOOSE_ASSIGNMENTS,
    loose_budget: int = LOOSE_BUDGET,
) -> Verdict:
    """Decide the waiting game of ``position`` with ``suits`` kept (letters of ``SHDC``), at most
    ``node_budget`` positions. Its ``lost`` proves ``position`` lost; its ``won`` (with the
    kept cards' line, a turn for every card turned on the first pass) proves nothing of it.
    ``progress``, if given, is called with the positions so far every ``every`` positions;
    ``last_first`` picks the order of the moves, ``dominance`` whether loose answers are also
    drawn from other questions', ``projections`` the assignment nodes of each question of the
    kept suits but one (0: none asked), ``assignments`` and ``loose_budget`` the budgets of a
    loose question (:class:`WaitingSearch`)."""
    for suit in suits:
        if suit not in SUITS:
            raise ValueError(f"no suit {suit!r}; the suits are {' '.join(SUITS)}")
    kept = frozenset(SUITS.index(suit) for suit in suits)
    return WaitingSearch(
        position,
        kept,
        max(node_budget, 0),
        progress,
        every,
        last_first,
        loose_budget,
        assignments,
        dominance,
        projections,
    ).run()


def lost_waiting(position: Position, node_budget: int, sizes: Iterable[int] = (1,)) -> WaitingProof:
    """Search the waiting game of every set of ``sizes`` suits (one suit by default) until one
    is proven lost; each may spend an even share of ``node_budget`` positions."""
    sets = ["".join(kept) for size in sizes for kept in combinations(SUITS, size)]
    share = max(node_budget // max(len(sets), 1), 1)
    nodes = 0
    for suits in sets:
        verdict = decide_waiting(position, suits, share)
        nodes += verdict.nodes
        if verdict.result == "lost":
            return WaitingProof(suits, nodes)
    return WaitingProof("", nodes)


def lost_waiting_in_rounds(
    position: Position,
    node_budget: int,
    progress: Callable[[int], None] | None = None,
    every: int = PROGRESS_EVERY,
) -> WaitingProof:
    """Search the waiting games of ``position`` until one is proven lost, in four rounds within
    ``node_budget`` positions in all: first every suit with 1/:data:`FIRST_ROUND` of it, its
    moves in the first order (a won game stops early, and nearly all are won within a few
    hundred positions); then, the stock first (``last_first``: it wins what the first order
    cannot finish, classic 862 ♦ in 358 positions), the suits the first round left undecided,
    each in turn with an even share of half of what is left (the search starts again; a suit
    decided in the second round leaves the rest to the next); then the first node of each
    pair's waiting game, each in turn with half of what is left: its loose game
    (:func:`loose_clears`); last each pair's whole waiting game, each in turn with half of what
    is left, its loose answers drawn from other questions' and its single suits asked first
    (:data:`PAIR_SUITS_FIRST` assignment nodes each), the question of both within
    :data:`PAIR_ASSIGNMENTS` assignment nodes and no loose game (a question left open keeps its
    node: the benefit of the doubt). In both pair rounds the pair whose suits' first rounds
    cost the most positions comes first: a suit whose waiting game is hard to win is the one
    likeliest to jam with another (classic deals 9 ♦♣, 348 ♠♣ and 2655 ♠♣, the pairs their
    single suits' costs put first, are lost; docs/winrates-crazy-quilt.md, *Pairs in the one
    run*).

    So one costly suit gets much of the budget (classic deal 728: its diamonds are lost at
    5 083 positions, the other three suits won within a few hundred), the first pair, the
    likeliest to jam, half of the rest at its first node (classic deal 9: its diamonds and
    clubs are lost at the first node, whose loose game needs 20 863 positions) and then in its
    whole game (classic deal 348: its spades and clubs, 28 676 positions). ``progress`` is
    passed to every search (it may stop one by raising
    :class:`~spielcenter.solvers.verdict.OutOfBudget`: that search answers ``unknown``)."""
    budget = max(node_budget, 0)
    nodes = 0
    undecided: list[str] = []
    cost: dict[str, int] = {}
    for suits in SUITS:
        verdict = decide_waiting(
            position, suits, budget // FIRST_ROUND, progress, every, last_first=False
        )
        nodes += verdict.nodes
        cost[suits] = verdict.nodes
        if verdict.result == "lost":
            return WaitingProof(suits, nodes)
        if verdict.result == "unknown":
            undecided.append(suits)
    second = (budget - nodes) // 2
    spent = 0
    for index, suits in enumerate(undecided):
        share = (second - spent) // (len(undecided) - index)
        verdict = decide_waiting(position, suits, max(share, 0), progress, every)
        nodes += verdict.nodes
        spent += verdict.nodes
        if verdict.result == "lost":
            return WaitingProof(suits, nodes)

    def costliest_first(pair: str) -> int:
        return -(cost[pair[0]] + cost[pair[1]])

    pairs = sorted(("".join(pair) for pair in combinations(SUITS, 2)), key=costliest_first)
    for suits in pairs:
        kept = frozenset(SUITS.index(suit) for suit in suits)
        first = WaitingSearch(position, kept, (budget - nodes) // 2)
        lost = first.dead_at_start()
        nodes += first.nodes
        if lost:
            return WaitingProof(suits, nodes)
    for suits in pairs:
        verdict = decide_waiting(
            position,
            suits,
            max((budget - nodes) // 2, 0),
            progress,
            every,
            dominance=True,
            projections=PAIR_SUITS_FIRST,
            assignments=PAIR_ASSIGNMENTS,
            loose_budget=0,
        )
        nodes += verdict.nodes
        if verdict.result == "lost":
            return WaitingProof(suits, nodes)
    return WaitingProof("", nodes)
