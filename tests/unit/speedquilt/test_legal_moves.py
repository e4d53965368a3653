"""A seat's legal moves are exactly the moves the rules let pass, in a stable order (rules.py,
``legal_moves``), however the listing saves work: it checks what every move must meet once,
sees the seat's finished kits and dice worked out once for the position, and does not name a
die on a patch that does not take it (docs/performance.md, "A table event's CPU").

The rules' answer is asked here move by move (``reason``), over every move of each kind that
could be named in the position — every die on every empty patch, every set of equal-count dice
for every block of the shop on every free cell — along games of easy computers."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations, permutations
from typing import Any

import pytest

from spielcenter.bots import get_bot
from spielcenter.games.base import Status
from spielcenter.games.speedquilt import rules
from spielcenter.games.speedquilt.model import COLOURS, Deck
from spielcenter.games.speedquilt.moves import (
    BinDice,
    BinDraw,
    BinPlace,
    BinReturn,
    Buy,
    End,
    Give,
    Move,
    Pass,
    Placement,
    Remove,
    Reroll,
    Roll,
    Sew,
    Undo,
)
from spielcenter.games.speedquilt.rules import Speedquilt
from spielcenter.games.speedquilt.state import GameState, Phase
from spielcenter.games.speedquilt.turn import PRICE, available

from .engine_helpers import game


def every_placement(state: GameState, seat: int, colours: list[Any]) -> list[Placement]:
    """Each die of ``colours`` on each empty patch of the seat's quilt."""
    quilt = state.seats[seat].quilt
    return [
        Placement(colour, placed.block_id, i)
        for colour in colours
        for placed in quilt.values()
        for i, value in enumerate(placed.filled)
        if value is None
    ]


def every_move(engine: Speedquilt, state: GameState, seat: int) -> Iterator[Move]:
    """Every move of each kind that could be named now, in the listing's order of kinds."""
    if state.phase is Phase.CHOOSING:
        yield from rules._choices(state.seats[seat].hand)
        return
    if state.phase is Phase.SHOP_REMOVE:
        yield from (Remove(deck) for deck in Deck)
        return
    turn = state.turn
    assert turn is not None
    yield from (Roll(), Reroll(), End(), Undo(), Pass(), BinReturn())
    yield from rules._keeps()
    yield from rules._adjustments(rules.adjustable(state, seat))
    if seat == turn.seat and turn.rolls and state.phase is Phase.TURN:
        free = available(turn)
        quilt = state.seats[seat].quilt
        for placed in quilt.values():
            empty = [i for i, value in enumerate(placed.filled) if value is None]
            for dice in permutations(free, len(empty)) if empty else ():
                yield Sew(placed.block_id, tuple(zip(dice, empty, strict=True)))
        cells = rules._free_cells(quilt)
        for deck, shelf in state.shelves.items():
            for block_id in shelf:
                if block_id is not None:
                    for dice in combinations(free, PRICE[deck]):
                        yield from (Buy(block_id, cell, dice) for cell in cells)
        if turn.drawn is not None:
            yield from (BinPlace(cell) for cell in cells)
        if turn.actions == 0 and not turn.bin_used and turn.rolls >= 3:
            yield from (BinDraw(deck) for deck in Deck)
            singles = [
                p
                for p in every_placement(state, seat, free)
                if engine.reason(state, BinDice((p,)), seat) is None
            ]
            yield from (BinDice((p,)) for p in singles)
            for a, b in combinations(singles, 2):
                if COLOURS.index(a.colour) < COLOURS.index(b.colour):
                    yield BinDice((a, b))
    yield from (Give(p) for p in every_placement(state, seat, list(turn.dice)))


def positions(engine: Speedquilt, deal: int) -> Iterator[GameState]:
    """Every position of a game of easy computers."""
    bot, memories = get_bot("easy"), [{} for _ in range(engine.seats)]  # type: ignore[var-annotated]
    state = engine.start(deal)
    while engine.status(state) is Status.PLAYING:
        yield state
        acting = engine.to_act(state)
        waiting = sorted(s for s in acting if s != state.active)  # open windows first
        seat = waiting[0] if waiting else min(acting)
        move = bot.decide(engine, engine.view_for(state, seat), seat, memories[seat])
        state = engine.play(state, move, seat)


@pytest.mark.parametrize(("players", "deal", "every"), [(4, 1, 2), (2, 11, 1)])
def test_the_legal_moves_are_the_moves_the_rules_let_pass(
    players: int, deal: int, every: int
) -> None:
    engine = game(players)
    kinds: set[str] = set()
    for state in list(positions(engine, deal))[::every]:
        for seat in range(players):
            allowed = [
                m for m in every_move(engine, state, seat) if engine.reason(state, m, seat) is None
            ]
            if seat not in engine.to_act(state):
                allowed = []
            assert engine.legal_moves(state, seat) == allowed
            kinds |= {type(m).__name__ for m in allowed}
    # The games went through sewing, buying, giving and rolling again.
    assert {"Sew", "Buy", "Give", "Keep", "Reroll"} <= kinds


def test_a_solo_games_legal_moves_are_the_moves_the_rules_let_pass() -> None:
    engine = game(1, "solo")
    for state in positions(engine, 3):
        allowed = [m for m in every_move(engine, state, 0) if engine.reason(state, m, 0) is None]
        assert engine.legal_moves(state, 0) == allowed
