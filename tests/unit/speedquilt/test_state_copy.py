"""A position's copy (``GameState.copy``, the start of every move) is a deep copy: equal to
``copy.deepcopy`` and sharing no list or dict with the original, so a move never changes the
position it was made from (rules.py, ``apply``: "the old one is untouched")."""

from __future__ import annotations

import copy
import dataclasses
import random
from collections.abc import Iterator
from typing import Any

import pytest

from spielcenter.games.base import Status
from spielcenter.games.speedquilt.rules import Speedquilt
from spielcenter.games.speedquilt.state import GameState

from .engine_helpers import game

MUTABLE = (list, dict, set)


def containers(value: Any) -> Iterator[Any]:
    """Every mutable object reachable from ``value`` (lists, dicts, sets, dataclasses that are
    not frozen)."""
    if isinstance(value, MUTABLE):
        yield value
        items = value.items() if isinstance(value, dict) else ((None, v) for v in value)
        for key, item in items:
            yield from containers(key)
            yield from containers(item)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        if not value.__dataclass_params__.frozen:  # type: ignore[attr-defined]
            yield value
        for f in dataclasses.fields(value):
            yield from containers(getattr(value, f.name))
    elif isinstance(value, tuple):
        for item in value:
            yield from containers(item)


def positions(engine: Speedquilt, deal: int, moves: int) -> Iterator[GameState]:
    """The positions of a random game (every kind of move as likely), with undo and giving."""
    rng = random.Random(deal)
    state = engine.start(deal)
    for _ in range(moves):
        if engine.status(state) is not Status.PLAYING:
            return
        yield state
        options = {s: engine.legal_moves(state, s) for s in sorted(engine.to_act(state))}
        options = {s: m for s, m in options.items() if m}
        seat = rng.choice(sorted(options))
        kinds: dict[str, list[Any]] = {}
        for move in options[seat]:
            kinds.setdefault(type(move).__name__, []).append(move)
        state = engine.apply(state, rng.choice(kinds[rng.choice(sorted(kinds))]), seat)


@pytest.mark.parametrize(("players", "variant", "deal"), [(1, "solo", 11), (4, "table", 44)])
def test_a_copy_equals_a_deep_copy_and_shares_no_list_or_dict(
    players: int, variant: str, deal: int
) -> None:
    engine = game(players, variant)
    seen = 0
    for state in positions(engine, deal, 250):
        copied = state.copy()
        assert copied == copy.deepcopy(state)
        originals = {id(c) for c in containers(state)}
        assert not originals & {id(c) for c in containers(copied)}
        seen += 1
    assert seen >= 100
