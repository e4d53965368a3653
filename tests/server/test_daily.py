"""The daily quilt (seed 003, "Tagesquilt"), one test per rule sentence."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from spielcenter.games.speedquilt.dice import DiceKey, daily_deal, own_turn
from spielcenter.games.speedquilt.model import Colour
from spielcenter.services.daily import day_of
from spielcenter.settings import ConfigurationError, Settings

from .conftest import FakeClock
from .progress_world import World, choose_first, make_world, play_idle


async def _two_players(tmp_path: Path, clock: FakeClock) -> tuple[World, str, str]:
    world = await make_world(tmp_path, clock)
    return world, await world.account("anna", "Anna"), await world.account("bert", "Bert")


async def _start_and_roll(world: World, account_id: str) -> tuple[str, dict[str, Any]]:
    game_id = (await world.progress.daily.play(account_id))["game"]["id"]
    await choose_first(world.games, account_id, game_id)
    event = await world.games.move(account_id, game_id, "roll")
    return game_id, event["view"]


def _dice(view: dict[str, Any]) -> dict[str, int]:
    return {die["die"]: die["value"] for die in view["turn"]["dice"]}


def test_the_day_is_the_calendar_day_in_berlin() -> None:
    late_evening_utc = datetime(2026, 11, 29, 23, 30, tzinfo=UTC)
    assert day_of(late_evening_utc, "Europe/Berlin") == "2026-11-30"
    assert day_of(late_evening_utc, "UTC") == "2026-11-29"


def test_outside_development_the_daily_secret_is_required() -> None:
    with pytest.raises(ConfigurationError, match="SPIELCENTER_DAILY_SECRET"):
        Settings(ENV="production", SECRET_KEY="s3cret").check()


def test_the_daily_secret_keys_the_quilt() -> None:
    one = Settings(ENV="production", SECRET_KEY="k", DAILY_SECRET="one").daily_secret
    two = Settings(ENV="production", SECRET_KEY="k", DAILY_SECRET="two").daily_secret
    assert daily_deal("2026-11-29", one) != daily_deal("2026-11-29", two)


async def test_everyone_gets_the_same_start_blocks_and_shop(
    tmp_path: Path, clock: FakeClock
) -> None:
    world, anna, bert = await _two_players(tmp_path, clock)
    views = []
    for account in (anna, bert):
        game_id = (await world.progress.daily.play(account))["game"]["id"]
        live = await world.games.open(account, game_id)
        views.append(world.games.view(live))
    await world.close()
    assert views[0]["shop"] == views[1]["shop"]
    assert views[0]["seats"] == views[1]["seats"]


async def test_everyone_gets_the_same_dice_whatever_she_keeps(
    tmp_path: Path, clock: FakeClock
) -> None:
    world, anna, bert = await _two_players(tmp_path, clock)
    anna_game, anna_first = await _start_and_roll(world, anna)
    bert_game, bert_first = await _start_and_roll(world, bert)
    await world.games.move(anna, anna_game, "keep red blue")
    anna_second = (await world.games.move(anna, anna_game, "reroll"))["view"]
    bert_second = (await world.games.move(bert, bert_game, "reroll"))["view"]
    await world.close()
    assert _dice(anna_first) == _dice(bert_first)
    rerolled_by_anna = {c: v for c, v in _dice(anna_second).items() if c not in ("red", "blue")}
    assert rerolled_by_anna == {c: _dice(bert_second)[c] for c in rerolled_by_anna}
    assert {c: _dice(anna_second)[c] for c in ("red", "blue")} == {
        c: _dice(anna_first)[c] for c in ("red", "blue")
    }


async def test_no_message_contains_a_die_of_a_roll_not_yet_made(
    tmp_path: Path, clock: FakeClock
) -> None:
    world, anna, _ = await _two_players(tmp_path, clock)
    day = world.progress.daily.today()
    secret = world.settings.daily_secret
    stream = DiceKey.for_day(day, secret)
    game_id = (await world.progress.daily.play(anna))["game"]["id"]
    events = await play_idle(world.games, anna, game_id)
    await world.close()
    for event in events:
        text = json.dumps(event)
        assert str(daily_deal(day, secret)) not in text and secret.hex() not in text
        turn = event["view"].get("turn")
        if turn is None or turn["rolls"] == 0:
            assert turn is None or turn["dice"] == []
            continue
        label = own_turn(0) if turn["kind"] == "own" else "g"
        made = stream.roll(label, event["view"]["round"], turn["rolls"], tuple(Colour))
        assert _dice(event["view"]) == {str(c): v for c, v in made.items()}


async def test_only_the_first_attempt_of_the_day_enters_the_daily_list(
    tmp_path: Path, clock: FakeClock
) -> None:
    world, anna, _ = await _two_players(tmp_path, clock)
    first = await world.progress.daily.play(anna)
    await play_idle(world.games, anna, first["game"]["id"])
    second = await world.progress.daily.play(anna)
    await play_idle(world.games, anna, second["game"]["id"])
    board = await world.progress.leaderboards.daily(anna, world.progress.daily.today())
    status = await world.progress.daily.status(anna)
    await world.close()
    assert first["ranked"] is True and second["ranked"] is False
    assert board["total"] == 1 and board["me"]["rank"] == 1
    assert status["ranked"]["game_id"] == first["game"]["id"] and status["practice"] == 1


async def test_afterwards_she_may_practise_the_same_quilt(tmp_path: Path, clock: FakeClock) -> None:
    world, anna, _ = await _two_players(tmp_path, clock)
    first = await world.progress.daily.play(anna)
    await play_idle(world.games, anna, first["game"]["id"])
    second = await world.progress.daily.play(anna)
    starts = [
        (await world.progress.history.replay(anna, played["game"]["id"]))["steps"][0]["view"]
        for played in (first, second)
    ]
    await world.close()
    assert second["game"]["variant"] == first["game"]["variant"]
    assert starts[1] == starts[0]


async def test_an_unfinished_daily_quilt_is_continued_not_dealt_again(
    tmp_path: Path, clock: FakeClock
) -> None:
    world, anna, _ = await _two_players(tmp_path, clock)
    first = await world.progress.daily.play(anna)
    again = await world.progress.daily.play(anna)
    await world.close()
    assert again["game"]["id"] == first["game"]["id"] and again["ranked"] is True


async def test_a_new_day_brings_a_new_quilt(tmp_path: Path, clock: FakeClock) -> None:
    world, anna, _ = await _two_players(tmp_path, clock)
    today = await world.progress.daily.play(anna)
    clock.advance(24 * 3600)
    tomorrow = await world.progress.daily.play(anna)
    await world.close()
    assert tomorrow["day"] != today["day"] and tomorrow["ranked"] is True
    assert tomorrow["game"]["variant"] == f"daily-{tomorrow['day']}"
