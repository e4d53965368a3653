"""How hard a block is: its exact chance to be sewn in one turn, and a difficulty measure.

**One-turn chance.** The five yarn dice (one of each colour) are rolled up to three times; before
each reroll the player keeps any of the current dice (she may also take kept dice back). The block
is sewn as soon as the dice on the table fill all its empty patches at once. Keeping is optimal for
this block alone. The chance is computed exactly (as a fraction) by expectimax over the keep
choices.

Two savings make all 70 blocks quick: results are cached per canonical dice position, and dice
whose colour no empty patch names are interchangeable, so they are kept as a sorted multiset.

**Difficulty.** ``1 − chance`` for blocks that one turn can sew. A block with more than five empty
patches, or two empty patches naming the same colour, can never be sewn in one turn (five dice of
five colours): some patches must first be filled one by one (bargain bin, giving). Such a block
counts as harder than every one-turn block: its difficulty is ``1 + k``, where ``k`` is the
smallest number of patches that must be filled beforehand.

>>> from spielcenter.games.speedquilt.model import Block, Deck, Patch
>>> one_turn_chance(Block("X", Deck.PATTERN, None, (Patch(6),)))  # 1 − (5/6)^15
Fraction(439667406451, 470184984576)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache
from itertools import product

from spielcenter.games.speedquilt.feasibility import Filled, can_complete
from spielcenter.games.speedquilt.model import COLOURS, DIE_VALUES, Block

__all__ = ["ROLLS", "difficulty", "one_turn_chance", "prefills_needed", "ranks", "spearman"]

ROLLS = 3
"""Rolls in a plain turn: the first roll and two rerolls."""

REROLLED = 0
"""Marks a die position that is being rerolled (not yet known)."""

Dice = tuple[int, ...]
"""Die values in colour order (``COLOURS``); ``REROLLED`` for a die not yet known."""


def prefills_needed(block: Block, filled: Filled | None = None) -> int:
    """The fewest empty patches that must be filled before one turn can sew the rest.

    Five dice of five different colours fill at most five patches, and at most one patch of
    each colour.
    """
    empty = _empty_indices(block, filled)
    named = Counter(block.patches[i].colour for i in empty if block.patches[i].colour is not None)
    same_colour_surplus = sum(count - 1 for count in named.values())
    return max(len(empty) - len(COLOURS), same_colour_surplus)


def one_turn_chance(block: Block, filled: Filled | None = None, rolls: int = ROLLS) -> Fraction:
    """The exact chance to sew ``block`` (from ``filled``; default empty) within ``rolls`` rolls."""
    start: Filled = tuple(filled) if filled is not None else (None,) * len(block.patches)
    if prefills_needed(block, start) > 0 or not can_complete(block, start):
        return Fraction(0)
    return _chance(block, start, rolls)


def difficulty(block: Block) -> float:
    """The difficulty measure of a block from empty (see the module docstring): higher is harder."""
    needed = prefills_needed(block)
    if needed > 0:
        return 1.0 + needed
    return float(1 - one_turn_chance(block))


@lru_cache(maxsize=256)
def _chance(block: Block, filled: Filled, rolls: int) -> Fraction:
    return _Expectimax(block, filled, rolls).chance()


def _empty_indices(block: Block, filled: Filled | None) -> list[int]:
    if filled is None:
        return list(range(len(block.patches)))
    return [i for i, value in enumerate(filled) if value is None]


class _Expectimax:
    """The keep-optimal chance over one turn, for one block from one filling.

    Positions are *canonical*: the values of the dice whose colour an empty patch names, in colour
    order, then the values of the other dice sorted (``REROLLED`` first). Chances are integers
    scaled by ``6^(5·rolls)``, which every intermediate value divides exactly.
    """

    def __init__(self, block: Block, filled: Filled, rolls: int) -> None:
        self.block = block
        self.filled = filled
        self.rolls = rolls
        self.empty = _empty_indices(block, filled)
        named = {block.patches[i].colour for i in self.empty}
        # Dice of colours no empty patch names behave alike: their order does not matter.
        self.named = tuple(i for i, colour in enumerate(COLOURS) if colour in named)
        self.free = tuple(i for i in range(len(COLOURS)) if i not in self.named)
        self.scale = len(DIE_VALUES) ** (len(COLOURS) * rolls)
        self._rolled: dict[tuple[int, Dice], int] = {}
        self._partial: dict[tuple[int, Dice], int] = {}
        self._keeps: dict[Dice, frozenset[Dice]] = {}
        # Whether a position sews the block does not depend on the roll: asked once per position.
        self._sewable: dict[Dice, bool] = {}
        # can_complete's own cache hashes the whole block at every call: this one knows it.
        self._completable: dict[Filled, bool] = {}

    def chance(self) -> Fraction:
        return Fraction(self.before_roll(1, (REROLLED,) * len(COLOURS)), self.scale)

    def before_roll(self, roll: int, key: Dice) -> int:
        """Scaled chance of success when the ``REROLLED`` dice of ``key`` are about to roll."""
        memo = (roll, key)
        if memo not in self._partial:
            if REROLLED not in key:
                self._partial[memo] = self.after_roll(roll, key)
            else:
                total = sum(self.before_roll(roll, child) for child in self._outcomes(key))
                self._partial[memo] = total // len(DIE_VALUES)
        return self._partial[memo]

    def after_roll(self, roll: int, key: Dice) -> int:
        """Scaled chance of success with the dice ``key`` on the table after roll ``roll``."""
        memo = (roll, key)
        if memo not in self._rolled:
            if self.sewable(key):
                best = self.scale
            elif roll >= self.rolls:
                best = 0
            else:
                best = max(self.before_roll(roll + 1, kept) for kept in self._keep_options(key))
            self._rolled[memo] = best
        return self._rolled[memo]

    def _outcomes(self, key: Dice) -> list[Dice]:
        """The six positions after one ``REROLLED`` die of ``key`` shows its value."""
        n = len(self.named)
        if REROLLED in key[:n]:
            at = key.index(REROLLED)
            return [(*key[:at], value, *key[at + 1 :]) for value in DIE_VALUES]
        free = key[n + 1 :]  # the first free die is a REROLLED one (they sort first)
        return [(*key[:n], *sorted((*free, value))) for value in DIE_VALUES]

    def _keep_options(self, key: Dice) -> frozenset[Dice]:
        """Every canonical position reachable by choosing which dice to keep (not all of them)."""
        if key not in self._keeps:
            n = len(self.named)
            named_choices = product(*((value, REROLLED) for value in key[:n]))
            free_choices = {
                tuple(
                    sorted(v if keep else REROLLED for v, keep in zip(key[n:], mask, strict=True))
                )
                for mask in product((True, False), repeat=len(key) - n)
            }
            options = {(*named, *free) for named in named_choices for free in free_choices}
            options.discard(key)
            self._keeps[key] = frozenset(options)
        return self._keeps[key]

    def sewable(self, key: Dice) -> bool:
        """Whether these five dice fill every empty patch at once."""
        if key not in self._sewable:
            dice = [REROLLED] * len(COLOURS)
            for position, value in zip(self.named + self.free, key, strict=True):
                dice[position] = value
            self._sewable[key] = self._search(list(self.filled), 0, frozenset(), tuple(dice))
        return self._sewable[key]

    def _completes(self, values: Filled) -> bool:
        if values not in self._completable:
            self._completable[values] = can_complete(self.block, values)
        return self._completable[values]

    def _search(self, values: list[int | None], k: int, used: frozenset[int], dice: Dice) -> bool:
        if k == len(self.empty):
            return True
        patch_index = self.empty[k]
        patch = self.block.patches[patch_index]
        for d, value in enumerate(dice):
            if d in used or not patch.accepts(value, COLOURS[d]):
                continue
            values[patch_index] = value
            fits = self._completes(tuple(values))
            if fits and self._search(values, k + 1, used | {d}, dice):
                values[patch_index] = None
                return True
            values[patch_index] = None
        return False


def ranks(values: Sequence[float]) -> list[float]:
    """The rank of each value (1 = smallest); tied values share the mean of their ranks."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    result = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        for k in range(start, end + 1):
            result[order[k]] = (start + end) / 2 + 1
        start = end + 1
    return result


def spearman(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Spearman's rank correlation: the Pearson correlation of the ranks (ties averaged).

    >>> spearman([1, 2, 3, 4], [10, 20, 25, 100])
    1.0
    """
    if len(xs) != len(ys) or len(xs) < 2:
        raise ValueError("rank correlation needs two equally long series of at least two values")
    rx, ry = ranks(xs), ranks(ys)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    vx = sum((a - mx) ** 2 for a in rx)
    vy = sum((b - my) ** 2 for b in ry)
    if vx == 0 or vy == 0:
        raise ValueError("rank correlation is undefined when one series is constant")
    return float(cov / (vx * vy) ** 0.5)
