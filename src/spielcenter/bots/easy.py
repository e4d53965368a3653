"""The easy computer player: takes what fits now, keeps dice by feel, prefers kits.

Easy never reckons. It stops rolling as soon as the dice on the table do anything, keeps the dice
that match a patch asking for that number or colour (or the largest group of equal values), and
then does whatever fits: a kit first, then sewing, then a pattern block — counting actions, not
points. From a shelf it takes the first block (left to right) that one turn could sew from empty,
and lays every new block in the first free cell in reading order, without planning lines. It
never uses the thimble or the dye bath, and while giving it takes the first die that fits, not
the best one.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from spielcenter.games.base import JSON, Seat
from spielcenter.games.speedquilt.model import COLOURS, Cell, Deck
from spielcenter.games.speedquilt.moves import Move
from spielcenter.games.speedquilt.rules import Speedquilt
from spielcenter.games.speedquilt.state import GameState

from .evaluation import Outlook, free_cells, sewable_from_empty
from .expectimax import FULL, PlanAction, best_plan, buy_table, sew_table
from .player import FULL_QUILT, Player, offered_dice, scissors

__all__ = ["KIT_LIKING", "PATTERN_LIKING", "SEW_LIKING", "Easy"]

KIT_LIKING = 3.0
"""How much easy likes buying a kit: more than anything else that fits."""
SEW_LIKING = 2.0
"""How much easy likes sewing a block: any block, whatever it scores."""
PATTERN_LIKING = 1.0
"""How much easy likes buying a pattern block: the least (it prefers kits)."""


class Easy(Player):
    """Leicht: nimmt, was gerade passt."""

    level = "easy"
    kit_bias = 1.8

    def give(self, game: Speedquilt, view: JSON, belief: GameState, seat: Seat) -> Iterator[Move]:
        """Take the first offered die that helps a patch, looking along the quilt in reading
        order (not the die that helps most), or pass."""
        offered = offered_dice(belief, seat)
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

    def _all_actions(
        self, view: JSON, outlook: Outlook, belief: GameState, seat: Seat
    ) -> list[PlanAction]:
        """What fits, liked by kind alone: a kit over sewing over a pattern block (so the plan
        does as many things as the dice allow, kits first, whatever each is worth)."""
        out = []
        for cell in sorted(outlook.quilt, key=lambda c: (c[1], c[0])):
            placed = outlook.quilt[cell]
            if not placed.finished:
                table = sew_table(outlook.block(placed.block_id), placed.filled)
                out.append(PlanAction(f"sew {placed.block_id}", SEW_LIKING, table))
        if len(outlook.quilt) < FULL_QUILT and self.may_grow(view, outlook, seat):
            for deck, price in ((Deck.KIT, 3), (Deck.PATTERN, 4)):
                pick = self.best_buy(outlook, belief.shelves[deck])
                if pick is not None:
                    liking, block_id, (x, y) = pick
                    table = buy_table(price, scissors(outlook))
                    out.append(PlanAction(f"buy {block_id} at {x},{y}", liking, table))
        return out

    def best_buy(self, outlook: Outlook, shelf: list[str | None]) -> tuple[float, str, Cell] | None:
        """The first block on the shelf (left to right) that one turn could sew from empty, in
        the first free cell — the one easy likes, not the most valuable one."""
        cells = free_cells(outlook.quilt)
        if not cells:
            return None
        for block_id in shelf:
            if block_id is not None and sewable_from_empty(outlook.block(block_id)):
                block = outlook.block(block_id)
                return (KIT_LIKING if block.kit else PATTERN_LIKING), block_id, cells[0]
        return None

    def place_drawn(
        self, game: Speedquilt, view: JSON, outlook: Outlook, block_id: str, seat: Seat
    ) -> Iterator[Move]:
        """Lay a blind-drawn block in the first free cell (it keeps what it draws)."""
        cells = free_cells(outlook.quilt)
        if cells and self.may_grow(view, outlook, seat):
            yield game.parse_move(f"bin place at {cells[0][0]},{cells[0][1]}")
        yield game.parse_move("bin return")
