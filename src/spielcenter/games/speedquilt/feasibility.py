"""Whether a block can still be finished, and the ways to sew it.

The placement rule of the seed: *a die may only be placed where the block can still be
completed afterwards* — assuming any value 1–6 and any colour for the patches still empty, and
including the block's rule. The UI asks this for every patch and every die on every hover, so the
answers are cached per ``(block, filled)``.

>>> from spielcenter.games.speedquilt.model import Block, Deck, Patch, Rule, Colour
>>> stairs = Block("X", Deck.PATTERN, Colour.RED, (Patch(), Patch(), Patch(5)), Rule.ASCENDING)
>>> can_complete(stairs, (3, None, None))
True
>>> can_place(stairs, (3, None, None), 1, 5, Colour.BLUE)
False
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import permutations

from spielcenter.games.speedquilt.model import DIE_VALUES, Block, Colour, Die, Rule

__all__ = ["Filled", "SewingAssignment", "can_complete", "can_place", "sewing_assignments"]

Filled = tuple[int | None, ...]
"""The die value on each patch of a block, ``None`` for an empty patch."""

SewingAssignment = tuple[tuple[int, int], ...]
"""One way to sew: ``(patch index, die index)`` for every empty patch, in patch order."""

MAX_PIPS = max(DIE_VALUES)
MIN_PIPS = min(DIE_VALUES)
SUM_TARGET = 40


def can_complete(block: Block, filled: Filled) -> bool:
    """Whether the empty patches of ``block`` can still be filled so that the block is valid.

    Filled patches must show allowed values; the empty ones may take any value their patch allows
    (colours are assumed to fit). ``filled`` must have one entry per patch.
    """
    return _can_complete(block, tuple(filled))


def can_place(block: Block, filled: Filled, patch_index: int, value: int, colour: Colour) -> bool:
    """Whether a die (``value``, ``colour``) may go on patch ``patch_index`` of ``block`` now.

    The patch must exist, be empty and accept the die, and the block must stay completable.
    """
    if not 0 <= patch_index < len(block.patches) or filled[patch_index] is not None:
        return False
    if value not in DIE_VALUES or not block.patches[patch_index].accepts(value, colour):
        return False
    after = (*filled[:patch_index], value, *filled[patch_index + 1 :])
    return _can_complete(block, after)


def sewing_assignments(block: Block, filled: Filled, dice: Sequence[Die]) -> list[SewingAssignment]:
    """Every way to fill *all* empty patches of ``block`` at once with distinct ``dice``.

    Each way lists ``(patch index, die index)`` pairs in patch order; dice are identified by their
    index in ``dice``. An already finished block has no way to be sewn.
    """
    empty = [i for i, value in enumerate(filled) if value is None]
    if not empty or len(empty) > len(dice):
        return []
    fitting = [
        [d for d, die in enumerate(dice) if block.patches[i].accepts(die.value, die.colour)]
        for i in empty
    ]
    ways: list[SewingAssignment] = []
    for chosen in permutations(range(len(dice)), len(empty)):
        if all(d in fits for d, fits in zip(chosen, fitting, strict=True)):
            values = list(filled)
            for i, d in zip(empty, chosen, strict=True):
                values[i] = dice[d].value
            if _can_complete(block, tuple(values)):
                ways.append(tuple(zip(empty, chosen, strict=True)))
    return ways


# -- the rules, one small check each -----------------------------------------------------------


@lru_cache(maxsize=1 << 16)
def _can_complete(block: Block, filled: Filled) -> bool:
    if len(filled) != len(block.patches):
        raise ValueError(
            f"{block.id}: {len(filled)} patch values given, the block has {len(block.patches)}"
        )
    for patch, value in zip(block.patches, filled, strict=True):
        if value is not None and (value not in DIE_VALUES or patch.value not in (None, value)):
            return False
    if block.rule is Rule.ASCENDING:
        return _ascending_possible(block, filled)
    if block.rule is Rule.EQUAL:
        return _equal_possible(block, filled)
    if block.rule is Rule.SUM40:
        return _sum_possible(block, filled)
    return True


def _ascending_possible(block: Block, filled: Filled) -> bool:
    """Greedy from the left: give every empty patch the smallest value it may take."""
    lowest = MIN_PIPS
    for patch, value in zip(block.patches, filled, strict=True):
        fixed = value if value is not None else patch.value
        if fixed is None:
            fixed = lowest
        if fixed < lowest or fixed > MAX_PIPS:
            return False
        lowest = fixed + 1
    return True


def _equal_possible(block: Block, filled: Filled) -> bool:
    """Every letter's patches must be able to agree on one value (letters may share values)."""
    wanted: dict[str, int] = {}
    for patch, value in zip(block.patches, filled, strict=True):
        fixed = value if value is not None else patch.value
        if patch.letter is None or fixed is None:
            continue
        if wanted.setdefault(patch.letter, fixed) != fixed:
            return False
    return True


def _sum_possible(block: Block, filled: Filled) -> bool:
    """The best case — every empty patch at its highest allowed value — must reach 40."""
    best = 0
    for patch, value in zip(block.patches, filled, strict=True):
        if value is not None:
            best += value
        else:
            best += patch.value if patch.value is not None else MAX_PIPS
    return best >= SUM_TARGET
