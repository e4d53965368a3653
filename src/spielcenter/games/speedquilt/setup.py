"""Setting up: the shuffled decks, the shop, each seat's dealt four and the start choice.

Deal order (fixed, part of the product's promise): the pattern deck (catalogue id order) and the
kit deck are shuffled as :func:`dice.deal_order` says (from a deal number or a secret seed); the
top shelf takes the first pattern blocks left to right, the bottom shelf the first kits; then
each seat in seat order gets the next two pattern blocks and the next two kits. All seats choose
at once; when the last has chosen, the put-back blocks go under their decks in seat order and
every start row lies at cells (0,0), (1,0), (2,0).
"""

from __future__ import annotations

from spielcenter.games.base import Deal
from spielcenter.games.seeds import SecretSeed
from spielcenter.games.shuffle import check_deal

from .dice import deal_order
from .model import Deck, PlacedBlock
from .moves import Choose
from .options import Context
from .state import GameState, Phase, SeatState, TurnState

__all__ = ["START_CELLS", "apply_choose", "reason_choose", "start"]

START_CELLS = ((0, 0), (1, 0), (2, 0))
DEALT_PER_DECK = 2


def start(ctx: Context, deal: Deal) -> GameState:
    """The position before the start choice of ``deal`` (a deal number or a secret seed)."""
    if not isinstance(deal, SecretSeed):
        check_deal(deal)
    order = deal_order(deal, ctx.catalogue.pattern_ids, ctx.catalogue.kit_ids, ctx.seats)
    decks = {Deck.PATTERN: order.pattern, Deck.KIT: order.kit}
    shelves: dict[Deck, list[str | None]] = {}
    for deck in (Deck.PATTERN, Deck.KIT):
        size = ctx.options.shelf_size(deck)
        shelves[deck] = list(decks[deck][:size])
        del decks[deck][:size]
    seats = []
    for _ in range(ctx.seats):
        hand = decks[Deck.PATTERN][:DEALT_PER_DECK] + decks[Deck.KIT][:DEALT_PER_DECK]
        for deck in (Deck.PATTERN, Deck.KIT):
            del decks[deck][:DEALT_PER_DECK]
        seats.append(SeatState(hand=hand))
    return GameState(
        deal=deal,
        day=ctx.options.day,
        phase=Phase.CHOOSING,
        decks=decks,
        shelves=shelves,
        seats=seats,
        start_player=order.start_player,
    )


def reason_choose(state: GameState, move: Choose, seat: int) -> str | None:
    """Why the start choice is not allowed, or ``None``."""
    if state.phase is not Phase.CHOOSING:
        return "the start blocks have been chosen already"
    me = state.seats[seat]
    if me.chosen:
        return "you have chosen your start blocks already"
    named = {*move.row, move.returned}
    if named != set(me.hand):
        return "name your four dealt blocks: " + " ".join(me.hand)
    return None


def apply_choose(ctx: Context, state: GameState, move: Choose, seat: int) -> None:
    """Record the seat's choice; when every seat has chosen, lay out all start rows at once."""
    me = state.seats[seat]
    me.row, me.returned = list(move.row), move.returned
    if all(s.chosen for s in state.seats):
        _lay_out(ctx, state)


def _lay_out(ctx: Context, state: GameState) -> None:
    for me in state.seats:
        assert me.row is not None and me.returned is not None
        state.decks[ctx.block(me.returned).deck].append(me.returned)
        for cell, block_id in zip(START_CELLS, me.row, strict=True):
            me.quilt[cell] = empty_block(ctx, block_id)
        me.hand, me.row, me.returned = [], None, None
    state.phase = Phase.TURN
    state.turn = TurnState(seat=state.start_player)


def empty_block(ctx: Context, block_id: str) -> PlacedBlock:
    """A block as it enters a quilt: every patch empty."""
    return PlacedBlock(block_id, (None,) * len(ctx.block(block_id).patches))
