"""Which solver for which game: the one table that the command line, the winnable lists, the
hint button and the server read.

Each game with a solver has a :class:`GameSolver`: how to decide a deal or a position
(``solve``) and how to give the player a hint (``hint``). A game that is not in
:data:`SOLVERS` has neither; each caller says so in its own words.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final, Protocol

from spielcenter.games.base import Game

from . import crazy_quilt, cruel
from .hints import (
    HINT_NODE_BUDGET,
    QUILT_HINT_NODE_BUDGET,
    Hint,
    crazy_quilt_hint,
    cruel_hint,
)
from .verdict import Verdict

__all__ = ["SOLVERS", "GameSolver", "HintFunction", "SolveFunction", "hint", "solver_of"]


class SolveFunction(Protocol):
    """Decide a deal number or an engine state of one game (see :func:`cruel.solve`)."""

    def __call__(
        self,
        position: Any,
        variant: str | None = None,
        *,
        node_budget: int = ...,
        time_budget: float | None = None,
    ) -> Verdict: ...


class HintFunction(Protocol):
    """A hint for a state of one game, given the moves played (see :mod:`.hints`)."""

    def __call__(
        self,
        game: Any,
        state: Any,
        history: Sequence[str] | None = None,
        *,
        node_budget: int = ...,
    ) -> Hint: ...


@dataclass(frozen=True)
class GameSolver:
    """What the solvers offer for one game."""

    solve: SolveFunction
    hint: HintFunction
    hint_budget: int
    """Positions one hint may search (a hint must answer in well under a second)."""


SOLVERS: Final[dict[str, GameSolver]] = {
    "cruel": GameSolver(cruel.solve, cruel_hint, HINT_NODE_BUDGET),
    "crazy-quilt": GameSolver(crazy_quilt.solve, crazy_quilt_hint, QUILT_HINT_NODE_BUDGET),
}
"""The games with a solver, by their registry name (:func:`spielcenter.games.canonical_name`)."""


def solver_of(game: str) -> GameSolver | None:
    """The solver of ``game`` (a registry name), or ``None`` when it has none."""
    return SOLVERS.get(game)


def hint(
    game: Game[Any, Any],
    state: Any,
    history: Sequence[str] | None = None,
    *,
    node_budget: int | None = None,
) -> Hint:
    """A hint for ``state`` of ``game``.

    ``history`` is the list of moves played from the deal's start (as a :class:`Record` keeps
    it); with it, a hint for a lost Cruel game says how far to undo, and the Crazy Quilt hint
    knows the stock the player turned over at a redeal. ``node_budget`` defaults to the game's
    :attr:`GameSolver.hint_budget`. Raises ``ValueError`` for a game that has no hints, or a
    Crazy Quilt history that does not lead to ``state``.
    """
    solver = solver_of(game.name)
    if solver is None:
        raise ValueError(
            f"there are no hints for {game.name!r}; hints exist for Cruel and Crazy Quilt"
        )
    budget = solver.hint_budget if node_budget is None else node_budget
    return solver.hint(game, state, history, node_budget=budget)
