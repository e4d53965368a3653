"""Meine Partien: the account's games with their results, and replays from the account's seat."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from spielcenter.games.base import get_game
from spielcenter.services.common import ServiceError
from spielcenter.services.history import seat_views

from .conftest import FakeClock, csrf, new_game
from .progress_world import choose_first, make_world, play_idle


async def test_the_list_holds_finished_and_unfinished_games_with_their_results(
    tmp_path: Path, clock: FakeClock
) -> None:
    world = await make_world(tmp_path, clock)
    anna = await world.account("anna")
    daily = (await world.progress.daily.play(anna))["game"]["id"]
    await play_idle(world.games, anna, daily)
    stage = (await world.progress.campaign.play(anna))["game"]["id"]
    listed = {g["id"]: g for g in (await world.progress.history.my_games(anna))["games"]}
    still_open = (await world.progress.history.my_games(anna, "open"))["games"]
    await world.close()
    assert listed[daily]["kind"] == "daily" and listed[daily]["points"] == 0
    assert listed[stage]["kind"] == "campaign" and listed[stage]["stage"] == 1
    assert listed[stage]["points"] is None
    assert [g["id"] for g in still_open] == [stage]


async def test_a_replay_has_the_start_and_one_view_per_log_entry(
    tmp_path: Path, clock: FakeClock
) -> None:
    world = await make_world(tmp_path, clock)
    anna = await world.account("anna")
    game_id = (await world.progress.campaign.play(anna))["game"]["id"]
    await choose_first(world.games, anna, game_id)
    played = [await world.games.move(anna, game_id, m) for m in ("roll", "end")]
    replay = await world.progress.history.replay(anna, game_id)
    await world.close()
    assert [s["seq"] for s in replay["steps"]] == [0, 1, 2, 3]
    assert [s["move"] for s in replay["steps"][2:]] == ["roll", "end"]
    assert replay["steps"][2]["view"]["turn"] == played[0]["view"]["turn"]


async def test_a_replay_never_shows_the_deal_that_keys_the_dice(
    tmp_path: Path, clock: FakeClock
) -> None:
    world = await make_world(tmp_path, clock)
    anna = await world.account("anna")
    game_id = (await world.progress.campaign.play(anna))["game"]["id"]
    await choose_first(world.games, anna, game_id)
    await world.games.move(anna, game_id, "roll")
    live = await world.games.open(anna, game_id)
    replay = await world.progress.history.replay(anna, game_id)
    await world.close()
    text = json.dumps(replay)
    assert str(live.deal) not in text and replay["game"]["deal"] is None


async def test_another_accounts_game_cannot_be_replayed(tmp_path: Path, clock: FakeClock) -> None:
    world = await make_world(tmp_path, clock)
    anna, bert = await world.account("anna"), await world.account("bert")
    game_id = (await world.progress.campaign.play(anna))["game"]["id"]
    with pytest.raises(ServiceError) as refused:
        await world.progress.history.replay(bert, game_id)
    await world.close()
    assert refused.value.code == "not_found"


def test_a_table_replay_never_shows_another_seats_start_choice_or_dealt_blocks() -> None:
    engine = get_game("speedquilt", "table", players=2)
    start = engine.start(11)
    choice = engine.format_move(engine.legal_moves(start, 0)[0])
    hand_of_seat_0 = start.seats[0].hand
    views = seat_views(engine, 11, [(0, choice)], seat=1)
    for view in views:
        other = view["seats"][0]
        assert other.get("hand") in (None, [], len(hand_of_seat_0))
        assert other.get("row") is None and other.get("returned") is None
    own = seat_views(engine, 11, [(0, choice)], seat=0)[-1]["seats"][0]
    assert own["hand"] == hand_of_seat_0 and own["row"] is not None


def test_meine_partien_over_http_lists_the_games_of_the_account(client: TestClient) -> None:
    game = new_game(client)
    client.post("/api/campaign/play", headers=csrf(client))
    listed = client.get("/api/my-games").json()
    kinds = {g["id"]: g["kind"] for g in listed["games"]}
    assert kinds[game["id"]] == "patience" and "campaign" in kinds.values()
    assert listed["tables"] == []


def test_the_replay_endpoint_answers_with_the_steps(client: TestClient) -> None:
    game = new_game(client)
    response = client.get(f"/api/my-games/{game['id']}/replay")
    assert response.status_code == 200
    assert [s["kind"] for s in response.json()["steps"]] == ["start"]
    assert client.get("/api/my-games/nope/replay").status_code == 404
