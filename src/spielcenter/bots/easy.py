"""The easy computer player: takes what fits now, keeps dice by feel, prefers kits.

It never rerolls when the dice on the table already do something, keeps the dice that match a
patch asking for that number or colour (or the largest group of equal values), never uses the
thimble or the dye bath, and likes kits more than they are worth. While giving it takes the
first die that fits, not the best one.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from spielcenter.games.base import JSON, Seat
from spielcenter.games.speedquilt.model import COLOURS
from spielcenter.games.speedquilt.moves import Move
from spielcenter.games.speedquilt.rules import Speedquilt
from spielcenter.games.speedquilt.state import GameState, TurnKind

from .evaluation import Outlook
from .expectimax import FULL, PlanAction, best_plan
from .player import Player

__all__ = ["Easy"]


class Easy(Player):
    """Leicht: nimmt, was gerade passt."""

    level = "easy"
    kit_bias = 1.8

    def give(self, game: Speedquilt, view: JSON, belief: GameState, seat: Seat) -> Iterator[Move]:
        """Take the first offered die that helps a patch, looking along the quilt in reading
        order (not the die that helps most), or pass."""
        turn = belief.turn
        assert turn is not None
        if turn.kind is TurnKind.GIVING:
            offered = [c for c in turn.dice if c not in turn.used]
        else:
            window = turn.windows.get(seat)
            offered = [c for c in window.offered if c not in window.taken] if window else []
        outlook = self.outlook(game, view, seat)
        order = {
            cell: k for k, cell in enumerate(sorted(outlook.quilt, key=lambda c: (c[1], c[0])))
        }
        cells = {p.block_id: cell for cell, p in outlook.quilt.items()}
        fitting = [p for p in self.placements(outlook, belief, seat, offered) if p[0] > 0]
        fitting.sort(key=lambda p: (order[cells[p[2]]], p[3], COLOURS.index(p[1])))
        for _, colour, block_id, patch in fitting:
            yield game.parse_move(f"give {colour} to {block_id}:{patch + 1}")
        yield game.parse_move("pass")

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
