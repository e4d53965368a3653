"""Achievements: the seven of the Speedquilt seed and our own for all three games.

Each achievement is a pure test of :class:`Facts` — what a finished game's record says (the
replayed final state and its log) plus the little the account's history adds (the win streak,
the campaign's outcome). Names and descriptions are catalogue keys
``achievement.<key>.name`` / ``achievement.<key>.text`` (German and English ``.po`` files).
An account earns each achievement once; :func:`earned` says which ones a game deserves.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from spielcenter.games.base import Status

from .campaign import Outcome

GIFTS_FOR_WELL_GIFTED = 5
MASTER_QUILT_POINTS = 40
KIT_KINDS = 5
FULL_QUILT = 9
STREAK = 3
QUICK_MOVES = 100
CAMPAIGN_POINTS_GOAL = 50
SWIFT_BONUS = 6
"""Round bonus of three rounds left after the 9th block (2 points each)."""
PATIENCE = ("cruel", "crazy-quilt")


@dataclass(frozen=True)
class QuiltFacts:
    """One seat's finished Speedquilt quilt, as the achievements look at it."""

    points: int
    """Her total, the solo round bonus included."""
    pattern_points: int
    """Points from pattern blocks alone."""
    place: int
    seats: int
    blocks: int
    finished_blocks: int
    finished_kit_kinds: frozenset[str]
    single_colour_rows: int
    gifts: int
    round_bonus: int = 0


@dataclass(frozen=True)
class Facts:
    """What one finished game says about one seat."""

    game: str
    variant: str
    status: Status
    moves: tuple[str, ...] = ()
    quilt: QuiltFacts | None = None
    streak: int = 0
    """Wins in a row of this game, this one included."""
    campaign: Outcome | None = None
    daily: bool = False
    """A daily quilt played to its end."""

    @property
    def won(self) -> bool:
        """The engine said ``won``."""
        return self.status is Status.WON

    @property
    def redeals(self) -> int:
        """Redeals in the log (``r`` in both patience notations)."""
        return sum(move == "r" for move in self.moves)


@dataclass(frozen=True)
class Achievement:
    """One achievement: its key and the test that decides it."""

    key: str
    game: str
    decide: Callable[[Facts], bool]

    @property
    def name_key(self) -> str:
        """Catalogue key of the name."""
        return f"achievement.{self.key}.name"

    @property
    def text_key(self) -> str:
        """Catalogue key of the description."""
        return f"achievement.{self.key}.text"


def _quilt(test: Callable[[QuiltFacts], bool]) -> Callable[[Facts], bool]:
    return lambda facts: facts.quilt is not None and test(facts.quilt)


def _cleared(stage_test: Callable[[Outcome], bool]) -> Callable[[Facts], bool]:
    return lambda facts: facts.campaign is not None and stage_test(facts.campaign)


ACHIEVEMENTS: tuple[Achievement, ...] = (
    # The seven of the seed (003, "Erfolge").
    Achievement("well_gifted", "speedquilt", _quilt(lambda q: q.gifts >= GIFTS_FOR_WELL_GIFTED)),
    Achievement("one_colour", "speedquilt", _quilt(lambda q: q.single_colour_rows >= 1)),
    Achievement(
        "full_sewing_box", "speedquilt", _quilt(lambda q: len(q.finished_kit_kinds) == KIT_KINDS)
    ),
    Achievement("no_patch_free", "speedquilt", _quilt(lambda q: q.finished_blocks == FULL_QUILT)),
    Achievement(
        "master_quilt", "speedquilt", _quilt(lambda q: q.pattern_points >= MASTER_QUILT_POINTS)
    ),
    Achievement("daily_guest", "speedquilt", lambda f: f.daily),
    Achievement("all_seven_stages", "speedquilt", _cleared(lambda o: o.completed)),
    # Our own, in the same spirit.
    Achievement("first_stage", "speedquilt", _cleared(lambda o: o.cleared and o.stage == 1)),
    Achievement(
        "fifty_campaign_points",
        "speedquilt",
        _cleared(lambda o: o.completed and o.campaign_points >= CAMPAIGN_POINTS_GOAL),
    ),
    Achievement("swift_quilt", "speedquilt", _quilt(lambda q: q.round_bonus >= SWIFT_BONUS)),
    Achievement("table_winner", "speedquilt", _quilt(lambda q: q.seats > 1 and q.place == 1)),
    Achievement(
        "cruel_no_redeal", "cruel", lambda f: f.game == "cruel" and f.won and f.redeals == 0
    ),
    Achievement(
        "crazy_quilt_no_redeal",
        "crazy-quilt",
        lambda f: f.game == "crazy-quilt" and f.won and f.redeals == 0,
    ),
    Achievement(
        "perseverance",
        "cruel",
        lambda f: f.game == "cruel" and f.variant == "perseverance" and f.won,
    ),
    Achievement("cruel_streak", "cruel", lambda f: f.game == "cruel" and f.streak >= STREAK),
    Achievement(
        "quick_patience",
        "patience",
        lambda f: f.game in PATIENCE and f.won and len(f.moves) <= QUICK_MOVES,
    ),
    Achievement("first_patience_win", "patience", lambda f: f.game in PATIENCE and f.won),
)
"""Every achievement, in the order the page lists them."""

BY_KEY = {achievement.key: achievement for achievement in ACHIEVEMENTS}


def earned(facts: Facts) -> list[str]:
    """The keys of every achievement this game deserves (awarded or not before)."""
    return [a.key for a in ACHIEVEMENTS if a.decide(facts)]


__all__ = ["ACHIEVEMENTS", "BY_KEY", "Achievement", "Facts", "QuiltFacts", "earned"]
