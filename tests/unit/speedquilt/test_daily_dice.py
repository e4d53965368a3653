"""The dice stream and the daily quilt (seed 003 "Tagesquilt", speedquilt.md §6)."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from spielcenter.games.base import Status, UnknownGameError
from spielcenter.games.speedquilt.dice import DiceKey, daily_deal, own_turn
from spielcenter.games.speedquilt.model import COLOURS
from spielcenter.games.speedquilt.rules import Speedquilt
from spielcenter.games.speedquilt.state import GameState

from .engine_helpers import B, R, chosen, game, play

DAY, SECRET = "2026-11-29", b"the server's daily secret"


def _daily(day: str = DAY, secret: bytes = SECRET) -> tuple[Speedquilt, GameState]:
    engine = game(1, "daily", day=day, secret=secret)
    return engine, chosen(engine, daily_deal(day, secret))


def test_the_same_day_gives_the_same_dice_whatever_was_kept() -> None:
    engine, first = _daily()
    _, second = _daily()
    first = play(engine, first, 0, "roll", "keep red", "reroll")
    second = play(engine, second, 0, "roll", "reroll")  # nothing kept
    assert first.turn is not None and second.turn is not None
    assert first.turn.dice[B] == second.turn.dice[B]
    assert second.turn.dice[R] == DiceKey.for_day(DAY, SECRET).value(own_turn(0), 1, 2, R)


def test_the_same_day_gives_everyone_the_same_start_blocks_and_shop() -> None:
    engine, _ = _daily()
    one = engine.start(daily_deal(DAY, SECRET))
    two = engine.start(daily_deal(DAY, SECRET))
    assert one.seats[0].hand == two.seats[0].hand and one.shelves == two.shelves
    assert engine.start(daily_deal("2026-11-30", SECRET)).shelves != one.shelves


def _roll_of(key: DiceKey) -> list[int]:
    return [
        key.value(own_turn(0), r, k, c) for r in range(1, 5) for k in (1, 2, 3) for c in COLOURS
    ]


def test_another_day_gives_other_dice() -> None:
    assert _roll_of(DiceKey.for_day(DAY, SECRET)) != _roll_of(DiceKey.for_day("2026-11-30", SECRET))


def test_without_the_secret_the_dice_cannot_be_computed() -> None:
    assert _roll_of(DiceKey.for_day(DAY, SECRET)) != _roll_of(DiceKey.for_day(DAY, b"a guess"))
    assert daily_deal(DAY, SECRET) != daily_deal(DAY, b"a guess")


def test_an_ordinary_game_keys_its_dice_by_the_deal() -> None:
    assert _roll_of(DiceKey.for_deal(1)) != _roll_of(DiceKey.for_deal(2))
    assert _roll_of(DiceKey.for_deal(1)) == _roll_of(DiceKey.for_deal(1))


def test_every_face_of_a_die_comes_up_about_equally_often() -> None:
    key = DiceKey.for_deal(99)
    counts = Counter(
        key.value("s0", r, k, c) for r in range(400) for k in (1, 2, 3) for c in COLOURS
    )
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert all(abs(n - 1000) < 120 for n in counts.values())  # 6000 rolls; > 3.5 sigma


def test_the_daily_quilt_plays_12_rounds_without_a_target() -> None:
    engine, state = _daily()
    state.round = 12
    state = play(engine, state, 0, "roll", "end", "pass")
    assert engine.status(state) is Status.FINISHED


def test_the_daily_view_holds_neither_the_secret_nor_the_deal() -> None:
    engine, state = _daily()
    text = json.dumps(engine.view_for(state, 0))
    assert SECRET.decode() not in text
    assert str(daily_deal(DAY, SECRET)) not in text
    assert SECRET.decode() not in json.dumps(engine.encode(state))


def test_a_daily_quilt_needs_the_day_and_the_secret() -> None:
    with pytest.raises(UnknownGameError):
        game(1, "daily")
    with pytest.raises(UnknownGameError):
        game(1, "daily", day=DAY)


def test_a_secret_longer_than_blake2b_allows_is_refused() -> None:
    with pytest.raises(ValueError, match="secret"):
        DiceKey.for_day(DAY, b"x" * 65)
