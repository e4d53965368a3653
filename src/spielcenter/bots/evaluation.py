"""What things are worth to a computer player: blocks, purchases, cells, dice on patches.

All values are in game points (expected, roughly) and use only what the seat sees: its quilt,
the shop, the others' quilts and the round. The one-turn chance of a block comes from the exact
dice tables of :mod:`.expectimax`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from spielcenter.games.speedquilt.catalogue import Catalogue
from spielcenter.games.speedquilt.difficulty import prefills_needed
from spielcenter.games.speedquilt.feasibility import can_complete
from spielcenter.games.speedquilt.model import (
    COLOURS,
    Block,
    Cell,
    KitKind,
    Line,
    PlacedBlock,
    Rule,
    can_place,
    touching,
)
from spielcenter.games.speedquilt.scoring import score_quilt

from .expectimax import SHAPE, rule_holds, sew_table, with_rerolls
from .memo import block_cache

__all__ = [
    "KIT_WORTH",
    "Outlook",
    "ease",
    "free_cells",
    "needs_dice_first",
    "one_turn_chance",
    "quilt_points",
    "sewable_from_empty",
]

KIT_WORTH: Mapping[KitKind, float] = {
    KitKind.THIMBLE: 2.0,
    KitKind.DYE_BATH: 1.0,
    KitKind.SCISSORS: 1.5,
    KitKind.SEWING_MACHINE: 3.0,
    KitKind.PINS: 2.0,
}
"""What a finished kit's ability is worth over a whole game (in points)."""

FULL_QUILT = 9
MAX_COUNTED = 5
"""Blocks with more empty patches get a rough ease (counting would take too long)."""
BEST_GIVEN = 6
"""The value a planning player waits for on each patch of a `≥ 40` block that must be filled
before the last turn (dice given or binned one by one: it takes only high ones)."""
PER_DIE_STILL_TO_COME = 0.7
"""How much less a `≥ 40` block's last turn is worth for each die that must still be given or
binned onto it first (each takes a turn or a reroll of another seat to come)."""
FUTURE_SHARE = 0.6
"""The share of what a block will still count by the end that is reckoned with now (the quilt
may not fill up, the neighbours may stay unfinished)."""
PLAIN_ROUNDS = 8
"""Rounds over which a new block is typically finished, and a kit pays for itself."""


@block_cache(maxsize=4096)
def one_turn_chance(block: Block, filled: tuple[int | None, ...]) -> float:
    """The exact chance to sew ``block`` from ``filled`` in one turn of three rolls."""
    if prefills_needed(block, filled) > 0:
        return 0.0
    sewable = (sew_table(block, filled) > 0).astype(float).reshape(SHAPE)
    return float(with_rerolls(sewable, 2, 0.0).mean())


@block_cache(maxsize=4096)
def ease(block: Block, filled: tuple[int | None, ...]) -> float:
    """How easy the rest of a block is: the share of value fillings of its empty patches that
    finish it, lowered for patches that also name a colour and for each patch still empty (a
    `≥ 40` block by the pips already on it instead, see :func:`_sum_ease`)."""
    empty = [i for i, v in enumerate(filled) if v is None]
    if not empty:
        return 1.0
    if block.rule is Rule.SUM40:
        return _sum_ease(block, filled, empty)
    coloured = sum(block.patches[i].colour is not None for i in empty)
    if len(empty) > MAX_COUNTED:
        return float(0.3 * 0.6**coloured * 0.85 ** len(empty))
    good = int(rule_holds(block, _fillings(block, filled, empty)).sum())
    total = 6 ** len(empty)
    return float(good / total * 0.6**coloured * 0.85 ** len(empty))


def _sum_ease(block: Block, filled: tuple[int | None, ...], empty: list[int]) -> float:
    """The ease of a `≥ 40` block, by the value of the dice already on it: the one-turn chance
    of its last five patches once the patches beyond five hold the best dice (`BEST_GIVEN`),
    less for each such die still to come. A low die on it lowers the ease; a six raises it."""
    waiting = max(0, len(empty) - len(COLOURS))
    hoped = list(filled)
    for i in empty[:waiting]:
        hoped[i] = block.patches[i].value or BEST_GIVEN
    if not can_complete(block, tuple(hoped)):
        return 0.0
    return one_turn_chance(block, tuple(hoped)) * PER_DIE_STILL_TO_COME**waiting


def needs_dice_first(block: Block) -> bool:
    """Whether the block has more patches than there are dice: some must be given or binned
    onto it one by one before a turn can sew the rest (the `≥ 40` blocks). A repeated colour
    alone (one die given removes it) does not count."""
    return len(block.patches) > len(COLOURS)


def _fillings(
    block: Block, filled: tuple[int | None, ...], empty: list[int]
) -> list[npt.NDArray[np.int64]]:
    """One column per patch over every value filling of the empty patches (a patch with a
    number takes only that number): all fillings at once, for the rule check."""
    options = [
        np.array([block.patches[i].value] if block.patches[i].value else range(1, 7)) for i in empty
    ]
    grids = iter(g.ravel() for g in np.meshgrid(*options, indexing="ij"))
    size = int(np.prod([len(o) for o in options]))
    return [next(grids) if v is None else np.full(size, v) for v in filled]


def sewable_from_empty(block: Block) -> bool:
    """Whether one turn can sew the empty block (no patch has to be filled beforehand)."""
    return prefills_needed(block, (None,) * len(block.patches)) == 0


def quilt_points(quilt: Mapping[Cell, PlacedBlock], catalogue: Catalogue) -> int:
    """The quilt's score now."""
    return score_quilt(quilt, catalogue).total


def free_cells(quilt: Mapping[Cell, PlacedBlock]) -> list[Cell]:
    """Every cell where a new block may go, in reading order."""
    if not quilt:
        return [(0, 0)]
    near = {t for cell in quilt for t in touching(cell)}
    return sorted((c for c in near if can_place(quilt.keys(), c)), key=lambda c: (c[1], c[0]))


@block_cache(maxsize=1024)
def _completion(block: Block, filled: tuple[int | None, ...]) -> tuple[int, ...]:
    """Some values that finish the block (for scoring what-ifs): patch by patch, keeping the
    block finishable after each choice, so the search never has to step back."""
    values = list(filled)
    for i, v in enumerate(filled):
        if v is not None:
            continue
        fixed = block.patches[i].value
        for candidate in [fixed] if fixed else (6, 5, 4, 3, 2, 1):
            values[i] = candidate
            if can_complete(block, tuple(values)):
                break
        else:
            raise ValueError(f"{block.id} cannot be finished")
    return tuple(v for v in values if v is not None)


POINTS_MEMO = 8192
"""Quilt scores kept (about 550 bytes each: some 5 MB); the oldest is dropped first."""
_POINTS: list[tuple[Catalogue, dict[tuple[object, ...], int]]] = []
"""Scores of quilts already counted, for the catalogue in use (scoring is pure)."""


def _known_points(catalogue: Catalogue) -> dict[tuple[object, ...], int]:
    """The remembered scores for this catalogue (another catalogue starts afresh)."""
    if not _POINTS or _POINTS[0][0] is not catalogue:
        _POINTS[:] = [(catalogue, {})]
    return _POINTS[0][1]


@dataclass
class Outlook:
    """One seat's view of the game for valuing things: quilt, time left, the others."""

    catalogue: Catalogue
    quilt: dict[Cell, PlacedBlock]
    rounds_left: float
    kit_bias: float = 1.0
    """How much more than their worth this player likes kits (easy likes them)."""
    prefill_finish: float | None = None
    """If set: how often a block with more patches than dice (it needs dice given or binned onto
    it first, :func:`needs_dice_first`) gets finished; otherwise such a block counts like any
    other hard block."""
    final_counts: Mapping[Line, float] | None = None
    """If set: what each scoring line counts in this player's quilts at the end; a block is then
    valued with what its line will still count once the quilt fills up, not only with what it
    counts now (a "per finished line" block counts nothing while the lines are open)."""

    @property
    def time_factor(self) -> float:
        """How much of a block's future worth there is still time to collect (0–1)."""
        return float(np.clip(self.rounds_left / PLAIN_ROUNDS, 0.0, 1.0))

    def block(self, block_id: str) -> Block:
        """The catalogue block."""
        return self.catalogue.block(block_id)

    def points(self, quilt: Mapping[Cell, PlacedBlock]) -> float:
        """Score of a quilt (remembered across decisions: the same quilts come back often)."""
        known = _known_points(self.catalogue)
        key = tuple(sorted((c, p.block_id, p.filled) for c, p in quilt.items()))
        hit = known.get(key)
        if hit is None:
            while len(known) >= POINTS_MEMO:  # (a loop, so a lowered bound holds at once)
                del known[next(iter(known))]
            hit = known[key] = score_quilt(quilt, self.catalogue).total
        return hit

    def finished(self, quilt: Mapping[Cell, PlacedBlock], cell: Cell) -> dict[Cell, PlacedBlock]:
        """The quilt with the block at ``cell`` finished."""
        placed = quilt[cell]
        done = _completion(self.block(placed.block_id), placed.filled)
        return {**quilt, cell: PlacedBlock(placed.block_id, done)}

    def kit_value(self, block: Block) -> float:
        """The ability of a finished kit, for the time that is left."""
        if block.kit is None:
            return 0.0
        return KIT_WORTH[block.kit] * self.time_factor * self.kit_bias

    def sew_value(self, cell: Cell) -> float:
        """What sewing the block at ``cell`` is worth: points now, its kit, and what it will
        still count (neighbours and colours yet to come)."""
        placed = self.quilt[cell]
        block = self.block(placed.block_id)
        done = self.finished(self.quilt, cell)
        gain = self.points(done) - self.points(self.quilt)
        growth = 0.0
        if self.final_counts is not None:
            growth = self.still_to_count(done, cell)
        elif block.scoring is not None:
            growth = 0.3 * block.scoring.points * self.time_factor
        return gain + growth + self.kit_value(block) + 0.5

    def still_to_count(self, done: Mapping[Cell, PlacedBlock], cell: Cell) -> float:
        """What the finished pattern block at ``cell`` of ``done`` will still add by the end (a
        share of it, for the time left): its line's final count times its points, less what it
        counts now. Needs ``final_counts``."""
        block = self.block(done[cell].block_id)
        if block.scoring is None or self.final_counts is None:
            return 0.0
        expected = block.scoring.points * self.final_counts[block.scoring.line]
        entry = score_quilt(done, self.catalogue).at(cell)
        now = entry.points if entry is not None else 0
        return FUTURE_SHARE * max(0.0, expected - now) * self.time_factor

    def potential(self, quilt: Mapping[Cell, PlacedBlock]) -> float:
        """The score if every block of ``quilt`` were finished."""
        done: dict[Cell, PlacedBlock] = dict(quilt)
        for cell in quilt:
            if not quilt[cell].finished:
                done = self.finished(done, cell)
        return self.points(done)

    def buy_value(self, block_id: str) -> tuple[float, Cell]:
        """What buying a block is worth, and the best cell for it."""
        block = self.block(block_id)
        empty = (None,) * len(block.patches)
        chance = one_turn_chance(block, empty)
        # Chance to finish it in the turns left, a few tries at most (each try is a turn).
        tries = max(0.0, self.rounds_left * 0.5)
        finish = 1.0 - (1.0 - max(chance, 0.15)) ** tries if tries else 0.0
        prefilled = self.prefill_finish is not None and needs_dice_first(block)
        if prefilled:
            finish = self.prefill_finish
        base = self.potential(self.quilt)
        best: tuple[float, Cell] | None = None
        for cell in free_cells(self.quilt):
            grown = {**self.quilt, cell: PlacedBlock(block_id, empty)}
            gain = self.potential(grown) - base
            if self.final_counts is not None and not prefilled:
                gain += self.still_to_count(self.finished(grown, cell), cell)
            value = finish * (gain + self.kit_value(block)) - 0.5 * (1.0 - finish)
            if best is None or value > best[0]:
                best = (value, cell)
        if best is None:
            return float("-inf"), (0, 0)
        return best

    def place_gain(self, cell: Cell, patch: int, value: int) -> float:
        """What one die of ``value`` on ``patch`` of the block at ``cell`` is worth."""
        placed = self.quilt[cell]
        block = self.block(placed.block_id)
        after = (*placed.filled[:patch], value, *placed.filled[patch + 1 :])
        worth = self.sew_value(cell)
        if all(v is not None for v in after):
            return worth
        return worth * 0.6 * (ease(block, after) - ease(block, placed.filled))
