"""The start of Cruel's packet as a game of its own: when it can never clear, the deal is lost.

In classic, when the first trial cannot decide a position, the start of the packet is played
against a rest of the layout that may do anything the rules could ever allow
(:func:`start_never_clears`); every real line maps onto an abstract one (docs/winrates.md, *The
start of the packet as a game of its own*).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from spielcenter.games.cards import KING
from spielcenter.solvers.codes import RANK
from spielcenter.solvers.cruel_dead import blocked_by
from spielcenter.solvers.cruel_rules import PILE_SIZE, Foundations, Piles, layout_key

__all__ = ["START_LIMIT", "start_never_clears"]

START_LIMIT: Final = 30_000
"""Abstract positions that :func:`start_never_clears` may visit, over all its starts together
(about 0.3 s): the ten deals of 1..10 000 it decides need 400 to 11 000."""


def start_never_clears(
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
    budget = [START_LIMIT]
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
    seen = {bytes(fnd) + layout_key(start)}
    todo = [(start, fnd)]
    while todo:
        here, here_fnd = todo.pop()
        for child, child_fnd in _start_moves(here, here_fnd):
            if not child:
                return True
            key = bytes(child_fnd) + layout_key(child)
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
        if not blocked_by(cards, card):
            ranks = list(fnd)
            ranks[suit] = card & RANK
            found.append((_nonempty(rest), (ranks[0], ranks[1], ranks[2], ranks[3])))
        if (card & RANK) != KING:
            target = tops.get(card + 1)
            if target is not None:
                rest[target] = start[target] + pile[-1:]
                found.append((_nonempty(rest), fnd))
            elif card + 1 not in cards:
                found.append((_nonempty(rest), fnd))
        below = card - 1
        if (below & RANK) > max(fnd[suit], 1) and below not in cards:
            grown = list(start)
            grown[index] = pile + bytes((below,))
            found.append((tuple(grown), fnd))
    found.append((tuple(cards[at : at + PILE_SIZE] for at in range(0, len(cards), PILE_SIZE)), fnd))
    return found


def _nonempty(piles: list[bytes]) -> Piles:
    return tuple(pile for pile in piles if pile)
