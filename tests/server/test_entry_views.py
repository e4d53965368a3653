"""The view and the changes of every entry, as docs/protocol.md defines them, on random games
played through the game service: the engine's view of the position, the server's fields over it
(``legal`` empty once the game is over), and ``changes`` that turn the view before into it.

The server builds them on the hot path from what it already has (the engine's own ``legal``,
the status of the position once); here each is built the long way, from a replay of its own,
and the two must agree entry by entry (docs/performance.md, "CPU per entry at 1 000 players").
"""

from __future__ import annotations

import random
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.ext.asyncio import AsyncSession

from spielcenter.games.base import Game, Record, Status
from spielcenter.services.common import compact_json
from spielcenter.services.games import CHANGES, GameService, LiveGame, public_deal
from spielcenter.store.db import make_engine, make_sessionmaker, migrate
from spielcenter.store.models import Account
from tests.protocol import apply_changes

from .conftest import FakeClock
from .ladder import resolve

GAMES = [
    ("cruel", "classic"),
    ("cruel", "stuck"),
    ("cruel", "perseverance"),
    ("crazy-quilt", "classic"),
    ("ladder", None),  # an engine whose view lists no legal moves: the server adds them
]
ENTRIES = 60


async def new_service(tmp_path: Path, clock: FakeClock) -> GameService:
    engine = make_engine(f"sqlite+aiosqlite:///{tmp_path / 'views.sqlite3'}")
    await migrate(engine)
    games = GameService(make_sessionmaker(engine), resolve, clock)
    async with games.sessionmaker.begin() as db:
        db.add(Account(id="anna", settings={}, created_at=clock()))
    return games


def expected_view(
    engine: Game[Any, Any], record: Record[Any, Any], live: LiveGame, now: datetime
) -> dict[str, Any]:
    """docs/protocol.md, "The view of a patience game": ``view_for(state, 0)`` and the server's
    fields over it, each asked of the engine anew."""
    state = record.state
    status = Status.LOST if live.abandoned else engine.status(state)
    playing = status is Status.PLAYING
    assert live.started_at is not None
    end = live.finished_at or now
    return {
        **engine.view_for(state, 0),
        "game": live.name,
        "variant": live.variant,
        "deal": public_deal(live.name, live.deal),
        "status": status.value,
        "legal": [engine.format_move(m) for m in engine.legal_moves(state, 0)] if playing else [],
        "moves_made": len(record.moves),
        "can_undo": playing and bool(record.moves),
        "can_redo": playing and bool(record.undone),
        "elapsed_ms": int((end - live.started_at).total_seconds() * 1000),
    }


async def play_at_random(
    games: GameService, clock: FakeClock, name: str, variant: str | None, deal: int
) -> int:
    """Random entries (a legal move, an undo, a redo); each event's view must be the expected
    one and its changes must turn the view before into it. The number of events with changes."""
    game_id = (await games.create("anna", name, variant, deal))["id"]
    live = await games.open("anna", game_id)
    engine = live.engine
    record: Record[Any, Any] = Record(engine, deal)
    rng = random.Random(f"{name}/{variant}/{deal}")
    before: dict[str, Any] | None = None
    with_changes = 0
    for _ in range(ENTRIES):
        if live.status is not Status.PLAYING:
            break
        clock.advance(rng.choice([0.2, 1.5, 4]))
        roll = rng.random()
        if roll < 0.2 and record.moves:
            event = await games.undo("anna", game_id)
            record.undo()
        elif roll < 0.3 and record.undone:
            event = await games.redo("anna", game_id)
            record.redo()
        else:
            text = engine.format_move(rng.choice(engine.legal_moves(record.state, 0)))
            event = await games.move("anna", game_id, text)
            record.play(text)
        view = expected_view(engine, record, live, clock())
        # The live game's status, taken from the engine's view where it says one, is the
        # engine's status of the position now (a stale one would let a lost game play on).
        assert live.status is engine.status(record.state)
        assert event["view"] == view, f"{name}/{variant} deal {deal}, seq {event['seq']}"
        if CHANGES in event:
            assert before is not None
            assert apply_changes(before, event[CHANGES]) == view
            with_changes += 1
        # The text a socket that asked for changes is sent: the event with them, without its view.
        sent = compact_json({key: value for key, value in event.items() if key != "view"})
        assert event.compact == (sent if CHANGES in event else None)
        before = view
    return with_changes


@pytest.mark.parametrize(("name", "variant"), GAMES)
async def test_every_event_carries_the_view_the_protocol_defines_and_changes_to_it(
    tmp_path: Path, clock: FakeClock, name: str, variant: str | None
) -> None:
    games = await new_service(tmp_path, clock)
    try:
        with_changes = sum(
            [await play_at_random(games, clock, name, variant, deal) for deal in (1, 2, 3)]
        )
    finally:
        await games.close()
    assert with_changes > 0, "no event counted its changes: the test compared nothing"


async def test_a_game_given_up_offers_no_moves_though_its_engine_would(
    tmp_path: Path, clock: FakeClock
) -> None:
    # docs/protocol.md: ``legal`` is empty once the game is over, and a game given up is lost.
    games = await new_service(tmp_path, clock)

    async def nothing_else(_db: AsyncSession, _now: datetime) -> None:
        """The abandon hook of a game outside the campaign."""

    try:
        game_id = (await games.create("anna", "cruel", deal=1))["id"]
        live = await games.open("anna", game_id)
        legal = live.engine.view_for(live.record.state, 0)["legal"]
        await games.move("anna", game_id, legal[0])
        await games.abandon("anna", game_id, nothing_else)
        view = games.view(live)
    finally:
        await games.close()
    assert live.engine.view_for(live.record.state, 0)["legal"] != []
    assert (view["status"], view["legal"]) == ("lost", [])
    assert view["can_undo"] is False and view["can_redo"] is False
