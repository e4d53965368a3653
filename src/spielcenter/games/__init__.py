"""Pure rule engines: no I/O, no clock, no database. See :mod:`spielcenter.games.base`."""

from .base import (
    Game,
    GameError,
    IllegalMoveError,
    MoveSyntaxError,
    Record,
    Seat,
    StateFormatError,
    Status,
    UnknownGameError,
    game_names,
    get_game,
    variants_of,
)

__all__ = [
    "Game",
    "GameError",
    "IllegalMoveError",
    "MoveSyntaxError",
    "Record",
    "Seat",
    "StateFormatError",
    "Status",
    "UnknownGameError",
    "game_names",
    "get_game",
    "variants_of",
]
