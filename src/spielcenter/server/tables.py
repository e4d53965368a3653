"""Speedquilt tables on the server: one actor per table, the registry of live actors, and the
``table.*`` messages of the WebSocket (docs/protocol.md, "Speedquilt tables").

A :class:`TableActor` is one asyncio task that owns a table's position. Every command — a
socket's ``table.open`` or ``table.move``, a computer player's decision — is handled by that task
one at a time, so there are no races inside a table and every socket hears the table's events in
``seq`` order. An accepted decision is committed to the table's log before anyone hears of it;
each socket then gets its own seat's view (a spectator the public one), never another seat's.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from spielcenter.bots import Bot, get_bot
from spielcenter.bots.player import fallback
from spielcenter.games.base import JSON, IllegalMoveError, MoveSyntaxError, Status, get_game
from spielcenter.games.speedquilt.rules import Speedquilt
from spielcenter.games.speedquilt.scoring import leaderboard_points
from spielcenter.games.speedquilt.state import GameState
from spielcenter.services.common import Clock, ServiceError
from spielcenter.services.table_history import EntryLines, lines_of
from spielcenter.services.tables import (
    FinishedTable,
    StoredTable,
    TableService,
    finished_table,
)

from .logging import log
from .websocket import MAX_MESSAGE_BYTES, BadMessage, Connection, Hub

__all__ = [
    "TEMPO_SECONDS",
    "TableActor",
    "TableRegistry",
    "handle_table_message",
    "speedquilt_engine",
    "table_request",
]

TEMPO_SECONDS: dict[str, float] = {"slow": 1.2, "normal": 0.6, "fast": 0.15}
"""The pause before each computer move, by the table's tempo."""


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

    connection: Connection
    ref: Any
    done: asyncio.Future[None] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )


@dataclass
class _Open(_Command):
    last_seq: int | None = None


@dataclass
class _Move(_Command):
    move: str = ""
    seq: int | None = None


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
    ) -> None:
        self.stored = stored
        self.engine = engine
        self.service = service
        self.hub = hub
        self.delay = delays.get(stored.record.tempo, 0.0)
        self.clock = clock
        self.state: GameState = engine.start(stored.record.deal)
        self.entries: list[Entry] = []
        self.bots: dict[int, Bot] = {
            s.seat: get_bot(s.level) for s in stored.seats if s.level is not None
        }
        self.memories: dict[int, dict[str, Any]] = {seat: {} for seat in self.bots}
        self.queue: asyncio.Queue[_Command] = asyncio.Queue()
        self.running = False
        self.task: asyncio.Task[None] | None = None
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
        if self.playing and self.task is None:
            self.running = True
            self.task = asyncio.create_task(self._run(), name=f"table-{self.id}")

    async def stop(self) -> None:
        """Stop the task (the server is shutting down)."""
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task

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
                await self._handle(self.queue.get_nowait())

    async def _next_command(self) -> _Command | None:
        """The next socket command; ``None`` after a computer player has moved instead.

        People's commands go first; a computer moves when no command arrives within the tempo's
        pause (a test's tempo of 0 moves at once).
        """
        if not self.queue.empty():
            return self.queue.get_nowait()
        seat = self._computer_to_move()
        if seat is None:
            return await self.queue.get()
        if self.delay > 0:
            with contextlib.suppress(TimeoutError):
                return await asyncio.wait_for(self.queue.get(), self.delay)
        await self._computer_moves(seat)
        return None

    def _computer_to_move(self) -> int | None:
        """The computer seat to decide now: passive seats (giving, choosing) first; the active
        seat only once no window is open (as in bots/tournament.py)."""
        acting = self.engine.to_act(self.state)
        active = self.state.active
        waiting = sorted(s for s in acting if s != active and s in self.bots)
        if waiting:
            return waiting[0]
        if active in self.bots and acting == {active}:
            return active
        return None

    async def _computer_moves(self, seat: int) -> None:
        view = self.engine.view_for(self.state, seat)  # a computer sees only its own seat's view
        bot = self.bots[seat]
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
                    seat = self.stored.seat_of(command.connection.login.account_id)
                    if seat is None:
                        raise ServiceError("not_seated", "you have no seat at this table")
                    await self._accept(seat, command.move, command.seq, command)
        except Exception as exc:  # the socket reports it; the actor goes on
            if not command.done.done():
                command.done.set_exception(exc)
        else:
            if not command.done.done():
                command.done.set_result(None)

    # -- opening -------------------------------------------------------------------------------

    async def _open(self, command: _Open) -> None:
        self.hub.watch(command.connection, self.key)
        reader = self.stored.seat_of(command.connection.login.account_id)
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
            "table": self.stored.summary(),
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
        finished = self._finished(after)
        # Committed before anyone hears of it; if the write fails, the position stays as it was.
        await self.service.append(self.id, entry.seq, seat, entry.move, finished)
        self.state = after
        self.entries.append(entry)
        self.stored.record.last_seq = entry.seq
        if finished is not None:
            self.stored.record.status = "finished"
            self.stored.record.result = finished.result()
            self.stored.record.finished_at = finished.finished_at
        await self._broadcast(entry, origin)

    def _finished(self, after: GameState) -> FinishedTable | None:
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
        return finished_table(self.stored, result, self.clock())

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
    ) -> None:
        self.service = service
        self.hub = hub
        self.clock = clock
        self.delays = dict(TEMPO_SECONDS if delays is None else delays)
        self.engine_for = engine_for
        self.actors: dict[str, TableActor] = {}
        self._loading = asyncio.Lock()

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

    async def get(self, table_id: str) -> TableActor:
        """The live actor of ``table_id``, replaying its log if needed; ``not_found`` if none."""
        async with self._loading:
            actor = self.actors.get(table_id)
            if actor is not None:
                return actor
            stored = await self.service.load(table_id)
            if stored is None:
                raise ServiceError("not_found", f"no table {table_id!r}")
            return self._activate(stored)

    def _activate(self, stored: StoredTable) -> TableActor:
        engine = self.engine_for(stored.record.variant, dict(stored.record.options))
        actor = TableActor(stored, engine, self.service, self.hub, self.delays, self.clock)
        self.actors[stored.record.id] = actor
        actor.start()
        return actor

    async def summaries(self, account_id: str, state: str | None) -> list[JSON]:
        """Summaries of the tables ``account_id`` sits at, newest first."""
        return [
            (await self.get(i)).stored.summary()
            for i in await self.service.of_account(account_id, state)
        ]


# -- the WebSocket messages ------------------------------------------------------------------


class _TableMessage(BaseModel):
    model_config = ConfigDict(extra="ignore", strict=True)
    id: str | int | None = Field(default=None)
    table_id: str = Field(min_length=1, max_length=64)


class TableOpenMessage(_TableMessage):
    """Watch a table; the answer is ``table.state``."""

    type: Literal["table.open"]
    last_seq: int | None = Field(default=None, ge=0)


class TableMoveMessage(_TableMessage):
    """A decision of the sender's own seat."""

    type: Literal["table.move"]
    move: str = Field(min_length=1, max_length=80)
    seq: int | None = Field(default=None, ge=0)


_table_message: TypeAdapter[TableOpenMessage | TableMoveMessage] = TypeAdapter(
    Annotated[TableOpenMessage | TableMoveMessage, Field(discriminator="type")]
)


def table_request(text: str) -> tuple[JSON, Any] | None:
    """``(message, id)`` if ``text`` is a ``table.*`` message, else ``None`` (not ours)."""
    if len(text.encode()) > MAX_MESSAGE_BYTES:
        return None  # the general reader refuses it
    try:
        data = json.loads(text)
    except ValueError:
        return None
    if not isinstance(data, dict) or not str(data.get("type", "")).startswith("table."):
        return None
    ref = data.get("id") if isinstance(data.get("id"), str | int) else None
    return data, ref


async def handle_table_message(
    registry: TableRegistry, connection: Connection, data: JSON, ref: Any
) -> None:
    """Answer one ``table.*`` message; refusals are raised (the socket turns them into errors)."""
    try:
        message = _table_message.validate_python(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ()))
        error = BadMessage(f"{where}: {first.get('msg', 'invalid')}")
        error.ref = ref  # type: ignore[attr-defined]
        raise error from None
    actor = await registry.get(message.table_id)
    command: _Command
    if isinstance(message, TableOpenMessage):
        command = _Open(connection, ref, last_seq=message.last_seq)
    else:
        command = _Move(connection, ref, move=message.move, seq=message.seq)
    await actor.submit(command)
