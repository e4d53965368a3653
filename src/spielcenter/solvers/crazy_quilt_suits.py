"""Crazy Quilt with some suits alone: a smaller game whose loss proves the deal lost.

Keep the cards of some suits (the *kept* suits) and let every other card get out of their way:

* a quilt card of another suit leaves the quilt the moment one of its short ends is free (a
  *ghost*, :attr:`~spielcenter.solvers.crazy_quilt_position.Position.ghosts`), without going
  anywhere;
* the stock and the waste hold only the kept suits' cards, in their order;
* the other suits' foundations count as complete.

The kept cards follow the real rules. Every line of the real game maps onto a line of this
smaller one: drop the moves of the other suits' cards. A kept card is available at least as early
(a ghost leaves no later than the real card did, and gaps only ever free cards); a quilt card only
goes onto the waste onto a card of its own suit, so the waste's top is the same kept card in both
games whenever a kept card goes onto it or leaves it; the stock turns the kept cards in the same
order, and the redeal turns the waste over the same way (a redeal of a waste without kept cards
turns nothing here; the smaller game keeps that redeal, which only allows more). So when no line
founds every kept card,
no line of the real game founds every card: the deal is **lost**.

Deciding the smaller game is the solver's own exhaustive search
(:func:`~spielcenter.solvers.crazy_quilt_search.decide`, with the check across the redeal) on a
position with far fewer cards, so one suit alone is decided quickly for nearly every deal. What
it proves lost on the measured deals, and that it contradicts no deal the lists hold as won:
docs/winrates-crazy-quilt.md, *Suits alone: the first proven loss*.

The argument holds from any position, not just a deal's start: the exhaustive search can ask it
at every position it enters (:meth:`~spielcenter.solvers.crazy_quilt_search.Search
.suit_alone_lost`, ``split_budget``), which won deal 9's spades and clubs alone (docs/winrates-
crazy-quilt.md, *Each suit alone at every position*).

Pure: no I/O, no clock, no randomness.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from itertools import combinations

from spielcenter.games.cards import ACE, KING, SUIT_NAMES, SUITS
from spielcenter.solvers.crazy_quilt_position import Position
from spielcenter.solvers.crazy_quilt_search import decide
from spielcenter.solvers.verdict import Verdict

__all__ = ["SuitsProof", "alone", "decide_alone", "lost_alone"]


@dataclass(frozen=True)
class SuitsProof:
    """What :func:`lost_alone` found: the kept suits of a lost smaller game, or none."""

    suits: str
    """The kept suits (``"D"``, ``"SC"`` …) whose game alone is lost; empty when none is."""
    nodes: int
    """Positions the searches of the smaller games spent in all."""

    def __str__(self) -> str:
        names = " and ".join(SUIT_NAMES[suit] for suit in self.suits)
        return (
            f"the {names} alone cannot all be founded, even with every other card out of their way"
        )


def alone(position: Position, suits: str) -> Position:
    """The smaller game of ``position`` with only the cards of ``suits`` (letters of ``SHDC``)."""
    for suit in suits:
        if suit not in SUITS:
            raise ValueError(f"no suit {suit!r}; the suits are {' '.join(SUITS)}")
    kept = {SUITS.index(suit) for suit in suits}
    cards = bytearray(position.cards)
    ghosts = position.ghosts
    for cell, code in enumerate(position.cards):
        if code and code >> 4 not in kept and not position.gone >> cell & 1:
            cards[cell] = 0
            ghosts |= 1 << cell
    return replace(
        position,
        cards=bytes(cards),
        ghosts=ghosts,
        stock=bytes(code for code in position.stock if code >> 4 in kept),
        waste=bytes(code for code in position.waste if code >> 4 in kept),
        up=_complete(position.up, kept, KING),
        down=_complete(position.down, kept, ACE),
    )


def _complete(
    tops: tuple[int, int, int, int], kept: set[int], end: int
) -> tuple[int, int, int, int]:
    a, b, c, d = (top if suit in kept else end for suit, top in enumerate(tops))
    return a, b, c, d


def decide_alone(position: Position, suits: str, node_budget: int) -> Verdict:
    """Decide the smaller game of ``position`` with only ``suits``: the solver's exhaustive
    search with the check across the redeal, at most ``node_budget`` positions. Its ``lost``
    proves ``position`` lost; its ``won`` proves nothing of ``position``."""
    verdict, _ = decide(alone(position, suits), node_budget, None, True, set())
    return verdict


def lost_alone(position: Position, node_budget: int, sizes: Iterable[int] = (1,)) -> SuitsProof:
    """Search the smaller game of every set of ``sizes`` suits (one suit alone by default) until
    one is proven lost; each search may spend an even share of ``node_budget`` positions.

    Returns the lost set of suits, or ``""`` when every smaller game was won or undecided.
    """
    sets = ["".join(kept) for size in sizes for kept in combinations(SUITS, size)]
    share = max(node_budget // max(len(sets), 1), 1)
    nodes = 0
    for suits in sets:
        verdict = decide_alone(position, suits, share)
        nodes += verdict.nodes
        if verdict.result == "lost":
            return SuitsProof(suits, nodes)
    return SuitsProof("", nodes)
