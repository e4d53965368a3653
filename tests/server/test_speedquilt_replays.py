"""Speedquilt in Meine Partien (issue 8): replays — the event log step by step with the dice
as they were and each entry's history line — solo games (a stage, a daily quilt) and the tables
the account sat at, from its own seat only."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from spielcenter.games.base import get_game
from spielcenter.services.common import ServiceError
from spielcenter.store.models import TableEntry, TableRecord, TableSeat

from .conftest import FakeClock
from .progress_world import World, choose_first, make_world

TABLE_DEAL = 11


def table_log() -> list[tuple[int, str]]:
    """Both seats of a two-seat table choose their start rows; the start player rolls."""
    engine = get_game("speedquilt", "table", players=2)
    state = engine.start(TABLE_DEAL)
    log = []
    for seat in (0, 1):
        text = engine.format_move(engine.legal_moves(state, seat)[0])
        state = engine.play(state, text, seat)
        log.append((seat, text))
    roller = state.turn.seat
    log.append((roller, "roll"))
    return log


async def store_table(world: World, accounts: list[str | None], log: list[tuple[int, str]]) -> str:
    """A two-seat table of ``accounts`` (``None``: a computer) with ``log`` as its entries."""
    now = world.games.clock()
    async with world.games.sessionmaker.begin() as db:
        db.add(
            TableRecord(
                id="t1",
                created_by=accounts[0],
                game="speedquilt",
                variant="table",
                options={"players": 2},
                deal=TABLE_DEAL,
                tempo="fast",
                status="open",
                last_seq=len(log),
                created_at=now,
            )
        )
        await db.flush()
        for seat, account in enumerate(accounts):
            db.add(TableSeat(table_id="t1", seat=seat, account_id=account, level=None))
        for seq, (seat, move) in enumerate(log, start=1):
            db.add(TableEntry(table_id="t1", seq=seq, seat=seat, move=move, created_at=now))
    return "t1"


async def test_a_solo_replay_tells_each_move_with_its_history_line(
    tmp_path: Path, clock: FakeClock
) -> None:
    world = await make_world(tmp_path, clock)
    anna = await world.account("anna")
    game_id = (await world.progress.campaign.play(anna))["game"]["id"]
    await choose_first(world.games, anna, game_id)
    rolled = await world.games.move(anna, game_id, "roll")
    replay = await world.progress.history.replay(anna, game_id)
    await world.close()
    dice = {d["die"]: d["value"] for d in rolled["view"]["turn"]["dice"]}
    roll = replay["steps"][2]
    assert roll["line"] == {"key": "history.roll", "seat": 0, "dice": dice}
    assert [line["key"] for line in replay["steps"][1]["also"]] == ["history.start"]
    assert roll["view"]["turn"]["dice"] == rolled["view"]["turn"]["dice"]


async def test_a_table_replay_shows_the_dice_as_they_were_from_her_seat(
    tmp_path: Path, clock: FakeClock
) -> None:
    world = await make_world(tmp_path, clock)
    anna = await world.account("anna")
    log = table_log()
    table_id = await store_table(world, [anna, None], log)
    replay = await world.progress.history.table_replay(anna, table_id)
    await world.close()
    engine = get_game("speedquilt", "table", players=2)
    final = engine.replay(TABLE_DEAL, log)
    assert replay["table"]["seat"] == 0
    assert [step["seq"] for step in replay["steps"]] == [0, 1, 2, 3]
    assert replay["steps"][-1]["view"] == engine.view_for(final, 0)
    assert replay["steps"][-1]["line"]["key"] == "history.roll"


async def test_a_table_replay_never_shows_another_seats_start_choice(
    tmp_path: Path, clock: FakeClock
) -> None:
    world = await make_world(tmp_path, clock)
    anna = await world.account("anna")
    log = table_log()
    table_id = await store_table(world, [anna, None], log)
    replay = await world.progress.history.table_replay(anna, table_id)
    await world.close()
    hers, theirs = replay["steps"][1], replay["steps"][2]
    assert hers["move"] == log[0][1] and "row" in hers["line"]
    assert theirs["move"] is None and "row" not in theirs["line"]
    put_back_by_other = log[1][1].split()[-1]
    assert put_back_by_other not in json.dumps(theirs)


async def test_a_table_she_did_not_sit_at_cannot_be_replayed(
    tmp_path: Path, clock: FakeClock
) -> None:
    world = await make_world(tmp_path, clock)
    anna, bert = await world.account("anna"), await world.account("bert")
    table_id = await store_table(world, [anna, None], table_log())
    with pytest.raises(ServiceError) as refused:
        await world.progress.history.table_replay(bert, table_id)
    with pytest.raises(ServiceError) as unknown:
        await world.progress.history.table_replay(anna, "no-such-table")
    await world.close()
    assert refused.value.code == unknown.value.code == "not_found"


def test_the_table_replay_endpoint_refuses_an_unknown_table(client: TestClient) -> None:
    client.get("/api/me")
    assert client.get("/api/my-tables/nope/replay").status_code == 404


async def test_a_table_still_being_played_is_listed_as_unfinished(
    tmp_path: Path, clock: FakeClock
) -> None:
    world = await make_world(tmp_path, clock)
    anna = await world.account("anna")
    table_id = await store_table(world, [anna, None], table_log())
    everything = await world.progress.history.my_games(anna)
    unfinished = await world.progress.history.my_games(anna, "open")
    finished = await world.progress.history.my_games(anna, "finished")
    await world.close()
    listed = everything["tables"]
    assert [(t["table_id"], t["status"], t["seats"]) for t in listed] == [(table_id, "open", 2)]
    assert unfinished["tables"] == listed
    assert finished["tables"] == []


async def test_a_table_replay_names_the_people_as_the_table_did(
    tmp_path: Path, clock: FakeClock
) -> None:
    """Issue 38, finding 7: the replay called everybody "Player N", while the table had used
    their names. It sends each person's name (a guest has none: the screen calls her by her seat,
    as the table does)."""
    world = await make_world(tmp_path, clock)
    anna = await world.account("anna", name="Anna")
    guest = await world.account("guest")
    table_id = await store_table(world, [anna, guest], table_log())
    replay = await world.progress.history.table_replay(anna, table_id)
    await world.close()
    assert [(s["seat"], s["kind"], s["name"]) for s in replay["table"]["seats"]] == [
        (0, "human", "Anna"),
        (1, "human", None),
    ]
