"""The progress services of one server, and the stored variants of campaign and daily games.

A campaign stage is stored as the variant ``stage-N`` and a daily quilt as ``daily-<day>``; the
engine of such a game is the Speedquilt ``solo`` variant with the stage's options, or the
``daily`` variant with the day and the server's secret. :func:`progress_resolver` teaches the
game service's resolver those names, so the stage and daily games are played, replayed and
listed like every other game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from spielcenter.games.base import Game, get_game
from spielcenter.settings import Settings

from .campaign import Campaign, load_campaign, stage_of
from .campaign_service import CampaignService
from .common import Clock
from .daily import day_of_variant
from .daily_service import DailyService
from .games import GameResolver, GameService
from .history import HistoryService
from .leaderboards import LeaderboardService
from .review import ReviewService

SPEEDQUILT = "speedquilt"


def progress_resolver(
    resolve: GameResolver, secret: bytes, campaign: Campaign | None = None
) -> GameResolver:
    """``resolve``, also knowing the stored variants ``stage-N`` and ``daily-<day>``."""
    stages = campaign or load_campaign()

    def resolver(name: str, variant: str | None) -> Game[Any, Any]:
        if name == SPEEDQUILT and variant is not None:
            stage = stage_of(variant)
            if stage is not None:
                return get_game(SPEEDQUILT, "solo", **stages.stage(stage).options())
            day = day_of_variant(variant)
            if day is not None:
                return get_game(SPEEDQUILT, "daily", day=day, secret=secret)
        return resolve(name, variant)

    return resolver


@dataclass
class ProgressServices:
    """Campaign, daily quilt, leaderboards and Meine Partien of one server."""

    campaign: CampaignService
    daily: DailyService
    leaderboards: LeaderboardService
    history: HistoryService
    review: ReviewService

    @classmethod
    def build(
        cls,
        sessionmaker: async_sessionmaker[AsyncSession],
        games: GameService,
        settings: Settings,
        clock: Clock,
    ) -> ProgressServices:
        """The services on the server's database and game service."""
        timezone = settings.DAY_TIMEZONE
        return cls(
            campaign=CampaignService(sessionmaker, games, clock),
            daily=DailyService(sessionmaker, games, clock, timezone, settings.daily_secret),
            leaderboards=LeaderboardService(sessionmaker, clock, timezone),
            history=HistoryService(sessionmaker, games),
            review=ReviewService(sessionmaker, games, clock, settings.REVIEWS_PER_ACCOUNT),
        )
