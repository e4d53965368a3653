"""The Cruel solver: decides whether a Cruel position can be won, in all three variants.

:func:`solve` runs an exhaustive depth-first search over the positions reachable from a deal or
an engine state. It returns a winning line in the engine's move notation (every line replays
through :mod:`spielcenter.games.cruel`), proves that none exists (``lost`` is only answered when a
search covered the whole reachable space), or gives up when its budget is spent (``unknown``).

What makes it exact and fast (each reduction is proven sound in ``docs/winrates.md``):

* **A compact position.** Cards are small integers ``suit * 16 + rank``, so the card a card may
  be built on is simply ``card + 1`` (a king's ``+ 1`` is no card); piles are ``bytes``.
* **Transpositions.** Every position is searched once. The key is the list of non-empty piles in
  order: an empty pile never takes a card and adds nothing to a redeal, so where gaps lie does not
  matter. Whether a card moved since the last deal is not in the key: a redeal is only searched
  when it changes the layout, which implies that a card moved (the start position's flag is kept).
* **Forced foundation moves**, made without branching only where they cannot spoil anything (a
  foundation move can hurt in Cruel: every card on the layout takes a place in the next redeal):
  in the variant "stuck" (the card can move until it is gone, so it goes up before any redeal),
  once no redeal is left, and for the last card of the packet when the cards before it, down to
  its king, are its own suit in order.
* **The last phase of Perseverance without branching**: once no redeal is left, every building
  move is safe too (:func:`_any_build`), so that phase is a single playout.
* **Merging two piles is useless** (classic): a lone card built on the top card of the pile just
  before it leaves the packet unchanged; the finer split dominates, so such moves are skipped.
* **Dead positions.** A card that can never move covers the cards beneath it for good. Among the
  bottom four cards of the first pile (they keep their places through every redeal), and in every
  pile once no redeal is left, a card above a lower card of its suit that cannot be built anywhere
  makes the position lost; after a deal, a frozen start of the packet (up to 16 cards, each pile
  top among them unable to move or to take a card) does too. With single cards the start may
  take cards (chains ``Y−1, Y−2, …`` built onto a top ``Y``): it is frozen when every card of it
  that lies on top for some length of the chains cannot move (:func:`_prefix_frozen_with_chains`).
  In classic, when the first trial cannot decide a position, the start of the packet is also
  played as a game of its own against a rest of the layout that may do anything the rules could
  ever allow (:func:`_start_never_clears`): if even then the start can never clear, it is lost.
* **Move orders.** Short trials in three move orders (foundation moves first; the redeal first;
  reversed), then one long search in the first order. In classic, four short best-first trials
  come in between (:meth:`_Search.best_first`: the open position that looks closest to a win is
  expanded next, by four measures of closeness); they find most of the hard classic wins, which
  the depth-first orders miss. Any search that runs to its end decides the position. In classic
  and Perseverance no position can come back, so each depth-first search starts from the
  positions the earlier ones searched to the end (they are lost); "stuck" has loops and starts
  afresh.

The search is pure: no clock unless a ``time_budget`` is given, no I/O, no randomness.
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Final, Literal

from spielcenter.games.cards import KING, SUITS, Card
from spielcenter.games.cruel import VARIANTS, CruelState, make
from spielcenter.games.shuffle import check_deal

Result = Literal["won", "lost", "unknown"]

DEFAULT_NODE_BUDGET: Final = 2_000_000
"""Positions searched before :func:`solve` answers ``unknown`` (a few seconds to a minute)."""

_PILES: Final = 12
_PILE_SIZE: Final = 4
_UNLIMITED: Final = 1 << 30
_SEP: Final = b"\x00"
_RANK: Final = 15  # card & _RANK is the rank; card >> 4 the suit index
_FULL: Final = bytes([_PILE_SIZE] * _PILES)
_STARTS: Final = range(0, _PILE_SIZE * _PILES, _PILE_SIZE)


@dataclass(frozen=True)
class Verdict:
    """What the solver found: ``won`` (with a winning line), ``lost`` (proven) or ``unknown``."""

    result: Result
    moves: list[str] = field(default_factory=list)
    """The winning line in move notation (``3f``, ``3>7``, ``r``); empty unless ``won``."""
    nodes: int = 0
    """Positions searched."""
    proof: str = ""
    """How ``lost`` was proven when not by searching the whole game (Crazy Quilt's suits alone,
    :mod:`spielcenter.solvers.crazy_quilt_suits`); empty otherwise."""


class _OutOfBudget(Exception):
    """The node or time budget is spent."""


def encode_card(card: Card) -> int:
    """The solver's integer for ``card``: suit index (``S H D C``) times 16 plus rank."""
    return SUITS.index(card.suit) * 16 + card.rank


def decode_card(code: int) -> Card:
    """The card of a solver integer (inverse of :func:`encode_card`)."""
    return Card(code & _RANK, SUITS[code >> 4])


# -- the rules, on the compact position ------------------------------------------------------------
#
# A position is (piles, foundations, redeals left). piles: 12 bytes objects, bottom card first;
# foundations: the top rank per suit. A move is (source, target, cards): target -1 is the
# foundation, source -1 the redeal.

Piles = tuple[bytes, ...]
Foundations = tuple[int, int, int, int]
Move = tuple[int, int, int]
_REDEAL: Final[Move] = (-1, -1, 0)
_ALL: Final = -1
_NONE: Final = -2

# Move orders. No single order finds every win quickly, so :func:`solve` runs a small portfolio.
_UPS_FIRST: Final = 0  # foundation moves, building moves, the redeal
_REDEAL_FIRST: Final = 1  # the redeal, foundation moves, building moves
# the redeal, building moves from the last pile, foundation moves from the last
_REVERSED: Final = 2
# Best-first trials (classic): the open position that looks closest to a win is expanded next.
# They find most of the hard classic wins that every depth-first order misses (a depth-first
# search stays in the first redeals' huge space), each with its own idea of "close".
_FEWEST_CARDS: Final = 3  # fewest cards left on the layout
# fewest cards left, a card lying on its next-higher card counting a quarter less
_MOST_BUILT: Final = 4
# fewest cards left, a card above a lower card of its suit counting half more
_LEAST_BLOCKED: Final = 5
_FEWEST_CARDS_NEWEST: Final = 6  # fewest cards left, the newest position first among equals
_BEST_FIRST: Final = (_FEWEST_CARDS, _MOST_BUILT, _LEAST_BLOCKED, _FEWEST_CARDS_NEWEST)
_TRIALS: Final = ((_UPS_FIRST, 100), (_REDEAL_FIRST, 5), (_REVERSED, 4))
"""The short trials before the final search: (order, 1 / share of the node budget)."""
_CLASSIC_TRIALS = (
    (_UPS_FIRST, 100),
    (_FEWEST_CARDS, 25),
    (_MOST_BUILT, 25),
    (_LEAST_BLOCKED, 50),
    (_FEWEST_CARDS_NEWEST, 50),
    (_REDEAL_FIRST, 5),
    (_REVERSED, 3),
)
"""Classic's trials: the depth-first ones, and between them the best-first ones with 12 % of the
budget (they find their wins within a few thousand positions or not at all). The reversed trial
gets a third: with the time limit it finds some wins only after 2.5 s (deal 7718), while the
final search (the one that proves the losses too big for a trial) found no classic win of deals
1..10 000 that the trials miss when it had 54 % of the budget rather than 36 %."""


def _is_dealt(piles: Piles) -> bool:
    """Whether the piles are as a deal of their packet leaves them, gaps aside: every pile with
    cards holds four, but the last one. A redeal of such piles changes nothing."""
    sizes = bytes(map(len, piles)).replace(b"\x00", b"")
    return not sizes or (sizes[-1] <= _PILE_SIZE and sizes[:-1] == _FULL[: len(sizes) - 1])


def _key(piles: Piles) -> bytes:
    return _SEP.join(filter(None, piles))


def _redealt(piles: Piles) -> Piles:
    packet = b"".join(piles)
    return tuple([packet[start : start + _PILE_SIZE] for start in _STARTS])


def _to_foundation(piles: Piles, fnd: Foundations, source: int) -> tuple[Piles, Foundations]:
    pile = piles[source]
    card = pile[-1]
    ranks = list(fnd)
    ranks[card >> 4] = card & _RANK
    new = list(piles)
    new[source] = pile[:-1]
    return tuple(new), (ranks[0], ranks[1], ranks[2], ranks[3])


def _build(piles: Piles, source: int, target: int, cards: int) -> Piles:
    new = list(piles)
    pile = piles[source]
    new[source] = pile[:-cards]
    new[target] = piles[target] + pile[-cards:]
    return tuple(new)


def _notation(move: Move) -> str:
    source, target, _ = move
    if source < 0:
        return "r"
    if target < 0:
        return f"{source + 1}f"
    return f"{source + 1}>{target + 1}"


def _last_pile(piles: Piles) -> int:
    for index in range(_PILES - 1, -1, -1):
        if piles[index]:
            return index
    return -1


def _tail_is_safe(piles: Piles, last: int) -> bool:
    """Whether the last card of the packet, if it can go up, is safe to send up at once.

    True when the packet ends K, Q, … down to that card, all of one suit: nothing but the card's
    predecessor (already on the foundation) can ever be put after it, the king never moves before
    it goes up, and each card of the run can only ever be built on the card just before it in the
    packet, so the run stays at the end of the packet and every other card keeps its place in every
    redeal. Without the card the position can do all that it could do with it.
    """
    card = piles[last][-1]
    want = card + 1
    index, height = last, len(piles[last]) - 1
    while (want & _RANK) <= KING:
        height -= 1
        while height < 0:
            index -= 1
            if index < 0:
                return False
            height = len(piles[index]) - 1
        if piles[index][height] != want:
            return False
        want += 1
    return True


def _pile_dead(pile: bytes, depth: int, runs: bool) -> bool:
    """Whether one of the bottom ``depth`` cards of ``pile`` can never move while the cards
    beneath it stay put: a lower card of its suit lies beneath it (so it cannot go up), and it
    cannot be built anywhere: it is a king, or its next-higher card lies beneath it. With runs
    (Perseverance) the card may also move as part of the run it tops, so this must hold for the
    run's lowest card: the run lies on the next-higher card's place only if that card is beneath.
    """
    lowest = [64, 64, 64, 64]  # the lowest card of each suit seen so far, going up the pile
    bottom = 0  # where the descending run that ends at the current card starts
    for height in range(min(len(pile), depth)):
        card = pile[height]
        suit = card >> 4
        if not (runs and height and pile[height - 1] == card + 1):
            bottom = height
        base = pile[bottom]
        if lowest[suit] < card and ((base & _RANK) == KING or base + 1 in pile[:bottom]):
            return True
        if card < lowest[suit]:
            lowest[suit] = card
    return False


def _first_pile_dead(piles: Piles, runs: bool) -> bool:
    """A card stuck for good among the bottom four of the first pile: those four cards are the
    first four of the packet, and nothing can come beneath them, so every redeal deals them to
    pile 1 again, in the same order."""
    for pile in piles:
        if pile:
            return _pile_dead(pile, _PILE_SIZE, runs)
    return False


def _frozen_prefix(packet: bytes, runs: bool, longest: int = 16) -> bool:
    """Whether the first ``m`` cards of a freshly dealt ``packet`` can never move (for some
    ``m`` up to ``longest``): then they never reach the foundations and the position is lost."""
    if not runs:
        # A pile top of the deal that nothing among the first ``longest`` cards blocks lies on
        # top while no chain comes in, so no prefix that holds it can be frozen.
        start = packet[:longest]
        for index in range(_PILE_SIZE - 1, len(start) - 1, _PILE_SIZE):
            card = start[index]
            if not _blocked_by(start, card) or (
                (card & _RANK) != KING and start.find(card + 1) < 0
            ):
                longest = index
                break
    lowest = [64, 64, 64, 64]  # the lowest card of each suit among the first m - 1
    before = bytearray(64)  # which cards are among the first m - 1
    for m in range(1, min(len(packet), longest) + 1):
        # Cheap necessary conditions on the last card of the prefix before the full test: a
        # lower card of its suit before it, and (single cards) it is a king or its target is.
        card = packet[m - 1]
        suit = card >> 4
        candidate = lowest[suit] < card and (
            runs or (card & _RANK) == KING or before[card + 1] == 1
        )
        if card < lowest[suit]:
            lowest[suit] = card
        before[card] = 1
        if candidate and (
            _prefix_frozen(packet, m, runs)
            if runs
            else _prefix_frozen_with_chains(packet, m, lowest, before)
        ):
            return True
    return False


def _prefix_frozen_with_chains(packet: bytes, m: int, lowest: list[int], among: bytearray) -> bool:
    """Whether the first ``m`` cards of a freshly dealt ``packet`` are frozen for good, even
    though cards from elsewhere may be built into them (single cards: classic and "stuck").

    Suppose one of the ``m`` moves for the first time. Until then they keep their order, and the
    only cards that come between them are *chains*: a card ``Y`` of the ``m`` that lies on top
    can take ``Y−1``, which can take ``Y−2`` and so on (never a card of the ``m``, which would be
    a move of one of them); such a chain stays right after ``Y`` until its cards go up. So at
    every deal card ``i`` of the ``m`` lies at place ``i`` plus the lengths of the chains before
    it, and it lies on top only if the next of the ``m`` went to another pile. The cards that can
    ever lie on top are found by a fixpoint over every combination of chain lengths (from 0 up to
    the longest chain that the layout holds; only the places modulo 4 matter). Each of them must
    be unable to move: a lower card of its suit is among the ``m`` (so it cannot go up), and it
    is a king or its next-higher card is among the ``m`` at a place that never lies on top.
    ``lowest`` holds the lowest card of each suit among the ``m``, ``among`` marks their cards.
    """
    prefix = packet[:m]
    # A cheap necessary condition first: with no chain at all, the last of the m and the tops of
    # the piles as dealt lie on top, so each needs a lower card of its suit and a target among
    # the m (or to be a king).
    for index in (*range(_PILE_SIZE - 1, m - 1, _PILE_SIZE), m - 1):
        card = prefix[index]
        if lowest[card >> 4] >= card or ((card & _RANK) != KING and not among[card + 1]):
            return False
    on_top = [False] * m
    on_top[-1] = True  # the cards after the last of the m may all leave
    grown = True
    while grown:
        shifts = 1  # bit s: the chains so far can add up to s modulo 4
        grown = False
        for index in range(m - 1):
            if not on_top[index]:
                if shifts >> ((_PILE_SIZE - 1 - index) % _PILE_SIZE) & 1:
                    on_top[index] = grown = True
                continue
            spread = shifts
            for extra in range(1, _longest_chain(packet, among, prefix[index]) + 1):
                spread |= ((shifts << extra) | (shifts >> (_PILE_SIZE - extra))) & 15
            shifts = spread
    for index, card in enumerate(prefix):
        if not on_top[index]:
            continue
        target = prefix.find(card + 1)
        if lowest[card >> 4] >= card or ((card & _RANK) != KING and (target < 0 or on_top[target])):
            return False
    return True


def _longest_chain(packet: bytes, among: bytearray, card: int) -> int:
    """How many cards ``card−1, card−2, …`` lie on the layout (``packet``) and are not marked in
    ``among``, at most 3 (more changes no place modulo 4): the longest chain it can take."""
    length, below = 0, card - 1
    while length < _PILE_SIZE - 1 and below & _RANK and not among[below] and below in packet:
        length, below = length + 1, below - 1
    return length


def _blocked_by(cards: bytes, card: int) -> bool:
    """Whether a lower card of ``card``'s suit is among ``cards`` (so it cannot go up first)."""
    suit_base = card & ~_RANK
    return any(suit_base < other < card for other in cards)


def _prefix_frozen(packet: bytes, m: int, runs: bool) -> bool:
    """Whether the first ``m`` cards of a freshly dealt ``packet`` are frozen for good.

    Suppose one of them moves for the first time. Until then they keep their places in the packet,
    so every deal puts them into the same piles; the card that moves lies on top (a pile's top
    card, or the last of the ``m`` once the cards above it have gone). Each such card is shown
    unable to move: a lower card of its suit is among the ``m`` (so it cannot go up), and the card
    it would be built on (for a run in Perseverance, the card above the run's lowest card) is among
    the ``m`` but covered (or it is a king). No card can be put onto a covered place either, and a
    pile top among the ``m`` takes no card because the one card that fits is among the ``m``.
    """
    prefix = packet[:m]
    last = m - 1
    for index in range(m):
        if index % _PILE_SIZE != _PILE_SIZE - 1 and index != last:
            continue  # covered by the next card of the prefix in the same pile
        card = prefix[index]
        suit_base = card & ~_RANK
        if not any(suit_base < other < card for other in prefix):
            return False
        bottom = index
        if runs:
            while bottom % _PILE_SIZE and prefix[bottom - 1] == prefix[bottom] + 1:
                bottom -= 1
        base = prefix[bottom]
        if (base & _RANK) != KING:
            under = prefix.find(base + 1)
            if under < 0 or under % _PILE_SIZE == _PILE_SIZE - 1 or under == last:
                return False
        if index != last and card - 1 not in prefix:
            return False
    return True


_START_LIMIT: Final = 30_000
"""Abstract positions that :func:`_start_never_clears` may visit, over all its starts together
(about 0.3 s): the ten deals of 1..10 000 it decides need 400 to 11 000."""


def _start_never_clears(
    piles: Piles,
    fnd: Foundations,
    longest: int = 16,
    expired: Callable[[], bool] | None = None,
) -> bool:
    """Whether the start of the packet (its first ``m`` cards, ``m ≤ longest``) can provably never
    leave the layout, whatever the rest of the layout does: then the position is lost.

    For each ``m`` in turn, :func:`_start_can_clear` searches every way the start can develop
    while the rest of the layout is imagined to do anything the rules could ever allow it. A
    start that can clear passes on to the next ``m``; the first that never clears proves the
    loss; when the shared limit is spent, or ``expired()`` (asked before each ``m`` and every
    256 abstract positions) says the time is up, the answer is ``False`` (not proven).
    """
    total = sum(map(len, piles))
    budget = [_START_LIMIT]
    for m in range(1, min(longest, total) + 1):
        if expired is not None and expired():
            return False
        clears = _start_can_clear(_start_of(piles, m), fnd, budget, expired)
        if clears is None:
            return False
        if not clears:
            return True
    return False


def _start_of(piles: Piles, m: int) -> Piles:
    """The first ``m`` cards of the packet, split as the layout splits them (gaps dropped)."""
    start: list[bytes] = []
    for pile in piles:
        if m <= 0:
            break
        if pile:
            start.append(pile[:m])
            m -= len(pile)
    return tuple(start)


def _start_can_clear(
    start: Piles,
    fnd: Foundations,
    budget: list[int],
    expired: Callable[[], bool] | None = None,
) -> bool | None:
    """Whether the cards of ``start`` (the first cards of the packet, in the layout's piles) can
    all leave it in the abstraction of :func:`_start_moves`; ``None`` once ``budget[0]`` abstract
    positions are spent or ``expired()`` (asked every 256) says the time is up. ``False`` is a
    proof that the real position is lost.

    The abstraction follows only the start of the packet and lets the rest of the layout do
    anything: each real line maps onto an abstract line (docs/winrates.md, *The start of the
    packet as a game of its own*), and a won line clears the start, so if no abstract line
    clears it, no real line wins.
    """
    seen = {bytes(fnd) + _key(start)}
    todo = [(start, fnd)]
    while todo:
        here, here_fnd = todo.pop()
        for child, child_fnd in _start_moves(here, here_fnd):
            if not child:
                return True
            key = bytes(child_fnd) + _key(child)
            if key in seen:
                continue
            if budget[0] <= 0 or (expired is not None and budget[0] & 255 == 0 and expired()):
                return None
            budget[0] -= 1
            seen.add(key)
            todo.append((child, child_fnd))
    return False


def _start_moves(start: Piles, fnd: Foundations) -> list[tuple[Piles, Foundations]]:
    """Every abstract successor of the start of the packet (its piles, ``fnd`` a lower bound of
    the foundations). Each pile's last card counts as a top (in the last pile the real top may
    be a card of the rest, which may leave at any time). A top ``Z`` may go up when no lower
    card of its suit is in the start (the lower ones elsewhere may all be up); it may be built
    onto ``Z+1`` when that is a top of the start, or leave the start for ``Z+1`` elsewhere when
    ``Z+1`` is not in it; ``Z−1`` may come in from elsewhere when it is not in the start and not
    up; and the start may be dealt again in fours (it stays the start of the packet).
    """
    cards = b"".join(start)
    tops = {pile[-1]: index for index, pile in enumerate(start)}
    found: list[tuple[Piles, Foundations]] = []
    for index, pile in enumerate(start):
        card = pile[-1]
        suit = card >> 4
        rest = list(start)
        rest[index] = pile[:-1]
        if not _blocked_by(cards, card):
            ranks = list(fnd)
            ranks[suit] = card & _RANK
            found.append((_nonempty(rest), (ranks[0], ranks[1], ranks[2], ranks[3])))
        if (card & _RANK) != KING:
            target = tops.get(card + 1)
            if target is not None:
                rest[target] = start[target] + pile[-1:]
                found.append((_nonempty(rest), fnd))
            elif card + 1 not in cards:
                found.append((_nonempty(rest), fnd))
        below = card - 1
        if (below & _RANK) > max(fnd[suit], 1) and below not in cards:
            grown = list(start)
            grown[index] = pile + bytes((below,))
            found.append((tuple(grown), fnd))
    found.append(
        (tuple(cards[at : at + _PILE_SIZE] for at in range(0, len(cards), _PILE_SIZE)), fnd)
    )
    return found


def _nonempty(piles: list[bytes]) -> Piles:
    return tuple(pile for pile in piles if pile)


def _any_build(piles: Piles, runs: bool) -> Move | None:
    """The first building move of the layout (pile by pile), or ``None`` if there is none.

    Used in Perseverance once no redeal is left, where every building move is safe: the run
    lands on the next-higher card of its lowest card, the one place it could ever be built;
    nothing else can be built on that card; the card still goes up from there when its turn
    comes (the cards on it are lower, so they go up first), and the longer run it now forms with
    its target moves wherever the target alone could have moved. Uncovering the card beneath
    only adds moves, and without a redeal no move depends on where a card lies in the packet.
    So any winning line from before the move can be replayed after it, and the last phase needs
    no branching at all. (With single cards this is false: the target could no longer leave
    from under the card, so classic and "stuck" never call this.)
    """
    tops = {pile[-1]: index for index, pile in enumerate(piles) if pile}
    for index, pile in enumerate(piles):
        if not pile:
            continue
        cards = 1
        if runs:
            while cards < len(pile) and pile[-cards - 1] == pile[-cards] + 1:
                cards += 1
        target = tops.get(pile[-cards] + 1)
        if target is not None:
            return (index, target, cards)
    return None


class _Frame:
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
class _Search:
    """One exhaustive search; ``runs`` and ``stuck`` select the variant's rules."""

    runs: bool
    stuck: bool
    budget: int
    coarse_prune: bool = False
    order: int = 0
    """Which move order to try: :data:`_UPS_FIRST`, :data:`_REDEAL_FIRST` or :data:`_REVERSED`."""
    clock: Callable[[], float] | None = None
    deadline: float = 0.0
    nodes: int = 0
    seen: set[bytes] = field(default_factory=set)
    stack: list[_Frame] = field(default_factory=list)

    def finished(self) -> set[bytes]:
        """After an interrupted run: the positions searched to the end (all but the path).

        Made from ``seen`` in place: the path is short, while copying ``seen`` (up to a million
        positions) would take a noticeable part of a time budget."""
        self.seen.difference_update(frame.key for frame in self.stack)
        return self.seen

    def _force(
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
                last = _last_pile(piles)
                if last >= 0:
                    card = piles[last][-1]
                    if fnd[card >> 4] == (card & _RANK) - 1 and _tail_is_safe(piles, last):
                        source = last
            if source < 0 and left == 0 and self.runs:
                build = _any_build(piles, self.runs)
                if build is not None:
                    source, target, cards = build
                    piles = _build(piles, source, target, cards)
                    path.append(f"{source + 1}>{target + 1}")
                    changed = True
                    continue
            if source < 0:
                return (piles, fnd) if changed else None
            piles, fnd = _to_foundation(piles, fnd, source)
            path.append(f"{source + 1}f")
            changed = True

    def _count(self) -> None:
        """Count a new position, or stop when the budget is spent. Called before the position
        joins ``seen``: every position in ``seen`` but off the path was searched to the end."""
        if self.nodes >= self.budget:
            raise _OutOfBudget
        self.nodes += 1
        # The clock is read at the first position and every 128 after (a few milliseconds of
        # search; a reading costs well under 0.1 %), so that a search whose time is up stops at
        # once and one that runs out stops within a few milliseconds of its deadline.
        if self.clock is not None and self.nodes & 127 == 1 and self.clock() >= self.deadline:
            raise _OutOfBudget

    def _play_out(
        self, piles: Piles, fnd: Foundations, path: list[str], touched: int
    ) -> bool | None:
        """Perseverance with no redeal left: every move is forced (:func:`_any_build`), so the
        position is won exactly when playing every move out clears the layout. ``True`` if it
        does; ``None`` otherwise. A playout counts as one position; one met before is not
        played out again, and a stuck card spares the playout."""
        before = b"\x00" + _key(piles)
        if before in self.seen:
            return None
        self._count()
        if not self._dead(piles, 0, touched):
            forced = self._force(piles, fnd, 0, path)
            if forced is not None and not any(forced[0]):
                return True
        self.seen.add(before)
        return None

    def _dead(self, piles: Piles, left: int, touched: int) -> bool:
        """Whether the position is provably lost. ``touched`` is the pile that got cards
        (``_ALL`` after a deal or at the start, ``_NONE`` after a foundation move): a pile that
        only lost cards cannot hold a new stuck card."""
        if _first_pile_dead(piles, self.runs):
            return True
        if touched == _ALL and left == 0:
            return any(_pile_dead(pile, len(pile), self.runs) for pile in piles)
        return (
            left == 0
            and touched >= 0
            and _pile_dead(piles[touched], len(piles[touched]), self.runs)
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
            left > 0 and not fresh and not (self.stuck and (ups or builds)) and not _is_dealt(piles)
        )
        if self.order != _REDEAL_FIRST and self.order != _REVERSED:  # best-first ones too
            return ups + builds + [_REDEAL] if redeal else ups + builds
        if self.order == _REDEAL_FIRST:
            return [_REDEAL, *ups, *builds] if redeal else ups + builds
        builds.reverse()
        ups.reverse()
        return [_REDEAL, *builds, *ups] if redeal else builds + ups

    def _visit(
        self,
        piles: Piles,
        fnd: Foundations,
        left: int,
        fresh: bool,
        path: list[str],
        touched: int,
    ) -> bool | _Frame | None:
        """Enter a position: ``True`` if won, ``None`` if nothing to search, else its frame."""
        if left == 0 and self.runs:
            return self._play_out(piles, fnd, path, touched)
        dealt = piles if touched == _ALL and left != 0 and _is_dealt(piles) else None
        forced = self._force(piles, fnd, left, path)
        if forced is not None:
            (piles, fnd), fresh = forced, False
        if not any(piles):
            return True
        key = _key(piles)
        if left != _UNLIMITED:
            key = bytes((left,)) + key
        if key in self.seen:
            return None
        self._count()
        self.seen.add(key)
        if self._dead(piles, left, touched):
            return None
        if dealt is not None and _frozen_prefix(b"".join(dealt), self.runs):
            return None
        moves = self._moves(piles, fnd, left, fresh)
        if not moves:
            return None
        return _Frame(piles, fnd, left, moves, len(path), key)

    def _enter(
        self, piles: Piles, fnd: Foundations, left: int, fresh: bool
    ) -> tuple[list[str], _Frame] | list[str] | None:
        """Enter the start position: its winning line if its forced moves win it, ``None`` if
        there is nothing to search, else the line so far (its forced moves) and its frame."""
        path: list[str] = []
        entered = self._visit(piles, fnd, left, fresh, path, _ALL)
        if entered is True:
            return path
        return (path, entered) if isinstance(entered, _Frame) else None

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
            path.append(_notation(move))
            entered = self._visit(*_child(frame, move), False, path, _touched(move))
            if entered is True:
                return path
            if isinstance(entered, _Frame):
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
        sign = -1 if self.order == _FEWEST_CARDS_NEWEST else 1
        heap = [(_closeness(root.piles, self.order), 0, root)]
        while heap:
            _, tag, frame = heapq.heappop(heap)
            parent = tag * sign
            for move in frame.moves:
                segment = [_notation(move)]
                entered = self._visit(*_child(frame, move), False, segment, _touched(move))
                if entered is True:
                    return _line(links, parent) + segment
                if isinstance(entered, _Frame):
                    links.append((parent, segment))
                    number = len(links) - 1
                    closeness = _closeness(entered.piles, self.order)
                    heapq.heappush(heap, (closeness, number * sign, entered))
        return None


def _child(frame: _Frame, move: Move) -> tuple[Piles, Foundations, int]:
    """The position after ``move`` (before its forced moves): piles, foundations, redeals left."""
    here, fnd, left = frame.piles, frame.fnd, frame.left
    source, target, cards = move
    if source < 0:
        return _redealt(here), fnd, left if left == _UNLIMITED else left - 1
    if target < 0:
        child, child_fnd = _to_foundation(here, fnd, source)
        return child, child_fnd, left
    return _build(here, source, target, cards), fnd, left


def _touched(move: Move) -> int:
    """The pile that gets cards by ``move``: ``_ALL`` for a redeal, ``_NONE`` when none does."""
    source, target, _ = move
    if source < 0:
        return _ALL
    return _NONE if target < 0 else target


def _line(links: list[tuple[int, list[str]]], number: int) -> list[str]:
    """The moves from the start to the open position ``number`` of a best-first search."""
    segments: list[list[str]] = []
    while number >= 0:
        number, segment = links[number]
        segments.append(segment)
    return [move for segment in reversed(segments) for move in segment]


def _closeness(piles: Piles, order: int) -> int:
    """How far the layout looks from a win for the best-first ``order`` (smaller is closer).

    Every measure counts the cards left first. :data:`_MOST_BUILT` counts a card lying on its
    next-higher card a quarter less (it will go up right after that card); :data:`_LEAST_BLOCKED`
    counts a card above a lower card of its suit in its pile half more (it must leave the pile
    before the lower card can go up).
    """
    cards = 0
    extra = 0
    for pile in piles:
        cards += len(pile)
        if order == _MOST_BUILT:
            extra -= sum(1 for below, above in pairwise(pile) if above + 1 == below)
        elif order == _LEAST_BLOCKED:
            lowest = [64, 64, 64, 64]
            for card in pile:
                if lowest[card >> 4] < card:
                    extra += 1
                else:
                    lowest[card >> 4] = card
    if order == _MOST_BUILT:
        return 4 * cards + extra
    if order == _LEAST_BLOCKED:
        return 2 * cards + extra
    return cards


# -- the public face ---------------------------------------------------------------------------


def deal_position(deal: int, variant: str = "classic") -> CruelState:
    """The start of ``deal`` (the engine's own start position)."""
    check_deal(deal)
    return make(variant).start(deal)


def solve(
    position: int | CruelState,
    variant: str | None = None,
    *,
    node_budget: int = DEFAULT_NODE_BUDGET,
    time_budget: float | None = None,
) -> Verdict:
    """Decide the Cruel ``position`` (a deal number or an engine state).

    ``variant`` defaults to the state's own variant, or ``classic`` for a deal number; it must
    match the state's. The search stops with ``unknown`` after ``node_budget`` positions or,
    if given, ``time_budget`` seconds (the only use of a clock, and only when asked).
    ``lost`` means the whole reachable space was searched without finding a win.

    Both budgets are shared by the trials and the final search (see :data:`_TRIALS` and
    :data:`_CLASSIC_TRIALS`);
    ``nodes`` in the verdict counts the positions of all of them. With a time budget the call
    returns within it: the searches stop a small margin before its end (:data:`_TIME_MARGIN`),
    and every step between them checks the time.
    """
    clock = _Clock(time_budget) if time_budget is not None else None
    state = _start_state(position, variant)
    game = make(state.variant)
    piles = tuple(bytes(encode_card(card) for card in pile) for pile in state.piles)
    left = game.redeals_left(state)
    root = (piles, state.foundations, _UNLIMITED if left is None else left, not state.moved)
    # A few short trials in different move orders (in classic also best-first ones) find most
    # hard wins; then one long search in the first order. Any search that runs to its end
    # decides: the pruning rules are properties of the positions, not of the order.
    budget = max(node_budget, 0)
    trials = _CLASSIC_TRIALS if state.variant == "classic" else _TRIALS
    schedule = [(order, budget // share) for order, share in trials if budget >= 4 * share]
    schedule.append((_UPS_FIRST, -1))
    # In Perseverance and in classic no position can come back (docs/winrates.md, "Proofs carry
    # over"), so a position searched to the end without a win is lost, whatever the move order:
    # later searches start from what earlier ones proved. Not in "stuck", which has loops.
    proven: set[bytes] = set()
    nodes = 0
    for order, share in schedule:
        if clock is not None and clock.expired():
            break  # the work between the trials counts against the time too
        final = share < 0
        best_first = order in _BEST_FIRST
        search = _Search(
            # A depth-first search extends the proven positions in place (copying a million
            # of them takes time); a best-first one adds open positions, so it gets a copy.
            seen=set() if state.variant == "stuck" else set(proven) if best_first else proven,
            runs=game.moves_runs,
            stuck=state.variant == "stuck",
            budget=budget - nodes if final else share,
            coarse_prune=state.variant == "classic",
            order=order,
        )
        if clock is not None:
            search.clock = time.monotonic
            search.deadline = clock.deadline if final else clock.share(share / budget)
        try:
            line = search.best_first(*root) if best_first else search.run(*root)
        except _OutOfBudget:
            nodes += search.nodes
            if final:
                break
            # A best-first search leaves no positions searched to the end, only open ones.
            if state.variant != "stuck" and not best_first:
                proven = search.finished()
            # A position the first trial cannot decide may have a start of the packet that can
            # never clear (tested here, not at the deal: most deals need no test at all).
            if (
                order == _UPS_FIRST
                and state.variant == "classic"
                and _start_never_clears(
                    piles, state.foundations, expired=clock.expired if clock else None
                )
            ):
                return Verdict("lost", [], nodes)
            continue
        nodes += search.nodes
        if line is None:
            return Verdict("lost", [], nodes)
        return Verdict("won", line, nodes)
    return Verdict("unknown", [], nodes)


_TIME_MARGIN = 0.02
"""The share of a time budget kept back from the search for what follows its end: letting go of
the positions it searched (up to a million, freed when :func:`solve` returns) takes about 0.5 %
of the time it took to search them, on a busy machine as on an idle one."""


class _Clock:
    """The time budget of one :func:`solve`: a deadline a margin inside it, and trial shares."""

    def __init__(self, time_budget: float) -> None:
        self.budget = max(time_budget, 0.0)
        self.deadline = time.monotonic() + self.budget * (1 - _TIME_MARGIN)

    def expired(self) -> bool:
        """Whether the deadline has passed."""
        return time.monotonic() >= self.deadline

    def share(self, part: float) -> float:
        """The deadline of a trial that may take ``part`` of the budget from now on (never
        later than the deadline of the whole)."""
        return min(self.deadline, time.monotonic() + self.budget * part)


def _start_state(position: int | CruelState, variant: str | None) -> CruelState:
    if variant is not None and variant not in VARIANTS:
        raise ValueError(
            f"Cruel has no variant {variant!r}; its variants are {', '.join(VARIANTS)}"
        )
    if isinstance(position, CruelState):
        if variant is not None and variant != position.variant:
            raise ValueError(f"the state is of variant {position.variant!r}, not {variant!r}")
        return position
    return deal_position(position, variant or "classic")
