"""Dead Cruel positions: a card that can never move covers the cards beneath it for good.

Among the bottom four cards of the first pile (they keep their places through every redeal),
and in every pile once no redeal is left, a card above a lower card of its suit that cannot be
built anywhere makes the position lost (:func:`pile_dead`, :func:`first_pile_dead`); after a
deal, a frozen start of the packet (up to 16 cards, each pile top among them unable to move or
to take a card) does too (:func:`frozen_prefix`). The proofs are in ``docs/winrates.md``.
"""

from __future__ import annotations

from spielcenter.games.cards import KING
from spielcenter.solvers.codes import RANK
from spielcenter.solvers.cruel_rules import PILE_SIZE, Piles

__all__ = ["blocked_by", "first_pile_dead", "frozen_prefix", "pile_dead", "prefix_frozen"]


def pile_dead(pile: bytes, depth: int, runs: bool) -> bool:
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
        if lowest[suit] < card and ((base & RANK) == KING or base + 1 in pile[:bottom]):
            return True
        if card < lowest[suit]:
            lowest[suit] = card
    return False


def first_pile_dead(piles: Piles, runs: bool) -> bool:
    """A card stuck for good among the bottom four of the first pile: those four cards are the
    first four of the packet, and nothing can come beneath them, so every redeal deals them to
    pile 1 again, in the same order."""
    for pile in piles:
        if pile:
            return pile_dead(pile, PILE_SIZE, runs)
    return False


def frozen_prefix(packet: bytes, runs: bool, longest: int = 16) -> bool:
    """Whether the first ``m`` cards of a freshly dealt ``packet`` can never move (for some
    ``m`` up to ``longest``): then they never reach the foundations and the position is lost."""
    if not runs:
        # A pile top of the deal that nothing among the first ``longest`` cards blocks lies on
        # top while no chain comes in, so no prefix that holds it can be frozen.
        start = packet[:longest]
        for index in range(PILE_SIZE - 1, len(start) - 1, PILE_SIZE):
            card = start[index]
            if not blocked_by(start, card) or ((card & RANK) != KING and start.find(card + 1) < 0):
                longest = index
                break
    lowest = [64, 64, 64, 64]  # the lowest card of each suit among the first m - 1
    before = bytearray(64)  # which cards are among the first m - 1
    for m in range(1, min(len(packet), longest) + 1):
        # Cheap necessary conditions on the last card of the prefix before the full test: a
        # lower card of its suit before it, and (single cards) it is a king or its target is.
        card = packet[m - 1]
        suit = card >> 4
        candidate = lowest[suit] < card and (runs or (card & RANK) == KING or before[card + 1] == 1)
        if card < lowest[suit]:
            lowest[suit] = card
        before[card] = 1
        if candidate and (
            prefix_frozen(packet, m, runs)
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
    for index in (*range(PILE_SIZE - 1, m - 1, PILE_SIZE), m - 1):
        card = prefix[index]
        if lowest[card >> 4] >= card or ((card & RANK) != KING and not among[card + 1]):
            return False
    on_top = [False] * m
    on_top[-1] = True  # the cards after the last of the m may all leave
    grown = True
    while grown:
        shifts = 1  # bit s: the chains so far can add up to s modulo 4
        grown = False
        for index in range(m - 1):
            if not on_top[index]:
                if shifts >> ((PILE_SIZE - 1 - index) % PILE_SIZE) & 1:
                    on_top[index] = grown = True
                continue
            spread = shifts
            for extra in range(1, _longest_chain(packet, among, prefix[index]) + 1):
                spread |= ((shifts << extra) | (shifts >> (PILE_SIZE - extra))) & 15
            shifts = spread
    for index, card in enumerate(prefix):
        if not on_top[index]:
            continue
        target = prefix.find(card + 1)
        if lowest[card >> 4] >= card or ((card & RANK) != KING and (target < 0 or on_top[target])):
            return False
    return True


def _longest_chain(packet: bytes, among: bytearray, card: int) -> int:
    """How many cards ``card−1, card−2, …`` lie on the layout (``packet``) and are not marked in
    ``among``, at most 3 (more changes no place modulo 4): the longest chain it can take."""
    length, below = 0, card - 1
    while length < PILE_SIZE - 1 and below & RANK and not among[below] and below in packet:
        length, below = length + 1, below - 1
    return length


def blocked_by(cards: bytes, card: int) -> bool:
    """Whether a lower card of ``card``'s suit is among ``cards`` (so it cannot go up first)."""
    suit_base = card & ~RANK
    return any(suit_base < other < card for other in cards)


def prefix_frozen(packet: bytes, m: int, runs: bool) -> bool:
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
        if index % PILE_SIZE != PILE_SIZE - 1 and index != last:
            continue  # covered by the next card of the prefix in the same pile
        card = prefix[index]
        suit_base = card & ~RANK
        if not any(suit_base < other < card for other in prefix):
            return False
        bottom = index
        if runs:
            while bottom % PILE_SIZE and prefix[bottom - 1] == prefix[bottom] + 1:
                bottom -= 1
        base = prefix[bottom]
        if (base & RANK) != KING:
            under = prefix.find(base + 1)
            if under < 0 or under % PILE_SIZE == PILE_SIZE - 1 or under == last:
                return False
        if index != last and card - 1 not in prefix:
            return False
    return True
