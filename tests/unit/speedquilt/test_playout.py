"""Random playouts of whole games for 1, 2 and 4 seats, checking the invariants at every step."""

from __future__ import annotations

import json
import random
from collections import defaultdict

import pytest

from spielcenter.games.base import Status
from spielcenter.games.speedquilt.model import MAX_SIDE, bounding_box
from spielcenter.games.speedquilt.rules import Speedquilt
from spielcenter.games.speedquilt.state import GameState

from .engine_helpers import CATALOGUE, game

ALL_BLOCKS = sorted(CATALOGUE.pattern_ids + CATALOGUE.kit_ids)
MAX_MOVES = 3000


def _everywhere(state: GameState) -> list[str]:
    places = [b for pile in state.decks.values() for b in pile]
    places += [b for shelf in state.shelves.values() for b in shelf if b is not None]
    places += [b for seat in state.seats for b in seat.hand]
    places += [p.block_id for seat in state.seats for p in seat.quilt.values()]
    places += state.removed
    if state.turn is not None and state.turn.drawn is not None:
        places.append(state.turn.drawn[1])
    return places


def _private_of(state: GameState, seat: int) -> set[str]:
    """Block ids only ``seat`` may see now: her undecided hand and her blind draw; and the decks."""
    hidden = {b for pile in state.decks.values() for b in pile}
    if not state.seats[seat].quilt:
        hidden |= set(state.seats[seat].hand)
    if state.turn is not None and state.turn.drawn is not None and state.turn.seat == seat:
        hidden.add(state.turn.drawn[1])
    return hidden


def _check(engine: Speedquilt, state: GameState) -> None:
    assert sorted(_everywhere(state)) == ALL_BLOCKS
    for seat in state.seats:
        if seat.quilt:
            min_x, min_y, max_x, max_y = bounding_box(seat.quilt)
            assert max_x - min_x < MAX_SIDE and max_y - min_y < MAX_SIDE
    if state.turn is not None:
        assert len(set(state.turn.used)) == len(state.turn.used)
    data = engine.encode(state)
    assert engine.encode(engine.decode(json.loads(json.dumps(data)))) == data
    for viewer in [*range(len(state.seats)), None]:
        text = json.dumps(engine.view_for(state, viewer))
        for owner in range(len(state.seats)):
            if owner != viewer:
                assert not any(f'"{b}"' in text for b in _private_of(state, owner))
        if state.turn is not None and state.turn.dice:
            for die in engine.view_for(state, viewer)["turn"]["dice"]:
                mine = state.turn.adjustments.get(viewer, {}) if viewer is not None else {}
                if die["die"] not in mine:
                    assert die["value"] == state.turn.dice[die["die"]]


def _playout(engine: Speedquilt, deal: int) -> tuple[GameState, list[tuple[int, str]]]:
    rng = random.Random(deal)
    state = engine.start(deal)
    log: list[tuple[int, str]] = []
    while engine.status(state) is Status.PLAYING and len(log) < MAX_MOVES:
        options = {s: engine.legal_moves(state, s) for s in sorted(engine.to_act(state))}
        options = {s: moves for s, moves in options.items() if moves}
        seat = rng.choice(sorted(options))
        by_kind = defaultdict(list)
        for move in options[seat]:
            by_kind[type(move).__name__].append(move)
        move = rng.choice(by_kind[rng.choice(sorted(by_kind))])
        text = engine.format_move(move)
        state = engine.play(state, text, seat)
        log.append((seat, text))
        _check(engine, state)
    return state, log


@pytest.mark.parametrize(("players", "deal"), [(1, 101), (2, 202), (4, 404)])
def test_a_random_game_keeps_every_invariant_and_ends(players: int, deal: int) -> None:
    engine = game(players)
    state, log = _playout(engine, deal)
    assert engine.status(state) is Status.FINISHED
    assert engine.encode(engine.replay(deal, log)) == engine.encode(state)
