"""The actor of a Speedquilt table on the server: a queue and a broadcaster (docs/protocol.md,
"Speedquilt tables").

A :class:`TableActor` is one asyncio task per table. Every command — a socket's ``table.open``
or ``table.move``, a computer player's turn, a clock falling due — is handled by that task one
at a time, so there are no races inside a table and every socket hears the table's events in
``seq`` order. What a command does to the table is the service's (``services/table_play.py``:
check, apply, commit); the actor tells the watchers what it returns, each socket its own seat's
view (a spectator the public one), never another seat's — only after it was committed.

A table from the lobby also has clocks (absolute deadlines stored with the table: the actor wakes
up for them, a restart re-arms them), people who may be away (a stand-in computer plays them),
and a chat (docs/tables.md, "Tables with several people").
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from spielcenter.games.base import JSON, get_game
from spielcenter.games.log import Entry
from spielcenter.games.speedquilt.rules import Speedquilt
from spielcenter.games.speedquilt.state import GameState
from spielcenter.services.clocks import Waiting
from spielcenter.services.common import ServiceError, StageTimer
from spielcenter.services.table_play import Accepted, LiveTable, SeatChange, clock_json
from spielcenter.services.tables import StoredTable

from .hub import Hub, Watcher, with_ref
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
    "STARTED",
    "TEMPO_SECONDS",
    "ChatCommand",
    "Command",
    "LeaveCommand",
    "MoveCommand",
    "OpenCommand",
    "ReturnCommand",
    "TableActor",
    "speedquilt_engine",
    "table_command",
]

TEMPO_SECONDS: dict[str, float] = {"slow": 1.2, "normal": 0.6, "fast": 0.15}
"""The pause before each computer move, by the table's tempo."""
STARTED = "open"


def speedquilt_engine(variant: str, options: dict[str, Any]) -> Speedquilt:
    """The engine of a table (the daily quilt's server passes its own, adding the secret)."""
    engine = get_game("speedquilt", variant, **options)
    assert isinstance(engine, Speedquilt)
    return engine


# -- commands --------------------------------------------------------------------------------


@dataclass
class Command:
    """A request for the actor; ``done`` carries its outcome back to the socket."""

    connection: Watcher
    ref: Any
    done: asyncio.Future[None] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )
    queued: float = field(default_factory=time.perf_counter)
    """When the socket handed it over (the latency trace times its wait in the queue)."""


@dataclass
class OpenCommand(Command):
    """Watch the table (``table.open``)."""

    last_seq: int | None = None
    invite: str | None = None


@dataclass
class MoveCommand(Command):
    """A decision of the sender's seat (``table.move``)."""

    move: str = ""
    seq: int | None = None


@dataclass
class _Wake:
    """Look at the clocks now; ``done`` once what was due has been handled."""

    done: asyncio.Future[None] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )


@dataclass
class ChatCommand(Command):
    """A chat line of the sender's seat (``table.chat``)."""

    text: str = ""


@dataclass
class LeaveCommand(Command):
    """Leave the table in play (``table.leave``)."""


@dataclass
class ReturnCommand(Command):
    """Take the seat back (``table.return``)."""


def table_command(message: TableMessage, connection: Watcher, ref: Any) -> Command:
    """The actor's command for a validated ``table.*`` message of ``connection``."""
    command: Command
    match message:
        case TableOpenMessage():
            command = OpenCommand(connection, ref, last_seq=message.last_seq, invite=message.invite)
        case TableMoveMessage():
            command = MoveCommand(connection, ref, move=message.move, seq=message.seq)
        case TableChatMessage():
            command = ChatCommand(connection, ref, text=message.text)
        case TableLeaveMessage():
            command = LeaveCommand(connection, ref)
        case TableReturnMessage():
            command = ReturnCommand(connection, ref)
    return command


# -- the actor -------------------------------------------------------------------------------


class TableActor:
    """The one owner of a live table: takes its commands in order, moves its computers when
    their pause is over, wakes up for its clocks, and tells its watchers what happened."""

    def __init__(self, table: LiveTable, hub: Hub, delays: Mapping[str, float]) -> None:
        self.table = table
        self.hub = hub
        self.delay = delays.get(table.stored.record.tempo, 0.0)
        self.queue: asyncio.Queue[Command | _Wake] = asyncio.Queue()
        self.running = False
        self.task: asyncio.Task[None] | None = None
        self.parked_since: float | None = None
        """Monotonic time since the actor waits for a person with nothing else to wake it
        (no computer to move, no clock): ``None`` while it has something to do."""

    @property
    def id(self) -> str:
        """The table's id."""
        return self.table.id

    @property
    def stored(self) -> StoredTable:
        """The table as stored (kept up to date with every commit)."""
        return self.table.stored

    @property
    def engine(self) -> Speedquilt:
        """The table's engine."""
        return self.table.engine

    @property
    def state(self) -> GameState:
        """The table's position now."""
        return self.table.state

    @property
    def entries(self) -> list[Entry]:
        """The table's log."""
        return self.table.entries

    @property
    def seq(self) -> int:
        """The last entry of the log."""
        return self.table.seq

    @property
    def playing(self) -> bool:
        """Whether the game still takes decisions."""
        return self.table.playing

    @property
    def timing(self) -> StageTimer:
        """Counts the stages of the table's decisions (the server's latency trace)."""
        return self.table.service.timing

    @property
    def key(self) -> str:
        """The hub's name for the sockets watching this table."""
        return f"table:{self.id}"

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

    async def submit(self, command: Command) -> None:
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
            self.table.drop_thought()
            while not self.queue.empty():  # commands that arrived as the game ended
                item = self.queue.get_nowait()
                if isinstance(item, _Wake):
                    item.done.set_result(None)
                else:
                    await self._handle(item)

    async def _next_command(self) -> Command | None:
        """The next socket command; ``None`` after a computer player has moved instead.

        People's commands go first; a computer moves when no command arrives within the tempo's
        pause (a test's tempo of 0 moves at once).
        """
        if not self.queue.empty():
            return await self._woken(self.queue.get_nowait())
        if await self._tend_clocks():
            return None
        seat = self.table.computer_to_move()
        if seat is None:
            return await self._wait(self.table.next_wake(self.table.clock()))
        if self.delay > 0:
            # The computer thinks while its pause runs (in the thinking process, or a thread):
            # the pause is what the players see, and a person's move that arrives after it is
            # then never behind the thinking (docs/performance.md, "Thinking in the pause").
            self.table.think_ahead(seat)
            with contextlib.suppress(TimeoutError):
                return await self._woken(await asyncio.wait_for(self.queue.get(), self.delay))
        began = time.perf_counter()
        await self._tell(await self.table.computer_decides(seat))
        self.timing("computer_turn", (time.perf_counter() - began) * 1000)
        return None

    async def _wait(self, seconds: float | None) -> Command | None:
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

    async def _woken(self, item: Command | _Wake) -> Command | None:
        """A command as it is; a wake-up is handled here (every clock due now) and is ``None``."""
        if isinstance(item, Command):
            return item
        while await self._tend_clocks():
            pass
        item.done.set_result(None)
        return None

    async def _handle(self, command: Command) -> None:
        try:
            await self._answer(command)
        except Exception as exc:  # the socket reports it; the actor goes on
            if not command.done.done():
                command.done.set_exception(exc)
        else:
            if not command.done.done():
                command.done.set_result(None)

    async def _answer(self, command: Command) -> None:
        table, account_id = self.table, command.connection.login.account_id
        match command:
            case OpenCommand():
                await self._open(command)
            case MoveCommand():
                timing = self.timing
                timing("table_queue", (time.perf_counter() - command.queued) * 1000)
                seat = table.seat_of(account_id)
                await self._tell(await table.play(seat, command.move, command.seq), command)
                timing("table_decision", (time.perf_counter() - command.queued) * 1000)
            case ChatCommand():
                line = await table.say(account_id, table.seat_of(account_id), command.text)
                await self._say(line, command)
            case LeaveCommand():
                await self._tell(await table.leave(table.seat_of(account_id)))
                left = {"type": "table.left", "table_id": self.id}
                await command.connection.send(with_ref(left, command.ref))
            case ReturnCommand():
                await self._tell(await table.come_back(table.seat_of(account_id)))
                reader = self.stored.seat_of(account_id)
                await command.connection.send(with_ref(self.state_message(reader), command.ref))

    # -- opening -------------------------------------------------------------------------------

    async def _open(self, command: OpenCommand) -> None:
        account_id = command.connection.login.account_id
        if not self.stored.may_watch(account_id, command.invite):
            raise ServiceError("invite_required", "this table is watched by invitation only")
        self.hub.watch(command.connection, self.key)
        reader = self.stored.seat_of(account_id)
        await self.table.recent_chat()
        await self._tell(await self.table.opened_by(reader))
        state = self.state_message(reader, command.last_seq)
        await command.connection.send(with_ref(state, command.ref))
        if not self.playing:
            await command.connection.send(with_ref(self.end_message(), command.ref))

    def state_message(self, reader: int | None, last_seq: int | None = None) -> JSON:
        """The full ``table.state`` for ``reader`` (a seat, ``None``: a spectator)."""
        table = self.table
        return {
            "type": "table.state",
            "table_id": self.id,
            **table.seen_by(reader),
            "history": table.history(reader),
            "missed": table.missed(reader, last_seq),
            "table": self.stored.summary(table.account_at(reader)),
            "chat": list(table.chat_lines or []),
        }

    def end_message(self) -> JSON:
        """``table.end``: the end data of a finished table."""
        return {
            "type": "table.end",
            "table_id": self.id,
            "seq": self.seq,
            "result": self.stored.record.result,
        }

    # -- telling the watchers ------------------------------------------------------------------

    async def _tell(
        self, outcome: Accepted | SeatChange | None, origin: Command | None = None
    ) -> None:
        """Tell every watcher what a committed use case did (``origin`` asked for it)."""
        match outcome:
            case Accepted(entry=entry, returned=returned):
                await self._broadcast(entry, origin)
                for back in returned:  # the stand-in finished her timed-out turn
                    await self._send_all(self._seat_message(SeatChange(back, None, "returned")))
            case SeatChange():
                await self._send_all(self._seat_message(outcome))

    async def _broadcast(self, entry: Entry, origin: Command | None) -> None:
        """``table.event`` to every watcher, each with its own view; then ``table.end``."""
        watchers = set(self.hub.watchers.get(self.key, ()))
        if origin is not None:
            watchers.add(origin.connection)
        seen: dict[int | None, JSON] = {}
        viewing = sending = 0.0
        for connection in watchers:
            began = time.perf_counter()
            reader = self.stored.seat_of(connection.login.account_id)
            if reader not in seen:
                seen[reader] = {
                    "type": "table.event",
                    "table_id": self.id,
                    **self.table.seen_by(reader),
                    "entry": entry.for_reader(reader),
                }
            mine = origin is not None and connection is origin.connection
            ref = origin.ref if origin is not None and mine else None
            viewed = time.perf_counter()
            await connection.send(with_ref(seen[reader], ref))
            viewing += viewed - began
            sending += time.perf_counter() - viewed
        self.timing("table_view", viewing * 1000)
        self.timing("table_send", sending * 1000)
        if not self.playing:
            for connection in watchers:
                await connection.send(self.end_message())

    def _seat_message(self, change: SeatChange) -> JSON:
        return {
            "type": "table.seat",
            "table_id": self.id,
            "seat": change.seat,
            "away": change.away is not None,
            "why": change.why,
            "clocks": self.table.clock_list(),
        }

    async def _say(self, line: JSON, command: Command) -> None:
        message = {"type": "table.chat", "table_id": self.id, **line}
        watchers = set(self.hub.watchers.get(self.key, ()))
        for connection in watchers - {command.connection}:
            await connection.send(message)
        await command.connection.send(with_ref(message, command.ref))

    async def _send_all(self, message: JSON) -> None:
        for connection in set(self.hub.watchers.get(self.key, ())):
            await connection.send(message)

    # -- clocks --------------------------------------------------------------------------------

    async def _tend_clocks(self) -> bool:
        """Act on what the clocks ask for now; whether the position (or a seat) changed."""
        table = self.table
        if not table.clocked:
            return False
        now = table.clock()
        connected = {c.login.account_id for c in self.hub.watchers.get(self.key, ())}
        change = await table.note_presence(connected, now)
        if change is not None:
            await self._tell(change)
            return True
        for event in table.due_now(now):
            await self._send_all(_clock_message(self.id, event.seat, event.waiting, event.phase))
            if event.phase == "grace":
                table.warn(event.seat)  # the beep: 10 s of grace follow
                continue
            await self._tell(await table.expire(event.seat, event.waiting.kind))
            return True
        return False


def _clock_message(table_id: str, seat: int, waiting: Waiting, phase: str) -> JSON:
    return {
        "type": "table.clock",
        "table_id": table_id,
        "phase": phase,
        **clock_json(seat, waiting),
    }
