"""Leaderboards (seed 003, "Ende und Wertung", "Kampagne allein", "Tagesquilt")."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from spielcenter.games.speedquilt.scoring import leaderboard_points
from spielcenter.services.common import ServiceError
from spielcenter.services.leaderboards import TOP
from spielcenter.store.models import CampaignRecord, DailyAttempt, GameRecord, TableResult

from .conftest import FakeClock
from .progress_world import World, make_world

DAY = "2026-01-01"


async def _table(
    world: World, table: str, account: str, points: int, place: int, ago: float
) -> None:
    async with world.games.sessionmaker.begin() as db:
        db.add(
            TableResult(
                table_id=table,
                account_id=account,
                points=points,
                place=place,
                leaderboard_points=leaderboard_points(place, points),
                seats=3,
                finished_at=world.games.clock() - timedelta(days=ago),
            )
        )


async def _campaign(world: World, account: str, stage: int, points: int, hours: float) -> None:
    now = world.games.clock()
    async with world.games.sessionmaker.begin() as db:
        db.add(
            CampaignRecord(
                account_id=account,
                stage=1,
                spools=2,
                points=0,
                best_stage=stage,
                best_points=points,
                best_at=now + timedelta(hours=hours),
                updated_at=now,
            )
        )


async def _daily(world: World, account: str, points: int, empty: int, minutes: float) -> None:
    now = world.games.clock()
    async with world.games.sessionmaker.begin() as db:
        game = GameRecord(
            id=f"g-{account}",
            account_id=account,
            game="speedquilt",
            variant=f"daily-{DAY}",
            deal=1,
            status="finished",
            created_at=now,
        )
        db.add(game)
        await db.flush()
        db.add(
            DailyAttempt(
                game_id=game.id,
                account_id=account,
                day=DAY,
                ranked=True,
                points=points,
                empty_patches=empty,
                created_at=now,
                finished_at=now + timedelta(minutes=minutes),
            )
        )


def _names(board: dict[str, object]) -> list[tuple[int, str]]:
    return [(e["rank"], e["name"]) for e in board["entries"]]  # type: ignore[attr-defined]


def test_table_points_are_five_per_game_point_plus_fifty_twenty_five_ten() -> None:
    assert [leaderboard_points(place, 20) for place in (1, 2, 3, 4)] == [150, 125, 110, 100]


async def test_the_table_list_sums_the_points_of_the_week_month_and_all_time(
    tmp_path: Path, clock: FakeClock
) -> None:
    world = await make_world(tmp_path, clock)  # the clock stands on Thursday 2026-01-01
    anna, bert = await world.account("anna", "Anna"), await world.account("bert", "Bert")
    await _table(world, "t1", anna, 10, 1, ago=0)  # 100 this week
    await _table(world, "t2", bert, 12, 2, ago=0)  # 85 this week
    await _table(world, "t3", bert, 30, 1, ago=5)  # 200 last week, last month
    boards = {
        p: await world.progress.leaderboards.tables(anna, p) for p in ("week", "month", "all")
    }
    await world.close()
    assert _names(boards["week"]) == [(1, "Anna"), (2, "Bert")]
    assert [e["points"] for e in boards["week"]["entries"]] == [100, 85]
    assert _names(boards["month"]) == [(1, "Anna"), (2, "Bert")]
    assert _names(boards["all"]) == [(1, "Bert"), (2, "Anna")]
    assert boards["all"]["entries"][0]["points"] == 285


async def test_an_unknown_period_is_refused(tmp_path: Path, clock: FakeClock) -> None:
    world = await make_world(tmp_path, clock)
    with pytest.raises(ServiceError) as refused:
        await world.progress.leaderboards.tables("anna", "year")
    await world.close()
    assert refused.value.code == "bad_request"


async def test_the_campaign_list_is_highest_stage_then_campaign_points(
    tmp_path: Path, clock: FakeClock
) -> None:
    world = await make_world(tmp_path, clock)
    for name, stage, points, hours in (
        ("Anna", 5, 10, 1),
        ("Bert", 6, 2, 2),
        ("Cleo", 5, 30, 3),
        ("Dora", 5, 10, 0),
    ):
        await _campaign(world, await world.account(name.lower(), name), stage, points, hours)
    board = await world.progress.leaderboards.campaign("anna")
    await world.close()
    assert _names(board) == [(1, "Bert"), (2, "Cleo"), (3, "Dora"), (4, "Anna")]
    assert board["entries"][0] | {"stage": 6, "points": 2} == board["entries"][0]


async def test_the_daily_list_is_points_then_fewer_empty_patches_then_the_earlier_finish(
    tmp_path: Path, clock: FakeClock
) -> None:
    world = await make_world(tmp_path, clock)
    for name, points, empty, minutes in (
        ("Anna", 20, 3, 5),
        ("Bert", 22, 9, 9),
        ("Cleo", 20, 1, 9),
        ("Dora", 20, 3, 2),
    ):
        await _daily(world, await world.account(name.lower(), name), points, empty, minutes)
    board = await world.progress.leaderboards.daily("anna", DAY)
    await world.close()
    assert _names(board) == [(1, "Bert"), (2, "Cleo"), (3, "Dora"), (4, "Anna")]


async def test_equal_results_share_a_rank(tmp_path: Path, clock: FakeClock) -> None:
    world = await make_world(tmp_path, clock)
    anna, bert = await world.account("anna", "Anna"), await world.account("bert", "Bert")
    cleo = await world.account("cleo", "Cleo")
    await _table(world, "t1", anna, 10, 1, ago=0)
    await _table(world, "t2", bert, 10, 1, ago=0)
    await _table(world, "t3", cleo, 1, 3, ago=0)
    board = await world.progress.leaderboards.tables(anna, "week")
    await world.close()
    assert [e["rank"] for e in board["entries"]] == [1, 1, 3]


async def test_the_own_rank_is_shown_even_outside_the_top(tmp_path: Path, clock: FakeClock) -> None:
    world = await make_world(tmp_path, clock)
    for n in range(TOP + 5):
        account = await world.account(f"p{n:02}", f"Spieler {n:02}")
        await _table(world, f"t{n}", account, 100 - n, 4, ago=0)
    board = await world.progress.leaderboards.tables("p24", "all")
    await world.close()
    assert len(board["entries"]) == TOP and board["total"] == TOP + 5
    assert board["me"] == {
        "rank": 25,
        "name": "Spieler 24",
        "you": True,
        "points": 380,
        "tables": 1,
    }


def test_the_daily_list_over_http_refuses_a_malformed_day(client: TestClient) -> None:
    refused = client.get("/api/leaderboards/daily", params={"day": "tomorrow"})
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "bad_request"


def test_the_lists_answer_over_http(client: TestClient) -> None:
    for path in ("tables?period=month", "campaign", "daily"):
        response = client.get(f"/api/leaderboards/{path}")
        assert response.status_code == 200 and response.json()["me"] is None
