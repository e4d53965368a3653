"""Knots in the Crazy Quilt: quilt cards that can never leave, because each waits for another.

A quilt card ``X`` (suit ``s``, rank ``r``) leaves the quilt only in three ways (seed 000): to the
up foundation of ``s`` when its top is ``r − 1``, to the down foundation when its top is
``r + 1``, or onto the waste when the waste's top is a card of ``s`` one rank away (king and ace
too, round the corner). Call the cards of ``s`` of those ranks that are not founded yet ``X``'s
*enablers*. Unless a foundation takes ``X`` already, every way out needs an enabler to have left
its place first: the foundation reaches ``r − 1`` (or ``r + 1``) only by taking a copy of that
rank, and a card on the waste's top has left the quilt or the stock. (Founded cards never come
back, so a founded copy enables nothing it does not enable now.)

A **knot** is a non-empty set ``S`` of quilt cards, each of which is *locked* while all of ``S``
stays: either its cell can never become available (each short end lies on a card of ``S`` or in
the *shadow* of ``S``: cells that no order of emptying reaches while the cells of ``S`` stay
full, whatever the cards in them), or no foundation takes it now and every enabler lies in the
quilt, in a cell of ``S`` or of its shadow.

**Why a knot proves the position lost.** Suppose some card of ``S`` leaves, and let ``X`` be the
first. Until then every cell of ``S`` is full, so no shadow cell empties (the first to empty
would need a short end beyond the edge or at a gap, which would put it outside the shadow). If
``X``'s short ends are all in ``S`` or the shadow, ``X`` was never available; otherwise an
enabler left its cell before ``X``, and that cell is in ``S`` or the shadow: both impossible. So
no card of ``S`` ever reaches a foundation, and the game is not won. The argument uses neither the
stock's order nor the redeals, so it holds in every variant and at every point of a game.

**Finding one.** Being locked only grows with ``S`` (a larger ``S`` holds more cells and casts a
larger shadow), so the union of all knots is a knot, and it is found by starting from every quilt
card and dropping the cards that are not locked until none is dropped (:func:`knot`). Each round
is one flood over the 64 cells, so the whole search costs about a millisecond;
docs/winrates-crazy-quilt.md, *Knots in the quilt*, holds what it decides.

Cells of :attr:`~spielcenter.solvers.crazy_quilt_position.Position.ghosts` (the suits alone) are
never held: a ghost leaves as soon as it is available, which only lets more cells empty.

Pure: no I/O, no clock, no randomness.
"""

from __future__ import annotations

from dataclasses import dataclass

from spielcenter.games.cards import ACE, KING, Card
from spielcenter.games.crazy_quilt import CELL_NAMES, CELLS, OUTSIDE, SHORT_ENDS
from spielcenter.solvers.codes import RANK, decode_card
from spielcenter.solvers.crazy_quilt_position import EDGE, FREES, Position, bit

__all__ = ["KnotProof", "enabler_ranks", "knot", "knot_proof", "shadow"]


@dataclass(frozen=True)
class KnotProof:
    """A knot found by :func:`knot_proof`: its cells (a bit each) and the cards in them."""

    cells: int
    cards: tuple[Card, ...]

    def __str__(self) -> str:
        names = " ".join(card.pretty for card in sorted(self.cards))
        return (
            f"{len(self.cards)} quilt cards can never leave the quilt ({names}): "
            "each waits for another of them to leave first"
        )


def enabler_ranks(rank: int, round_the_corner: bool) -> tuple[int, ...]:
    """The ranks of a card's suit whose leaving lets a card of ``rank`` leave: one rank below
    and above (for the foundations and the waste), and round the corner the other end of the
    suit too (a king goes onto an ace on the waste, an ace onto a king)."""
    ranks = [near for near in (rank - 1, rank + 1) if ACE <= near <= KING]
    if round_the_corner and rank in (ACE, KING):
        ranks.append(KING if rank == ACE else ACE)
    return tuple(ranks)


def shadow(position: Position, held: int) -> int:
    """The full cells that no order of emptying reaches while the cells of ``held`` stay full
    (the cards in the other cells may leave whenever a short end is free)."""
    full = _full(position)
    movable = full & ~held
    emptied = 0
    # Available now: a short end beyond the edge or at a gap (ghosts' cells count as gaps).
    free = EDGE
    for cell in range(CELLS):
        if not full >> cell & 1:
            free |= FREES[cell]
    fresh = free & movable
    while fresh:
        emptied |= fresh
        opened = 0
        while fresh:
            low = fresh & -fresh
            fresh ^= low
            opened |= FREES[low.bit_length() - 1]
        fresh = opened & movable & ~emptied
    return movable & ~emptied


def knot(position: Position, *, count_outside: bool = True) -> int:
    """The cells of the largest knot of ``position`` (0 when it has none).

    ``count_outside=False`` is the *broken* rule that the tests show to be unsound: it ignores
    the enablers in the stock and the waste, as if only quilt cards could ever let a card out.
    """
    codes = position.cards
    outside = set(position.stock) | set(position.waste) if count_outside else set()
    held = _full(position) & ~position.ghosts
    while True:
        stuck = held | shadow(position, held)
        kept = 0
        for cell in range(CELLS):
            if held >> cell & 1 and _locked(position, cell, codes[cell], held, stuck, outside):
                kept |= bit(cell)
        if kept == held:
            return held
        held = kept


def knot_proof(position: Position) -> KnotProof | None:
    """The largest knot of ``position`` as a proof, or ``None`` when it has none."""
    cells = knot(position)
    if not cells:
        return None
    cards = tuple(decode_card(position.cards[c]) for c in range(CELLS) if cells >> c & 1)
    return KnotProof(cells, cards)


def describe(cells: int) -> str:
    """The cells of a knot by their names (``a1 b2 …``), for notes and tests."""
    return " ".join(CELL_NAMES[c] for c in range(CELLS) if cells >> c & 1)


def _full(position: Position) -> int:
    full = 0
    for cell, code in enumerate(position.cards):
        if code and not position.gone >> cell & 1:
            full |= bit(cell)
    return full


def _locked(
    position: Position, cell: int, code: int, held: int, stuck: int, outside: set[int]
) -> bool:
    """Whether the card ``code`` in ``cell`` cannot be the first of ``held`` to leave."""
    # Never available: each short end lies on a held card or in the shadow.
    if all(end != OUTSIDE and stuck >> end & 1 for end in SHORT_ENDS[cell]):
        return True
    suit, rank = code >> 4, code & RANK
    if position.up[suit] == rank - 1 or position.down[suit] == rank + 1:
        return False  # a foundation takes it now
    base = suit << 4
    for near in enabler_ranks(rank, position.round_the_corner):
        enabler = base + near
        if enabler in outside:
            return False  # it can reach the waste's top from the stock or the waste
        for other, other_code in enumerate(position.cards):
            if other_code == enabler and other != cell and not (position.gone | stuck) >> other & 1:
                return False  # it may leave the quilt while the knot stays
    return True
