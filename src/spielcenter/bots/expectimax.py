"""The dice core of the computer players: what five dice are worth, and the best basket.

Every final roll of the five yarn dice is one of 6^5 = 7 776 outcomes. The tables here hold one
number per outcome, as a numpy array of shape ``(6, 6, 6, 6, 6)`` indexed by the die values minus
one in colour order (red, blue, green, yellow, purple):

* :func:`sew_table` — for one block with its filling, which sets of dice (a 5-bit mask per set)
  sew it in each outcome; cached per ``(block, filled)``, because a block keeps its filling for
  many decisions;
* :func:`buy_table` — which sets of dice buy from the top (4 equal) or bottom (3 equal) shelf,
  finished scissors letting a die of any value stand in;
* :func:`plan_values` — the value of the best plan of disjoint actions (sewing, buying) in every
  outcome: a small knapsack over the 32 dice sets, vectorised over all outcomes;
* :func:`keep_values` — exact expectimax over the basket: the expected value of every one of the
  32 baskets when ``rerolls`` rerolls are left, each reroll costing ``reroll_cost``.

Averaging over the rerolled dice is a mean over their axes, so the whole expectimax (all 32
baskets, every outcome, two rerolls deep) is exact and takes milliseconds.

>>> import numpy as np
>>> flat = np.zeros(SHAPE); flat[5, 5, 5, 5, 5] = 1.0     # worth 1 only for five sixes
>>> round(float(keep_values(flat, (6, 6, 6, 6, 1), 1, 0.0)[0b11110]), 4)   # keep four sixes
0.1667
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import combinations, pairwise, permutations

import numpy as np
import numpy.typing as npt

from spielcenter.games.speedquilt.model import COLOURS, Block, Rule

from .memo import block_cache

__all__ = [
    "ALL_MASKS",
    "DICE",
    "SHAPE",
    "PlanAction",
    "best_plan",
    "buy_table",
    "index_of",
    "keep_values",
    "mask_colours",
    "plan_values",
    "rule_holds",
    "sew_table",
]

Table = npt.NDArray[np.float64]
Bits = npt.NDArray[np.uint32]

N_DICE = len(COLOURS)
SIDES = 6
SHAPE = (SIDES,) * N_DICE
ALL_MASKS = 1 << N_DICE
FULL = ALL_MASKS - 1
SUM_TARGET = 40

DICE: npt.NDArray[np.int64] = (np.indices(SHAPE).reshape(N_DICE, -1).T + 1).astype(np.int64)
"""Every outcome as a row of five die values, in the tables' flat order."""


def index_of(values: Sequence[int]) -> tuple[int, ...]:
    """The table index of five die values (red … purple)."""
    return tuple(v - 1 for v in values)


def mask_colours(mask: int) -> list[int]:
    """The dice (colour positions) in a 5-bit mask."""
    return [d for d in range(N_DICE) if mask >> d & 1]


# -- which dice do what, in every outcome ------------------------------------------------------


SEW_TABLES = 512
"""Sew tables kept (each 7 776 × 4 bytes: at most 16 MB). One game of four computers asks for
about 20 new ones and keeps reusing them, so this holds the blocks of some 20 tables in play at
once; what a miss costs is measured in docs/performance.md, "Where the memory went, and the
bounds now"."""


@block_cache(maxsize=SEW_TABLES)
def sew_table(block: Block, filled: tuple[int | None, ...]) -> Bits:
    """Per outcome, a 32-bit set of the dice masks that sew ``block`` from ``filled``.

    Bit ``m`` is set when the dice of mask ``m`` can fill exactly the empty patches so that each
    patch takes its die (value and colour as rolled) and the finished block keeps its rule.
    """
    empty = [i for i, v in enumerate(filled) if v is None]
    bits = np.zeros(len(DICE), dtype=np.uint32)
    if not empty or len(empty) > N_DICE:
        return bits
    for dice in permutations(range(N_DICE), len(empty)):
        ok = _assignment_fits(block, filled, empty, dice)
        if ok is not None:
            mask = sum(1 << d for d in dice)
            bits[ok] |= np.uint32(1 << mask)
    return bits


def _assignment_fits(
    block: Block, filled: tuple[int | None, ...], empty: list[int], dice: tuple[int, ...]
) -> npt.NDArray[np.bool_] | None:
    """Outcomes where die ``dice[k]`` on patch ``empty[k]`` (for all k) sews the block."""
    ok = np.ones(len(DICE), dtype=bool)
    columns: list[npt.NDArray[np.int64]] = []
    by_patch = dict(zip(empty, dice, strict=True))
    for i, patch in enumerate(block.patches):
        if i in by_patch:
            d = by_patch[i]
            if patch.colour is not None and patch.colour != COLOURS[d]:
                return None
            column = DICE[:, d]
            if patch.value is not None:
                ok &= column == patch.value
        else:
            known = filled[i]
            assert known is not None
            column = np.full(len(DICE), known, dtype=np.int64)
        columns.append(column)
    ok &= rule_holds(block, columns)
    return ok if ok.any() else None


def rule_holds(block: Block, columns: list[npt.NDArray[np.int64]]) -> npt.NDArray[np.bool_]:
    """Where the block's rule holds, for columns of patch values (one entry per filling)."""
    size = len(columns[0])
    ok = np.ones(size, dtype=bool)
    if block.rule is Rule.ASCENDING:
        for left, right in pairwise(columns):
            ok &= left < right
    elif block.rule is Rule.EQUAL:
        first: dict[str, npt.NDArray[np.int64]] = {}
        for patch, column in zip(block.patches, columns, strict=True):
            if patch.letter is not None:
                ok &= first.setdefault(patch.letter, column) == column
    elif block.rule is Rule.SUM40:
        ok &= sum(columns, np.zeros(size, dtype=np.int64)) >= SUM_TARGET
    return ok


@lru_cache(maxsize=8)
def buy_table(price: int, stand_ins: int = 0) -> Bits:
    """Per outcome, the dice masks of ``price`` dice showing one value (what buying needs); with
    finished scissors up to ``stand_ins`` of them may show anything."""
    bits = np.zeros(len(DICE), dtype=np.uint32)
    for dice in combinations(range(N_DICE), price):
        chosen = DICE[:, list(dice)]
        # The most common value among the chosen dice, counted for every outcome.
        most = np.max([(chosen == v).sum(axis=1) for v in range(1, SIDES + 1)], axis=0)
        ok = price - most <= stand_ins
        bits[ok] |= np.uint32(1 << sum(1 << d for d in dice))
    return bits


# -- the best plan of disjoint actions ---------------------------------------------------------


@dataclass(frozen=True)
class PlanAction:
    """One thing the dice may do: its name (for the caller), its value and where it works."""

    name: str
    value: float
    bits: Bits


def _used_masks(bits: Bits) -> list[int]:
    present = int(np.bitwise_or.reduce(bits)) if len(bits) else 0
    return [m for m in range(1, ALL_MASKS) if present >> m & 1]


def plan_values(actions: Sequence[PlanAction], floor: float = 0.0) -> Table:
    """The value of the best plan in every outcome (at least ``floor``), shape :data:`SHAPE`.

    Each action is done at most once and no die serves two actions: a knapsack over the 32 dice
    sets, computed for all outcomes at once.
    """
    best = np.zeros((ALL_MASKS, len(DICE)))
    for action in actions:
        if action.value <= 0:
            continue
        # All of an action's gains are read before any is written, so no plan does it twice.
        updates = []
        for s in _used_masks(action.bits):
            where = np.flatnonzero(action.bits >> np.uint32(s) & 1)
            rows = _SUPERSETS[s]
            cells = np.ix_(rows, where)
            updates.append((cells, best[np.ix_(rows ^ s, where)] + action.value))
        for cells, gain in updates:
            best[cells] = np.maximum(best[cells], gain)
    table: Table = np.maximum(best[FULL], floor).reshape(SHAPE)
    return table


_SUPERSETS = [np.array([m for m in range(ALL_MASKS) if m & s == s]) for s in range(ALL_MASKS)]
"""For every dice set, the sets that contain it (where an action on it may sit in a plan)."""


def best_plan(
    actions: Sequence[PlanAction],
    values: Sequence[int],
    free: int = FULL,
    masks: Sequence[Sequence[int]] | None = None,
) -> list[tuple[str, int]]:
    """The best plan for these five dice, using only the dice in ``free``: ``(action name, dice
    mask)`` in the order to do them. ``masks`` (per action, the dice sets that do it) replaces
    the tables' answer when a die no longer shows its own colour (a dye bath)."""
    if masks is None:
        flat = int(np.ravel_multi_index(index_of(values), SHAPE))
        masks = [[s for s in _used_masks(a.bits) if int(a.bits[flat]) >> s & 1] for a in actions]
    masks = [m if a.value > 0 else [] for a, m in zip(actions, masks, strict=True)]

    @cache
    def solve(k: int, free: int) -> tuple[float, tuple[tuple[str, int], ...]]:
        if k == len(actions):
            return 0.0, ()
        best = solve(k + 1, free)
        for s in masks[k]:
            if free & s == s:
                value, rest = solve(k + 1, free ^ s)
                if value + actions[k].value > best[0]:
                    best = (value + actions[k].value, ((actions[k].name, s), *rest))
        return best

    return list(solve(0, free)[1])


# -- expectimax over the basket ----------------------------------------------------------------


def _expected_after_keep(table: Table, keep: int) -> Table:
    """For every outcome: the mean of ``table`` when the dice outside ``keep`` are rerolled."""
    rerolled = tuple(d for d in range(N_DICE) if not keep >> d & 1)
    if not rerolled:
        return table
    return np.broadcast_to(table.mean(axis=rerolled, keepdims=True), SHAPE)


def with_rerolls(final: Table, rerolls: int, reroll_cost: float) -> Table:
    """The value of every outcome when ``rerolls`` rerolls are still allowed (stop any time)."""
    value = final
    for _ in range(rerolls):
        best = final.copy()
        for keep in range(FULL):
            np.maximum(best, _expected_after_keep(value, keep) - reroll_cost, out=best)
        value = best
    return value


_LATER: dict[tuple[int, int, float], tuple[Table, Table]] = {}
LATER_MEMO = 16


def _later(final: Table, rerolls: int, reroll_cost: float) -> Table:
    """:func:`with_rerolls`, remembered for the last few tables: deciding the basket and then
    rerolling ask about the same table twice."""
    key = (id(final), rerolls, reroll_cost)
    hit = _LATER.get(key)
    if hit is None or hit[0] is not final:
        if len(_LATER) >= LATER_MEMO:
            _LATER.clear()
        hit = (final, with_rerolls(final, rerolls, reroll_cost))
        _LATER[key] = hit
    return hit[1]


def keep_values(
    final: Table, dice: Sequence[int], rerolls: int, reroll_cost: float
) -> npt.NDArray[np.float64]:
    """The exact expected value of each basket (32 masks) for the dice ``dice`` now.

    Entry ``FULL`` (all dice kept) is stopping now: ``final`` at these dice. Every other mask is
    rerolling the rest, paying ``reroll_cost``, with ``rerolls - 1`` more rerolls to come.
    """
    at = index_of(dice)
    out = np.empty(ALL_MASKS)
    out[FULL] = final[at]
    if rerolls <= 0:
        out[:FULL] = -np.inf
        return out
    later = _later(final, rerolls - 1, reroll_cost)
    for keep in range(FULL):
        # Only the kept dice are known: fix them, average the rest (no full table needed).
        corner = tuple(at[d] if keep >> d & 1 else slice(None) for d in range(N_DICE))
        out[keep] = float(later[corner].mean()) - reroll_cost
    return out
