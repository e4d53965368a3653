"""The Speedquilt campaign: seven stages, two spools, campaign points (seed 003, "Kampagne allein").

A stage is the engine's ``solo`` variant with the stage's options from ``campaign.toml``. A stage
game is stored like any game (an event log in ``games``) under the variant ``stage-N``, dealt from
a fresh secret seed (it counts for the campaign leaderboard: services/fairness.py); the
account's :class:`~spielcenter.store.models.CampaignRecord` points at it, so any device continues
it where it stands.

The rules, as :func:`after_stage` applies them:

* reaching the target clears the stage: the points above it become campaign points and the next
  stage opens; clearing stage 7 completes the campaign, which then starts afresh at stage 1;
* missing it (or leaving the stage early) costs one of the two spools and repeats the stage;
* the miss that costs the last spool restarts the campaign at stage 1 with two new spools and no
  campaign points.

The leaderboard keeps the best run: the highest stage cleared and the campaign points then.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, replace
from datetime import datetime
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from spielcenter.games.base import JSON, Status
from spielcenter.games.seeds import SecretSeed
from spielcenter.store.models import CampaignRecord, GameRecord

from .common import Clock, ServiceError, as_utc, new_id
from .fairness import SeedSource, fresh_seed, seeded

if TYPE_CHECKING:
    from .games import GameService

STAGES = 7
SPOOLS = 2
STAGE_VARIANT = re.compile(r"stage-([1-9][0-9]?)")
"""How a stage game's variant is stored: ``stage-3``."""


class CampaignDataError(ValueError):
    """``campaign.toml`` does not describe seven valid stages."""


@dataclass(frozen=True)
class Stage:
    """One stage: its target score and its twists (rounds, shelf sizes)."""

    number: int
    target: int
    rounds: int | None = None
    top_shelf: int = 4
    bottom_shelf: int = 4

    @property
    def variant(self) -> str:
        """The variant name its games are stored under."""
        return f"stage-{self.number}"

    def options(self) -> dict[str, Any]:
        """The options of the engine's ``solo`` variant for this stage."""
        options: dict[str, Any] = {
            "target": self.target,
            "top_shelf": self.top_shelf,
            "bottom_shelf": self.bottom_shelf,
        }
        if self.rounds is not None:
            options["rounds"] = self.rounds
        return options

    def to_json(self) -> JSON:
        """The stage as the campaign page shows it."""
        return {
            "number": self.number,
            "target": self.target,
            "rounds": self.rounds or 12,
            "top_shelf": self.top_shelf,
            "bottom_shelf": self.bottom_shelf,
        }


@dataclass(frozen=True)
class Campaign:
    """The seven stages; ``provisional`` until the strong computer player calibrated them."""

    stages: tuple[Stage, ...]
    provisional: bool

    def stage(self, number: int) -> Stage:
        """Stage ``number`` (1 … 7)."""
        return self.stages[number - 1]


def parse_campaign(text: str) -> Campaign:
    """Read and check a campaign in the format of ``campaign.toml``."""
    try:
        data = tomllib.loads(text)
        stages = tuple(Stage(**entry) for entry in data["stage"])
    except (tomllib.TOMLDecodeError, KeyError, TypeError) as fault:
        raise CampaignDataError(f"campaign data is not valid: {fault}") from None
    if [s.number for s in stages] != list(range(1, STAGES + 1)):
        raise CampaignDataError(f"the campaign needs stages 1 to {STAGES} in order")
    for s in stages:
        if s.target < 0 or not (1 <= s.top_shelf <= 4 and 1 <= s.bottom_shelf <= 4):
            raise CampaignDataError(f"stage {s.number} has a bad target or shelf size")
        if s.rounds is not None and not 1 <= s.rounds <= 12:
            raise CampaignDataError(f"stage {s.number} has {s.rounds} rounds; 1 to 12 allowed")
    return Campaign(stages, bool(data.get("provisional", False)))


@cache
def load_campaign() -> Campaign:
    """The campaign of the package data (read once per process)."""
    text = (
        resources.files("spielcenter.games.speedquilt")
        .joinpath("campaign.toml")
        .read_text(encoding="utf-8")
    )
    return parse_campaign(text)


def stage_of(variant: str) -> int | None:
    """The stage number of a stored variant such as ``stage-3``; ``None`` for other variants."""
    match = STAGE_VARIANT.fullmatch(variant)
    if match is None or not 1 <= int(match.group(1)) <= STAGES:
        return None
    return int(match.group(1))


# -- the rules of progress (pure) ------------------------------------------------------------------


@dataclass(frozen=True)
class Progress:
    """Where a campaign stands, and its best run."""

    stage: int = 1
    spools: int = SPOOLS
    points: int = 0
    best_stage: int = 0
    best_points: int = 0


@dataclass(frozen=True)
class Outcome:
    """What one stage game did to the campaign."""

    stage: int
    cleared: bool
    score: int | None
    carried: int
    """Campaign points won (the points above the target)."""
    restarted: bool
    completed: bool
    """Stage 7 was cleared: the whole campaign is done."""
    new_best: bool
    campaign_points: int
    """The campaign points after this game (before a completed campaign starts afresh)."""

    def to_json(self) -> JSON:
        """For the end table."""
        return {
            "stage": self.stage,
            "cleared": self.cleared,
            "score": self.score,
            "carried": self.carried,
            "restarted": self.restarted,
            "completed": self.completed,
            "campaign_points": self.campaign_points,
        }


def after_stage(
    campaign: Campaign, progress: Progress, score: int | None
) -> tuple[Progress, Outcome]:
    """The campaign after a stage game scored ``score`` (``None``: she left it early)."""
    target = campaign.stage(progress.stage).target
    if score is not None and score >= target:
        return _cleared(progress, score, score - target)
    if progress.spools > 1:
        after = replace(progress, spools=progress.spools - 1)
        return after, Outcome(progress.stage, False, score, 0, False, False, False, after.points)
    fresh = replace(progress, stage=1, spools=SPOOLS, points=0)
    return fresh, Outcome(progress.stage, False, score, 0, True, False, False, 0)


def _cleared(progress: Progress, score: int, carried: int) -> tuple[Progress, Outcome]:
    points = progress.points + carried
    stage = progress.stage
    better = (stage, points) > (progress.best_stage, progress.best_points)
    best = (stage, points) if better else (progress.best_stage, progress.best_points)
    completed = stage == STAGES
    if completed:
        after = Progress(1, SPOOLS, 0, *best)
    else:
        after = Progress(stage + 1, progress.spools, points, *best)
    return after, Outcome(stage, True, score, carried, False, completed, better, points)


# -- the service ---------------------------------------------------------------------------------


def progress_of(row: CampaignRecord) -> Progress:
    """The pure progress held by a campaign row."""
    return Progress(row.stage, row.spools, row.points, row.best_stage, row.best_points)


async def campaign_row(db: AsyncSession, account_id: str, now: datetime) -> CampaignRecord:
    """The account's campaign row, created at stage 1 with two spools on first use."""
    row = await db.get(CampaignRecord, account_id)
    if row is None:
        row = CampaignRecord(
            account_id=account_id,
            stage=1,
            spools=SPOOLS,
            points=0,
            best_stage=0,
            best_points=0,
            updated_at=now,
        )
        db.add(row)
    return row


async def record_stage(
    db: AsyncSession,
    account_id: str,
    game_id: str,
    score: int | None,
    now: datetime,
    campaign: Campaign | None = None,
) -> Outcome | None:
    """Count a finished (or left) stage game; ``None`` if it is not the campaign's current game.

    Runs in the caller's transaction (``results.record_finished`` or :meth:`leave`).
    """
    campaign = campaign or load_campaign()
    row = await campaign_row(db, account_id, now)
    if row.game_id != game_id:
        return None
    after, outcome = after_stage(campaign, progress_of(row), score)
    row.stage, row.spools, row.points = after.stage, after.spools, after.points
    if outcome.new_best:
        row.best_stage, row.best_points, row.best_at = after.best_stage, after.best_points, now
    row.game_id = None
    row.updated_at = now
    return outcome


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
        async with self.sessionmaker.begin() as db:
            row = await campaign_row(db, account_id, now)
            if row.game_id is None:
                stage = self.campaign.stage(row.stage)
                game = _stage_game(account_id, stage, now, self.fresh_seed())
                db.add(game)
                row.game_id, row.updated_at = game.id, now
            game_id = row.game_id
            campaign = self._json(row)
        return {"campaign": campaign, "game": await self.games.summary(account_id, game_id)}

    async def leave(self, account_id: str) -> JSON:
        """Leave the stage game early: it counts as a miss (seed: "ebenfalls verfehlt")."""
        async with self.sessionmaker() as db:
            row = await db.get(CampaignRecord, account_id)
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
