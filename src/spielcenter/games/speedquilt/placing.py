"""Putting dice on patches: the one check behind sewing, the bargain bin, giving and the giving
turn — a die may go on a patch only if the patch takes it and the block can still be finished.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from . import feasibility
from .model import Cell, Colour, Die, PlacedBlock, Quilt
from .options import Context

__all__ = ["cell_of", "fill", "fill_reason"]

Planned = tuple[Colour, str, int]
"""One die on one patch: (die colour, block id, patch index)."""


def cell_of(quilt: Quilt, block_id: str) -> Cell | None:
    """Where ``block_id`` lies in ``quilt`` (``None``: not there)."""
    for cell, placed in quilt.items():
        if placed.block_id == block_id:
            return cell
    return None


def fill_reason(
    ctx: Context, quilt: Quilt, planned: Iterable[Planned], dice: Mapping[Colour, Die]
) -> str | None:
    """Why these dice cannot go on these patches one after the other, or ``None``."""
    fills: dict[str, tuple[int | None, ...]] = {}
    for colour, block_id, patch in planned:
        cell = cell_of(quilt, block_id)
        if cell is None:
            return f"{block_id} is not in your quilt"
        block = ctx.block(block_id)
        filled = fills.get(block_id, quilt[cell].filled)
        if not 0 <= patch < len(block.patches):
            return f"{block_id} has no patch {patch + 1} (it has {len(block.patches)})"
        if filled[patch] is not None:
            return f"patch {patch + 1} of {block_id} is filled already"
        die = dice[colour]
        if not block.patches[patch].accepts(die.value, die.colour):
            shown = f"{die.value}, {die.colour}"
            return f"the {colour} die ({shown}) does not fit patch {patch + 1} of {block_id}"
        if not feasibility.can_place(block, filled, patch, die.value, die.colour):
            return (
                f"{block_id} could not be finished any more with {die.value} on patch {patch + 1}"
            )
        fills[block_id] = (*filled[:patch], die.value, *filled[patch + 1 :])
    return None


def fill(
    quilt: dict[Cell, PlacedBlock], planned: Iterable[Planned], dice: Mapping[Colour, Die]
) -> None:
    """Put the dice on the patches (checked before by :func:`fill_reason`)."""
    for colour, block_id, patch in planned:
        cell = cell_of(quilt, block_id)
        assert cell is not None
        old = quilt[cell]
        value = dice[colour].value
        quilt[cell] = PlacedBlock(
            old.block_id, (*old.filled[:patch], value, *old.filled[patch + 1 :])
        )
