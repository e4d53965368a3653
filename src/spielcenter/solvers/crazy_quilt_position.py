"""Crazy Quilt in the solvers' compact form: card codes, the quilt's geometry as bit masks, the
position and its foundations.

Cards are the small integers of :mod:`spielcenter.solvers.codes`; the quilt is a 64-bit mask of
the cells already emptied plus a mask of the available cells, updated on each removal (a gap only
ever frees the cards whose short ends face it); stock and waste are ``bytes``. Every search of
Crazy Quilt (:mod:`~spielcenter.solvers.crazy_quilt_search`, the beams, the suits alone) moves on
these.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from spielcenter.games.cards import ACE, KING
from spielcenter.games.crazy_quilt import CELL_NAMES, CELLS, OUTSIDE, SHORT_ENDS, QuiltState
from spielcenter.solvers.codes import encode_card

if TYPE_CHECKING:  # mypyc's 64-bit integer; at run time (and as plain Python) simply int
    from mypy_extensions import i64

__all__ = [
    "ALL_CELLS",
    "DOWN_MOVE",
    "EDGE",
    "FREES",
    "SIGNED_FREES",
    "UP_MOVE",
    "WASTE_MOVE",
    "WON_FND",
    "Fnd",
    "Position",
    "available",
    "bit",
    "cell_of",
    "founded",
    "low_cell",
    "position_of",
    "signed_cells",
    "touches",
    "unsigned_cells",
    "vanish",
    "vanish_signed",
]

ALL_CELLS: Final = (1 << CELLS) - 1


# -- the quilt's geometry as bit masks -----------------------------------------------------------


def bit(cell: int) -> int:
    return 1 << cell


def signed_cells(cells: int) -> i64:
    """A mask of cells as a native 64-bit integer: cell 63 is the sign bit (a mask that holds it
    is itself less 2**64), so that every mask of the 64 cells fits mypyc's ``i64``, whose
    operations make no object; :func:`unsigned_cells` turns it back. ``&``, ``|``, ``^`` and ``~``
    on such masks give the same bits as on the Python ints (two's complement), compiled or not."""
    return cells - (1 << CELLS) if cells >> (CELLS - 1) else cells


def unsigned_cells(cells: i64) -> int:
    """The mask of cells (a Python int, 0 to 2**64 - 1) of a :func:`signed_cells` mask."""
    wide: int = cells
    if wide < 0:
        wide += 1 << CELLS
    return wide


def _frees() -> tuple[int, ...]:
    """For each cell c, the cells whose short end faces c: emptying c makes them available."""
    masks = [0] * CELLS
    for cell, ends in enumerate(SHORT_ENDS):
        for end in ends:
            if end != OUTSIDE:
                masks[end] |= bit(cell)
    return tuple(masks)


FREES: Final = _frees()
EDGE: Final = sum(bit(c) for c, ends in enumerate(SHORT_ENDS) if OUTSIDE in ends)
"""Cells with a short end beyond the quilt's edge: available while they hold a card."""


def available(gone: int) -> int:
    """The available cells of a quilt whose emptied cells are ``gone`` (computed from scratch)."""
    free = EDGE
    for cell in range(CELLS):
        if gone >> cell & 1:
            free |= FREES[cell]
    return free & ~gone & ALL_CELLS


def vanish(gone: int, free: int, ghosts: int) -> tuple[int, int]:
    """Empty every ghost cell that is available, and the ghosts that frees, until none is."""
    while free & ghosts:
        fresh = free & ghosts
        gone |= fresh
        while fresh:
            low = fresh & -fresh
            fresh ^= low
            free |= FREES[low.bit_length() - 1]
        free &= ~gone
    return gone, free


SIGNED_FREES: Final = tuple(signed_cells(cells) for cells in FREES)
""":data:`FREES` as :func:`signed_cells` masks (the beams' nodes keep theirs so)."""

_LAST_CELL: Final[i64] = -(1 << (CELLS - 1))
"""The signed mask of cell 63 alone (the sign bit)."""


def low_cell(cells: i64) -> i64:
    """The lowest cell of a nonzero :func:`signed_cells` mask, as a mask: ``cells & -cells``,
    except for cell 63 alone, whose negation does not fit 64 bits (as a Python int it is 2**63,
    so plain Python and the compiled code would part there)."""
    return cells if cells == _LAST_CELL else cells & -cells


def cell_of(low: i64) -> int:
    """The cell of a one-cell :func:`signed_cells` mask (:func:`low_cell`)."""
    wide: int = low
    return CELLS - 1 if wide < 0 else wide.bit_length() - 1


def vanish_signed(gone: i64, free: i64, ghosts: i64) -> tuple[i64, i64]:
    """:func:`vanish` on :func:`signed_cells` masks."""
    while free & ghosts:
        fresh = free & ghosts
        gone |= fresh
        while fresh:
            low = low_cell(fresh)
            fresh ^= low
            free |= SIGNED_FREES[cell_of(low)]
        free &= ~gone
    return gone, free


UP_MOVE: Final = tuple(name + "u" for name in CELL_NAMES)
"""For each cell, the move (engine notation) that founds its card on an up foundation; made once,
so that the searches do not build the same string at every move."""
DOWN_MOVE: Final = tuple(name + "d" for name in CELL_NAMES)
"""For each cell, the move that founds its card on a down foundation."""
WASTE_MOVE: Final = tuple(name + "w" for name in CELL_NAMES)
"""For each cell, the move that builds its card onto the waste."""


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
    gone = sum(bit(cell) for cell, card in enumerate(state.quilt) if card is None)
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


# -- the foundations ---------------------------------------------------------------------------
#
# Inside a search the foundations are ``fnd``, a tuple of 8 ranks (up S H D C, then down
# S H D C), so a foundation is a slot 0–7.

Fnd = tuple[int, ...]
WON_FND: Final[Fnd] = (KING,) * 4 + (ACE,) * 4


def touches(a: int, b: int, round_the_corner: bool) -> bool:
    """Whether two card codes may build on each other: same suit and one rank apart (king and
    ace too, round the corner)."""
    if a >> 4 != b >> 4:
        return False
    gap = abs(a - b)
    return gap == 1 or (round_the_corner and gap == KING - ACE)


def founded(fnd: Fnd, slot: int, rank: int) -> Fnd:
    """The foundations after ``rank`` went onto ``slot``."""
    # One tuple made at once (a list and a tuple before; fewer objects than slicing).
    return (
        rank if slot == 0 else fnd[0],
        rank if slot == 1 else fnd[1],
        rank if slot == 2 else fnd[2],
        rank if slot == 3 else fnd[3],
        rank if slot == 4 else fnd[4],
        rank if slot == 5 else fnd[5],
        rank if slot == 6 else fnd[6],
        rank if slot == 7 else fnd[7],
    )
