"""Speedquilt tables in the store: who sits where, the log of every seat's decision, the end.

A table is an event log like a patience game (docs/tables.md): the ``tables`` row holds what
was dealt (variant, options, and a secret seed with its commitment — or, for practice against
computers, a chosen deal number: services/fairness.py) and a summary; ``table_entries`` holds
every accepted decision as ``(seq, seat, move text)``. The position is the replay of the log
through the engine. The live table and its use cases are ``services/table_play.py`` (the
server's actor, ``server/tables.py``, drives them); this module only reads and writes.

:func:`record_finished_table` is called exactly once per finished table, inside the transaction
that commits its last entry, with a :class:`FinishedTable` — the place where campaign,
leaderboards and achievements hook in.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from spielcenter.bots import LEVELS
from spielcenter.games.base import JSON, Deal, Game, GameError
from spielcenter.store.models import SeatClock, TableEntry, TableRecord, TableSeat, TableSetup
from spielcenter.store.repositories import (
    AccountRepository,
    NewTableEntry,
    SeatClockValues,
    TableRepository,
)

from .common import Clock, ServiceError, StageTimer, as_utc, new_id, no_timing
from .deals import client_deal
from .fairness import SeedSource, dealt_from, fairness_of, fresh_seed, seeded
from .ledger import pay_out
from .logwriter import LogWriter
from .results import FinishedGame, record_finished

__all__ = [
    "GAME",
    "TEMPI",
    "FinishedTable",
    "StoredTable",
    "TableService",
    "finished_table",
    "record_finished_table",
]

GAME = "speedquilt"
TEMPI = ("slow", "normal", "fast")
"""How fast computer players act (the delays are the server's: docs/tables.md)."""
OPEN, FINISHED = "open", "finished"
MIN_PLAYERS, MAX_PLAYERS = 2, 4
SOLO_OPTIONS = frozenset({"target", "rounds", "top_shelf", "bottom_shelf"})
"""Options a client may set for a solo table (a campaign stage); the daily quilt is the
server's own (its secret never comes from a client)."""

EngineFor = Callable[[str, dict[str, Any]], Game[Any, Any]]
"""Builds the engine of a table from its variant and stored options."""


@dataclass(frozen=True)
class FinishedTable:
    """The end of one table, handed to :func:`record_finished_table` once.

    Lists are per seat (index = seat). ``accounts[i]`` is ``None`` for a computer seat, whose
    level is ``levels[i]``. ``leaderboard_points`` are 5 per game point plus 50 / 25 / 10 for
    places 1 / 2 / 3; ``breakdown`` is the engine's score breakdown per seat.
    """

    table_id: str
    game: str
    variant: str
    options: dict[str, Any]
    deal: Deal
    """The secret seed of a ranked table, or the deal number of a practice table."""
    accounts: list[str | None]
    levels: list[str | None]
    scores: list[int]
    places: list[int]
    leaderboard_points: list[int]
    empty_patches: list[int]
    breakdown: list[JSON]
    finished_at: datetime
    forfeited: tuple[int, ...] = ()
    """Seats whose person wins nothing: she left the table and had not come back at the end, or
    she never made a decision of her own (stand-ins and clocks made every one)."""
    moves: tuple[tuple[int, str], ...] = ()
    """The whole log, ``(seat, move text)``, the last decision included."""
    state: Any = None
    """The final position (the live table's: the replay of ``moves``)."""

    def result(self) -> JSON:
        """The end data as the protocol sends it (``result`` of docs/protocol.md)."""
        return {
            "scores": list(self.scores),
            "places": list(self.places),
            "leaderboard_points": list(self.leaderboard_points),
            "empty_patches": list(self.empty_patches),
            "breakdown": list(self.breakdown),
        }


async def record_finished_table(db: AsyncSession, finished: FinishedTable) -> None:
    """A table ended: close it and keep its end data (called once, in the final transaction).

    Whatever else a finished table brings (leaderboards, campaign, achievements, taler) joins
    here, in the same transaction, so it happens exactly when the last entry is committed: the
    pot of a staked table is paid out here (docs/ledger.md).
    """
    await TableRepository(db).finish(
        finished.table_id, FINISHED, finished.result(), finished.finished_at
    )
    await pay_out(
        db,
        finished.table_id,
        finished.accounts,
        finished.places,
        finished.forfeited,
        finished.finished_at,
    )


@dataclass
class StoredTable:
    """A table as the store holds it: the row, its seats (in order), names, and its log.

    A lobby table also has its ``setup`` (clocks, stake), the ``clocks`` of its people's seats
    and the seats whose person continues automatically when nothing fits (``auto_continue``).
    """

    record: TableRecord
    seats: list[TableSeat]
    names: dict[str, str | None]
    entries: list[TableEntry]
    setup: TableSetup | None = None
    clocks: dict[int, SeatClock] = field(default_factory=dict)
    auto_continue: set[int] = field(default_factory=set)

    def seat_of(self, account_id: str) -> int | None:
        """The seat of ``account_id`` at this table, or ``None`` (a spectator)."""
        for seat in self.seats:
            if seat.account_id == account_id:
                return seat.seat
        return None

    def seated(self, account_id: str | None) -> bool:
        """Whether ``account_id`` sits at this table."""
        return account_id is not None and self.seat_of(account_id) is not None

    def may_watch(self, account_id: str, invite: str | None) -> bool:
        """Whether ``account_id`` may watch: anyone at a public table; at a private one only the
        people at it and whoever brings its invitation (an id alone is not enough)."""
        if self.setup is None or not self.setup.private or self.seated(account_id):
            return True
        return invite is not None and secrets.compare_digest(invite, self.setup.invite)

    def summary(self, viewer: str | None = None) -> JSON:
        """The table summary of docs/protocol.md as ``viewer`` (an account) may see it: the
        invitation code of a private table only for the people at it, who share it."""
        row = self.record
        summary: JSON = {
            "id": row.id,
            "game": row.game,
            "variant": row.variant,
            "options": dict(row.options),
            "tempo": row.tempo,
            "status": row.status,
            "seq": row.last_seq,
            "seats": [self._seat(seat) for seat in self.seats],
            "created_at": as_utc(row.created_at).isoformat(),
            "finished_at": as_utc(row.finished_at).isoformat() if row.finished_at else None,
            "result": row.result,
            # The seed's commitment from the start; the seed itself only once it is finished.
            "fairness": fairness_of(row, over=row.status == FINISHED),
        }
        if self.setup is not None:
            # A public table's link is for anyone; a private table's only for its people.
            shown = not self.setup.private or self.seated(viewer)
            summary["setup"] = _setup(self.setup, with_invite=shown)
        return summary

    def _seat(self, seat: TableSeat) -> JSON:
        if seat.account_id is None and seat.level is None:
            return {"seat": seat.seat, "kind": "free"}
        if seat.account_id is None:
            return {"seat": seat.seat, "kind": "computer", "level": seat.level}
        clock = self.clocks.get(seat.seat)
        return {
            "seat": seat.seat,
            "kind": "human",
            "account_id": seat.account_id,
            "name": self.names.get(seat.account_id),
            "away": clock is not None and clock.away is not None,
        }


def _setup(setup: TableSetup, with_invite: bool) -> JSON:
    shown: JSON = {
        "think": setup.think_seconds,
        "giving": setup.giving_seconds,
        "stake": setup.stake,
        "stand_in": setup.stand_in,
        "private": setup.private,
    }
    if with_invite:
        shown["invite"] = setup.invite
    return shown


class TableService:
    """Creating tables and writing and reading their logs."""

    def __init__(
        self,
        sessionmaker: async_sessionmaker[AsyncSession],
        engine_for: EngineFor,
        clock: Clock,
        writer: LogWriter,
    ) -> None:
        self.sessionmaker = sessionmaker
        self.engine_for = engine_for
        self.clock = clock
        self.writer = writer
        """The patience games' group commit (services/logwriter.py): a decision that does not
        end the game is written in its batches, by the one writer of the database."""
        self.fresh_seed: SeedSource = fresh_seed
        self.timing: StageTimer = no_timing
        """Counts the stages of a table's decisions when the latency trace is on."""
        # SQLite lets one connection write at a time. The tables' own transactions (creating a
        # table, its last decision, clocks without a decision) queue here, in order, and the
        # first of them takes turns with the log writer's batches (its ``turn``), instead of
        # meeting them in SQLite's busy handler (sleeps of up to 100 ms, in no order): there a
        # hundred tables' transactions, each holding the file across several trips to the
        # driver's thread, starved one another and the group commit's thread until some
        # waited out the busy timeout ("database is locked"; bench/load.py, issue 40), and a
        # batch that found a table's end holding the file slept 1, 3, 8, 18, 33, 53 ms …
        # A batch waits for one table's transaction at most (and the one ahead of it), never
        # for a queue of them (a hundred tables created or ending at once), and the tables
        # are never starved by a stream of batches (docs/performance.md, "A table event's CPU").
        bind = sessionmaker.kw.get("bind")
        sqlite = bind is not None and bind.dialect.name == "sqlite"
        self._one_writer: asyncio.Lock | None = asyncio.Lock() if sqlite else None
        self._turn = writer.turn if writer.takes_turns else None

    @contextlib.asynccontextmanager
    async def _writing(self) -> AsyncIterator[AsyncSession]:
        """A write transaction (on SQLite, once this process's earlier ones have ended, and in
        turn with the log writer's batches)."""
        asked = time.perf_counter()
        queue, turn = self._one_writer, self._turn
        async with queue or contextlib.nullcontext(), turn() if turn else contextlib.nullcontext():
            self.timing("table_lock_wait", (time.perf_counter() - asked) * 1000)
            async with self.sessionmaker.begin() as db:
                yield db

    async def create(
        self,
        account_id: str,
        *,
        variant: str = "table",
        players: int | None = None,
        bots: Sequence[str] = (),
        tempo: str = "normal",
        options: dict[str, Any] | None = None,
        deal: int | None = None,
    ) -> StoredTable:
        """A new table with ``account_id`` at seat 0 and computer players ``bots`` at 1, 2, …

        It is dealt from a fresh secret seed and ranked; a chosen ``deal`` number makes it a
        practice table (never on a leaderboard: whoever chose the deal may have rehearsed it).
        """
        engine_options = _options(variant, players, list(bots), dict(options or {}))
        if tempo not in TEMPI:
            raise ServiceError("bad_request", f"tempo is one of {', '.join(TEMPI)}")
        try:
            self.engine_for(variant, engine_options)
        except (GameError, LookupError, ValueError, TypeError) as exc:
            raise ServiceError("bad_request", str(exc)) from exc
        now = self.clock()
        row = TableRecord(
            id=new_id(),
            created_by=account_id,
            game=GAME,
            variant=variant,
            options=engine_options,
            **(seeded(self.fresh_seed()) if deal is None else {"deal": client_deal(deal)}),
            tempo=tempo,
            status=OPEN,
            last_seq=0,
            result=None,
            created_at=now,
        )
        seats = [TableSeat(table_id=row.id, seat=0, account_id=account_id, level=None)]
        seats += [
            TableSeat(table_id=row.id, seat=i, account_id=None, level=level)
            for i, level in enumerate(bots, start=1)
        ]
        async with self._writing() as db:
            tables = TableRepository(db)
            tables.add(row)
            await tables.flush()  # the table row first: the seats refer to it
            tables.add_all(seats)
            names = await AccountRepository(db).names_of([account_id])
        return StoredTable(row, seats, names, [])

    async def load(self, table_id: str) -> StoredTable | None:
        """The table with its seats and whole log, or ``None``."""
        async with self.sessionmaker() as db:
            tables = TableRepository(db)
            row = await tables.get(table_id)
            if row is None:
                return None
            seats = list(await tables.seats_of(table_id))
            entries = list(await tables.entries(table_id))
            names = await AccountRepository(db).names_of(
                s.account_id for s in seats if s.account_id
            )
            setup = await tables.setup_of(table_id)
            clocks = await tables.clocks_of(table_id)
            auto = await _auto_continue(db, seats)
        return StoredTable(row, seats, names, entries, setup, {c.seat: c for c in clocks}, auto)

    async def auto_continue(self, stored: StoredTable) -> set[int]:
        """The seats whose person has "automatisch weiter" on now (read again on each open)."""
        async with self.sessionmaker() as db:
            return await _auto_continue(db, stored.seats)

    async def save_clocks(self, table_id: str, clocks: Sequence[SeatClock]) -> None:
        """Store seat clocks and presence that changed without an entry (a warning, an absence)."""
        async with self._writing() as db:
            await TableRepository(db).write_clocks(table_id, clocks)

    async def open_ids(self) -> list[str]:
        """The ids of every table still being played (to restart their actors)."""
        async with self.sessionmaker() as db:
            return await TableRepository(db).ids_with_status(OPEN)

    async def of_account(self, account_id: str, state: str | None = None) -> list[str]:
        """The ids of the tables ``account_id`` sits at, newest first (``open``/``finished``, or
        ``waiting``: the lobby tables she sits at that have not started)."""
        if state not in (None, OPEN, FINISHED, "waiting"):
            raise ServiceError("bad_request", "state is one of open, finished, waiting")
        async with self.sessionmaker() as db:
            return await TableRepository(db).ids_of_account(account_id, state)

    async def append(
        self,
        table_id: str,
        seq: int,
        seat: int,
        move: str,
        finished: FinishedTable | None,
        clocks: Sequence[SeatClock] = (),
        by_stand_in: bool = False,
    ) -> None:
        """Commit one accepted decision (and, if it ended the game, the end) in one transaction,
        with the seat clocks it started or stopped; ``by_stand_in``: a computer or the clock
        decided for the person of ``seat``.

        A decision that does not end the game goes into the log writer's next batch, with the
        patience entries (one writer, one trip); the last one, which records the result and
        pays the pot, is a transaction of its own."""
        now = self.clock()
        if finished is None:
            values = tuple(_clock_values(table_id, clock) for clock in clocks)
            written = NewTableEntry(table_id, seq, seat, move, now, by_stand_in, values)
            await self.writer.write_table(written)
            return
        # What the end counts is made before the transaction: SQLite's write lock is taken at its
        # first insert and held to its commit, and the log writer's batches wait for it
        # (docs/performance.md, "A table event's CPU").
        engine = self.engine_for(finished.variant, dict(finished.options))
        game = FinishedGame.of_table(
            table_id, engine, finished.deal, finished.moves, finished.state, finished.accounts, now
        )
        entry = TableEntry(
            table_id=table_id,
            seq=seq,
            seat=seat,
            move=move,
            created_at=now,
            by_stand_in=by_stand_in,
        )
        async with self._writing() as db:
            began = time.perf_counter()
            tables = TableRepository(db)
            await tables.append(entry)
            await tables.write_clocks(table_id, clocks)
            await record_finished_table(db, finished)
            await record_finished(db, game)
        # How long the end held the database (and the writers' turn), commit included.
        self.timing("table_end", (time.perf_counter() - began) * 1000)


def _clock_values(table_id: str, clock: SeatClock) -> SeatClockValues:
    return SeatClockValues(
        table_id, clock.seat, clock.kind, clock.deadline, clock.away, clock.disconnected_at
    )


async def _auto_continue(db: AsyncSession, seats: Sequence[TableSeat]) -> set[int]:
    people = {s.account_id: s.seat for s in seats if s.account_id is not None}
    if not people:
        return set()
    settings = await AccountRepository(db).settings_of(people)
    return {people[i] for i, chosen in settings.items() if chosen.get("auto_continue")}


def _options(
    variant: str, players: int | None, bots: list[str], options: dict[str, Any]
) -> dict[str, Any]:
    """The engine options of a new table, or ``bad_request`` saying what is wrong."""
    unknown = [level for level in bots if level not in LEVELS]
    if unknown:
        raise ServiceError("bad_request", f"unknown computer player {unknown[0]!r}")
    if variant == "table":
        if options:
            raise ServiceError("bad_request", "a table variant takes no options")
        if players is None or not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ServiceError("bad_request", "a table has 2 to 4 players")
        if len(bots) != players - 1:
            raise ServiceError("bad_request", f"name {players - 1} computer players in 'bots'")
        return {"players": players}
    if variant in ("solo", "daily"):
        if players not in (None, 1) or bots:
            raise ServiceError("bad_request", f"the {variant} variant has one seat and no bots")
        if variant == "solo" and set(options) - SOLO_OPTIONS:
            raise ServiceError("bad_request", f"solo options are {', '.join(sorted(SOLO_OPTIONS))}")
        return options
    raise ServiceError("bad_request", f"unknown variant {variant!r}: table, solo or daily")


def finished_table(
    stored: StoredTable,
    result: JSON,
    finished_at: datetime,
    forfeited: Sequence[int] = (),
    moves: Sequence[tuple[int, str]] = (),
    state: Any = None,
) -> FinishedTable:
    """The :class:`FinishedTable` of ``stored`` from the end data the live table computed, its
    whole log (``moves``) and final position (``state``)."""
    row = stored.record
    return FinishedTable(
        table_id=row.id,
        game=row.game,
        variant=row.variant,
        options=dict(row.options),
        deal=dealt_from(row),
        accounts=[seat.account_id for seat in stored.seats],
        levels=[seat.level for seat in stored.seats],
        finished_at=finished_at,
        forfeited=tuple(forfeited),
        moves=tuple(moves),
        state=state,
        **{key: list(value) for key, value in result.items()},
    )
