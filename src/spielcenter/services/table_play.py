"""A Speedquilt table in play: its position replayed from the stored log, and the use cases that
change it (docs/tables.md).

A :class:`LiveTable` is the stored table (``services/tables.py``) with its position. Each use
case runs load → check → apply → persist over it: a person's decision, a computer's, a clock
running out, a seat handed to a computer or taken back, a chat line. Each is committed before it
returns, and returns what happened (an :class:`Accepted` entry, a :class:`SeatChange`); a refusal
raises :class:`ServiceError` and changes nothing.

Nothing here talks to a socket or sleeps: the server's table actor (``server/tables.py``) calls
these one at a time, in its queue's order, and tells the sockets what they return.
"""

from __future__ import annotations

import asyncio
import copy
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import structlog

from spielcenter.bots import Bot, get_bot
from spielcenter.bots.player import Memory, fallback
from spielcenter.bots.thinking import Table, think_in_thread
from spielcenter.games.base import JSON, IllegalMoveError, MoveSyntaxError, Status
from spielcenter.games.log import Entry, GameLog
from spielcenter.games.speedquilt.history import table_log
from spielcenter.games.speedquilt.moves import Move
from spielcenter.games.speedquilt.rules import Speedquilt
from spielcenter.games.speedquilt.scoring import leaderboard_points
from spielcenter.games.speedquilt.state import GameState, Phase
from spielcenter.store.models import SeatClock

from .chat import RECENT, ChatService
from .clocks import ABSENCE, GRACE, ClockKind, Due, Timing, Waiting, due, next_deadlines
from .clocks import waiting_for as clocked_seats
from .common import Clock, ServiceError, as_utc
from .fairness import dealt_from
from .ledger import LedgerService
from .lobby import LobbyService
from .tables import FinishedTable, StoredTable, TableService, finished_table

__all__ = [
    "PRESENCE_POLL",
    "Accepted",
    "LiveTable",
    "SeatChange",
    "TableServices",
    "clock_json",
]

Thinker = Callable[[Bot, Speedquilt, Table, JSON, int, Memory], Awaitable[str]]
"""How a computer's decision is thought (bots/thinking.py)."""

PRESENCE_POLL = 5.0
"""How often (seconds) a table without a think clock looks whether its people are connected."""

log = structlog.get_logger("spielcenter.server")


@dataclass(frozen=True)
class Accepted:
    """A committed decision, and the seats whose timed-out turn it ended (their person plays
    them again)."""

    entry: Entry
    returned: tuple[int, ...] = ()


@dataclass(frozen=True)
class Thought:
    """A computer's thinking about one position, started ahead of its move: its seat, the
    position's ``seq``, the computer, the memory it thinks with, and the thinking."""

    seat: int
    seq: int
    bot: Bot
    memory: Memory
    task: asyncio.Future[str]

    def fits(self, seat: int, seq: int, bot: Bot) -> bool:
        """Whether this is ``bot``'s thought for ``seat`` at position ``seq``."""
        return (self.seat, self.seq) == (seat, seq) and self.bot is bot


@dataclass(frozen=True)
class SeatChange:
    """A person's seat changed hands, committed: ``away`` says why a computer plays it now
    (``None``: she plays it herself again); ``why`` is the protocol's word for it."""

    seat: int
    away: str | None
    why: str


class LiveTable:
    """A started table's position and the use cases over it; one owner calls it at a time."""

    def __init__(
        self,
        stored: StoredTable,
        engine: Speedquilt,
        service: TableService,
        clock: Clock,
        clock_scale: float = 1.0,
        chat: ChatService | None = None,
        think: Thinker = think_in_thread,
    ) -> None:
        self.stored = stored
        self.think = think
        """Where the computers think (bots/thinking.py: a thread, or a process of their own)."""
        self.engine = engine
        self.service = service
        self.clock = clock
        self.chat = chat
        self.chat_lines: list[JSON] | None = None
        log = [(e.seat, e.move) for e in stored.entries]
        self.log: GameLog[GameState, Move] = table_log(engine, dealt_from(stored.record), log)
        self.bots: dict[int, Bot] = {
            s.seat: get_bot(s.level) for s in stored.seats if s.level is not None
        }
        self.memories: dict[int, Memory] = {seat: {} for seat in self.bots}
        setup = stored.setup
        # A lobby table's clocks and the stand-in computer for its people (docs/tables.md).
        self.timing = (
            Timing(setup.think_seconds, setup.giving_seconds, clock_scale) if setup else None
        )
        self.stand_in = setup.stand_in if setup else "normal"
        self.stand_ins: dict[int, Bot] = {}
        self.warned: set[int] = set()
        # Seats whose person made a decision herself (a seat without one wins nothing).
        self.decided = {e.seat for e in stored.entries if not e.by_stand_in}
        self._thought: Thought | None = None

    # -- reading -----------------------------------------------------------------------------

    @property
    def id(self) -> str:
        """The table's id."""
        return self.stored.record.id

    @property
    def state(self) -> GameState:
        """The position: the replay of the log."""
        return self.log.state

    @property
    def entries(self) -> list[Entry]:
        """The log's entries, in order."""
        return self.log.entries

    @property
    def seq(self) -> int:
        """The last entry of the log."""
        return self.log.seq

    @property
    def playing(self) -> bool:
        """Whether the game still takes decisions."""
        return self.engine.status(self.state) is Status.PLAYING

    def seat_of(self, account_id: str) -> int:
        """The seat of ``account_id``; ``not_seated`` for anyone else."""
        seat = self.stored.seat_of(account_id)
        if seat is None:
            raise ServiceError("not_seated", "you have no seat at this table")
        return seat

    def account_at(self, seat: int | None) -> str | None:
        """The account at ``seat`` (``None`` for a spectator or a computer)."""
        return None if seat is None else self.stored.seats[seat].account_id

    def seen_by(self, reader: int | None) -> JSON:
        """``seq``, ``seat``, ``view``, ``to_act``, ``legal`` and ``clocks`` for one reader."""
        engine, state = self.engine, self.state
        acting = engine.to_act(state)
        legal = engine.legal_moves(state, reader) if reader in acting else []
        assert reader is None or isinstance(reader, int)
        return {
            "seq": self.seq,
            "seat": reader,
            "view": engine.view_for(state, reader),
            "to_act": sorted(acting),
            "legal": [engine.format_move(m) for m in legal] if reader is not None else [],
            "clocks": self.clock_list(),
        }

    def history(self, reader: int | None) -> list[JSON]:
        """The readable lines of the game so far, as ``reader`` may read them."""
        lines: list[JSON] = []
        for entry in self.entries:
            line = entry.lines.line_for(entry.seat, reader)
            if line is not None:
                lines.append(line)
            lines.extend(entry.lines.also)
        return lines

    def missed(self, reader: int | None, last_seq: int | None) -> list[JSON]:
        """The entries after ``last_seq`` as ``reader`` may see them (none without a valid one:
        the full state covers them)."""
        if last_seq is None or not 0 <= last_seq <= self.seq:
            return []
        return [entry.for_reader(reader) for entry in self.entries[last_seq:]]

    # -- decisions ---------------------------------------------------------------------------

    async def play(self, seat: int, text: str, client_seq: int | None) -> Accepted:
        """A person's own decision for her seat (refused while a computer plays it)."""
        if self.away(seat):
            raise ServiceError("seat_away", "a computer plays your seat now: send table.return")
        return await self.decide(seat, text, client_seq, own=True)

    async def decide(
        self, seat: int, text: str, client_seq: int | None = None, own: bool = False
    ) -> Accepted:
        """Check, apply and commit one decision of ``seat``; ``own``: her person made it (not a
        computer or a clock). A refusal changes nothing; if the write fails, neither."""
        timing, began = self.service.timing, time.perf_counter()
        move = self._checked(seat, text, client_seq)
        entry, after = self.log.step(seat, move)
        finished = self._finished(after, {seat} if own else set(), entry)
        clocks = self._reclock(after, seat)
        stand_in = not own and seat not in self.bots
        applied = time.perf_counter()
        timing("table_apply", (applied - began) * 1000)
        # Committed before anyone hears of it; if the write fails, the position stays as it was.
        await self.service.append(self.id, entry.seq, seat, entry.move, finished, clocks, stand_in)
        committed = (time.perf_counter() - applied) * 1000
        timing("table_commit", committed)
        if own:  # a person's own decision, whose round trip is the measure
            timing("table_commit_own", committed)
        if own:
            self.decided.add(seat)
        returned = self._keep_clocks(clocks)
        self.log.accept(entry, after)
        self.drop_thought()  # the position moved on: a thought made ahead no longer fits
        self._note_end(entry.seq, finished)
        return Accepted(entry, tuple(returned))

    def _checked(self, seat: int, text: str, client_seq: int | None) -> Move:
        """The move ``seat`` may make now, or the refusal saying why not."""
        engine = self.engine
        if not self.playing:
            raise ServiceError("game_over", "this table's game is over")
        if client_seq is not None and client_seq != self.seq:
            raise ServiceError("stale", f"the table is at seq {self.seq}, not {client_seq}")
        try:
            move = engine.parse_move(text)
        except MoveSyntaxError as exc:
            raise ServiceError("bad_move", str(exc)) from exc
        if seat not in engine.to_act(self.state):
            raise ServiceError("not_your_turn", f"the game is not waiting for seat {seat}")
        try:
            engine.check(self.state, move, seat)
        except IllegalMoveError as exc:
            raise ServiceError("illegal_move", str(exc)) from exc
        return move

    def _note_end(self, seq: int, finished: FinishedTable | None) -> None:
        """Keep the stored row as committed (the summaries read it)."""
        record = self.stored.record
        record.last_seq = seq
        if finished is not None:
            record.status = "finished"
            record.result = finished.result()
            record.finished_at = finished.finished_at

    def _finished(self, after: GameState, deciding: set[int], last: Entry) -> FinishedTable | None:
        engine = self.engine
        if engine.status(after) is Status.PLAYING:
            return None
        quilts = engine.quilt_scores(after)
        scores, places = engine.scores(after), engine.places(after)
        result: JSON = {
            "scores": scores,
            "places": places,
            "leaderboard_points": [
                leaderboard_points(p, s) for p, s in zip(places, scores, strict=True)
            ],
            "empty_patches": [q.empty_patches for q in quilts],
            "breakdown": [q.to_json() for q in quilts],
        }
        # No winnings for a person who left, nor for one who never decided anything herself
        # (docs/ledger.md): only people's seats have clock rows.
        decided = self.decided | deciding
        forfeited = [
            seat
            for seat, row in self.stored.clocks.items()
            if row.away == "left" or seat not in decided
        ]
        moves = [(e.seat, e.move) for e in (*self.entries, last)]
        return finished_table(self.stored, result, self.clock(), sorted(forfeited), moves, after)

    # -- computers ---------------------------------------------------------------------------

    def computer_to_move(self) -> int | None:
        """The computer seat to decide now: passive seats (giving, choosing) first; the active
        seat only once no window is open (as in bots/tournament.py)."""
        acting = self.engine.to_act(self.state)
        active = self.state.active
        waiting = sorted(s for s in acting if s != active and self._computer_for(s))
        if waiting:
            return waiting[0]
        if active is not None and self._computer_for(active) and acting == {active}:
            return active
        return None

    def _computer_for(self, seat: int) -> Bot | None:
        """The computer deciding for ``seat`` now: its own, or the stand-in of an away person."""
        if seat in self.bots:
            return self.bots[seat]
        row = self.stored.clocks.get(seat)
        if row is None or row.away is None:
            return None
        return self._stand_in(seat)

    def _stand_in(self, seat: int) -> Bot:
        if seat not in self.stand_ins:
            self.stand_ins[seat] = get_bot(self.stand_in)
            self.memories.setdefault(seat, {})
        return self.stand_ins[seat]

    def think_ahead(self, seat: int) -> None:
        """Have the computer of ``seat`` start thinking about the position now, while its pause
        runs (server/tables.py): the thinking is no longer in the table's queue, where a
        person's move would wait behind it. A thought is good for this position and this
        computer only; :meth:`computer_decides` takes it or drops it."""
        bot = self._computer_for(seat)
        assert bot is not None
        if self._thought is not None and self._thought.fits(seat, self.seq, bot):
            return
        self.drop_thought()
        self._thought = self._start_thinking(seat, bot)

    def drop_thought(self) -> None:
        """Forget a thought made ahead (the position moved on, or the table stops)."""
        if self._thought is not None:
            self._thought.task.cancel()
            self._thought = None
            self.service.timing("computer_thought_dropped", 1.0)

    def _start_thinking(self, seat: int, bot: Bot) -> Thought:
        # A computer sees only its own seat's view; it thinks with a copy of its memory, taken
        # over only when its thought is played (a dropped one leaves no trace).
        view = self.engine.view_for(self.state, seat)
        memory = copy.deepcopy(self.memories[seat])
        table = Table(self.stored.record.variant, dict(self.stored.record.options))
        # The thinking is asked for inside the task: a thought dropped before the task begins
        # then never asks at all, instead of leaving an asked-for thought never awaited.
        task = asyncio.ensure_future(
            self._timed(lambda: self.think(bot, self.engine, table, view, seat, memory))
        )
        task.add_done_callback(_heard)  # a dropped thought's failure is no one's to hear
        return Thought(seat, self.seq, bot, memory, task)

    async def _timed(self, thinking: Callable[[], Awaitable[str]]) -> str:
        began = time.perf_counter()
        text = await thinking()
        self.service.timing("computer_think", (time.perf_counter() - began) * 1000)
        return text

    async def computer_decides(self, seat: int, stand_in: bool = False) -> Accepted:
        """The computer of ``seat`` (with ``stand_in``: the stand-in for her person, whatever
        she is) decides and its decision is committed; a thought made ahead for this position
        is taken."""
        bot = self._stand_in(seat) if stand_in else self._computer_for(seat)
        assert bot is not None
        thought = self._thought
        self._thought = None
        if thought is None or not thought.fits(seat, self.seq, bot):
            if thought is not None:
                thought.task.cancel()
            thought = self._start_thinking(seat, bot)
        began = time.perf_counter()
        text = await thought.task
        self.service.timing("computer_thought_wait", (time.perf_counter() - began) * 1000)
        self.memories[seat] = thought.memory
        try:
            return await self.decide(seat, text)
        except ServiceError as refusal:
            # A computer must never stall a table: log its fault and make a safe legal move.
            log.warning("computer_refused", table=self.id, seat=seat, move=text, why=str(refusal))
            return await self.decide(seat, fallback(self.engine, self.state, seat))

    # -- clocks and presence (lobby tables) --------------------------------------------------

    @property
    def clocked(self) -> bool:
        """Whether clocks and presence matter now: a lobby table still in play."""
        return self.timing is not None and self.playing

    def away(self, seat: int) -> bool:
        """Whether a computer plays the person's ``seat`` now."""
        row = self.stored.clocks.get(seat)
        return row is not None and row.away is not None

    @property
    def clocks(self) -> dict[int, Waiting]:
        """The running clocks by seat, from the stored absolute deadlines."""
        return {
            seat: Waiting(ClockKind(row.kind), as_utc(row.deadline), self._grace)
            for seat, row in sorted(self.stored.clocks.items())
            if row.kind is not None and row.deadline is not None
        }

    @property
    def _grace(self) -> timedelta:
        return self.timing.grace if self.timing else GRACE

    def clock_list(self) -> list[JSON]:
        """The clocks as the protocol sends them (``clocks`` of ``table.state``/``table.event``)."""
        return [clock_json(seat, waiting) for seat, waiting in self.clocks.items()]

    def _reclock(
        self,
        state: GameState,
        mover: int | None,
        away: Mapping[int, str | None] | None = None,
        disconnected: Mapping[int, datetime | None] | None = None,
    ) -> list[SeatClock]:
        """The seat rows that change with ``state`` after a decision of ``mover`` (and with the
        presence changes given): values only, applied by :meth:`_keep_clocks` once stored."""
        if self.timing is None:
            return []
        rows = {seat: _copy(row) for seat, row in self.stored.clocks.items()}
        for seat, row in rows.items():
            row.away = (away or {}).get(seat, row.away)
            if seat in (disconnected or {}):
                row.disconnected_at = (disconnected or {})[seat]
            if row.away == "timeout" and not _her_turn(self.engine, state, seat):
                row.away = None  # the stand-in played the rest of her turn; the next is hers
        present = {seat for seat, row in rows.items() if row.away is None}
        playing = self.engine.status(state) is Status.PLAYING
        kinds = clocked_seats(self.engine, state, present, self.stored.auto_continue)
        running = {s: w for s, w in self.clocks.items() if s in present}
        now = self.clock()
        clocks = next_deadlines(kinds if playing else {}, running, mover, self.timing, now)
        for seat, row in rows.items():
            waiting = clocks.get(seat)
            row.kind = waiting.kind.value if waiting else None
            row.deadline = waiting.deadline if waiting else None
        return [
            row for seat, row in rows.items() if _values(row) != _values(self.stored.clocks[seat])
        ]

    def _keep_clocks(self, rows: list[SeatClock]) -> list[int]:
        """Take stored seat rows as the table's own; the seats whose timed-out turn just ended."""
        returned = []
        for row in rows:
            mine = self.stored.clocks[row.seat]
            if _values(mine)["deadline"] != row.deadline:  # a new deadline warns anew
                self.warned.discard(row.seat)
            if mine.away == "timeout" and row.away is None:
                returned.append(row.seat)
            mine.kind, mine.deadline = row.kind, row.deadline
            mine.away, mine.disconnected_at = row.away, row.disconnected_at
        return returned

    async def _save_clocks(
        self,
        mover: int | None,
        away: Mapping[int, str | None] | None = None,
        disconnected: Mapping[int, datetime | None] | None = None,
    ) -> None:
        rows = self._reclock(self.state, mover, away, disconnected)
        await self.service.save_clocks(self.id, rows)
        self._keep_clocks(rows)

    async def change_seat(self, seat: int, away: str | None, why: str) -> SeatChange:
        """A person's seat changes hands (``away``: a computer plays it), committed."""
        here = {seat: None} if away is None else None  # she came back: she is connected
        await self._save_clocks(seat, away={seat: away}, disconnected=here)
        return SeatChange(seat, away, why)

    async def leave(self, seat: int) -> SeatChange:
        """She leaves the table in play: a computer plays her seat until she comes back."""
        if not self.playing:
            raise ServiceError("game_over", "this table's game is over")
        if seat not in self.stored.clocks:
            raise ServiceError("bad_request", "only a lobby table can be left during the game")
        return await self.change_seat(seat, "left", "left")

    async def come_back(self, seat: int) -> SeatChange:
        """She takes her seat back from the computer."""
        if not self.playing:
            raise ServiceError("game_over", "this table's game is over")
        if not self.away(seat):
            raise ServiceError("not_away", "you are playing your seat already")
        return await self.change_seat(seat, None, "returned")

    async def opened_by(self, reader: int | None) -> SeatChange | None:
        """The person of ``reader`` opened the table: her settings may have changed since, and
        a reconnect takes back a seat played for her while she was disconnected."""
        if reader is None or reader not in self.stored.clocks:
            return None
        self.stored.auto_continue = await self.service.auto_continue(self.stored)
        if self.playing and self.stored.clocks[reader].away == "disconnected":
            return await self.change_seat(reader, None, "returned")
        return None

    def due_now(self, now: datetime) -> list[Due]:
        """What the clocks ask for at ``now``: warnings first come due, then expiries."""
        return due(self.clocks, self.warned, now)[0]

    def warn(self, seat: int) -> None:
        """Her clock warned her (the beep): the grace follows, then it expires."""
        self.warned.add(seat)

    async def expire(self, seat: int, kind: ClockKind) -> Accepted | SeatChange:
        """The grace is over: the computer decides for her (while giving she gets nothing)."""
        log.info("clock_expired", table=self.id, seat=seat, kind=kind.value)
        if kind in (ClockKind.GIVING, ClockKind.AUTO):
            try:
                return await self.decide(seat, "pass")
            except ServiceError as refusal:  # a clock must never stall a table either
                log.warning("pass_refused", table=self.id, seat=seat, why=str(refusal))
                return await self.decide(seat, fallback(self.engine, self.state, seat))
        if kind is ClockKind.START:
            return await self.computer_decides(seat, stand_in=True)
        return await self.change_seat(seat, "timeout", "timeout")

    def tracks_presence(self) -> bool:
        """Whether this table looks who is connected: only one without a think clock needs it
        (elsewhere every decision has a clock)."""
        return self.timing is not None and self.timing.think is None and self.playing

    async def note_presence(self, connected: set[str], now: datetime) -> SeatChange | None:
        """Note who disconnected (``connected``: the accounts watching now); a seat
        disconnected for :data:`ABSENCE` is played by a computer from now on."""
        if not self.tracks_presence():
            return None
        gone: dict[int, datetime | None] = {}
        for seat in self.stored.clocks:
            here = self.stored.seats[seat].account_id in connected
            since = self.stored.clocks[seat].disconnected_at
            if here and since is not None:
                gone[seat] = None
            elif not here and since is None:
                gone[seat] = now
        if gone:
            await self._save_clocks(None, disconnected=gone)
        for seat, row in sorted(self.stored.clocks.items()):
            since = row.disconnected_at
            if row.away is None and since is not None and now - as_utc(since) >= ABSENCE:
                return await self.change_seat(seat, "disconnected", "disconnected")
        return None

    def next_wake(self, now: datetime) -> float | None:
        """Seconds until a clock or an absence falls due (``None``: nothing to wait for)."""
        if not self.clocked:
            return None
        events, moment = due(self.clocks, self.warned, now)
        if events:  # the grace ended with the warning: act at once
            return 0.0
        moments = [moment] if moment is not None else []
        waits: list[float] = []
        if self.tracks_presence():
            waits.append(PRESENCE_POLL)
            moments += [
                as_utc(row.disconnected_at) + ABSENCE
                for row in self.stored.clocks.values()
                if row.away is None and row.disconnected_at is not None
            ]
        waits += [max((m - now).total_seconds(), 0.0) for m in moments]
        return min(waits, default=None)

    # -- chat --------------------------------------------------------------------------------

    async def recent_chat(self) -> list[JSON]:
        """The table's last chat lines (read from the store once, then kept)."""
        if self.chat is not None and self.chat_lines is None:
            self.chat_lines = await self.chat.recent(self.id)
        return list(self.chat_lines or [])

    async def say(self, account_id: str, seat: int, text: str) -> JSON:
        """Keep one chat line of the person at ``seat``; the line as the protocol sends it."""
        assert self.chat is not None
        line = await self.chat.say(self.id, account_id, seat, text)
        self.chat_lines = [*(self.chat_lines or []), line][-RECENT:]
        return line


def _heard(task: asyncio.Future[str]) -> None:
    if not task.cancelled():
        task.exception()


def clock_json(seat: int, waiting: Waiting) -> JSON:
    """One running clock as the protocol sends it."""
    return {
        "seat": seat,
        "kind": waiting.kind.value,
        "deadline": waiting.deadline.isoformat(),
        "grace_until": waiting.grace_until.isoformat(),
    }


def _her_turn(engine: Speedquilt, state: GameState, seat: int) -> bool:
    playing = engine.status(state) is Status.PLAYING
    return playing and state.phase is Phase.TURN and state.active == seat


def _copy(row: SeatClock) -> SeatClock:
    return SeatClock(table_id=row.table_id, seat=row.seat, **_values(row))


def _values(row: SeatClock) -> dict[str, Any]:
    return {
        "kind": row.kind,
        "deadline": as_utc(row.deadline) if row.deadline else None,
        "away": row.away,
        "disconnected_at": as_utc(row.disconnected_at) if row.disconnected_at else None,
    }


@dataclass(frozen=True)
class TableServices:
    """The services of one server's Speedquilt tables: their store, the lobby, the chat and the
    ledger of their stakes (built here, so the server only holds them)."""

    tables: TableService
    lobby: LobbyService
    chat: ChatService
    ledger: LedgerService
    clock_scale: float = 1.0
    """``CLOCK_SCALE``: shorter clocks for tests (docs/tables.md)."""
    think: Thinker = think_in_thread
    """Where the computers think: ``COMPUTER_PROCESSES`` (bots/thinking.py)."""

    @classmethod
    def build(
        cls, tables: TableService, clock_scale: float = 1.0, think: Thinker = think_in_thread
    ) -> TableServices:
        """The services around ``tables``, on its database and clock."""
        sessionmaker, clock = tables.sessionmaker, tables.clock
        return cls(
            tables,
            LobbyService(sessionmaker, clock, clock_scale),
            ChatService(sessionmaker, clock),
            LedgerService(sessionmaker, clock),
            clock_scale,
            think,
        )

    def live(self, stored: StoredTable, engine: Speedquilt, chat: bool = True) -> LiveTable:
        """The live table of ``stored`` (``chat``: it takes chat lines; a read-only copy not)."""
        return LiveTable(
            stored,
            engine,
            self.tables,
            self.tables.clock,
            self.clock_scale,
            self.chat if chat else None,
            self.think,
        )
