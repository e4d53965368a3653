"""The one protocol every Spielcenter game follows.

A game is plain data (the *state*) plus the pure functions of a :class:`Game` object that knows
the rules of one game and variant. Nothing here does I/O, reads a clock or touches a database;
randomness comes only from what the game was dealt with, stored in the state: a deal number, or
for games that take one (Speedquilt) a :class:`~spielcenter.games.seeds.SecretSeed`.

The shape, borrowed from OpenSpiel and python-chess:

* ``start(deal)`` — the seeded start position (a deal number, or a secret seed where the game
  takes one: :data:`Deal`);
* ``to_act(state)`` — the seats that may move now (several at once while giving in Speedquilt;
  none once the game is over);
* ``legal_moves(state, seat)`` — every legal move of that seat;
* ``parse_move(text)`` / ``format_move(move)`` — the one canonical text notation of moves;
  text that cannot be read raises :class:`MoveSyntaxError`;
* ``check(state, move, seat)`` — raises :class:`IllegalMoveError` with the reason when a well-formed
  move is not allowed now; ``apply`` trusts its caller and does no checking;
* ``status(state)`` — ``playing``, ``won``, ``lost`` or, for games of several seats, ``finished``;
* ``encode`` / ``decode`` — a JSON codec of the full state;
* ``view_for(state, seat)`` — the JSON a seat may see: hidden information (the Crazy Quilt stock
  order, deck orders, future dice, other seats' private choices) is left out.

:meth:`Game.play` is the validating edge: parse, check, apply. :class:`Record` keeps the history
(moves with undo and redo), so that undo always equals a replay of the shorter log.
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar, Generic, TypeVar

from .seeds import SecretSeed

Seat = int
"""A seat at the table, 0-based. Patience games have the single seat 0."""

JSON = dict[str, Any]

Deal = int | SecretSeed
"""What a game is dealt from: a deal number (practice, patience) or a secret seed (ranked and
staked Speedquilt). Engines that take only deal numbers refuse a seed with ``DealNumberError``."""

S = TypeVar("S")
M = TypeVar("M")


class GameError(Exception):
    """Base of every error a game engine raises on bad input."""


class MoveSyntaxError(GameError, ValueError):
    """Text that is not a move in the game's notation."""


class IllegalMoveError(GameError):
    """A well-formed move that the rules do not allow in this position."""


class StateFormatError(GameError, ValueError):
    """A JSON state that does not describe a position of this game."""


class UnknownGameError(GameError, LookupError):
    """A game or variant name that the registry does not know."""


class Status(StrEnum):
    """Where a game stands."""

    PLAYING = "playing"
    WON = "won"
    LOST = "lost"
    FINISHED = "finished"
    """Over, for games of several seats; the result lives in the game's own scoring."""


class Game(ABC, Generic[S, M]):
    """The rules of one game in one variant. Stateless: every method is a pure function."""

    name: ClassVar[str]
    """The registry name, e.g. ``"cruel"``."""

    variant: str = "classic"
    seats: int = 1

    # -- start and moves ------------------------------------------------------------------

    @abstractmethod
    def start(self, deal: Deal) -> S:
        """The start position of deal number ``deal`` (1 … 2^63−1), or of a secret seed where
        the game takes one."""

    def to_act(self, state: S) -> frozenset[Seat]:
        """Seats that may move now; empty once the game is over. Patience: seat 0 while playing."""
        return frozenset() if self.status(state) is not Status.PLAYING else frozenset({0})

    @abstractmethod
    def legal_moves(self, state: S, seat: Seat = 0) -> list[M]:
        """Every move ``seat`` may make now, in a stable order."""

    @abstractmethod
    def parse_move(self, text: str) -> M:
        """Read a move from its notation; raise :class:`MoveSyntaxError` if it is not one."""

    @abstractmethod
    def format_move(self, move: M) -> str:
        """The canonical notation of ``move``; ``parse_move(format_move(m)) == m``."""

    def check(self, state: S, move: M, seat: Seat = 0) -> None:
        """Raise :class:`IllegalMoveError` unless ``move`` is legal for ``seat`` now.

        Engines override this to say *why*; the default only knows that it is not in the list.
        """
        if seat not in self.to_act(state):
            raise IllegalMoveError(f"{self.format_move(move)}: it is not seat {seat}'s turn")
        if move not in self.legal_moves(state, seat):
            raise IllegalMoveError(f"{self.format_move(move)}: not a legal move now")

    @abstractmethod
    def apply(self, state: S, move: M, seat: Seat = 0) -> S:
        """The position after ``move``. Trusts its caller: the move must be legal."""

    def play(self, state: S, text: str, seat: Seat = 0) -> S:
        """Parse, check and apply one move given as text: the validating edge."""
        move = self.parse_move(text)
        self.check(state, move, seat)
        return self.apply(state, move, seat)

    def replay(self, deal: Deal, moves: Iterable[str | tuple[Seat, str]]) -> S:
        """The position after playing ``moves`` from the start of ``deal``.

        A move is its text (played by seat 0) or a ``(seat, text)`` pair: in games of several
        seats, the log records who made each move.
        """
        state = self.start(deal)
        for entry in moves:
            seat, text = entry if isinstance(entry, tuple) else (0, entry)
            state = self.play(state, text, seat)
        return state

    # -- the end ----------------------------------------------------------------------------

    @abstractmethod
    def status(self, state: S) -> Status:
        """``playing``, ``won``, ``lost`` or ``finished``."""

    # -- codec and views ------------------------------------------------------------------------

    @abstractmethod
    def encode(self, state: S) -> JSON:
        """The full state as JSON-ready data (nothing hidden)."""

    @abstractmethod
    def decode(self, data: JSON) -> S:
        """The state from :meth:`encode`'s output; raise :class:`StateFormatError` if malformed."""

    @abstractmethod
    def view_for(self, state: S, seat: Seat | None) -> JSON:
        """What ``seat`` (``None``: a spectator) may see of ``state``, as JSON-ready data.

        A view that has ``legal`` lists there the seat's :meth:`legal_moves` in their notation
        (:meth:`format_move`), in their order: the server sends that list as it is, without
        asking the engine for the moves again (tests/conformance checks it for every engine)."""

    def render(self, state: S, seat: Seat | None = 0) -> str:
        """The position as text for people (the terminal player); engines draw it nicer."""
        import json

        return json.dumps(self.view_for(state, seat), indent=1)


RECORD_CHECKPOINT = 16
"""A :class:`Record` keeps the position after every 16th move (and the current one)."""


@dataclass
class Record(Generic[S, M]):
    """A game in progress: its deal, the moves played, and what undo has taken back.

    The state is always the replay of ``moves``, so undo equals replay. Only every
    :data:`RECORD_CHECKPOINT`-th position is kept besides the current one: a server keeps many
    games in memory (a Speedquilt position is several kilobytes), and an undo replays at most
    ``RECORD_CHECKPOINT - 1`` moves from the checkpoint before it.

    Each move remembers its seat (seat 0 unless told), so a game of several seats is taken back
    and played again by the seats that made its moves. A game's whole log, entries and who may
    read them, is :class:`spielcenter.games.log.GameLog`, built on this.
    """

    game: Game[S, M]
    deal: Deal
    moves: list[str] = field(default_factory=list)
    undone: list[str] = field(default_factory=list)
    _checkpoints: list[S] = field(default_factory=list, repr=False)
    _seats: list[Seat] = field(default_factory=list, repr=False)
    _undone_seats: list[Seat] = field(default_factory=list, repr=False)

    def __post_init__(self) -> None:
        played, self.moves = self.moves, []
        self._current = self.game.start(self.deal)
        self._checkpoints = [self._current]
        self._seats, self._undone_seats = [], [0] * len(self.undone)
        for text in played:
            self.play(text, keep_redo=True)

    @property
    def state(self) -> S:
        """The current position."""
        return self._current

    @property
    def seats(self) -> list[Seat]:
        """The seat of each move in :attr:`moves`."""
        return list(self._seats)

    def play(self, text: str, keep_redo: bool = False, seat: Seat = 0) -> S:
        """Play a move of ``seat`` given as text (validated); a new move clears the redo list."""
        state = self.game.play(self._current, text, seat)
        self.accept(self.game.format_move(self.game.parse_move(text)), state, seat, keep_redo)
        return state

    def accept(self, text: str, state: S, seat: Seat = 0, keep_redo: bool = False) -> None:
        """Take the move ``text`` of ``seat``, already checked and applied, whose position is
        ``state`` (a caller that checks and applies moves itself: the live table)."""
        self.moves.append(text)
        self._seats.append(seat)
        self._current = state
        if len(self.moves) % RECORD_CHECKPOINT == 0:
            self._checkpoints.append(state)
        if not keep_redo:
            self.undone.clear()
            self._undone_seats.clear()

    def undo(self) -> bool:
        """Take back the last move; ``False`` if there is none."""
        if not self.moves:
            return False
        self.undone.append(self.moves.pop())
        self._undone_seats.append(self._seats.pop())
        kept = len(self.moves) // RECORD_CHECKPOINT
        del self._checkpoints[kept + 1 :]
        state = self._checkpoints[kept]
        start = kept * RECORD_CHECKPOINT
        for text, seat in zip(self.moves[start:], self._seats[start:], strict=True):
            state = self.game.play(state, text, seat)
        self._current = state
        return True

    def redo(self) -> bool:
        """Play again the last move taken back, by its seat; ``False`` if there is none."""
        if not self.undone:
            return False
        seat = self._undone_seats.pop() if self._undone_seats else 0
        self.play(self.undone.pop(), keep_redo=True, seat=seat)
        return True


# -- the registry -----------------------------------------------------------------------------

_ENGINES: dict[str, str] = {
    "cruel": "spielcenter.games.cruel",
    "crazy-quilt": "spielcenter.games.crazy_quilt",
    "speedquilt": "spielcenter.games.speedquilt",
}
_ALIASES = {"crazy_quilt": "crazy-quilt", "crazyquilt": "crazy-quilt"}


def game_names() -> list[str]:
    """The names of all registered games."""
    return list(_ENGINES)


def canonical_name(name: str) -> str:
    """The registry name for ``name`` (accepting aliases such as ``crazy_quilt``)."""
    key = _ALIASES.get(name.lower(), name.lower())
    if key not in _ENGINES:
        raise UnknownGameError(f"unknown game {name!r}; known games: {', '.join(_ENGINES)}")
    return key


def variants_of(name: str) -> Sequence[str]:
    """The variant names of a game; the first is its default."""
    module = importlib.import_module(_ENGINES[canonical_name(name)])
    return tuple(module.VARIANTS)


def get_game(name: str, variant: str | None = None, **options: Any) -> Game[Any, Any]:
    """The :class:`Game` for a game name and variant (default: the game's first variant).

    Each engine module exposes ``VARIANTS`` and ``make(variant, **options)``; ``make`` raises
    :class:`UnknownGameError` for a variant it does not know.
    """
    module = importlib.import_module(_ENGINES[canonical_name(name)])
    game: Game[Any, Any] = module.make(variant or module.VARIANTS[0], **options)
    return game
