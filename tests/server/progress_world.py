"""A server's services on a fresh database, for the progress tests (campaign, daily, boards).

The services are built as the app builds them (``ProgressServices.build`` on a ``GameService``
that knows the stage and daily variants) and driven directly; a few tests go through HTTP.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from spielcenter.games.base import Status, get_game
from spielcenter.services.common import Clock
from spielcenter.services.games import GameService
from spielcenter.services.progress import ProgressServices, progress_resolver
from spielcenter.settings import Settings
from spielcenter.store.db import make_engine, make_sessionmaker, migrate
from spielcenter.store.models import Account

# A solo game played without sewing or buying: it scores nothing, so it misses any target > 0.
IDLE_MOVES = ("roll", "end", "pass", "remove pattern", "remove kit")


@dataclass
class World:
    """The services of one server and the clock they read."""

    games: GameService
    progress: ProgressServices
    settings: Settings
    engine: AsyncEngine

    async def account(self, account_id: str, name: str | None = None) -> str:
        """A new account (named, or a guest)."""
        async with self.games.sessionmaker.begin() as db:
            db.add(
                Account(
                    id=account_id,
                    name=name,
                    name_key=name.casefold() if name else None,
                    settings={},
                    created_at=self.games.clock(),
                )
            )
        return account_id

    async def close(self) -> None:
        """Stop the log writer and close the database."""
        await self.games.close()
        await self.engine.dispose()


async def make_world(
    tmp_path: Path, clock: Clock, database_url: str | None = None, **settings: Any
) -> World:
    """Fresh database, migrated (the SQLite file in ``tmp_path`` unless ``database_url`` says
    another); the services of a development server. A second world on the same database is a
    second process."""
    config = Settings(
        ENV="development",
        DATA_DIR=tmp_path,
        DATABASE_URL=database_url,
        SECRET_KEY="test",
        **settings,
    )
    engine = make_engine(config.database_url)
    await migrate(engine)
    sessionmaker = make_sessionmaker(engine)
    games = GameService(sessionmaker, progress_resolver(get_game, config.daily_secret), clock)
    progress = ProgressServices.build(sessionmaker, games, config, clock)
    return World(games, progress, config, engine)


async def choose_first(games: GameService, account_id: str, game_id: str) -> None:
    """Make the first legal start choice of a solo Speedquilt game."""
    live = await games.open(account_id, game_id)
    first = live.engine.format_move(live.engine.legal_moves(live.record.state, 0)[0])
    await games.move(account_id, game_id, first)


async def play_idle(games: GameService, account_id: str, game_id: str) -> list[dict[str, Any]]:
    """Play a solo Speedquilt game to its end without sewing or buying; the events."""
    await choose_first(games, account_id, game_id)
    live = await games.open(account_id, game_id)
    events = []
    while live.status is Status.PLAYING:
        legal = {live.engine.format_move(m) for m in live.engine.legal_moves(live.record.state)}
        move = next(m for m in IDLE_MOVES if m in legal)
        events.append(await games.move(account_id, game_id, move))
    return events
