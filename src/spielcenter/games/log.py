"""A game's log: its entries in order, the position they replay to, and who may read each.

One shape for every game the server keeps, a patience game or a Speedquilt table with four
seats alike (a solo game is a table of one seat). An :class:`Entry` is one accepted decision:
its number ``seq`` (1, 2, 3 …), the ``seat`` that made it, its ``kind`` and the move's canonical
text. ``kind`` is ``move``, or ``undo`` / ``redo``: an entry that takes back the last move
standing, or plays the move last taken back again, by the seat that made it. The position is
always the replay of the log through the engine (:class:`~spielcenter.games.base.Record`), so
undo equals replay.

Who may read what of an entry is the game's rule, as ``view_for`` is for a position: a
:data:`Lines` function gives an entry's :class:`EntryLines` (the deciding seat's own line,
everyone else's, and what follows from it for all); Speedquilt's is
:func:`spielcenter.games.speedquilt.history.lines_of`. A game without one shows every move to
every reader and has no lines.

Both stores hold this shape: a solo game's ``game_entries`` (seq, kind, move; the seat is 0) and
a table's ``table_entries`` (seq, seat, move; every entry a ``move``). Nothing here reads them:
the services hand their rows to :meth:`GameLog.replay`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from .base import JSON, Deal, Game, Record, Seat

__all__ = ["KINDS", "MOVE", "REDO", "UNDO", "Entry", "EntryLines", "GameLog", "Lines", "Stored"]

S = TypeVar("S")
M = TypeVar("M")

MOVE, UNDO, REDO = "move", "undo", "redo"
KINDS = (MOVE, UNDO, REDO)

Stored = tuple[str, Seat, str | None]
"""An entry as a store keeps it: ``(kind, seat, move text)`` (an undo or redo may omit the
move: the log knows which one it is)."""


@dataclass(frozen=True)
class EntryLines:
    """The history of one entry: the decider's line, everyone else's, and what follows from it.

    ``private`` says that the move text itself is for the deciding seat only.
    """

    own: JSON | None
    public: JSON | None
    also: list[JSON] = field(default_factory=list)
    private: bool = False

    def line_for(self, decider: int, reader: int | None) -> JSON | None:
        """The line ``reader`` (a seat, or ``None`` for a spectator) may read."""
        return self.own if reader == decider else self.public


NO_LINES = EntryLines(None, None)
"""The lines of an entry of a game that writes none: its move is for everyone, without words."""

Lines = Callable[[Any, Any, Seat, Any], EntryLines]
"""A game's rule for the lines of one move: ``(position before, position after, seat, move)``."""


@dataclass(frozen=True)
class Entry:
    """One accepted decision of a log: its number, the deciding seat, the move's text and its
    history lines, and its kind (``move``, ``undo``, ``redo``). A live game and its replays
    read a log as these alike."""

    seq: int
    seat: int
    move: str
    lines: EntryLines = NO_LINES
    kind: str = MOVE

    def for_reader(self, reader: int | None) -> JSON:
        """The entry as ``reader`` (a seat, ``None``: a spectator) may see it: the move text
        only where it is not private to another seat."""
        mine = reader == self.seat
        return {
            "seq": self.seq,
            "seat": self.seat,
            "move": self.move if mine or not self.lines.private else None,
            "line": self.lines.line_for(self.seat, reader),
            "also": list(self.lines.also),
        }


class GameLog(Generic[S, M]):
    """A game's log and the position it replays to.

    A new decision is checked, then :meth:`step` says which entry it makes and where it leads
    without changing anything, and :meth:`accept` takes it once it is stored (a table writes
    first and tells after); :meth:`play`, :meth:`undo` and :meth:`redo` do all of it at once
    (a solo game drops its log if the write fails and replays it from the store).
    """

    def __init__(
        self, game: Game[S, M], deal: Deal, lines: Lines | None = None, keep: bool = True
    ) -> None:
        self.game = game
        self.deal = deal
        self.lines = lines
        self.record: Record[S, M] = Record(game, deal)
        self.entries: list[Entry] = []
        """Every entry, when the log keeps them (``keep``; a table reads its history here)."""
        self.keep = keep
        """A patience game's log keeps none: its history is in the store, and an entry kept
        for every move and undo of a thousand players was a thousand objects a second more
        for the garbage collector's oldest generation (docs/performance.md)."""
        self._seq = 0

    @classmethod
    def replay(
        cls,
        game: Game[S, M],
        deal: Deal,
        stored: Iterable[Stored],
        lines: Lines | None = None,
        checked: bool = True,
        keep: bool = True,
    ) -> GameLog[S, M]:
        """The log of stored entries played again from the deal; ``checked=False`` trusts the
        moves (they were checked when they were written) and only applies them; ``keep=False``
        keeps no entries (see :attr:`keep`)."""
        log: GameLog[S, M] = cls(game, deal, lines, keep)
        for kind, seat, text in stored:
            log.add(kind, seat, text, checked)
        return log

    @property
    def state(self) -> S:
        """The position now: the replay of the log."""
        return self.record.state

    @property
    def seq(self) -> int:
        """The number of the last entry (0 before the first)."""
        return self._seq

    def step(self, seat: Seat, move: M) -> tuple[Entry, S]:
        """The entry that ``seat`` playing ``move`` (checked by the caller) makes, and the
        position after it; the log does not change."""
        before = self.record.state
        after = self.game.apply(before, move, seat)
        text = self.game.format_move(move)
        lines = NO_LINES if self.lines is None else self.lines(before, after, seat, move)
        return Entry(self.seq + 1, seat, text, lines), after

    def accept(self, entry: Entry, after: S) -> None:
        """Take a ``move`` entry from :meth:`step` into the log, with its position."""
        self.record.accept(entry.move, after, entry.seat)
        self._add(entry)

    def play(self, text: str, seat: Seat = 0) -> Entry:
        """Parse, check and play a move of ``seat`` (raising the engine's ``MoveSyntaxError`` or
        ``IllegalMoveError`` and changing nothing if it is none or not allowed now)."""
        move = self.game.parse_move(text)
        self.game.check(self.record.state, move, seat)
        entry, after = self.step(seat, move)
        self.accept(entry, after)
        return entry

    def undo(self) -> Entry | None:
        """Take back the last move standing, by the seat that made it; ``None`` if none."""
        record = self.record
        seats = record.seats
        if not record.undo():
            return None
        return self._note(UNDO, seats[-1], record.undone[-1])

    def redo(self) -> Entry | None:
        """Play the move last taken back again; ``None`` if there is none."""
        record = self.record
        if not record.redo():
            return None
        return self._note(REDO, record.seats[-1], record.moves[-1])

    def add(self, kind: str, seat: Seat, text: str | None, checked: bool = True) -> Entry:
        """Replay one stored entry (``checked=False``: apply its move without checking it)."""
        if kind == MOVE and text is not None:
            if checked:
                return self.play(text, seat)
            entry, after = self.step(seat, self.game.parse_move(text))
            self.accept(entry, after)
            return entry
        taken = self.undo() if kind == UNDO else self.redo() if kind == REDO else None
        if taken is not None:
            return taken
        raise ValueError(f"log entry {self.seq + 1} ({kind!r}) cannot be replayed")

    def _note(self, kind: str, seat: Seat, text: str) -> Entry:
        entry = Entry(self.seq + 1, seat, text, kind=kind)
        self._add(entry)
        return entry

    def _add(self, entry: Entry) -> None:
        self._seq = entry.seq
        if self.keep:
            self.entries.append(entry)
