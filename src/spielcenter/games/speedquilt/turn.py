"""A seat's own turn: rolling, the basket, sewing, buying, undo and the end of the turn.

Each move has a ``reason_*`` (why it is not allowed now, ``None`` if it is) and an ``apply_*``
(which trusts that the reason was ``None``). Both work on the game's own copy of the state.
"""

from __future__ import annotations

from . import model
from .dice import own_turn
from .giving import open_windows
from .kits import dice_seen_by, finished_kits, spend_use, stand_ins, uses_left
from .model import COLOURS, Colour, Deck, KitKind
from .moves import Buy, Keep, Sew
from .options import Context
from .placing import cell_of, fill, fill_reason
from .setup import empty_block
from .shop import find_on_shelf, take_from_shelf
from .solo import start_giving_turn
from .state import GameState, Phase, TurnKind, TurnState, snapshot

__all__ = [
    "BASE_ROLLS",
    "PRICE",
    "apply_buy",
    "apply_end",
    "apply_keep",
    "apply_reroll",
    "apply_roll",
    "apply_sew",
    "apply_undo",
    "available",
    "max_rolls",
    "may_reroll",
    "own_turn_of",
    "reason_buy",
    "reason_end",
    "reason_keep",
    "reason_reroll",
    "reason_roll",
    "reason_sew",
    "reason_undo",
]

BASE_ROLLS = 3
"""One roll and up to two rerolls; each finished sewing machine adds one."""
PRICE = {Deck.KIT: 3, Deck.PATTERN: 4}
"""Equal dice needed to buy from each shelf."""


def own_turn_of(state: GameState, seat: int) -> TurnState | None:
    """The turn, if it is ``seat``'s own turn."""
    turn = state.turn
    if state.phase is Phase.TURN and turn is not None and turn.seat == seat:
        return turn
    return None


def available(turn: TurnState) -> list[Colour]:
    """The rolled dice not used yet in this turn, in dice order."""
    return [c for c in COLOURS if c in turn.dice and c not in turn.used]


def max_rolls(ctx: Context, state: GameState, seat: int) -> int:
    """How many rolls the seat has in her turn."""
    return BASE_ROLLS + finished_kits(ctx, state, seat)[KitKind.SEWING_MACHINE]


# -- rolling ------------------------------------------------------------------------------------


def reason_roll(state: GameState, seat: int) -> str | None:
    """The first roll of the turn."""
    turn = own_turn_of(state, seat)
    if turn is None:
        return "you can roll only in your own turn"
    if turn.rolls:
        return "the dice are rolled already; reroll instead"
    return None


def apply_roll(ctx: Context, state: GameState, seat: int) -> None:
    """Roll all five dice."""
    turn = state.turn
    assert turn is not None
    turn.rolls = 1
    turn.dice = ctx.dice_key(state.deal).roll(own_turn(seat), state.round, 1)


def _rolling_reason(ctx: Context, state: GameState, seat: int) -> str | None:
    turn = own_turn_of(state, seat)
    if turn is None:
        return "only the active seat rolls"
    if not turn.rolls:
        return "roll first"
    if turn.rolling_over:
        return "rolling is over: you have acted in this turn"
    if turn.rolls >= max_rolls(ctx, state, seat):
        return "you have no reroll left"
    return None


def may_reroll(ctx: Context, state: GameState, seat: int) -> bool:
    """Whether ``seat`` is rolling now with a reroll left: without, every :class:`Keep` of hers
    is refused."""
    return _rolling_reason(ctx, state, seat) is None


def reason_keep(ctx: Context, state: GameState, move: Keep, seat: int) -> str | None:
    """Filling the basket before a reroll; a keep must change the basket (a no-op would only
    lengthen the log and wake every other seat)."""
    why = _rolling_reason(ctx, state, seat)
    if why:
        return why
    assert state.turn is not None
    if set(move.colours) == set(state.turn.basket):
        return "the basket holds exactly these dice already"
    return None


def apply_keep(state: GameState, move: Keep) -> None:
    """The basket holds exactly the named dice."""
    assert state.turn is not None
    state.turn.basket = list(move.colours)


def reason_reroll(ctx: Context, state: GameState, seat: int) -> str | None:
    """A reroll of the dice outside the basket."""
    why = _rolling_reason(ctx, state, seat)
    if why:
        return why
    turn = state.turn
    assert turn is not None
    if turn.windows:
        waiting = ", ".join(f"seat {s}" for s in sorted(turn.windows))
        return f"wait until the others have taken their dice ({waiting})"
    if len(turn.basket) == len(COLOURS):
        return "every die is in the basket: nothing would be rolled"
    return None


def apply_reroll(ctx: Context, state: GameState, seat: int) -> None:
    """Roll the dice outside the basket; every other seat gets a giving window on them."""
    turn = state.turn
    assert turn is not None
    turn.rolls += 1
    rolled = [c for c in COLOURS if c not in turn.basket]
    key = ctx.dice_key(state.deal)
    turn.dice.update(key.roll(own_turn(seat), state.round, turn.rolls, tuple(rolled)))
    for adjusted in turn.adjustments.values():
        for colour in rolled:
            adjusted.pop(colour, None)
    turn.undo.clear()
    open_windows(state, rolled)


# -- acting -------------------------------------------------------------------------------------


def _acting_reason(state: GameState, seat: int) -> str | None:
    turn = own_turn_of(state, seat)
    if turn is None:
        return "you can act only in your own turn"
    if not turn.rolls:
        return "roll first"
    if turn.bin_used:
        return "the bargain bin was this turn's only action"
    return None


def _dice_reason(turn: TurnState, colours: list[Colour]) -> str | None:
    for colour in colours:
        if colour in turn.used:
            return f"the {colour} die is used already in this turn"
    return None


def reason_sew(ctx: Context, state: GameState, move: Sew, seat: int) -> str | None:
    """Sewing: every empty patch of the block filled at once, each die fitting."""
    why = _acting_reason(state, seat)
    if why:
        return why
    turn = state.turn
    assert turn is not None
    quilt = state.seats[seat].quilt
    cell = cell_of(quilt, move.block_id)
    if cell is None:
        return f"{move.block_id} is not in your quilt"
    empty = {i for i, v in enumerate(quilt[cell].filled) if v is None}
    if not empty:
        return f"{move.block_id} is finished already"
    if {patch for _, patch in move.dice} != empty:
        numbers = " ".join(str(i + 1) for i in sorted(empty))
        return f"a block is sewn only when all its empty patches are filled at once: {numbers}"
    why = _dice_reason(turn, [c for c, _ in move.dice])
    if why:
        return why
    planned = [(c, move.block_id, patch) for c, patch in move.dice]
    return fill_reason(ctx, quilt, planned, dice_seen_by(turn, seat))


def apply_sew(ctx: Context, state: GameState, move: Sew, seat: int) -> None:
    """Fill the patches; the block is finished."""
    turn = state.turn
    assert turn is not None
    turn.undo.append(snapshot(state, turn))
    planned = [(c, move.block_id, patch) for c, patch in move.dice]
    fill(state.seats[seat].quilt, planned, dice_seen_by(turn, seat))
    _acted(turn, [c for c, _ in move.dice])


def _acted(turn: TurnState, colours: list[Colour]) -> None:
    turn.used.extend(colours)
    turn.actions += 1
    turn.rolling_over = True


def reason_buy(ctx: Context, state: GameState, move: Buy, seat: int) -> str | None:
    """Buying: equal dice for a block of the shop, placed touching the quilt within 3 × 3."""
    why = _acting_reason(state, seat)
    if why:
        return why
    turn = state.turn
    assert turn is not None
    if turn.drawn is not None:
        return "place or return the drawn block first"
    where = find_on_shelf(state, move.block_id)
    if where is None:
        return f"{move.block_id} is not in the shop"
    deck = where[0]
    if len(move.dice) != PRICE[deck]:
        what = "a kit" if deck is Deck.KIT else "a pattern block"
        return f"{what} costs {PRICE[deck]} dice of equal value, not {len(move.dice)}"
    why = _dice_reason(turn, list(move.dice))
    if why:
        return why
    seen = dice_seen_by(turn, seat)
    extra = stand_ins([seen[c].value for c in move.dice])
    if extra > uses_left(ctx, state, seat, KitKind.SCISSORS):
        return "buying needs dice of equal value (a finished scissors lets one die stand in)"
    if not model.can_place(state.seats[seat].quilt.keys(), move.cell):
        return _placement_fault(state, seat, move.cell)
    return None


def _placement_fault(state: GameState, seat: int, cell: model.Cell) -> str:
    quilt = state.seats[seat].quilt
    where = f"{cell[0]},{cell[1]}"
    if cell in quilt:
        return f"cell {where} is taken"
    if not any(other in quilt for other in model.touching(cell)):
        return f"a block at {where} would not touch your quilt at an edge or corner"
    return f"a block at {where} would make your quilt larger than 3 × 3"


def apply_buy(ctx: Context, state: GameState, move: Buy, seat: int) -> None:
    """Take the block off its shelf (which slides and refills) and lay it into the quilt."""
    turn = state.turn
    assert turn is not None
    turn.undo.append(snapshot(state, turn))
    where = find_on_shelf(state, move.block_id)
    assert where is not None
    seen = dice_seen_by(turn, seat)
    extra = stand_ins([seen[c].value for c in move.dice])
    if extra:
        spend_use(turn, seat, KitKind.SCISSORS, extra)
    if state.decks[where[0]]:
        turn.revealed = True  # the refill comes face up: undo will not hide it again
    take_from_shelf(state, *where)
    state.seats[seat].quilt[move.cell] = empty_block(ctx, move.block_id)
    _acted(turn, list(move.dice))


def reason_undo(state: GameState, seat: int) -> str | None:
    """Undo: only the active seat's own sewing, buying and adjustments of this turn."""
    turn = own_turn_of(state, seat)
    if turn is None:
        return "only the active seat can undo, and only in her own turn"
    if not turn.undo:
        return "nothing to undo since the last roll or blind draw"
    return None


def apply_undo(state: GameState, seat: int) -> None:
    """Restore what the last sewing, buying or adjustment changed."""
    turn = state.turn
    assert turn is not None
    saved = turn.undo.pop()
    state.seats[seat].quilt = saved.quilt
    state.shelves, state.decks = saved.shelves, saved.decks
    turn.used, turn.actions = saved.used, saved.actions
    turn.kit_uses[seat] = saved.kit_uses
    turn.adjustments[seat] = saved.adjustments


# -- the end of the turn ------------------------------------------------------------------------


def reason_end(state: GameState, seat: int) -> str | None:
    """Ending the turn: after rolling, with every giving window closed and no drawn block."""
    turn = own_turn_of(state, seat)
    if turn is None:
        return "only the active seat can end her turn"
    if not turn.rolls:
        return "roll first"
    if turn.windows:
        waiting = ", ".join(f"seat {s}" for s in sorted(turn.windows))
        return f"wait until the others have taken their dice ({waiting})"
    if turn.drawn is not None:
        return "place or return the drawn block first"
    return None


def apply_end(ctx: Context, state: GameState, seat: int) -> None:
    """Pass the dice on; the ninth block triggers the end (this round, then one more)."""
    if ctx.options.solo:
        start_giving_turn(ctx, state)
        return
    if state.end_round is None and state.full_quilt_exists():
        state.end_round = state.round + 1
    following = (seat + 1) % ctx.seats
    if following == state.start_player:
        last = min(ctx.options.max_rounds, state.end_round or ctx.options.max_rounds)
        if state.round >= last:
            state.finish()
            return
        state.round += 1
    state.turn = TurnState(seat=following, kind=TurnKind.OWN)
