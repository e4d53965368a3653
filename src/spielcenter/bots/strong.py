"""The strong computer player: exact expectimax over every basket, early action, the lead.

* Every keep/reroll choice is valued by its exact expectation over all outcomes of the rerolled
  dice, as deep as the rerolls left (:func:`.expectimax.keep_values`).
* Each reroll costs what it gifts the others (they each take a die) — or, solo, the die it takes
  from the giving turn — so it acts early.
* It reckons with what the decks may still hold (the blocks nobody has seen) when it draws
  blind, uses its thimble when that makes the plan better, and lays its ninth block only while
  it leads.
* Its own valuation looks to the end of the game: a block is worth what its scoring line will
  count once the quilt has filled up (``FINAL_COUNTS``), not only what it counts today, and a
  block with more patches than dice (it needs dice given or binned first) is reckoned finished
  at the rate measured for such blocks (``PREFILL_FINISH``), not by its one-turn chance of 0.
"""

from __future__ import annotations

from collections.abc import Mapping

from spielcenter.games.base import JSON
from spielcenter.games.speedquilt.model import Deck, Line
from spielcenter.games.speedquilt.state import GameState

from .evaluation import Outlook
from .expectimax import PlanAction, keep_values
from .player import Player
from .position import unseen_blocks

__all__ = ["Strong"]

GIFT_PER_OPPONENT = 0.35
"""Points a reroll hands to each other seat (the die she takes while giving)."""
SOLO_DIE = 0.8
"""Points a giving-turn die is worth solo (each reroll costs one)."""
FINAL_COUNTS: Mapping[Line, float] = {
    Line.FINISHED_LINE: 4.0,
    Line.FINISHED_NEIGHBOUR: 3.2,
    Line.COLOUR_BLOCK: 3.5,
    Line.COLOUR_NEIGHBOUR: 1.6,
    Line.KIT_KIND: 3.5,
    Line.MONO_LINE: 1.2,
    Line.ALL_COLOURS: 0.8,
    Line.FIXED: 1.0,
}
"""What each scoring line counts at the end of the strong player's games (its finished quilts
in docs/bots.md: mean points of a finished block over its points per count, a little lower;
for the flat lines how often they pay)."""
PREFILL_FINISH = 0.5
"""How often strong reckons a block with more patches than dice (the `≥ 40` blocks) gets
finished: a rate between what it finishes solo, against normal (who gives many dice) and against
easy (who gives few); measured with the revised catalogue, dice given onto them valued by their
pips, in docs/bots.md, "Catalogue balance" → "What the table found, and what was revised".
A block whose only obstacle is a repeated colour (P36, P41) is reckoned like any hard block: one
die given removes the obstacle."""


class Strong(Player):
    """Stark: rechnet Nachwürfe durch, handelt früh, legt den 9. Block nur in Führung."""

    level = "strong"
    uses_thimble = True
    uses_dye = True
    gift_per_opponent = GIFT_PER_OPPONENT
    solo_die = SOLO_DIE
    ninth_only_leading = True
    prefill_finish: float | None = PREFILL_FINISH
    final_counts: Mapping[Line, float] | None = FINAL_COUNTS

    def basket(
        self,
        view: JSON,
        outlook: Outlook,
        actions: list[PlanAction],
        values: list[int],
        rerolls: int,
        belief: GameState,
    ) -> int:
        """The basket of the highest exact expectation, net of what each reroll gives away."""
        final = self.final_table(actions)
        cost = self.reroll_cost(view, belief)
        return int(keep_values(final, values, rerolls, cost).argmax())

    def reroll_cost(self, view: JSON, belief: GameState) -> float:
        """What one reroll gives away (see :func:`gift_cost`)."""
        return gift_cost(view, belief, self.gift_per_opponent, self.solo_die)

    def draw_deck(self, view: JSON, outlook: Outlook) -> str:
        """The deck whose unseen blocks are worth most to this quilt, on average."""
        best = ("kit", float("-inf"))
        for deck in Deck:
            unseen = unseen_blocks(view, outlook.catalogue, deck)
            if unseen and view["decks"][str(deck)]:
                mean = sum(outlook.buy_value(b)[0] for b in unseen) / len(unseen)
                if mean > best[1]:
                    best = (str(deck), mean)
        return best[0]


def gift_cost(
    view: JSON, belief: GameState, per_opponent: float = GIFT_PER_OPPONENT, solo: float = SOLO_DIE
) -> float:
    """What one reroll gives away: a die to every other seat, or solo a giving-turn die."""
    others = len(view["seats"]) - 1
    if others == 0:
        turn = belief.turn
        # Solo: the giving turn shrinks from 3 dice to 2 to 1; the third reroll costs nothing.
        return solo if turn is not None and turn.rolls < 3 else 0.0
    return per_opponent * others
