"""The lobby: tables for several people that wait for their seats, then start (docs/tables.md).

A lobby table is a ``tables`` row with status ``waiting`` and a :class:`TableSetup` (clocks,
stake, stand-in, invitation). Seats are taken in seat order; a free seat has neither an account
nor a computer level. When the last free seat is taken the table starts, in one transaction:
status ``open``, every stake into the pot (:func:`ledger.pay_stakes`), and the first clocks
(every person's start choice). Leaving is possible until then; a table no person sits at any
more is ``cancelled``.

Money (docs/ledger.md): a guest can neither open nor join a table with a stake
(``claim_required``). Every change of a waiting table holds the table's row lock, and every
check of a balance that a debit follows holds the account's lock, always in that order (table,
then accounts by id). A waiting table at which a seated person can no longer pay the stake is
*withdrawn* (``cancelled``): in the transaction of the stake that emptied her balance, or by the
next join, which is refused without naming anyone's balance; the lobby never lists it.

A lobby table is always dealt from a fresh secret seed (services/fairness.py): a chosen deal
number is refused, because whoever chose it may have rehearsed it against the computers.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from spielcenter.bots import LEVELS
from spielcenter.store.models import SeatClock, TableRecord, TableSeat, TableSetup
from spielcenter.store.repositories import TableRepository

from .clocks import GIVING_SECONDS, THINK_SECONDS, ClockKind, Timing
from .common import Clock, ServiceError, new_id
from .fairness import SeedSource, fresh_seed, seeded
from .ledger import lock_accounts, pay_stakes, stake_refusal
from .tables import GAME, MAX_PLAYERS, MIN_PLAYERS, TEMPI

__all__ = ["CANCELLED", "MAX_STAKE", "WAITING", "LobbyService", "NewTable"]

WAITING, CANCELLED, OPEN = "waiting", "cancelled", "open"
MAX_STAKE = 1_000_000
WITHDRAWN = "this table can no longer start: a seat cannot pay the stake"
"""What a join hears at a table that cannot be paid (``table_withdrawn``): no name, no balance."""


@dataclass(frozen=True)
class NewTable:
    """What the creator of a lobby table chose (docs/protocol.md, ``POST /api/lobby``).

    ``bots`` names a computer level or ``None`` (a free seat for a person) for each seat after
    seat 0; ``think`` and ``giving`` are seconds or ``None`` (no clock).
    """

    players: int
    bots: Sequence[str | None] = ()
    think: int | None = None
    giving: int | None = None
    tempo: str = "normal"
    stake: int = 0
    private: bool = False
    stand_in: str = "normal"
    deal: int | None = None

    def check(self) -> None:
        """Refuse with ``bad_request`` saying what is wrong (``deal_not_allowed`` for a deal)."""
        if self.deal is not None:
            raise ServiceError(
                "deal_not_allowed",
                "a lobby table is dealt from a secret seed, never from a chosen deal number; "
                "deal numbers are for practice against computers (POST /api/tables)",
            )
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise ServiceError("bad_request", "a table has 2 to 4 players")
        if self.bots and len(self.bots) != self.players - 1:
            raise ServiceError("bad_request", f"'bots' names {self.players - 1} seats")
        for level in (*self.bots, self.stand_in):
            if level is not None and level not in LEVELS:
                raise ServiceError("bad_request", f"unknown computer player {level!r}")
        if self.think is not None and self.think not in THINK_SECONDS:
            raise ServiceError("bad_request", "think is 30, 60, 90, 120 or none")
        if self.giving is not None and self.giving not in GIVING_SECONDS:
            raise ServiceError("bad_request", "giving is 15, 20, 30 or none")
        if self.tempo not in TEMPI:
            raise ServiceError("bad_request", f"tempo is one of {', '.join(TEMPI)}")
        if not 0 <= self.stake <= MAX_STAKE:
            raise ServiceError("bad_request", f"the stake is 0 to {MAX_STAKE} taler")

    def levels(self) -> list[str | None]:
        """The computer level of each seat after seat 0 (``None``: free)."""
        return list(self.bots) if self.bots else [None] * (self.players - 1)


class LobbyService:
    """Creating, listing, joining and leaving tables that wait for people."""

    def __init__(
        self,
        sessionmaker: async_sessionmaker[AsyncSession],
        clock: Clock,
        clock_scale: float = 1.0,
    ) -> None:
        self.sessionmaker = sessionmaker
        self.clock = clock
        self.clock_scale = clock_scale  # CLOCK_SCALE (tests): shorter clocks, see Timing
        self.fresh_seed: SeedSource = fresh_seed

    async def create(self, account_id: str, new: NewTable) -> str:
        """A new lobby table with ``account_id`` at seat 0; its id (started if no seat is free)."""
        new.check()
        now = self.clock()
        row = TableRecord(
            id=new_id(),
            created_by=account_id,
            game=GAME,
            variant="table",
            options={"players": new.players},
            **seeded(self.fresh_seed()),
            tempo=new.tempo,
            status=WAITING,
            last_seq=0,
            result=None,
            created_at=now,
        )
        setup = TableSetup(
            table_id=row.id,
            think_seconds=new.think,
            giving_seconds=new.giving,
            stake=new.stake,
            stand_in=new.stand_in,
            private=new.private,
            invite=secrets.token_urlsafe(12),
        )
        seats = [TableSeat(table_id=row.id, seat=0, account_id=account_id, level=None)]
        seats += [
            TableSeat(table_id=row.id, seat=i, account_id=None, level=level)
            for i, level in enumerate(new.levels(), start=1)
        ]
        async with self.sessionmaker.begin() as db:
            if new.stake > 0:
                await lock_accounts(db, [account_id])
                refusal = await stake_refusal(db, account_id, new.stake, now)
                if refusal is not None:
                    raise refusal
            tables = TableRepository(db)
            tables.add(row)
            await tables.flush()  # the table row first: the others refer to it
            tables.add_all([setup, *seats])
            await tables.flush()
            if all(seat.account_id or seat.level for seat in seats):
                await self._start(db, row.id)
        return row.id

    async def waiting(self) -> list[str]:
        """The public tables waiting for people, oldest first (none a seated person can no longer
        pay: such a table is withdrawn when it is next touched, and never listed)."""
        async with self.sessionmaker() as db:
            return await TableRepository(db).waiting_public(WAITING)

    async def by_invite(self, code: str) -> str:
        """The table of an invitation code; ``not_found`` if none."""
        async with self.sessionmaker() as db:
            found = await TableRepository(db).by_invite(code)
        if found is None:
            raise ServiceError("not_found", "no table has this invitation")
        return found

    async def join(self, account_id: str, table_id: str, invite: str | None = None) -> bool:
        """Sit ``account_id`` at the lowest free seat; whether this started the table.

        Refused with ``table_withdrawn`` (and the table withdrawn) if a person already seated
        can no longer pay the stake; the refusal names nobody's balance.
        """
        async with self.sessionmaker.begin() as db:
            started = await self._sit(db, account_id, table_id, invite)
        if started is None:  # the withdrawal is committed; the joiner hears only that
            raise ServiceError("table_withdrawn", WITHDRAWN)
        return started

    async def _sit(
        self, db: AsyncSession, account_id: str, table_id: str, invite: str | None
    ) -> bool | None:
        """:meth:`join` in its transaction; ``None`` if the table was withdrawn instead."""
        tables = TableRepository(db)
        await tables.lock([table_id])  # one change of this table at a time
        row, setup, seats = await self._waiting(tables, table_id)
        if any(seat.account_id == account_id for seat in seats):
            raise ServiceError("already_seated", "you already sit at this table")
        if setup.private and invite != setup.invite:
            raise ServiceError("invite_required", "this table is joined by invitation only")
        free = [seat.seat for seat in seats if seat.account_id is None and seat.level is None]
        if not free:
            raise ServiceError("table_full", "every seat of this table is taken")
        if setup.stake > 0:
            seated = [seat.account_id for seat in seats if seat.account_id is not None]
            await lock_accounts(db, [*seated, account_id])
            refusal = await stake_refusal(db, account_id, setup.stake, self.clock())
            if refusal is not None:  # about her own account: she may hear why
                raise refusal
            if await tables.cannot_start(table_id):  # someone seated before can no longer pay
                row.status = CANCELLED
                return None
        if not await tables.take_seat(table_id, free[0], account_id):
            raise ServiceError("table_full", "that seat was taken a moment ago")
        if len(free) == 1:
            await self._start(db, table_id)
            return True
        return False

    async def leave(self, account_id: str, table_id: str) -> None:
        """Give up a seat before the start; the table is cancelled when no person is left."""
        async with self.sessionmaker.begin() as db:
            tables = TableRepository(db)
            await tables.lock([table_id])  # not while someone joins
            row, _setup, seats = await self._waiting(tables, table_id)
            if not any(seat.account_id == account_id for seat in seats):
                raise ServiceError("not_seated", "you have no seat at this table")
            await tables.vacate(table_id, account_id)
            if not any(s.account_id and s.account_id != account_id for s in seats):
                row.status = CANCELLED

    async def _waiting(
        self, tables: TableRepository, table_id: str
    ) -> tuple[TableRecord, TableSetup, list[TableSeat]]:
        row = await tables.get(table_id)
        setup = await tables.setup_of(table_id)
        if row is None or setup is None:
            raise ServiceError("not_found", f"no lobby table {table_id!r}")
        if row.status != WAITING:
            raise ServiceError("not_waiting", f"the table is {row.status}, not waiting")
        return row, setup, list(await tables.seats_of(table_id))

    async def _start(self, db: AsyncSession, table_id: str) -> None:
        """Every seat is taken: stakes into the pot, the start clocks, the table open."""
        now = self.clock()
        tables = TableRepository(db)
        setup = await tables.setup_of(table_id)
        assert setup is not None
        seats = list(await tables.seats_of(table_id))
        people = [s.account_id for s in seats]
        await pay_stakes(db, table_id, people, setup.stake, now)
        if setup.stake > 0:
            await self._withdraw_unpayable(db, [p for p in people if p is not None], table_id)
        timing = Timing(setup.think_seconds, setup.giving_seconds, self.clock_scale)
        length = timing.length(ClockKind.START)
        deadline = None if length is None else now + length
        tables.add_all(
            SeatClock(
                table_id=table_id,
                seat=seat.seat,
                kind=ClockKind.START.value if deadline else None,
                deadline=deadline,
                away=None,
                disconnected_at=now,
            )
            for seat in seats
            if seat.account_id is not None
        )
        setup.started_at = now
        await tables.set_status([table_id], OPEN)

    async def _withdraw_unpayable(self, db: AsyncSession, payers: list[str], table_id: str) -> None:
        """The stakes of ``table_id`` were just paid: withdraw the other waiting tables of its
        payers that one of them can no longer pay, in the same transaction.

        A table another transaction holds right now (someone joins or leaves it) is skipped
        rather than waited for (waiting could close a circle with that join, which waits for the
        payers' locks we hold); that join then finds the table unpayable and withdraws it.
        """
        tables = TableRepository(db)
        unpayable = await tables.unpayable_of(payers, besides=table_id, waiting=WAITING)
        if unpayable:
            await tables.set_status(unpayable, CANCELLED)
