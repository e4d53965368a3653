"""Meine Partien: the account's games with their results, and replays from the account's seat."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from spielcenter.games.base import get_game
from spielcenter.services.common import ServiceError
from spielcenter.services.history import seat_views

from .conftest import FakeClock, csrf, new_game
from .progress_world import World, choose_first, make_world, play_idle
from .test_speedquilt_replays import store_table, table_log


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


async def play_first_legal(world: World, account: str, game_id: str) -> str:
    """Play the first legal move of a patience game; the move."""
    live = await world.games.open(account, game_id)
    move = live.engine.format_move(live.engine.legal_moves(live.record.state, 0)[0])
    await world.games.move(account, game_id, move)
    return move


async def test_my_games_lists_the_game_played_last_first(tmp_path: Path, clock: FakeClock) -> None:
    """Issue 38, finding 11: the list was ordered by when a game was dealt. A game played
    again today comes before one dealt later and left since; an unplayed game stands at the
    time it was dealt."""
    world = await make_world(tmp_path, clock)
    anna = await world.account("anna")
    older = (await world.games.create(anna, "cruel", deal=1))["id"]
    clock.advance(60)
    newer = (await world.games.create(anna, "cruel", deal=2))["id"]
    clock.advance(60)
    await play_first_legal(world, anna, older)
    clock.advance(60)
    unplayed = (await world.games.create(anna, "crazy-quilt", deal=3))["id"]
    listed = (await world.progress.history.my_games(anna))["games"]
    await world.close()
    assert [g["id"] for g in listed] == [unplayed, older, newer]
    assert [g["last_move_at"] for g in listed] == [
        (clock.now - timedelta(seconds=s)).isoformat() for s in (0, 60, 120)
    ]


async def test_my_games_keeps_games_of_the_same_moment_in_one_order(
    tmp_path: Path, clock: FakeClock
) -> None:
    """Games dealt in the same second keep the order they are listed in every time."""
    world = await make_world(tmp_path, clock)
    anna = await world.account("anna")
    for deal in range(1, 6):
        await world.games.create(anna, "cruel", deal=deal)
    first = [g["id"] for g in (await world.progress.history.my_games(anna))["games"]]
    again = [g["id"] for g in (await world.progress.history.my_games(anna))["games"]]
    await world.close()
    assert first == again == sorted(first)


async def test_my_games_counts_the_moves_that_stand_and_the_undos_apart(
    tmp_path: Path, clock: FakeClock
) -> None:
    """Issue 38, finding 11: a move taken back was still counted. Three moves played, one
    taken back, one played again: two moves stand (as the game screen counts), one undo."""
    world = await make_world(tmp_path, clock)
    anna = await world.account("anna")
    game_id = (await world.games.create(anna, "cruel", deal=1))["id"]
    await play_first_legal(world, anna, game_id)
    await play_first_legal(world, anna, game_id)
    await world.games.undo(anna, game_id)
    await world.games.redo(anna, game_id)
    await world.games.undo(anna, game_id)
    await world.games.undo(anna, game_id)
    await play_first_legal(world, anna, game_id)
    await play_first_legal(world, anna, game_id)
    live = await world.games.open(anna, game_id)
    (listed,) = (await world.progress.history.my_games(anna))["games"]
    await world.close()
    assert (listed["standing_moves"], listed["undos"]) == (2, 3)
    assert listed["standing_moves"] == len(live.record.moves)


async def test_a_table_played_since_a_game_is_listed_as_played_later(
    tmp_path: Path, clock: FakeClock
) -> None:
    """Tables and games are listed by the same time: the last move of an unfinished table."""
    world = await make_world(tmp_path, clock)
    anna = await world.account("anna")
    game_id = (await world.games.create(anna, "cruel", deal=1))["id"]
    clock.advance(60)
    await store_table(world, [anna, None], table_log())
    listed = await world.progress.history.my_games(anna)
    await world.close()
    (game,), (table,) = listed["games"], listed["tables"]
    assert game["id"] == game_id
    assert game["last_move_at"] < table["last_move_at"] == clock.now.isoformat()
