"""Solo: the giving turn after each own turn, the shop losing a block each round, 12 rounds.

A campaign stage or a daily quilt is this same engine with other :class:`~.options.Options`
(rounds, target, shelf sizes; for the daily quilt the day and secret that key the dice).
"""

from __future__ import annotations

from .dice import giving_turn
from .moves import Remove
from .options import Context
from .shop import take_rightmost
from .state import GameState, Phase, TurnKind, TurnState

__all__ = [
    "apply_remove",
    "finish_giving_turn",
    "giving_allowance",
    "reason_remove",
    "round_bonus",
    "start_giving_turn",
]

GIVING_DICE_BY_REROLLS = (3, 2, 1)
"""Dice placed in the giving turn after 0, 1, 2 (or more) rerolls in the own turn."""


def giving_allowance(rerolls: int) -> int:
    """How many dice she may place in the giving turn after ``rerolls`` rerolls."""
    return GIVING_DICE_BY_REROLLS[min(rerolls, len(GIVING_DICE_BY_REROLLS) - 1)]


def start_giving_turn(ctx: Context, state: GameState) -> None:
    """After her own turn: the five dice are rolled once for the giving turn."""
    own = state.turn
    assert own is not None
    if state.end_round is None and state.full_quilt_exists():
        state.end_round = state.round
    rerolls = own.rolls - 1
    dice = ctx.dice_key(state.deal).roll(giving_turn(), state.round, 1)
    state.phase = Phase.GIVING_TURN
    state.turn = TurnState(
        seat=0,
        kind=TurnKind.GIVING,
        rolls=1,
        dice=dice,
        rolling_over=True,
        allowance=giving_allowance(rerolls),
        own_rerolls=rerolls,
    )


def finish_giving_turn(ctx: Context, state: GameState) -> None:
    """The giving turn is over: the game ends, or a block leaves the shop."""
    if state.round >= min(ctx.options.max_rounds, state.end_round or ctx.options.max_rounds):
        state.finish()
        return
    state.turn = None
    if any(block_id is not None for shelf in state.shelves.values() for block_id in shelf):
        state.phase = Phase.SHOP_REMOVE
    else:
        _next_round(state)


def reason_remove(state: GameState, move: Remove) -> str | None:
    """Why the rightmost block of that shelf cannot leave the shop now, or ``None``."""
    if state.phase is not Phase.SHOP_REMOVE:
        return "a block leaves the shop only after the solo giving turn"
    if all(block_id is None for block_id in state.shelves[move.deck]):
        return f"the {move.deck} shelf is empty"
    return None


def apply_remove(state: GameState, move: Remove) -> None:
    """The rightmost block of the shelf leaves the shop; that ends the round."""
    block_id = take_rightmost(state, move.deck)
    assert block_id is not None
    state.removed.append(block_id)
    _next_round(state)


def _next_round(state: GameState) -> None:
    state.round += 1
    state.phase = Phase.TURN
    state.turn = TurnState(seat=0)


def round_bonus(ctx: Context, state: GameState) -> int:
    """Solo: 2 points for every round left after the round of the ninth block."""
    if not ctx.options.solo or state.end_round is None or state.final_round is None:
        return 0
    return ctx.options.bonus_per_round * (ctx.options.max_rounds - state.final_round)
