"""Game reviews are kept with the game (issue 42, docs/progress.md "Game review"): a finished game
never changes, so its review is computed once — not again after a restart, not again by a second
process — and only for the seat that played it. Every test runs on SQLite and on PostgreSQL; two
worlds on one database are two server processes."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from spielcenter.bots.review import VERSION
from spielcenter.games.base import JSON
from spielcenter.services.common import ServiceError
from spielcenter.services.review import CLAIM_TIMEOUT, REVIEWS_AT_ONCE, ReviewService
from spielcenter.store.db import make_engine, make_sessionmaker
from spielcenter.store.repositories import ReviewRepository

from .conftest import FakeClock
from .progress_world import World, make_world, play_idle
from .review_helpers import PATIENCE, Reviews, reviews

__all__ = ["reviews"]  # the fixture used by the tests below


@pytest.fixture
def servers(tmp_path: Path, clock: FakeClock, database_url: str | None) -> Callable[[], Any]:
    """``async with servers() as world``: one server process on the test's database."""

    @asynccontextmanager
    async def server() -> AsyncIterator[World]:
        world = await make_world(tmp_path, clock, database_url)
        try:
            yield world
        finally:
            await world.close()

    return server


async def _finished_stage(world: World, account: str) -> str:
    game_id: str = (await world.progress.campaign.play(account))["game"]["id"]
    await play_idle(world.games, account, game_id)
    return game_id


async def _until_done(service: ReviewService, account: str, game_id: str) -> JSON:
    state = await service.status_game(account, game_id)
    for _ in range(int(PATIENCE / 0.05)):
        if state["state"] != "running":
            break
        await asyncio.sleep(0.05)
        state = await service.status_game(account, game_id)
    assert state["state"] == "done", state
    return state


async def _stored(world: World, game_id: str) -> Any:
    async with world.games.sessionmaker() as db:
        return await ReviewRepository(db).get("game", game_id, 0)


async def test_a_stored_review_is_served_after_a_restart_without_computing_it_again(
    servers: Callable[[], Any], reviews: Reviews
) -> None:
    async with servers() as first:
        anna = await first.account("anna")
        game_id = await _finished_stage(first, anna)
        await first.progress.review.start_game(anna, game_id)
        reviewed = await _until_done(first.progress.review, anna, game_id)
    assert reviews.computed == 1
    async with servers() as restarted:
        assert await restarted.progress.review.status_game(anna, game_id) == reviewed
        assert await restarted.progress.review.start_game(anna, game_id) == reviewed
    assert reviews.computed == 1


async def test_two_processes_asked_at_once_compute_a_review_once_and_both_serve_it(
    servers: Callable[[], Any], reviews: Reviews
) -> None:
    async with servers() as one, servers() as two:
        anna = await one.account("anna")
        game_id = await _finished_stage(one, anna)
        reviews.hold()
        started = await asyncio.gather(
            one.progress.review.start_game(anna, game_id),
            two.progress.review.start_game(anna, game_id),
        )
        # One process computes it and knows how far it is; the other cannot know.
        progress = sorted((s["state"], s["progress"] is None) for s in started)
        assert progress == [("running", False), ("running", True)]
        reviews.release()
        done = [await _until_done(s.progress.review, anna, game_id) for s in (one, two)]
        assert done[0] == done[1]
        # Asked again on either, it is served from the store.
        assert await two.progress.review.start_game(anna, game_id) == done[0]
    assert reviews.computed == 1


async def test_of_processes_claiming_one_review_at_once_exactly_one_wins(
    servers: Callable[[], Any], clock: FakeClock
) -> None:
    async with servers() as world:
        engines = [make_engine(world.settings.database_url) for _ in range(4)]  # 4 processes
        now = clock()

        async def claim(process: int, at: datetime) -> bool:
            async with make_sessionmaker(engines[process]).begin() as db:
                return await ReviewRepository(db).claim(
                    "game",
                    "g1",
                    0,
                    version=VERSION,
                    owner=f"p{process}",
                    at=at,
                    stale_before=at - CLAIM_TIMEOUT,
                )

        async def race(at: datetime) -> list[bool]:
            return list(await asyncio.gather(*(claim(p, at) for p in range(len(engines)))))

        try:
            first = await race(now)  # a new claim: inserted by one, nothing for the others
            assert sorted(first) == [False, False, False, True]
            assert not await claim(0, now + CLAIM_TIMEOUT)  # still fresh: not taken over
            later = await race(now + CLAIM_TIMEOUT + timedelta(seconds=1))  # stale: taken over
            assert sorted(later) == [False, False, False, True]
        finally:
            for engine in engines:
                await engine.dispose()
        row = await _stored(world, "g1")
        assert (row.state, row.owner) == ("running", f"p{later.index(True)}")


async def test_a_claim_left_by_a_stopped_process_is_taken_over_once_it_is_stale(
    servers: Callable[[], Any], reviews: Reviews, clock: FakeClock
) -> None:
    async with servers() as world:
        anna = await world.account("anna")
        game_id = await _finished_stage(world, anna)
        async with world.games.sessionmaker.begin() as db:  # a process claimed it, then stopped
            gone = ReviewRepository(db)
            now = clock()
            stale_before = now - CLAIM_TIMEOUT
            args = {"version": VERSION, "owner": "gone", "at": now, "stale_before": stale_before}
            assert await gone.claim("game", game_id, 0, **args)
        service = world.progress.review
        # While the claim is fresh, the review counts as running elsewhere: nothing is computed.
        assert await service.start_game(anna, game_id) == {"state": "running", "progress": None}
        clock.advance((CLAIM_TIMEOUT + timedelta(seconds=1)).total_seconds())
        assert await service.status_game(anna, game_id) == {"state": "none"}
        assert (await service.start_game(anna, game_id))["state"] in ("running", "done")
        await _until_done(service, anna, game_id)
        row = await _stored(world, game_id)
        assert (row.state, row.owner, row.version) == ("done", service.owner, VERSION)
    assert reviews.computed == 1


async def test_a_review_of_older_rules_is_computed_again(
    servers: Callable[[], Any], reviews: Reviews
) -> None:
    async with servers() as world:
        anna = await world.account("anna")
        game_id = await _finished_stage(world, anna)
        service = world.progress.review
        await service.start_game(anna, game_id)
        await _until_done(service, anna, game_id)
        async with world.games.sessionmaker.begin() as db:
            row = await ReviewRepository(db).get("game", game_id, 0)
            assert row is not None
            row.version = VERSION - 1
        assert await service.status_game(anna, game_id) == {"state": "none"}
        await service.start_game(anna, game_id)
        await _until_done(service, anna, game_id)
        assert (await _stored(world, game_id)).version == VERSION
    assert reviews.computed == 2


async def test_a_review_that_broke_down_says_so_on_every_process_and_is_tried_again_when_asked(
    servers: Callable[[], Any], reviews: Reviews
) -> None:
    async with servers() as one, servers() as two:
        anna = await one.account("anna")
        game_id = await _finished_stage(one, anna)
        reviews.faults = 1
        await one.progress.review.start_game(anna, game_id)
        for _ in range(int(PATIENCE / 0.05)):
            state = await two.progress.review.status_game(anna, game_id)
            if state["state"] == "failed":
                break
            await asyncio.sleep(0.05)
        assert state == {"state": "failed", "message": "the review could not be computed"}
        assert await one.progress.review.status_game(anna, game_id) == state
        await two.progress.review.start_game(anna, game_id)
        await _until_done(one.progress.review, anna, game_id)
    assert reviews.computed == 2


async def test_a_game_not_over_is_refused_and_nothing_is_stored(
    servers: Callable[[], Any], reviews: Reviews
) -> None:
    async with servers() as world:
        anna = await world.account("anna")
        game_id = (await world.progress.campaign.play(anna))["game"]["id"]
        with pytest.raises(ServiceError) as refused:
            await world.progress.review.start_game(anna, game_id)
        assert refused.value.code == "not_over"
        assert await _stored(world, game_id) is None
    assert reviews.computed == 0


async def test_a_stored_review_is_not_served_to_another_account(
    servers: Callable[[], Any], reviews: Reviews
) -> None:
    async with servers() as world, servers() as other:
        anna = await world.account("anna")
        bert = await world.account("bert")
        game_id = await _finished_stage(world, anna)
        await world.progress.review.start_game(anna, game_id)
        await _until_done(world.progress.review, anna, game_id)
        for service in (world.progress.review, other.progress.review):
            for ask in (service.status_game, service.start_game):
                with pytest.raises(ServiceError) as stranger:
                    await ask(bert, game_id)
                assert stranger.value.code == "not_found"
    assert reviews.computed == 1


async def test_a_process_computes_one_review_at_a_time_and_queues_the_others(
    servers: Callable[[], Any], reviews: Reviews
) -> None:
    """A flood of review requests cannot take the event loop's interpreter from the games: the
    reviews asked for at once wait their turn, and each is computed in the end."""
    assert REVIEWS_AT_ONCE == 1
    async with servers() as world:
        players = [await world.account(name) for name in ("anna", "bert", "carl")]
        games = [await _finished_stage(world, account) for account in players]
        reviews.hold()
        for account, game_id in zip(players, games, strict=True):
            assert (await world.progress.review.start_game(account, game_id))["state"] == "running"
        for _ in range(10):
            await asyncio.sleep(0.05)
            assert reviews.computed == 1
        reviews.release()
        for account, game_id in zip(players, games, strict=True):
            await _until_done(world.progress.review, account, game_id)
    assert reviews.computed == 3
