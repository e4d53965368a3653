"""The easy computer player: takes what fits now, keeps dice by feel, prefers kits.

It never rerolls when the dice on the table already do something, keeps the dice that match a
patch asking for that number or colour (or the largest group of equal values), never uses the
thimble or the dye bath, and likes kits more than they are worth.
"""

from __future__ import annotations

from collections import Counter

from spielcenter.games.base import JSON
from spielcenter.games.speedquilt.model import COLOURS
from spielcenter.games.speedquilt.state import GameState

from .evaluation import Outlook
from .expectimax import FULL, PlanAction, best_plan
from .player import Player

__all__ = ["Easy"]


class Easy(Player):
    """Leicht: nimmt, was gerade passt."""

    level = "easy"
    kit_bias = 1.8

    def basket(
        self,
        view: JSON,
        outlook: Outlook,
        actions: list[PlanAction],
        values: list[int],
        rerolls: int,
        belief: GameState,
    ) -> int:
        """Stop as soon as the dice do anything; else keep the dice that feel right."""
        if best_plan(actions, values):
            return FULL
        keep = 0
        for placed in outlook.quilt.values():
            block = outlook.block(placed.block_id)
            for patch, filled in zip(block.patches, placed.filled, strict=True):
                if filled is not None or (patch.value is None and patch.colour is None):
                    continue
                for d, colour in enumerate(COLOURS):
                    if patch.accepts(values[d], colour):
                        keep |= 1 << d
        value, count = Counter(values).most_common(1)[0]
        if count >= 2:
            keep |= sum(1 << d for d, v in enumerate(values) if v == value)
        return keep if keep != FULL else FULL ^ (1 << values.index(min(values)))
