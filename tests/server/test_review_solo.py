"""The review of her solo Speedquilt game (issue 42): a campaign stage reviewed in the background
once it is over — the same review as the pure one of its log — and never while it runs, nor for
another account."""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
from pathlib import Path

import pytest

from spielcenter.bots.review import review
from spielcenter.cli import main
from spielcenter.services.common import ServiceError

from .conftest import FakeClock
from .progress_world import make_world, play_idle

PATIENCE = 60.0


async def test_a_finished_stage_is_reviewed_in_the_background_and_a_running_one_is_refused(
    tmp_path: Path, clock: FakeClock
) -> None:
    world = await make_world(tmp_path, clock)
    try:
        anna = await world.account("anna")
        bert = await world.account("bert")
        game_id = (await world.progress.campaign.play(anna))["game"]["id"]
        with pytest.raises(ServiceError) as running:
            await world.progress.review.start_game(anna, game_id)
        assert running.value.code == "not_over"
        await play_idle(world.games, anna, game_id)
        assert await world.progress.review.status_game(anna, game_id) == {"state": "none"}
        started = await world.progress.review.start_game(anna, game_id)
        assert started["state"] in ("running", "done")
        state = await world.progress.review.status_game(anna, game_id)
        for _ in range(int(PATIENCE / 0.05)):
            if state["state"] != "running":
                break
            await asyncio.sleep(0.05)
            state = await world.progress.review.status_game(anna, game_id)
        assert state["state"] == "done"
        live = await world.games.open(anna, game_id)
        log = [(0, move) for move in live.record.moves]
        expected = review(live.engine, live.deal, log, 0).to_json(live.engine)
        assert state["review"] == {"game": game_id, **expected}
        # The idle player never sews or buys: the review finds the points she left.
        assert state["review"]["summary"]["left_total"] > 0
        with pytest.raises(ServiceError) as stranger:
            await world.progress.review.status_game(bert, game_id)
        assert stranger.value.code == "not_found"
        # The command line reads the same game from the database.
        out = io.StringIO()
        database = ["--database", world.settings.database_url]
        args = ["speedquilt", "review", "--game", game_id, "--json", *database]
        with contextlib.redirect_stdout(out):
            status = await asyncio.to_thread(main, args)
        assert status == 0 and json.loads(out.getvalue()) == state["review"]
    finally:
        await world.close()
