"""The taler ledger (speedquilt.md §7, docs/ledger.md): every movement of taler is double entry.

A movement (:class:`LedgerTransaction`) has legs (:class:`LedgerEntry`) on ledger accounts —
``player:<account id>``, ``house``, ``pot:<table id>`` — whose amounts sum to zero, so no taler
is ever created or lost: the sum of every entry in the ledger is always 0, and a balance is the
sum of the entries of its account. Each movement has a unique key, so it happens at most once.

* opening: the house gives a claimed account its start balance of 1 000 taler, once (a guest
  has no taler: guests play for nothing);
* stake: when a table starts, each person pays the stake into the table's pot, the house pays it
  for each computer seat — under the lock of every paying account, so one balance is never
  spent twice (:func:`lock_accounts`);
* payout: when the table ends, the winners take the pot; tied winners split it; the share of a
  computer seat or of a person who left and forfeited, and an indivisible remainder, go to the
  house.

The functions taking a database session write inside the caller's transaction (a stake with the
table's start, a payout with the table's last entry); :class:`LedgerService` is the read side.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from spielcenter.games.base import JSON
from spielcenter.store.models import LedgerEntry
from spielcenter.store.repositories import AccountRepository, LedgerRepository

from .common import Clock, ServiceError, as_utc

__all__ = [
    "HOUSE",
    "START_BALANCE",
    "LedgerService",
    "Leg",
    "balance",
    "is_claimed",
    "ledger_total",
    "lock_accounts",
    "open_account",
    "pay_out",
    "pay_stakes",
    "player",
    "pot",
    "split_pot",
    "stake_refusal",
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
    written = [(leg.account, leg.amount) for leg in legs if leg.amount != 0]
    await LedgerRepository(db).add_movement(key, kind, written, at, table_id)


async def balance(db: AsyncSession, account: str) -> int:
    """The balance of a ledger account: the sum of its entries."""
    return await LedgerRepository(db).balance(account)


async def ledger_total(db: AsyncSession) -> int:
    """The sum of every entry of the ledger: 0, always (double entry)."""
    return await LedgerRepository(db).total()


async def is_claimed(db: AsyncSession, account_id: str) -> bool:
    """Whether ``account_id`` has a name: a guest has no taler and stakes nothing."""
    return await AccountRepository(db).name_of(account_id) is not None


async def lock_accounts(db: AsyncSession, account_ids: Iterable[str]) -> None:
    """Take the lock of these accounts' rows (in id order) until the transaction ends.

    Every debit of an account takes its lock before it reads the balance it checks, so two
    debits of one account happen one after the other, the second seeing the first
    (docs/ledger.md, "One balance, one debit at a time").
    """
    await AccountRepository(db).lock(account_ids)


async def open_account(db: AsyncSession, account_id: str, at: datetime) -> None:
    """Give a claimed account its start balance, once (the house pays it); a guest gets none."""
    key = f"opening:{account_id}"
    ledger = LedgerRepository(db)
    if await ledger.has_movement(key) or not await is_claimed(db, account_id):
        return
    # Two first looks at once must not both open it: look again under the account's lock.
    await lock_accounts(db, [account_id])
    if not await ledger.has_movement(key):
        legs = [Leg(HOUSE, -START_BALANCE), Leg(player(account_id), START_BALANCE)]
        await post(db, key, "opening", legs, at)


async def stake_refusal(
    db: AsyncSession, account_id: str, stake: int, at: datetime
) -> ServiceError | None:
    """Why ``account_id`` may not stake ``stake`` now, or ``None`` if she may.

    ``claim_required`` for a guest, ``insufficient_taler`` (naming her own balance: only she is
    told) if her balance is short. The caller holds her lock (:func:`lock_accounts`) when a
    debit follows.
    """
    if stake <= 0:
        return None
    if not await is_claimed(db, account_id):
        return ServiceError(
            "claim_required", "guests play for nothing: claim a name to stake taler"
        )
    await open_account(db, account_id, at)
    have = await balance(db, player(account_id))
    if have < stake:
        return ServiceError(
            "insufficient_taler", f"the stake is {stake} taler and your balance only {have}"
        )
    return None


async def pay_stakes(
    db: AsyncSession, table_id: str, accounts: Sequence[str | None], stake: int, at: datetime
) -> None:
    """The table starts: every person pays ``stake`` into its pot, the house pays for computers.

    Takes every person's lock first, then checks each balance: two starts that want the same
    balance pay one after the other. Refuses with ``insufficient_taler`` naming nobody (writing
    nothing) if a person cannot pay; the lobby checks before, so this is the last guard.
    """
    if stake <= 0:
        return
    people = [account_id for account_id in accounts if account_id is not None]
    await lock_accounts(db, people)
    for account_id in people:
        if await stake_refusal(db, account_id, stake, at) is not None:
            raise ServiceError("insufficient_taler", "a seat cannot pay the stake")
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
        """``{"balance", "claimed", "history"}`` of ``account_id`` (a claimed account is opened on
        its first look; a guest has none: ``claimed`` false, balance 0)."""
        async with self.sessionmaker.begin() as db:
            await open_account(db, account_id, self.clock())
            mine = player(account_id)
            movements = await LedgerRepository(db).movements_of(mine, limit)
            history = [
                {
                    "id": movement.id,
                    "at": as_utc(movement.created_at).isoformat(),
                    "kind": movement.kind,
                    "amount": amount,
                    "table_id": movement.table_id,
                }
                for movement, amount in movements
            ]
            return {
                "balance": await balance(db, mine),
                "claimed": await is_claimed(db, account_id),
                "history": history,
            }

    async def table_pot(self, table_id: str, seats: Mapping[str, int]) -> JSON:
        """The pot of a table as everyone at it may see it: what it holds, and every movement
        in or out of it with all its legs (``seats`` maps account ids to their seats).

        A leg is ``{"who": "seat"/"house"/"pot", "seat", "amount"}``: a person's taler by her seat,
        the house's (it pays for computers and takes remainders), the pot's own.
        """
        async with self.sessionmaker() as db:
            ledger = LedgerRepository(db)
            shown = []
            for movement in await ledger.movements_at_table(table_id):
                legs = await ledger.legs_of(movement.id)
                shown.append(
                    {
                        "kind": movement.kind,
                        "at": as_utc(movement.created_at).isoformat(),
                        "legs": [_leg(entry, seats) for entry in legs],
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
