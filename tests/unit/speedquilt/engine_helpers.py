"""Building Speedquilt positions for the engine tests: start, choose, and constructed states."""

from __future__ import annotations

from itertools import product
from typing import Any

from spielcenter.games import get_game
from spielcenter.games.speedquilt import feasibility
from spielcenter.games.speedquilt.catalogue import load_catalogue
from spielcenter.games.speedquilt.model import (
    COLOURS,
    Block,
    Cell,
    Colour,
    Deck,
    KitKind,
    PlacedBlock,
)
from spielcenter.games.speedquilt.rules import Speedquilt
from spielcenter.games.speedquilt.state import GameState, Phase, TurnState

CATALOGUE = load_catalogue()
R, B, G, Y, P = COLOURS


def game(players: int = 2, variant: str = "table", **options: Any) -> Speedquilt:
    """A Speedquilt engine."""
    engine = get_game("speedquilt", variant, players=players, **options)
    assert isinstance(engine, Speedquilt)
    return engine


def chosen(engine: Speedquilt, deal: int = 1) -> GameState:
    """The position after every seat made her first legal start choice."""
    state = engine.start(deal)
    for seat in range(engine.seats):
        state = engine.apply(state, engine.legal_moves(state, seat)[0], seat)
    return state


def block(block_id: str) -> Block:
    """The catalogue block."""
    return CATALOGUE.block(block_id)


def kit(kind: KitKind, nth: int = 0) -> str:
    """The id of the ``nth`` kit of that kind."""
    return [b.id for b in CATALOGUE.kits if b.kit is kind][nth]


def completion(block_id: str) -> tuple[int, ...]:
    """Some valid values for every patch of the block (it is finished with them)."""
    target = block(block_id)
    for values in product(range(1, 7), repeat=len(target.patches)):
        if feasibility.can_complete(target, values) and all(
            p.value in (None, v) for p, v in zip(target.patches, values, strict=True)
        ):
            return values
    raise AssertionError(f"{block_id} cannot be finished")


def out_of_play(state: GameState, block_id: str) -> None:
    """Take a block out of decks, shop and quilts so that it can be laid into a constructed quilt.

    A shelf slot it leaves is refilled from the bottom of its deck.
    """
    deck = block(block_id).deck
    if block_id in state.decks[deck]:
        state.decks[deck].remove(block_id)
    shelf = state.shelves[deck]
    if block_id in shelf:
        shelf[shelf.index(block_id)] = state.decks[deck].pop()
    for seat in state.seats:
        for cell, placed in list(seat.quilt.items()):
            if placed.block_id == block_id:
                del seat.quilt[cell]


def lay(
    state: GameState,
    seat: int,
    cell: Cell,
    block_id: str,
    filled: tuple[int | None, ...] | None = None,
    finished: bool = False,
) -> GameState:
    """Lay a block into a seat's quilt (empty, given values, or finished)."""
    out_of_play(state, block_id)
    values: tuple[int | None, ...]
    if finished:
        values = completion(block_id)
    elif filled is not None:
        values = filled
    else:
        values = (None,) * len(block(block_id).patches)
    state.seats[seat].quilt[cell] = PlacedBlock(block_id, values)
    return state


def clear_quilt(state: GameState, seat: int) -> GameState:
    """Put the seat's start row back under the decks: an empty quilt to build on."""
    for placed in state.seats[seat].quilt.values():
        state.decks[block(placed.block_id).deck].append(placed.block_id)
    state.seats[seat].quilt.clear()
    return state


def rolled(
    state: GameState, seat: int, values: list[int], rolls: int = 1, **turn: Any
) -> GameState:
    """Make it ``seat``'s own turn with the dice showing ``values`` (red … purple)."""
    state.phase = Phase.TURN
    state.turn = TurnState(
        seat=seat, rolls=rolls, dice=dict(zip(COLOURS, values, strict=True)), **turn
    )
    return state


def shelf_block(state: GameState, deck: Deck, slot: int = 0) -> str:
    """The block in a slot of a shelf."""
    block_id = state.shelves[deck][slot]
    assert block_id is not None
    return block_id


def play(engine: Speedquilt, state: GameState, seat: int, *moves: str) -> GameState:
    """Play moves (validated) for one seat."""
    for text in moves:
        state = engine.play(state, text, seat)
    return state


def colour_of(name: str) -> Colour:
    """A colour by name."""
    return Colour(name)
