"""Speedquilt's computer players: easy, normal and strong, at any seat and in every decision.

A bot is any object with ``decide(game, view, seat, memory) -> move text``: it sees only
``view`` (``game.view_for(state, seat)``), never the state, and keeps what it wants to remember
between decisions in ``memory`` (one dict per seat, owned by the caller).

>>> get_bot("strong").level
'strong'
"""

from __future__ import annotations

from collections.abc import MutableMapping
from typing import Any, Protocol

from spielcenter.games.base import JSON, Seat, UnknownGameError
from spielcenter.games.speedquilt.rules import Speedquilt

from .easy import Easy
from .normal import Normal
from .player import Player
from .strong import Strong

__all__ = ["LEVELS", "Bot", "get_bot"]

LEVELS: dict[str, type[Player]] = {"easy": Easy, "normal": Normal, "strong": Strong}
"""The three strengths by name."""


class Bot(Protocol):
    """A computer player."""

    level: str

    def decide(
        self, game: Speedquilt, view: JSON, seat: Seat, memory: MutableMapping[str, Any]
    ) -> str:
        """The move ``seat`` makes now, as text, decided from ``view`` alone."""
        ...


def get_bot(level: str) -> Bot:
    """The computer player of that strength (``easy``, ``normal`` or ``strong``)."""
    try:
        return LEVELS[level.lower()]()
    except KeyError:
        names = ", ".join(LEVELS)
        raise UnknownGameError(f"unknown computer player {level!r}; known: {names}") from None
