"""The campaign page's service: where the campaign stands, play (or continue) the stage, leave it.

It drives the game service (a stage game is played like any game); the rules of progress and how
a finished stage game is counted are in ``campaign.py``, which the results module calls without
reaching this one, so the game service and the campaign do not import each other.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from spielcenter.games.base import JSON, Status
from spielcenter.games.seeds import SecretSeed
from spielcenter.store.models import CampaignRecord, GameRecord
from spielcenter.store.repositories import AccountRepository, CampaignRepository, GameRepository

from .campaign import Campaign, Outcome, Stage, campaign_row, load_campaign, record_stage
from .common import Clock, ServiceError, as_utc, new_id
from .fairness import SeedSource, fresh_seed, seeded
from .games import GameService


class CampaignService:
    """The campaign page: where it stands, play (or continue) the stage, leave it."""

    def __init__(
        self,
        sessionmaker: async_sessionmaker[AsyncSession],
        games: GameService,
        clock: Clock,
        campaign: Campaign | None = None,
    ) -> None:
        self.sessionmaker = sessionmaker
        self.games = games
        self.clock = clock
        self.campaign = campaign or load_campaign()
        self.fresh_seed: SeedSource = fresh_seed

    async def status(self, account_id: str) -> JSON:
        """The campaign: stage, spools, campaign points, best run, the stage game if one runs."""
        async with self.sessionmaker.begin() as db:
            row = await campaign_row(db, account_id, self.clock())
            return self._json(row)

    def _json(self, row: CampaignRecord) -> JSON:
        return {
            "stage": row.stage,
            "spools": row.spools,
            "points": row.points,
            "best_stage": row.best_stage,
            "best_points": row.best_points,
            "best_at": as_utc(row.best_at).isoformat() if row.best_at else None,
            "game_id": row.game_id,
            "provisional": self.campaign.provisional,
            "stages": [stage.to_json() for stage in self.campaign.stages],
        }

    async def play(self, account_id: str) -> JSON:
        """The current stage game: the one being played, or a new one of the current stage."""
        now = self.clock()
        async with self.sessionmaker() as db:
            # A stage game dealt already is continued: that only reads (no lock, no writer: on
            # SQLite the lock is the one writer, which a busy server may hold past busy_timeout).
            running = await CampaignRepository(db).get(account_id)
            if running is not None and running.game_id is not None:
                campaign, game_id = self._json(running), running.game_id
                return {"campaign": campaign, "game": await self.games.summary(account_id, game_id)}
        async with self.sessionmaker.begin() as db:
            # Whether a stage game runs decides whether to deal one: read it again under the
            # account's lock, or two requests at once each deal a game of their own.
            await AccountRepository(db).lock([account_id])
            row = await campaign_row(db, account_id, now)
            if row.game_id is None:
                stage = self.campaign.stage(row.stage)
                game = _stage_game(account_id, stage, now, self.fresh_seed())
                GameRepository(db).add(game)
                row.game_id, row.updated_at = game.id, now
            game_id = row.game_id
            campaign = self._json(row)
        return {"campaign": campaign, "game": await self.games.summary(account_id, game_id)}

    async def leave(self, account_id: str) -> JSON:
        """Leave the stage game early: it counts as a miss (seed: "ebenfalls verfehlt")."""
        async with self.sessionmaker() as db:
            row = await CampaignRepository(db).get(account_id)
            game_id = row.game_id if row is not None else None
        if game_id is None:
            raise ServiceError("not_found", "no campaign stage is being played")
        outcomes: list[Outcome | None] = []

        async def count_miss(db: AsyncSession, now: datetime) -> None:
            outcomes.append(await record_stage(db, account_id, game_id, None, now, self.campaign))

        await self.games.abandon(account_id, game_id, count_miss)
        outcome = outcomes[0] if outcomes else None
        return {
            "outcome": outcome.to_json() if outcome else None,
            "campaign": await self.status(account_id),
        }


def _stage_game(account_id: str, stage: Stage, now: datetime, seed: SecretSeed) -> GameRecord:
    return GameRecord(
        id=new_id(),
        account_id=account_id,
        game="speedquilt",
        variant=stage.variant,
        **seeded(seed),
        status=Status.PLAYING.value,
        last_seq=0,
        moves=0,
        restart_of=None,
        created_at=now,
    )
