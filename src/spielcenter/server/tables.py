"""Speedquilt tables on the server: one actor per table, the registry of live actors, and the
``table.*`` messages of the WebSocket (docs/protocol.md, "Speedquilt tables").

A :class:`TableActor` is one asyncio task that owns a table's position. Every command — a
socket's ``table.open`` or ``table.move``, a computer player's decision — is handled by that task
one at a time, so there are no races inside a table and every socket hears the table's events in
``seq`` order. An accepted decision is committed to the table's log before anyone hears of it;
each socket then gets its own seat's view (a spectator the public one), never another seat's.

A table from the lobby also has clocks (absolute deadlines stored with the table: the actor wakes
up for them, a restart re-arms them), people who may be away (a stand-in computer plays them),
and a chat (docs/tables.md, "Tables with several people").
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from spielcenter.bots import Bot, get_bot
from spielcenter.bots.player import fallback
from spielcenter.games.base import JSON, IllegalMoveError, MoveSyntaxError, Status, get_game
from spielcenter.games.speedquilt.history import EntryLines, lines_of
from spielcenter.games.speedquilt.rules import Speedquilt
from spielcenter.games.speedquilt.scoring import leaderboard_points
from spielcenter.games.speedquilt.state import GameState, Phase
from spielcenter.services.chat import RECENT, ChatService
from spielcenter.services.clocks import (
    ABSENCE,
    GRACE,
    ClockKind,
    Timing,
    Waiting,
    due,
    next_deadlines,
)
from spielcenter.services.clocks import waiting_for as clocked_seats
from spielcenter.services.common import Clock, ServiceError, as_utc
from spielcenter.services.fairness import dealt_from
from spielcenter.services.ledger import LedgerService
from spielcenter.services.lobby import LobbyService
from spielcenter.services.tables import (
    FinishedTable,
    StoredTable,
    TableService,
    finished_table,
)
from spielcenter.store.models import SeatClock

from .hub import Hub, Watcher
from .logging import log
from .websocket import (
    TableChatMessage,
    TableLeaveMessage,
    TableMessage,
    TableMoveMessage,
    TableOpenMessage,
    TableReturnMessage,
)

__all__ = [
    "TEMPO_SECONDS",
    "TableActor",
    "TableRegistry",
    "speedquilt_engine",
    "table_command",
]

TEMPO_SECONDS: dict[str, float] = {"slow": 1.2, "normal": 0.6, "fast": 0.15}
"""The pause before each computer move, by the table's tempo."""
PRESENCE_POLL = 5.0
"""How often (seconds) a table without a think clock looks whether its people are connected."""
IDLE_SECONDS = 60.0
"""How long a table in play may wait for a person, with no clock running and no socket of this
process watching, before its actor is let go (opening it again replays it)."""
STARTED = "open"


def speedquilt_engine(variant: str, options: dict[str, Any]) -> Speedquilt:
    """The engine of a table (the daily quilt's server passes its own, adding the secret)."""
    engine = get_game("speedquilt", variant, **options)
    assert isinstance(engine, Speedquilt)
    return engine


# -- the log in memory -----------------------------------------------------------------------


@dataclass(frozen=True)
class Entry:
    """One accepted decision with its history lines."""

    seq: int
    seat: int
    move: str
    lines: EntryLines

    def for_reader(self, reader: int | None) -> JSON:
        """The entry as ``reader`` (a seat, ``None``: a spectator) may see it."""
        mine = reader == self.seat
        return {
            "seq": self.seq,
            "seat": self.seat,
            "move": self.move if mine or not self.lines.private else None,
            "line": self.lines.line_for(self.seat, reader),
            "also": list(self.lines.also),
        }


@dataclass
class _Command:
    """A request for the actor; ``done`` carries its outcome back to the socket."""

    connection: Watcher
    ref: Any
    done: asyncio.Future[None] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )


@dataclass
class _Open(_Command):
    last_seq: int | None = None
    invite: str | None = None


@dataclass
class _Move(_Command):
    move: str = ""
    seq: int | None = None


@dataclass
class _Wake:
    """Look at the clocks now; ``done`` once what was due has been handled."""

    done: asyncio.Future[None] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )


@dataclass
class _Chat(_Command):
    text: str = ""


@dataclass
class _Leave(_Command):
    pass


@dataclass
class _Return(_Command):
    pass


# -- the actor -------------------------------------------------------------------------------


class TableActor:
    """The one owner of a table's position: replays its log, takes commands, moves computers."""

    def __init__(
        self,
        stored: StoredTable,
        engine: Speedquilt,
        service: TableService,
        hub: Hub,
        delays: Mapping[str, float],
        clock: Clock,
        clock_scale: float = 1.0,
    ) -> None:
        self.stored = stored
        self.engine = engine
        self.service = service
        self.hub = hub
        self.delay = delays.get(stored.record.tempo, 0.0)
        self.clock = clock
        self.state: GameState = engine.start(dealt_from(stored.record))
        self.entries: list[Entry] = []
        self.bots: dict[int, Bot] = {
            s.seat: get_bot(s.level) for s in stored.seats if s.level is not None
        }
        self.memories: dict[int, dict[str, Any]] = {seat: {} for seat in self.bots}
        self.queue: asyncio.Queue[_Command | _Wake] = asyncio.Queue()
        self.running = False
        self.task: asyncio.Task[None] | None = None
        self.parked_since: float | None = None
        """Monotonic time since the actor waits for a person with nothing else to wake it
        (no computer to move, no clock): ``None`` while it has something to do."""
        setup = stored.setup
        # A lobby table's clocks and the stand-in computer for its people (docs/tables.md).
        self.timing = (
            Timing(setup.think_seconds, setup.giving_seconds, clock_scale) if setup else None
        )
        self.stand_in = setup.stand_in if setup else "normal"
        self.stand_ins: dict[int, Bot] = {}
        self.warned: set[int] = set()
        self.chat: ChatService | None = None
        self.chat_lines: list[JSON] | None = None
        # Seats whose person made a decision herself (a seat without one wins nothing).
        self.decided = {e.seat for e in stored.entries if not e.by_stand_in}
        for stored_entry in stored.entries:
            self._replay(stored_entry.seat, stored_entry.move)

    @property
    def id(self) -> str:
        """The table's id."""
        return self.stored.record.id

    @property
    def seq(self) -> int:
        """The last entry of the log."""
        return len(self.entries)

    @property
    def playing(self) -> bool:
        """Whether the game still takes decisions."""
        return self.engine.status(self.state) is Status.PLAYING

    @property
    def key(self) -> str:
        """The hub's name for the sockets watching this table."""
        return f"table:{self.id}"

    def _replay(self, seat: int, text: str) -> None:
        # The log was validated when it was written: apply without checking again.
        move = self.engine.parse_move(text)
        after = self.engine.apply(self.state, move, seat)
        lines = lines_of(self.engine, self.state, after, seat, move)
        self.entries.append(Entry(self.seq + 1, seat, text, lines))
        self.state = after

    # -- running -------------------------------------------------------------------------------

    def start(self) -> None:
        """Start the actor's task (an open table only)."""
        if self.playing and self.task is None and self.stored.record.status == STARTED:
            self.running = True
            self.task = asyncio.create_task(self._run(), name=f"table-{self.id}")

    def retire(self) -> None:
        """Stop a parked actor at once (the registry lets it go; its log is all committed)."""
        assert self.parked_since is not None and self.queue.empty()
        self.running = False
        if self.task is not None:
            self.task.cancel()

    async def stop(self) -> None:
        """Stop the task (the server is shutting down)."""
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task

    async def wake(self) -> None:
        """Have the actor handle what its clocks ask for now, and wait until it has (a test moved
        the time; another process handed the table over)."""
        if self.running:
            wake = _Wake()
            self.queue.put_nowait(wake)
            await wake.done

    async def submit(self, command: _Command) -> None:
        """Have the actor handle ``command``; raises its refusal as :class:`ServiceError`."""
        if self.running:
            self.queue.put_nowait(command)
        else:  # a finished table takes no more entries: nothing can race with this answer
            await self._handle(command)
        await command.done

    async def _run(self) -> None:
        try:
            while self.playing:
                command = await self._next_command()
                if command is not None:
                    await self._handle(command)
        except Exception:
            log.exception("table_failed", table=self.id)
        finally:
            self.running = False
            while not self.queue.empty():  # commands that arrived as the game ended
                item = self.queue.get_nowait()
                if isinstance(item, _Wake):
                    item.done.set_result(None)
                else:
                    await self._handle(item)

    async def _next_command(self) -> _Command | None:
        """The next socket command; ``None`` after a computer player has moved instead.

        People's commands go first; a computer moves when no command arrives within the tempo's
        pause (a test's tempo of 0 moves at once).
        """
        if not self.queue.empty():
            return await self._woken(self.queue.get_nowait())
        if await self._tend_clocks():
            return None
        seat = self._computer_to_move()
        if seat is None:
            return await self._wait(self._next_wake())
        if self.delay > 0:
            with contextlib.suppress(TimeoutError):
                return await self._woken(await asyncio.wait_for(self.queue.get(), self.delay))
        await self._computer_moves(seat)
        return None

    async def _wait(self, seconds: float | None) -> _Command | None:
        """The next command, or ``None`` once ``seconds`` have passed (a clock is due); with
        no ``seconds`` the actor is parked until a command comes."""
        if seconds is None:
            self.parked_since = time.monotonic()
        try:
            item = await asyncio.wait_for(self.queue.get(), seconds)
        except TimeoutError:
            return None
        finally:
            self.parked_since = None
        return await self._woken(item)

    async def _woken(self, item: _Command | _Wake) -> _Command | None:
        """A command as it is; a wake-up is handled here (every clock due now) and is ``None``."""
        if isinstance(item, _Command):
            return item
        while await self._tend_clocks():
            pass
        item.done.set_result(None)
        return None

    def _computer_to_move(self) -> int | None:
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

    async def _computer_moves(self, seat: int, bot: Bot | None = None) -> None:
        view = self.engine.view_for(self.state, seat)  # a computer sees only its own seat's view
        bot = bot or self._computer_for(seat)
        assert bot is not None
        text = await asyncio.to_thread(bot.decide, self.engine, view, seat, self.memories[seat])
        try:
            await self._accept(seat, text, None, None)
        except ServiceError as refusal:
            # A computer must never stall a table: log its fault and make a safe legal move.
            log.warning("computer_refused", table=self.id, seat=seat, move=text, why=str(refusal))
            await self._accept(seat, fallback(self.engine, self.state, seat), None, None)

    async def _handle(self, command: _Command) -> None:
        try:
            match command:
                case _Open():
                    await self._open(command)
                case _Move():
                    seat = self._seat_of(command)
                    if self._away(seat):
                        raise ServiceError(
                            "seat_away", "a computer plays your seat now: send table.return"
                        )
                    await self._accept(seat, command.move, command.seq, command)
                case _Chat():
                    await self._say(self._seat_of(command), command)
                case _Leave():
                    await self._leave(self._seat_of(command), command)
                case _Return():
                    await self._return(self._seat_of(command), command)
        except Exception as exc:  # the socket reports it; the actor goes on
            if not command.done.done():
                command.done.set_exception(exc)
        else:
            if not command.done.done():
                command.done.set_result(None)

    def _seat_of(self, command: _Command) -> int:
        seat = self.stored.seat_of(command.connection.login.account_id)
        if seat is None:
            raise ServiceError("not_seated", "you have no seat at this table")
        return seat

    # -- opening -------------------------------------------------------------------------------

    async def _open(self, command: _Open) -> None:
        account_id = command.connection.login.account_id
        if not self.stored.may_watch(account_id, command.invite):
            raise ServiceError("invite_required", "this table is watched by invitation only")
        self.hub.watch(command.connection, self.key)
        reader = self.stored.seat_of(account_id)
        if self.chat is not None and self.chat_lines is None:
            self.chat_lines = await self.chat.recent(self.id)
        if reader is not None and reader in self.stored.clocks:
            # Her settings may have changed since; a reconnect takes back a disconnected seat.
            self.stored.auto_continue = await self.service.auto_continue(self.stored)
            if self.playing and self.stored.clocks[reader].away == "disconnected":
                await self._change_seat(reader, None, "returned")
        await command.connection.send(_ref(self.state_message(reader, command.last_seq), command))
        if not self.playing:
            await command.connection.send(_ref(self.end_message(), command))

    def state_message(self, reader: int | None, last_seq: int | None = None) -> JSON:
        """The full ``table.state`` for ``reader`` (a seat, ``None``: a spectator)."""
        missed: list[JSON] = []
        if last_seq is not None and 0 <= last_seq <= self.seq:
            missed = [entry.for_reader(reader) for entry in self.entries[last_seq:]]
        return {
            "type": "table.state",
            "table_id": self.id,
            **self._seen_by(reader),
            "history": self.history(reader),
            "missed": missed,
            "table": self.stored.summary(self._account_at(reader)),
            "chat": list(self.chat_lines or []),
        }

    def _account_at(self, seat: int | None) -> str | None:
        return None if seat is None else self.stored.seats[seat].account_id

    def history(self, reader: int | None) -> list[JSON]:
        """The readable lines of the game so far, as ``reader`` may read them."""
        lines: list[JSON] = []
        for entry in self.entries:
            line = entry.lines.line_for(entry.seat, reader)
            if line is not None:
                lines.append(line)
            lines.extend(entry.lines.also)
        return lines

    def _seen_by(self, reader: int | None) -> JSON:
        """``seq``, ``seat``, ``view``, ``to_act`` and ``legal`` for one reader."""
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

    def end_message(self) -> JSON:
        """``table.end``: the end data of a finished table."""
        return {
            "type": "table.end",
            "table_id": self.id,
            "seq": self.seq,
            "result": self.stored.record.result,
        }

    # -- decisions -----------------------------------------------------------------------------

    async def _accept(
        self, seat: int, text: str, client_seq: int | None, origin: _Command | None
    ) -> None:
        """Validate, commit, then tell every watcher; a refusal changes nothing."""
        engine, before = self.engine, self.state
        if not self.playing:
            raise ServiceError("game_over", "this table's game is over")
        if client_seq is not None and client_seq != self.seq:
            raise ServiceError("stale", f"the table is at seq {self.seq}, not {client_seq}")
        try:
            move = engine.parse_move(text)
        except MoveSyntaxError as exc:
            raise ServiceError("bad_move", str(exc)) from exc
        if seat not in engine.to_act(before):
            raise ServiceError("not_your_turn", f"the game is not waiting for seat {seat}")
        try:
            engine.check(before, move, seat)
        except IllegalMoveError as exc:
            raise ServiceError("illegal_move", str(exc)) from exc
        after = engine.apply(before, move, seat)
        entry = Entry(
            self.seq + 1,
            seat,
            engine.format_move(move),
            lines_of(engine, before, after, seat, move),
        )
        # A socket's command is the person's own decision; a computer's or a clock's has no origin.
        own = origin is not None
        finished = self._finished(after, {seat} if own else set())
        clocks = self._reclock(after, seat)
        stand_in = not own and seat not in self.bots
        # Committed before anyone hears of it; if the write fails, the position stays as it was.
        await self.service.append(self.id, entry.seq, seat, entry.move, finished, clocks, stand_in)
        if own:
            self.decided.add(seat)
        returned = self._keep_clocks(clocks)
        self.state = after
        self.entries.append(entry)
        self.stored.record.last_seq = entry.seq
        if finished is not None:
            self.stored.record.status = "finished"
            self.stored.record.result = finished.result()
            self.stored.record.finished_at = finished.finished_at
        await self._broadcast(entry, origin)
        for back in returned:  # the stand-in finished her timed-out turn
            await self._send_all(self._seat_message(back, None, "returned"))

    def _finished(self, after: GameState, deciding: set[int]) -> FinishedTable | None:
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
        return finished_table(self.stored, result, self.clock(), sorted(forfeited))

    async def _broadcast(self, entry: Entry, origin: _Command | None) -> None:
        """``table.event`` to every watcher, each with its own view; then ``table.end``."""
        watchers = set(self.hub.watchers.get(self.key, ()))
        if origin is not None:
            watchers.add(origin.connection)
        seen: dict[int | None, JSON] = {}
        for connection in watchers:
            reader = self.stored.seat_of(connection.login.account_id)
            if reader not in seen:
                seen[reader] = {
                    "type": "table.event",
                    "table_id": self.id,
                    **self._seen_by(reader),
                    "entry": entry.for_reader(reader),
                }
            mine = origin is not None and connection is origin.connection
            await connection.send(_ref(seen[reader], origin) if mine else seen[reader])
        if not self.playing:
            for connection in watchers:
                await connection.send(self.end_message())

    # -- clocks and presence (lobby tables) ----------------------------------------------------

    def _away(self, seat: int) -> bool:
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
        return [_clock_json(seat, waiting) for seat, waiting in self.clocks.items()]

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
        """Take stored seat rows as the actor's; the seats whose timed-out turn just ended."""
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

    async def _change_seat(self, seat: int, away: str | None, why: str) -> None:
        """A person's seat changes hands (away: a computer plays it); stored, then announced."""
        here = {seat: None} if away is None else None  # she came back: she is connected
        rows = self._reclock(self.state, seat, away={seat: away}, disconnected=here)
        await self.service.save_clocks(self.id, rows)
        self._keep_clocks(rows)
        await self._send_all(self._seat_message(seat, away, why))

    def _seat_message(self, seat: int, away: str | None, why: str) -> JSON:
        return {
            "type": "table.seat",
            "table_id": self.id,
            "seat": seat,
            "away": away is not None,
            "why": why,
            "clocks": self.clock_list(),
        }

    async def _tend_clocks(self) -> bool:
        """Act on what the clocks ask for now; whether the position (or a seat) changed."""
        if self.timing is None or not self.playing:
            return False
        now = self.clock()
        if await self._tend_presence(now):
            return True
        events, _next = due(self.clocks, self.warned, now)
        for event in events:
            await self._send_all(_clock_message(self.id, event.seat, event.waiting, event.phase))
            if event.phase == "grace":
                self.warned.add(event.seat)  # the beep: 10 s of grace follow
                continue
            await self._expire(event.seat, event.waiting.kind)
            return True
        return False

    async def _expire(self, seat: int, kind: ClockKind) -> None:
        """The grace is over: the computer decides for her (while giving she gets nothing)."""
        log.info("clock_expired", table=self.id, seat=seat, kind=kind.value)
        if kind in (ClockKind.GIVING, ClockKind.AUTO):
            try:
                await self._accept(seat, "pass", None, None)
            except ServiceError as refusal:  # a clock must never stall a table either
                log.warning("pass_refused", table=self.id, seat=seat, why=str(refusal))
                await self._accept(seat, fallback(self.engine, self.state, seat), None, None)
        elif kind is ClockKind.START:
            await self._computer_moves(seat, self._stand_in(seat))
        else:
            await self._change_seat(seat, "timeout", "timeout")

    def _tracks_presence(self) -> bool:
        # Only a table without a think clock needs it: elsewhere every decision has a clock.
        return self.timing is not None and self.timing.think is None and self.playing

    async def _tend_presence(self, now: datetime) -> bool:
        """Note who disconnected; a seat disconnected for two minutes is played by a computer."""
        if not self._tracks_presence():
            return False
        connected = {c.login.account_id for c in self.hub.watchers.get(self.key, ())}
        gone: dict[int, datetime | None] = {}
        for seat in self.stored.clocks:
            here = self.stored.seats[seat].account_id in connected
            since = self.stored.clocks[seat].disconnected_at
            if here and since is not None:
                gone[seat] = None
            elif not here and since is None:
                gone[seat] = now
        if gone:
            rows = self._reclock(self.state, None, disconnected=gone)
            await self.service.save_clocks(self.id, rows)
            self._keep_clocks(rows)
        for seat, row in sorted(self.stored.clocks.items()):
            since = row.disconnected_at
            if row.away is None and since is not None and now - as_utc(since) >= ABSENCE:
                await self._change_seat(seat, "disconnected", "disconnected")
                return True
        return False

    def _next_wake(self) -> float | None:
        """Seconds until a clock or an absence falls due (``None``: nothing to wait for)."""
        if self.timing is None or not self.playing:
            return None
        now = self.clock()
        events, moment = due(self.clocks, self.warned, now)
        if events:  # the grace ended with the warning: act at once
            return 0.0
        moments = [moment] if moment is not None else []
        waits: list[float] = []
        if self._tracks_presence():
            waits.append(PRESENCE_POLL)
            moments += [
                as_utc(row.disconnected_at) + ABSENCE
                for row in self.stored.clocks.values()
                if row.away is None and row.disconnected_at is not None
            ]
        waits += [max((m - now).total_seconds(), 0.0) for m in moments]
        return min(waits, default=None)

    # -- leaving, returning, chat --------------------------------------------------------------

    async def _leave(self, seat: int, command: _Command) -> None:
        if not self.playing:
            raise ServiceError("game_over", "this table's game is over")
        if seat not in self.stored.clocks:
            raise ServiceError("bad_request", "only a lobby table can be left during the game")
        await self._change_seat(seat, "left", "left")
        await command.connection.send(_ref({"type": "table.left", "table_id": self.id}, command))

    async def _return(self, seat: int, command: _Command) -> None:
        if not self.playing:
            raise ServiceError("game_over", "this table's game is over")
        if not self._away(seat):
            raise ServiceError("not_away", "you are playing your seat already")
        await self._change_seat(seat, None, "returned")
        reader = self.stored.seat_of(command.connection.login.account_id)
        await command.connection.send(_ref(self.state_message(reader), command))

    async def _say(self, seat: int, command: _Chat) -> None:
        assert self.chat is not None
        line = await self.chat.say(self.id, command.connection.login.account_id, seat, command.text)
        self.chat_lines = [*(self.chat_lines or []), line][-RECENT:]
        message = {"type": "table.chat", "table_id": self.id, **line}
        watchers = set(self.hub.watchers.get(self.key, ()))
        for connection in watchers - {command.connection}:
            await connection.send(message)
        await command.connection.send(_ref(message, command))

    async def _send_all(self, message: JSON) -> None:
        for connection in set(self.hub.watchers.get(self.key, ())):
            await connection.send(message)


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


def _clock_json(seat: int, waiting: Waiting) -> JSON:
    return {
        "seat": seat,
        "kind": waiting.kind.value,
        "deadline": waiting.deadline.isoformat(),
        "grace_until": waiting.grace_until.isoformat(),
    }


def _clock_message(table_id: str, seat: int, waiting: Waiting, phase: str) -> JSON:
    return {
        "type": "table.clock",
        "table_id": table_id,
        "phase": phase,
        **_clock_json(seat, waiting),
    }


def _ref(message: JSON, command: _Command | None) -> JSON:
    if command is None or command.ref is None:
        return message
    return {**message, "ref": command.ref}


# -- the registry ----------------------------------------------------------------------------


class TableRegistry:
    """The live actors of this server process: created, loaded (replayed) and stopped here."""

    def __init__(
        self,
        service: TableService,
        hub: Hub,
        clock: Clock,
        delays: Mapping[str, float] | None = None,
        engine_for: Callable[[str, dict[str, Any]], Speedquilt] = speedquilt_engine,
        clock_scale: float = 1.0,
    ) -> None:
        self.service = service
        self.clock_scale = clock_scale  # CLOCK_SCALE: shorter clocks for tests (docs/tables.md)
        self.hub = hub
        self.clock = clock
        self.delays = dict(TEMPO_SECONDS if delays is None else delays)
        self.engine_for = engine_for
        self.actors: dict[str, TableActor] = {}
        self.idle_seconds = IDLE_SECONDS
        self._loading = asyncio.Lock()
        sessionmaker = service.sessionmaker
        self.lobby = LobbyService(sessionmaker, clock, clock_scale)
        self.chat = ChatService(sessionmaker, clock)
        self.ledger = LedgerService(sessionmaker, clock)

    async def start(self) -> None:
        """Replay every open table and restart its actor (its computers go on playing)."""
        for table_id in await self.service.open_ids():
            await self.get(table_id)
        log.info("tables_restarted", tables=len(self.actors))

    async def close(self) -> None:
        """Stop every actor (shutdown)."""
        for actor in list(self.actors.values()):
            await actor.stop()

    async def create(self, account_id: str, **fields: Any) -> TableActor:
        """A new table with its actor running (its computers start choosing at once)."""
        stored = await self.service.create(account_id, **fields)
        return self._activate(stored)

    def forget_finished(self) -> None:
        """Drop the actors of finished tables that no socket of this process watches.

        A finished actor holds its whole game (entries, views) and nothing else ever drops it,
        so a long-running process would grow with every table it ever ran; opening such a table
        again replays it from the database.
        """
        for table_id, actor in list(self.actors.items()):
            idle = actor.task is None or actor.task.done()
            if not actor.playing and idle and actor.key not in self.hub.watchers:
                del self.actors[table_id]

    def forget_idle(self) -> None:
        """Drop the actors of tables in play that have waited ``idle_seconds`` for a person no
        socket of this process watches, with no clock running (a table without a lobby whose
        person closed her browser waits for her for ever).

        Such an actor holds its game and its computers' caches and would never end by itself;
        her ``table.open`` replays it from the database and its computers go on. (With several
        processes the leases keep every open table driven: ``server/cluster.py`` does not call
        this.)
        """
        now = time.monotonic()
        for table_id, actor in list(self.actors.items()):
            since = actor.parked_since
            if since is None or now - since < self.idle_seconds or not actor.queue.empty():
                continue
            if actor.key not in self.hub.watchers:
                actor.retire()
                del self.actors[table_id]

    async def get(self, table_id: str) -> TableActor:
        """The live actor of ``table_id``, replaying its log if needed; ``not_found`` if none."""
        async with self._loading:
            self.forget_finished()
            self.forget_idle()
            actor = self.actors.get(table_id)
            if actor is not None:
                return actor
            stored = await self.service.load(table_id)
            if stored is None:
                raise ServiceError("not_found", f"no table {table_id!r}")
            if stored.record.status not in (STARTED, "finished"):
                raise ServiceError("not_started", f"the table is {stored.record.status}")
            return self._activate(stored)

    async def summary(self, table_id: str, viewer: str | None = None) -> JSON:
        """The summary of any table as ``viewer`` (an account) may see it: a live one from its
        actor, a lobby one from the store."""
        actor = self.actors.get(table_id)
        if actor is not None:
            return actor.stored.summary(viewer)
        stored = await self.service.load(table_id)
        if stored is None:
            raise ServiceError("not_found", f"no table {table_id!r}")
        if stored.record.status in (STARTED, "finished"):
            return (await self.get(table_id)).stored.summary(viewer)
        return stored.summary(viewer)

    def _activate(self, stored: StoredTable) -> TableActor:
        engine = self.engine_for(stored.record.variant, dict(stored.record.options))
        actor = TableActor(
            stored, engine, self.service, self.hub, self.delays, self.clock, self.clock_scale
        )
        actor.chat = self.chat
        self.actors[stored.record.id] = actor
        actor.start()
        return actor

    async def dispatch(self, table_id: str, command: _Command) -> None:
        """Have the table's actor handle a socket's command (another process's, when that one
        owns the table: ``server/cluster.py``)."""
        actor = await self.get(table_id)
        await actor.submit(command)

    async def handle(self, message: TableMessage, connection: Watcher, ref: Any) -> None:
        """Answer one validated ``table.*`` message; refusals are raised (the socket turns them
        into errors)."""
        await self.dispatch(message.table_id, table_command(message, connection, ref))

    async def closed(self, connection: Watcher) -> None:
        """A socket of this process closed (the hub already forgot it)."""
        self.forget_finished()
        self.forget_idle()

    async def follow_game(self, game_id: str) -> None:
        """A socket of this process opened a patience game (other processes may write it)."""

    async def summaries(self, account_id: str, state: str | None) -> list[JSON]:
        """Summaries of the tables ``account_id`` sits at, newest first."""
        return [
            await self.summary(i, account_id)
            for i in await self.service.of_account(account_id, state)
        ]


def table_command(message: TableMessage, connection: Watcher, ref: Any) -> _Command:
    """The actor's command for a validated ``table.*`` message of ``connection``."""
    command: _Command
    match message:
        case TableOpenMessage():
            command = _Open(connection, ref, last_seq=message.last_seq, invite=message.invite)
        case TableMoveMessage():
            command = _Move(connection, ref, move=message.move, seq=message.seq)
        case TableChatMessage():
            command = _Chat(connection, ref, text=message.text)
        case TableLeaveMessage():
            command = _Leave(connection, ref)
        case TableReturnMessage():
            command = _Return(connection, ref)
    return command
