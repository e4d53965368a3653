"""The normal computer player: plans blocks and purchases, but likes to reroll once more.

It values sewing and buying like the strong player (what a block will still count, which cell
suits it), and chooses the basket by exact expectimax — but only one roll deep, as if the next
roll were the last, and a reroll feels like a small gain rather than a gift to the others. So it
rolls again whenever a basket keeps its plan and a reroll is left (its plan dice stay in the
basket, so a reroll never loses the plan; it only gives the others their dice).
"""

from __future__ import annotations

from spielcenter.games.base import JSON
from spielcenter.games.speedquilt.state import GameState

from .evaluation import Outlook
from .expectimax import PlanAction, keep_values
from .player import Player

__all__ = ["Normal"]

REROLL_FONDNESS = 0.4
"""How much a reroll tempts the normal player (points it would give up to roll once more)."""


class Normal(Player):
    """Normal: plant Blöcke und Käufe, würfelt aber gern noch einmal nach."""

    level = "normal"

    def basket(
        self,
        view: JSON,
        outlook: Outlook,
        actions: list[PlanAction],
        values: list[int],
        rerolls: int,
        belief: GameState,
    ) -> int:
        """The basket with the best expected plan after one more roll."""
        final = self.final_table(actions)
        return int(keep_values(final, values, 1, -REROLL_FONDNESS).argmax())
