"""Speedquilt's plain data: dice, patches, blocks, and the geometry of a quilt.

Everything here is frozen data plus pure helpers; the rules that *use* it live in
``feasibility``, ``scoring`` and the turn engine. The names follow the agreed data contract of the
Speedquilt package (see ``docs/speedquilt-blocks.md``).

A quilt is a mapping from integer cells ``(x, y)`` (column, row; any integers, ``y`` grows
downwards) to the block lying there. It has no fixed grid: only its bounding box is limited to
3 × 3.

>>> sorted(neighbours((0, 0)))
[(-1, 0), (0, -1), (0, 1), (1, 0)]
>>> can_place({(0, 0), (1, 0)}, (2, 1))
True
>>> can_place({(0, 0), (1, 0), (2, 0)}, (3, 0))
False
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum

__all__ = [
    "COLOURS",
    "KIT_KINDS",
    "MAX_SIDE",
    "Block",
    "Cell",
    "Colour",
    "Deck",
    "Die",
    "KitKind",
    "Line",
    "Patch",
    "PlacedBlock",
    "Quilt",
    "Rule",
    "Scoring",
    "bounding_box",
    "can_place",
    "neighbours",
    "rows_and_columns",
    "touching",
]

MAX_SIDE = 3
"""A quilt is at most this many blocks wide and high."""

DIE_VALUES = range(1, 7)
"""The values a yarn die can show."""


class Colour(StrEnum):
    """The five yarn colours: of the dice, of patch borders and of block frames."""

    RED = "red"
    BLUE = "blue"
    GREEN = "green"
    YELLOW = "yellow"
    PURPLE = "purple"


COLOURS: tuple[Colour, ...] = (
    Colour.RED,
    Colour.BLUE,
    Colour.GREEN,
    Colour.YELLOW,
    Colour.PURPLE,
)
"""The colours in their fixed order, which is also the order of the five dice."""


@dataclass(frozen=True)
class Die:
    """One yarn die as rolled (or adjusted): its colour and its value 1–6."""

    colour: Colour
    value: int


class Rule(StrEnum):
    """The optional rule badge of a block."""

    ASCENDING = "<"
    """Values strictly ascending from left to right (gaps allowed)."""
    EQUAL = "="
    """Patches with the same letter need the same value."""
    SUM40 = ">=40"
    """All patches together show at least 40 pips."""


@dataclass(frozen=True)
class Patch:
    """One patch of a block: what a die must be to go there.

    ``value`` demands exactly that number, ``colour`` only the die of that colour; a patch with
    neither takes any die. ``letter`` appears only on blocks with the ``=`` rule.
    """

    value: int | None = None
    colour: Colour | None = None
    letter: str | None = None

    def accepts(self, value: int, colour: Colour) -> bool:
        """Whether a die of this value and colour satisfies the patch itself (rule aside)."""
        return (self.value is None or self.value == value) and (
            self.colour is None or self.colour == colour
        )


class KitKind(StrEnum):
    """The five kinds of sewing kit."""

    THIMBLE = "thimble"
    DYE_BATH = "dye_bath"
    SCISSORS = "scissors"
    SEWING_MACHINE = "sewing_machine"
    PINS = "pins"


KIT_KINDS: tuple[KitKind, ...] = tuple(KitKind)
"""The kit kinds in their fixed order."""


class Line(StrEnum):
    """The scoring line of a pattern block (what it counts)."""

    FINISHED_NEIGHBOUR = "finished_neighbour"
    COLOUR_BLOCK = "colour_block"
    COLOUR_NEIGHBOUR = "colour_neighbour"
    FINISHED_LINE = "finished_line"
    ALL_COLOURS = "all_colours"
    MONO_LINE = "mono_line"
    KIT_KIND = "kit_kind"
    FIXED = "fixed"


FLAT_LINES = frozenset({Line.ALL_COLOURS, Line.FIXED})
"""Lines whose points are paid once (if earned), not per count."""

COLOURED_LINES = frozenset({Line.COLOUR_BLOCK, Line.COLOUR_NEIGHBOUR})
"""Lines that name a colour."""


@dataclass(frozen=True)
class Scoring:
    """A pattern block's scoring line: ``points`` per counted thing (flat for the flat lines)."""

    line: Line
    points: int
    colour: Colour | None = None


class Deck(StrEnum):
    """The two decks a block comes from."""

    PATTERN = "pattern"
    KIT = "kit"


@dataclass(frozen=True)
class Block:
    """A block card: its patches (left to right), rule, frame colour and scoring or kit kind.

    ``colour`` is ``None`` only for the five remnants (Flickenreste) of the pattern deck.
    Pattern blocks carry ``scoring``; kits carry ``kit``.
    """

    id: str
    deck: Deck
    colour: Colour | None
    patches: tuple[Patch, ...]
    rule: Rule | None = None
    scoring: Scoring | None = None
    kit: KitKind | None = None

    def __hash__(self) -> int:
        # By its id alone (equal blocks have equal ids): the feasibility cache hashes a block at
        # every check of a patch, and the generated hash walked every patch each time.
        return hash(self.id)

    @property
    def is_kit(self) -> bool:
        """Whether the block is a sewing kit (Nähzeug)."""
        return self.deck is Deck.KIT

    @property
    def is_remnant(self) -> bool:
        """Whether the block is a remnant: a pattern block without frame colour."""
        return self.deck is Deck.PATTERN and self.colour is None


Cell = tuple[int, int]
"""A quilt position: (column x, row y)."""


@dataclass(frozen=True)
class PlacedBlock:
    """A block lying in a quilt: which block, and the die value on each patch (``None``: empty)."""

    block_id: str
    filled: tuple[int | None, ...]

    @property
    def finished(self) -> bool:
        """Whether every patch carries a die."""
        return all(value is not None for value in self.filled)

    @property
    def empty_patches(self) -> int:
        """How many patches are still empty."""
        return sum(value is None for value in self.filled)


Quilt = Mapping[Cell, PlacedBlock]
"""One player's quilt: the block lying at each occupied cell."""


def neighbours(cell: Cell) -> tuple[Cell, Cell, Cell, Cell]:
    """The four cells directly left, right, above and below ``cell``."""
    x, y = cell
    return ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1))


def touching(cell: Cell) -> tuple[Cell, ...]:
    """The eight cells sharing an edge or a corner with ``cell``."""
    x, y = cell
    return tuple((x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy)


def bounding_box(cells: Iterable[Cell]) -> tuple[int, int, int, int]:
    """``(min_x, min_y, max_x, max_y)`` of ``cells``; raises ``ValueError`` if there are none."""
    cells = list(cells)
    if not cells:
        raise ValueError("an empty quilt has no bounding box")
    xs = [x for x, _ in cells]
    ys = [y for _, y in cells]
    return min(xs), min(ys), max(xs), max(ys)


def can_place(quilt_cells: Collection[Cell], cell: Cell) -> bool:
    """Whether a new block may go to ``cell``.

    It must touch an existing block at an edge or a corner (any cell of an empty quilt will do),
    the cell must be free, and the quilt must stay within 3 × 3.
    """
    if cell in quilt_cells:
        return False
    if not quilt_cells:
        return True
    if not any(other in quilt_cells for other in touching(cell)):
        return False
    min_x, min_y, max_x, max_y = bounding_box([*quilt_cells, cell])
    return max_x - min_x < MAX_SIDE and max_y - min_y < MAX_SIDE


def rows_and_columns(cells: Collection[Cell]) -> list[tuple[Cell, Cell, Cell]]:
    """The full lines of three in a quilt: rows first (top to bottom), then columns (left to right).

    Because a quilt is at most three wide and high, a line of three is a row or column whose three
    cells are all occupied.
    """
    if not cells:
        return []
    min_x, min_y, max_x, max_y = bounding_box(cells)
    lines: list[tuple[Cell, Cell, Cell]] = []
    for y in range(min_y, max_y + 1):
        row = ((min_x, y), (min_x + 1, y), (min_x + 2, y))
        if all(c in cells for c in row):
            lines.append(row)
    for x in range(min_x, max_x + 1):
        column = ((x, min_y), (x, min_y + 1), (x, min_y + 2))
        if all(c in cells for c in column):
            lines.append(column)
    return lines
