"""The Speedquilt campaign: seven stages, two spools, campaign points (seed 003, "Kampagne allein").

A stage is the engine's ``solo`` variant with the stage's options from ``campaign.toml``. A stage
game is stored like any game (an event log in ``games``) under the variant ``stage-N``, dealt from
a fresh secret seed (it counts for the campaign leaderboard: services/fairness.py); the
account's :class:`~spielcenter.store.models.CampaignRecord` points at it, so any device continues
it where it stands.

This module holds the rules and how a stage game is counted (:func:`record_stage`, called when
the game ends); the campaign page's service, which drives the game service, is
``campaign_service.py``.

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
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from spielcenter.games.base import JSON
from spielcenter.store.models import CampaignRecord
from spielcenter.store.repositories import AccountRepository, CampaignRepository

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


# -- recording a stage game ------------------------------------------------------------------------


def progress_of(row: CampaignRecord) -> Progress:
    """The pure progress held by a campaign row."""
    return Progress(row.stage, row.spools, row.points, row.best_stage, row.best_points)


async def campaign_row(db: AsyncSession, account_id: str, now: datetime) -> CampaignRecord:
    """The account's campaign row, created at stage 1 with two spools on first use."""
    campaigns = CampaignRepository(db)
    row = await campaigns.get(account_id)
    if row is None:
        # Two first looks at once must not both make it: look again under the account's lock.
        await AccountRepository(db).lock([account_id])
        row = await campaigns.get(account_id)
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
        campaigns.add(row)
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

    Runs in the caller's transaction (``results.record_finished``, or
    ``CampaignService.leave`` in ``campaign_service.py``).
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
