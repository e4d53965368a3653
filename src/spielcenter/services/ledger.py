"""The taler ledger (speedquilt.md §7, docs/ledger.md): every movement of taler is double entry.

A movement (:class:`LedgerTransaction`) has legs (:class:`LedgerEntry`) on ledger accounts —
``player:<account id>``, ``house``, ``pot:<table id>`` — whose amounts sum to zero, so no taler
is ever created or lost: the sum of every entry in the ledger is always 0, and a balance is the
sum of the entries of its account. Each movement has a unique key, so it happens at most once.

* opening: the house gives a new account its start balance of 1 000 taler;
* stake: when a table starts, each person pays the stake into the table's pot, the house pays it
  for each computer seat;
* payout: when the table ends, the winners take the pot; tied winners split it; the share of a
  computer seat or of a person who left and forfeited, and an indivisible remainder, go to the
  house.

The functions taking a database session write inside the caller's transaction (a stake with the
table's start, a payout with the table's last entry); :class:`LedgerService` is the read side.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from spielcenter.games.base import JSON
from spielcenter.store.models import LedgerEntry, LedgerTransaction

from .common import Clock, ServiceError, as_utc

__all__ = [
    "HOUSE",
    "START_BALANCE",
    "LedgerService",
    "Leg",
    "balance",
    "ledger_total",
    "open_account",
    "pay_out",
    "pay_stakes",
    "player",
    "pot",
    "split_pot",
]

HOUSE = "house"
START_BALANCE = 1000
"""Every account starts with 1 000 taler."""


def player(account_id: str) -> str:
    """The ledger account of a person."""
    return f"player:{account_id}"


def pot(table_id: str) -> str:
    """The ledger account of a table's pot."""
    return f"pot:{table_id}"


@dataclass(frozen=True)
class Leg:
    """``amount`` taler to (positive) or from (negative) one ledger account."""

    account: str
    amount: int


async def post(
    db: AsyncSession,
    key: str,
    kind: str,
    legs: Sequence[Leg],
    at: datetime,
    table_id: str | None = None,
) -> None:
    """Write one movement in the caller's transaction; its legs must sum to zero."""
    if sum(leg.amount for leg in legs) != 0:
        raise ValueError(f"ledger movement {key!r} does not balance: {legs!r}")
    movement = LedgerTransaction(key=key, kind=kind, table_id=table_id, created_at=at)
    db.add(movement)
    await db.flush()  # the movement's id first: the legs refer to it
    db.add_all(
        LedgerEntry(transaction_id=movement.id, account=leg.account, amount=leg.amount)
        for leg in legs
        if leg.amount != 0
    )
    await db.flush()


async def balance(db: AsyncSession, account: str) -> int:
    """The balance of a ledger account: the sum of its entries."""
    total = await db.scalar(
        select(func.coalesce(func.sum(LedgerEntry.amount), 0)).where(LedgerEntry.account == account)
    )
    return int(total or 0)


async def ledger_total(db: AsyncSession) -> int:
    """The sum of every entry of the ledger: 0, always (double entry)."""
    total = await db.scalar(select(func.coalesce(func.sum(LedgerEntry.amount), 0)))
    return int(total or 0)


async def _has(db: AsyncSession, key: str) -> bool:
    found = await db.scalar(select(LedgerTransaction.id).where(LedgerTransaction.key == key))
    return found is not None


async def open_account(db: AsyncSession, account_id: str, at: datetime) -> None:
    """Give ``account_id`` its start balance, once (the house pays it)."""
    key = f"opening:{account_id}"
    if not await _has(db, key):
        legs = [Leg(HOUSE, -START_BALANCE), Leg(player(account_id), START_BALANCE)]
        await post(db, key, "opening", legs, at)


async def check_balance(db: AsyncSession, account_id: str, stake: int, at: datetime) -> None:
    """Refuse with ``insufficient_taler`` unless ``account_id`` can pay ``stake``."""
    await open_account(db, account_id, at)
    have = await balance(db, player(account_id))
    if have < stake:
        raise ServiceError(
            "insufficient_taler", f"the stake is {stake} taler and the balance only {have}"
        )


async def pay_stakes(
    db: AsyncSession, table_id: str, accounts: Sequence[str | None], stake: int, at: datetime
) -> None:
    """The table starts: every person pays ``stake`` into its pot, the house pays for computers.

    Refuses with ``insufficient_taler`` (writing nothing) if a person cannot pay.
    """
    if stake <= 0:
        return
    for account_id in accounts:
        if account_id is not None:
            await check_balance(db, account_id, stake, at)
    legs = [Leg(HOUSE if a is None else player(a), -stake) for a in accounts]
    legs.append(Leg(pot(table_id), stake * len(accounts)))
    await post(db, f"stake:{table_id}", "stake", legs, at, table_id)


def split_pot(amount: int, places: Sequence[int], payable: Sequence[bool]) -> tuple[list[int], int]:
    """Who gets what of a pot of ``amount``: the shares per seat, and the house's part.

    The seats in first place split the pot evenly; a share of a seat that is not ``payable``
    (a computer, or a person who forfeited) and the indivisible remainder go to the house.

    >>> split_pot(100, [1, 1, 1], [True, True, True])
    ([33, 33, 33], 1)
    >>> split_pot(300, [1, 2, 3], [False, True, True])
    ([0, 0, 0], 300)
    """
    winners = [seat for seat, place in enumerate(places) if place == 1]
    each = amount // len(winners)
    shares = [each if seat in winners and payable[seat] else 0 for seat in range(len(places))]
    return shares, amount - sum(shares)


async def pay_out(
    db: AsyncSession,
    table_id: str,
    accounts: Sequence[str | None],
    places: Sequence[int],
    forfeited: Sequence[int],
    at: datetime,
) -> list[int]:
    """The table ended: empty its pot to the winners and the house; the shares per seat."""
    amount = await balance(db, pot(table_id))
    if amount <= 0:
        return [0] * len(accounts)
    payable = [a is not None and seat not in forfeited for seat, a in enumerate(accounts)]
    shares, house = split_pot(amount, places, payable)
    legs = [Leg(pot(table_id), -amount), Leg(HOUSE, house)]
    legs += [
        Leg(player(account_id), share)
        for account_id, share in zip(accounts, shares, strict=True)
        if account_id is not None and share
    ]
    await post(db, f"payout:{table_id}", "payout", legs, at, table_id)
    return shares


class LedgerService:
    """What an account may see of the ledger: its balance and its movements."""

    def __init__(self, sessionmaker: async_sessionmaker[AsyncSession], clock: Clock) -> None:
        self.sessionmaker = sessionmaker
        self.clock = clock

    async def statement(self, account_id: str, limit: int = 100) -> JSON:
        """``{"balance", "history"}`` of ``account_id`` (opening the account on the first look)."""
        async with self.sessionmaker.begin() as db:
            await open_account(db, account_id, self.clock())
            mine = player(account_id)
            rows = await db.execute(
                select(LedgerTransaction, LedgerEntry.amount)
                .join(LedgerEntry, LedgerEntry.transaction_id == LedgerTransaction.id)
                .where(LedgerEntry.account == mine)
                .order_by(LedgerTransaction.id.desc())
                .limit(limit)
            )
            history = [
                {
                    "id": movement.id,
                    "at": as_utc(movement.created_at).isoformat(),
                    "kind": movement.kind,
                    "amount": amount,
                    "table_id": movement.table_id,
                }
                for movement, amount in rows.all()
            ]
            return {"balance": await balance(db, mine), "history": history}

    async def table_pot(self, table_id: str, seats: Mapping[str, int]) -> JSON:
        """The pot of a table as everyone at it may see it: what it holds, and every movement
        in or out of it with all its legs (``seats`` maps account ids to their seats).

        A leg is ``{"who": "seat"/"house"/"pot", "seat", "amount"}``: a person's taler by her seat,
        the house's (it pays for computers and takes remainders), the pot's own.
        """
        async with self.sessionmaker() as db:
            movements = (
                await db.execute(
                    select(LedgerTransaction)
                    .where(LedgerTransaction.table_id == table_id)
                    .order_by(LedgerTransaction.id)
                )
            ).scalars()
            shown = []
            for movement in movements:
                legs = await db.execute(
                    select(LedgerEntry)
                    .where(LedgerEntry.transaction_id == movement.id)
                    .order_by(LedgerEntry.id)
                )
                shown.append(
                    {
                        "kind": movement.kind,
                        "at": as_utc(movement.created_at).isoformat(),
                        "legs": [_leg(entry, seats) for entry in legs.scalars()],
                    }
                )
            return {
                "table_id": table_id,
                "pot": await balance(db, pot(table_id)),
                "movements": shown,
            }

    async def total(self) -> int:
        """The sum of the whole ledger (0: nothing created or lost)."""
        async with self.sessionmaker() as db:
            return await ledger_total(db)

    async def balance_of(self, account: str) -> int:
        """The balance of any ledger account (``player:…``, ``house``, ``pot:…``)."""
        async with self.sessionmaker() as db:
            return await balance(db, account)


def _leg(entry: LedgerEntry, seats: Mapping[str, int]) -> JSON:
    if entry.account.startswith("player:"):
        seat = seats.get(entry.account.removeprefix("player:"))
        return {"who": "seat", "seat": seat, "amount": entry.amount}
    who = HOUSE if entry.account == HOUSE else "pot"
    return {"who": who, "seat": None, "amount": entry.amount}
