"""Scoring a quilt: the eight scoring lines, remnant colours, places and leaderboard points.

Only finished pattern blocks score. Kits have frame colours and count for colours, neighbours and
lines like any block. A finished remnant takes the colour that gives its owner the highest total
(all colour combinations of her finished remnants are tried); an unfinished remnant has no colour.

The breakdown carries, per pattern block, everything the end table shows: the line, what it
counted, the factor and the points ("2 fertige Nachbarn × 2 = 4"), and the colour chosen for a
remnant.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import product
from typing import Any

from spielcenter.games.speedquilt.catalogue import Catalogue, CatalogueError
from spielcenter.games.speedquilt.feasibility import can_complete
from spielcenter.games.speedquilt.model import (
    COLOURS,
    FLAT_LINES,
    MAX_SIDE,
    Block,
    Cell,
    Colour,
    Line,
    Quilt,
    bounding_box,
    neighbours,
    rows_and_columns,
)

__all__ = [
    "PLACE_BONUS",
    "POINTS_PER_GAME_POINT",
    "BlockScore",
    "QuiltError",
    "QuiltScore",
    "check_quilt",
    "leaderboard_points",
    "rank_players",
    "score_quilt",
]

POINTS_PER_GAME_POINT = 5
"""Leaderboard points for each game point."""

PLACE_BONUS: Mapping[int, int] = {1: 50, 2: 25, 3: 10}
"""Leaderboard bonus by place; shared places each get that place's bonus."""


class QuiltError(ValueError):
    """A quilt that cannot be: unknown block, wrong patch count, impossible values, too large."""


@dataclass(frozen=True)
class BlockScore:
    """One pattern block's line of the breakdown.

    ``points`` is ``count × factor`` for counting lines; for the flat lines (``all_colours``,
    ``fixed``) it is ``factor`` when earned, else 0, and ``count`` says what was found (the number
    of colours present; 1 for fixed points). An unfinished block scores 0.
    """

    block_id: str
    cell: Cell
    line: Line
    line_colour: Colour | None
    count: int
    factor: int
    points: int
    finished: bool
    colour: Colour | None
    """The block's colour as scored: its frame, or the colour chosen for a finished remnant."""
    chosen_colour: bool
    """Whether ``colour`` was chosen by the game (a finished remnant: shown as a dot)."""

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form for the end table and the block info."""
        return {
            "id": self.block_id,
            "cell": list(self.cell),
            "line": self.line.value,
            "line_colour": self.line_colour.value if self.line_colour else None,
            "count": self.count,
            "factor": self.factor,
            "points": self.points,
            "finished": self.finished,
            "colour": self.colour.value if self.colour else None,
            "chosen_colour": self.chosen_colour,
        }


@dataclass(frozen=True)
class QuiltScore:
    """A quilt's score: total, breakdown per pattern block, remnant colours, empty patches."""

    total: int
    blocks: tuple[BlockScore, ...]
    remnant_colours: Mapping[Cell, Colour]
    empty_patches: int

    def at(self, cell: Cell) -> BlockScore | None:
        """The breakdown line of the pattern block at ``cell`` (``None`` for a kit or no block)."""
        return next((entry for entry in self.blocks if entry.cell == cell), None)

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form (the ``score`` command's ``--json`` output)."""
        return {
            "total": self.total,
            "empty_patches": self.empty_patches,
            "blocks": [entry.to_json() for entry in self.blocks],
            "remnant_colours": {
                f"{x},{y}": colour.value for (x, y), colour in sorted(self.remnant_colours.items())
            },
        }


def check_quilt(quilt: Quilt, catalogue: Catalogue) -> None:
    """Raise :class:`QuiltError` unless every block is known, fits its patches, and fits 3 × 3."""
    for cell, placed in quilt.items():
        where = f"block {placed.block_id} at {cell}"
        try:
            block = catalogue.block(placed.block_id)
        except CatalogueError:
            raise QuiltError(f"{where}: no such block in the catalogue") from None
        if len(placed.filled) != len(block.patches):
            raise QuiltError(
                f"{where}: {len(placed.filled)} patch values given, "
                f"the block has {len(block.patches)} patches"
            )
        if not can_complete(block, placed.filled):
            raise QuiltError(f"{where}: the dice {list(placed.filled)} break its patches or rule")
    ids = [placed.block_id for placed in quilt.values()]
    twice = sorted({block_id for block_id in ids if ids.count(block_id) > 1})
    if twice:
        raise QuiltError(f"block {twice[0]} lies in the quilt twice")
    if quilt:
        min_x, min_y, max_x, max_y = bounding_box(quilt)
        if max_x - min_x >= MAX_SIDE or max_y - min_y >= MAX_SIDE:
            raise QuiltError("the quilt is larger than 3 × 3")


def score_quilt(quilt: Quilt, catalogue: Catalogue) -> QuiltScore:
    """Score a quilt; finished remnants take the colours that give the highest total.

    Raises :class:`QuiltError` for a quilt that cannot be (see :func:`check_quilt`).
    """
    check_quilt(quilt, catalogue)
    blocks = {cell: catalogue.block(placed.block_id) for cell, placed in quilt.items()}
    finished = {cell for cell, placed in quilt.items() if placed.finished}
    remnants = sorted(cell for cell in finished if blocks[cell].is_remnant)
    best: QuiltScore | None = None
    # Tried in COLOURS order, keeping the first best: the choice is deterministic.
    for choice in product(COLOURS, repeat=len(remnants)):
        chosen = dict(zip(remnants, choice, strict=True))
        score = _score_with(quilt, blocks, finished, chosen)
        if best is None or score.total > best.total:
            best = score
    assert best is not None
    return best


def rank_players(scores: Sequence[QuiltScore]) -> list[int]:
    """The place (1 = first) of each player: most points; a tie goes to fewer empty patches;
    players tied on both share the place, and the next place is skipped (1, 1, 3).
    """
    keys = [(-score.total, score.empty_patches) for score in scores]
    return [1 + sum(other < key for other in keys) for key in keys]


def leaderboard_points(place: int, points: int) -> int:
    """Leaderboard points: 5 per game point plus 50 / 25 / 10 for places 1 / 2 / 3."""
    return POINTS_PER_GAME_POINT * points + PLACE_BONUS.get(place, 0)


# -- the eight lines ----------------------------------------------------------------------------


@dataclass(frozen=True)
class _Board:
    """What the lines look at: each cell's colour (after remnant choice) and finished-ness."""

    colours: Mapping[Cell, Colour | None]
    finished: frozenset[Cell]
    finished_kit_kinds: int

    def count(self, line: Line, colour: Colour | None, cell: Cell) -> int:
        if line is Line.FINISHED_NEIGHBOUR:
            return sum(n in self.finished for n in neighbours(cell))
        if line is Line.COLOUR_BLOCK:
            return sum(c == colour for c in self.colours.values())
        if line is Line.COLOUR_NEIGHBOUR:
            return sum(n in self.colours and self.colours[n] == colour for n in neighbours(cell))
        if line is Line.FINISHED_LINE:
            return sum(
                all(c in self.finished for c in three) for three in rows_and_columns(self.colours)
            )
        if line is Line.ALL_COLOURS:
            return len({c for c in self.colours.values() if c is not None})
        if line is Line.MONO_LINE:
            return sum(
                self.colours[a] is not None
                and self.colours[a] == self.colours[b] == self.colours[c]
                for a, b, c in rows_and_columns(self.colours)
            )
        if line is Line.KIT_KIND:
            return self.finished_kit_kinds
        return 1  # Line.FIXED


def _points(line: Line, count: int, factor: int) -> int:
    if line is Line.ALL_COLOURS:
        return factor if count == len(COLOURS) else 0
    if line in FLAT_LINES:
        return factor
    return count * factor


def _score_with(
    quilt: Quilt,
    blocks: Mapping[Cell, Block],
    finished: set[Cell],
    chosen: Mapping[Cell, Colour],
) -> QuiltScore:
    colours = {cell: chosen.get(cell, block.colour) for cell, block in blocks.items()}
    kinds = {block.kit for cell, block in blocks.items() if block.is_kit and cell in finished}
    board = _Board(colours, frozenset(finished), len(kinds))
    entries: list[BlockScore] = []
    for cell in sorted(blocks, key=lambda c: (c[1], c[0])):
        block = blocks[cell]
        if block.scoring is None:
            continue
        line, factor = block.scoring.line, block.scoring.points
        count = board.count(line, block.scoring.colour, cell)
        done = cell in finished
        entries.append(
            BlockScore(
                block.id,
                cell,
                line,
                block.scoring.colour,
                count,
                factor,
                _points(line, count, factor) if done else 0,
                done,
                colours[cell],
                cell in chosen,
            )
        )
    empty = sum(placed.empty_patches for placed in quilt.values())
    return QuiltScore(sum(e.points for e in entries), tuple(entries), dict(chosen), empty)


# -- what a block is typically worth ---------------------------------------------------------

TYPICAL_COUNT: Mapping[Line, float] = {
    Line.FINISHED_NEIGHBOUR: 2.0,
    Line.COLOUR_BLOCK: 2.0,
    Line.COLOUR_NEIGHBOUR: 1.0,
    Line.FINISHED_LINE: 1.0,
    Line.ALL_COLOURS: 0.7,
    Line.MONO_LINE: 0.5,
    Line.KIT_KIND: 2.0,
    Line.FIXED: 1.0,
}
"""What a line typically counts in a good finished quilt (for the flat lines: how often it pays).

A 3 × 3 quilt gives a block 2–4 neighbours, about two of them finished; about two blocks share a
colour; one row or column is finished; all five colours appear in most quilts, a single-coloured
row in about every second one; two kit kinds are finished.
"""


def typical_points(block: Block) -> float:
    """A pattern block's typical scoring value: its points times its line's typical count."""
    if block.scoring is None:
        return 0.0
    return block.scoring.points * TYPICAL_COUNT[block.scoring.line]
