"""What a patience solver answers (:class:`Verdict`), and how a search says its budget is spent."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

__all__ = ["OutOfBudget", "Result", "Verdict"]

Result = Literal["won", "lost", "unknown"]


@dataclass(frozen=True)
class Verdict:
    """What the solver found: ``won`` (with a winning line), ``lost`` (proven) or ``unknown``."""

    result: Result
    moves: list[str] = field(default_factory=list)
    """The winning line in move notation (``3f``, ``3>7``, ``r``); empty unless ``won``."""
    nodes: int = 0
    """Positions searched."""
    proof: str = ""
    """How ``lost`` was proven when not by searching the whole game (Crazy Quilt's suits alone,
    :mod:`spielcenter.solvers.crazy_quilt_suits`, or a knot in its quilt,
    :mod:`spielcenter.solvers.crazy_quilt_knots`); empty otherwise."""


class OutOfBudget(Exception):
    """The node or time budget is spent."""
