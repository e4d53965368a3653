"""Computer players against each other: whole games, seat rotation, win rates and timings.

:func:`play_game` runs one game where every seat is a bot that sees only its own view.
:func:`run_tournament` plays ``games`` games from consecutive deal numbers, rotating the seats so
that every player sits at every seat equally often, and sums up win rates (with Wilson 95 %
intervals; a shared first place counts as half a win between two), mean scores and the decision
times (p50 / p95 / max per player). The clock is read only here, never in a bot or the engine.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from spielcenter.games import get_game
from spielcenter.games.base import Status
from spielcenter.games.speedquilt.rules import Speedquilt
from spielcenter.games.speedquilt.scoring import score_quilt

from . import Bot, get_bot

__all__ = ["GameResult", "PlayerSummary", "play_game", "run_tournament", "wilson"]

MAX_DECISIONS = 20_000
Z95 = 1.96


@dataclass
class GameResult:
    """One finished game: per seat the level, score, place and decision times (seconds)."""

    seed: int
    levels: list[str]
    scores: list[int]
    places: list[int]
    times: list[list[float]]
    moves: list[tuple[int, str]] = field(default_factory=list)
    quilts: list[dict[str, tuple[bool, int]]] = field(default_factory=list)
    """Per seat at the end: every block of the quilt with whether it is finished and its points."""


def play_game(
    levels: Sequence[str], seed: int, *, variant: str = "table", **options: Any
) -> GameResult:
    """Play one whole game of bots (seat ``i`` is ``levels[i]``); every move is validated."""
    if variant == "table":
        options.setdefault("players", len(levels))
    game = get_game("speedquilt", variant, **options)
    assert isinstance(game, Speedquilt)
    bots: list[Bot] = [get_bot(level) for level in levels]
    memories: list[dict[str, Any]] = [{} for _ in levels]
    times: list[list[float]] = [[] for _ in levels]
    state = game.start(seed)
    log: list[tuple[int, str]] = []
    while game.status(state) is Status.PLAYING:
        if len(log) >= MAX_DECISIONS:
            raise RuntimeError(f"deal {seed}: the bots did not finish in {MAX_DECISIONS} moves")
        seat = _next_seat(game, state)
        view = game.view_for(state, seat)
        began = time.perf_counter()
        text = bots[seat].decide(game, view, seat, memories[seat])
        times[seat].append(time.perf_counter() - began)
        state = game.play(state, text, seat)
        log.append((seat, text))
    quilts = [_quilt_summary(game, seat.quilt) for seat in state.seats]
    return GameResult(
        seed, list(levels), game.scores(state), game.places(state), times, log, quilts
    )


def _quilt_summary(game: Speedquilt, quilt: Any) -> dict[str, tuple[bool, int]]:
    """Each block of a final quilt: finished or not, and the points it scores."""
    score = score_quilt(quilt, game.ctx.catalogue)
    points = {entry.block_id: entry.points for entry in score.blocks}
    return {p.block_id: (p.finished, points.get(p.block_id, 0)) for p in quilt.values()}


def _next_seat(game: Speedquilt, state: Any) -> int:
    """Passive seats first (computers decide at once), then the active seat."""
    acting = sorted(game.to_act(state))
    active = state.turn.seat if state.turn is not None else None
    waiting = [s for s in acting if s != active]
    return waiting[0] if waiting else acting[0]


def wilson(wins: float, n: int) -> tuple[float, float]:
    """The Wilson 95 % interval of a rate of ``wins`` in ``n``."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + Z95**2 / (2 * n)) / (1 + Z95**2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / (1 + Z95**2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class PlayerSummary:
    """How one entrant of a tournament did."""

    level: str
    games: int = 0
    wins: float = 0.0
    scores: list[int] = field(default_factory=list)
    times: list[float] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """JSON-ready figures."""
        low, high = wilson(self.wins, self.games)
        ordered = sorted(self.times)
        return {
            "level": self.level,
            "games": self.games,
            "wins": self.wins,
            "win_rate": self.wins / self.games if self.games else 0.0,
            "win_rate_95": [low, high],
            "mean_score": sum(self.scores) / len(self.scores) if self.scores else 0.0,
            "decisions": len(ordered),
            "time_ms": {
                "p50": _quantile(ordered, 0.50) * 1000,
                "p95": _quantile(ordered, 0.95) * 1000,
                "max": (ordered[-1] if ordered else 0.0) * 1000,
            },
        }


def _quantile(ordered: list[float], q: float) -> float:
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run_tournament(
    levels: Sequence[str],
    games: int,
    seed: int,
    *,
    variant: str = "table",
    progress: Callable[[GameResult], None] | None = None,
    **options: Any,
) -> tuple[list[PlayerSummary], list[GameResult]]:
    """Play ``games`` games from deals ``seed``, ``seed+1``, …; in game ``k`` the entrants sit
    rotated by ``k`` seats. The entrants are the positions of ``levels`` (the same level may
    play twice). A solo tournament (one level) plays the solo variant and has no wins."""
    n = len(levels)
    summaries = [PlayerSummary(level) for level in levels]
    results = []
    for k in range(games):
        order = [(k + i) % n for i in range(n)]  # seat i holds entrant order[i]
        result = play_game([levels[e] for e in order], seed + k, variant=variant, **options)
        results.append(result)
        for seat, entrant in enumerate(order):
            summary = summaries[entrant]
            summary.games += 1
            summary.scores.append(result.scores[seat])
            summary.times.extend(result.times[seat])
            if n > 1 and result.places[seat] == 1:
                summary.wins += 1 / result.places.count(1)
        if progress is not None:
            progress(result)
    return summaries, results
