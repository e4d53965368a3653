"""Queries over the tables, one small repository per table family.

Repositories add, find and change rows inside the caller's session; the caller (a service)
decides when to commit, so one service call is one transaction.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import (
    ColumnElement,
    and_,
    bindparam,
    delete,
    exists,
    func,
    insert,
    literal,
    not_,
    null,
    or_,
    select,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession

from .locks import lock_rows
from .models import (
    Account,
    AchievementRecord,
    CampaignRecord,
    ChatLine,
    DailyAttempt,
    GameEntry,
    GameRecord,
    GameReview,
    LedgerEntry,
    LedgerTransaction,
    SeatClock,
    Session,
    TableEntry,
    TableRecord,
    TableResult,
    TableSeat,
    TableSetup,
)


class AccountRepository:
    """Accounts by id and by name."""

    def __init__(self, db: AsyncSession) -> None:
        self.db = db

    async def get(self, account_id: str, *, for_update: bool = False) -> Account | None:
        """The account with this id, if any (``for_update``: its row locked until the
        transaction ends, where the database has row locks: PostgreSQL)."""
        return await self.db.get(Account, account_id, with_for_update=for_update)

    async def by_name_key(self, name_key: str) -> Account | None:
        """The account whose case-folded name is ``name_key``, if any."""
        result = await self.db.execute(select(Account).where(Account.name_key == name_key))
        return result.scalar_one_or_none()

    async def by_name_keys(self, *keys: str) -> Account | None:
        """The account under the first of ``keys`` that one has, if any (one query)."""
        result = await self.db.execute(select(Account).where(Account.name_key.in_(keys)))
        found = {account.name_key: account for account in result.scalars()}
        return next((found[key] for key in keys if key in found), None)

    async def name_of(self, account_id: str) -> str | None:
        """The name of the account (``None`` for a guest, or if there is no such account)."""
        return await self.db.scalar(select(Account.name).where(Account.id == account_id))

    async def names_of(self, account_ids: Iterable[str]) -> dict[str, str | None]:
        """The name of each of these accounts (``None`` for a guest); one query."""
        wanted = list(account_ids)
        if not wanted:
            return {}
        query = select(Account.id, Account.name).where(Account.id.in_(wanted))
        return {account_id: name for account_id, name in (await self.db.execute(query)).all()}

    async def settings_of(self, account_ids: Iterable[str]) -> dict[str, dict[str, Any]]:
        """The settings of each of these accounts (empty where none are stored); one query."""
        query = select(Account.id, Account.settings).where(Account.id.in_(list(account_ids)))
        rows = (await self.db.execute(query)).all()
        return {account_id: settings or {} for account_id, settings in rows}

    async def lock(self, account_ids: Iterable[str]) -> None:
        """Hold these accounts' rows until the transaction ends (:func:`~.locks.lock_rows`)."""
        await lock_rows(self.db, Account, account_ids)

    def add(self, account: Account) -> None:
        """Add a new account to the session."""
        self.db.add(account)


class SessionRepository:
    """Logins, found by the hash of their token."""

    def __init__(self, db: AsyncSession) -> None:
        self.db = db

    async def by_token_hash(self, token_hash: str) -> Session | None:
        """The session whose token hashes to ``token_hash``, if it still exists."""
        result = await self.db.execute(select(Session).where(Session.token_hash == token_hash))
        return result.scalar_one_or_none()

    def add(self, session: Session) -> None:
        """Add a new session."""
        self.db.add(session)

    async def touch(self, session_id: int, at: datetime) -> None:
        """Note that the session was used ``at``."""
        await self.db.execute(
            update(Session).where(Session.id == session_id).values(last_seen_at=at)
        )

    async def remove(self, session_id: int) -> None:
        """End one session."""
        await self.db.execute(delete(Session).where(Session.id == session_id))

    async def remove_all_of(self, account_id: str) -> None:
        """End every session of an account."""
        await self.db.execute(delete(Session).where(Session.account_id == account_id))


class GameRepository:
    """Games and their logs."""

    def __init__(self, db: AsyncSession) -> None:
        self.db = db

    async def get(self, game_id: str) -> GameRecord | None:
        """The game with this id, whoever owns it."""
        return await self.db.get(GameRecord, game_id)

    async def of_account(
        self,
        account_id: str,
        status: str | None = None,
        game: str | None = None,
        limit: int | None = None,
    ) -> Sequence[GameRecord]:
        """An account's games, newest first; only those with ``status`` and of ``game`` if
        given, at most ``limit``."""
        query = select(GameRecord).where(GameRecord.account_id == account_id)
        if status is not None:
            query = query.where(GameRecord.status == status)
        if game is not None:
            query = query.where(GameRecord.game == game)
        query = query.order_by(GameRecord.created_at.desc(), GameRecord.id).limit(limit)
        return (await self.db.execute(query)).scalars().all()

    async def played_of(self, account_id: str, game: str) -> Sequence[GameRecord]:
        """An account's games of one game that have a first move, in the order they began."""
        query = (
            select(GameRecord)
            .where(
                GameRecord.account_id == account_id,
                GameRecord.game == game,
                GameRecord.started_at.is_not(None),
            )
            .order_by(GameRecord.started_at, GameRecord.id)
        )
        return (await self.db.execute(query)).scalars().all()

    async def finished_statuses(self, account_id: str, game: str, besides: str) -> Sequence[str]:
        """The statuses of an account's finished games of one game but ``besides``, the last
        finished first."""
        query = (
            select(GameRecord.status)
            .where(
                GameRecord.account_id == account_id,
                GameRecord.game == game,
                GameRecord.finished_at.is_not(None),
                GameRecord.id != besides,
            )
            .order_by(GameRecord.finished_at.desc(), GameRecord.id.desc())
        )
        return (await self.db.execute(query)).scalars().all()

    async def log_tallies(self, account_id: str) -> Sequence[tuple[str, str, int, datetime]]:
        """For each game of an account and each kind of entry in its log (``move``, ``undo``,
        ``redo``): ``(game_id, kind, how many, when the last was written)``; one query."""
        query = (
            select(GameEntry.game_id, GameEntry.kind, func.count(), func.max(GameEntry.created_at))
            .join(GameRecord, GameRecord.id == GameEntry.game_id)
            .where(GameRecord.account_id == account_id)
            .group_by(GameEntry.game_id, GameEntry.kind)
        )
        rows = (await self.db.execute(query)).all()
        return [(game_id, kind, count, last) for game_id, kind, count, last in rows]

    async def entries(self, game_id: str) -> Sequence[GameEntry]:
        """The log of a game, in order."""
        query = select(GameEntry).where(GameEntry.game_id == game_id).order_by(GameEntry.seq)
        return (await self.db.execute(query)).scalars().all()

    def add(self, game: GameRecord) -> None:
        """Add a new game."""
        self.db.add(game)

    async def append(self, entries: Sequence[tuple[NewEntry, dict[str, Any]]]) -> None:
        """Append accepted entries to their games' logs and update those games' summaries
        (:func:`append_entries`)."""
        await append_entries(self.db, entries)


class NewEntry(NamedTuple):
    """An entry to append to a game's log (a row of ``game_entries``): a plain tuple, since
    the hot path builds one per move and an ORM object costs more than its insert."""

    game_id: str
    seq: int
    kind: str
    move: str | None
    created_at: datetime


async def append_entries(
    db: AsyncSession | AsyncConnection, entries: Sequence[tuple[NewEntry, dict[str, Any]]]
) -> None:
    """Append accepted entries to their games' logs and update those games' summaries.

    Each pair is an entry and the new values of its game's summary columns. Two statements
    for the whole batch (no row is loaded): this runs for every move played, on a session or
    (the group commit of ``services/logwriter.py``) on a bare connection.
    """
    # Core statements on the tables: executemany, no ORM bookkeeping per row.
    tables = GameRecord.metadata.tables
    entries_table, games_table = (
        tables[GameEntry.__tablename__],
        tables[GameRecord.__tablename__],
    )
    await db.execute(insert(entries_table), [entry._asdict() for entry, _ in entries])
    columns = list(entries[0][1])
    await db.execute(
        update(games_table)
        .where(games_table.c.id == bindparam("b_id"))
        .values({column: bindparam(f"b_{column}") for column in columns}),
        [
            {"b_id": entry.game_id, **{f"b_{k}": v for k, v in summary.items()}}
            for entry, summary in entries
        ],
    )


class LedgerRepository:
    """The taler ledger: movements and their legs, balances as sums of legs."""

    def __init__(self, db: AsyncSession) -> None:
        self.db = db

    async def add_movement(
        self,
        key: str,
        kind: str,
        legs: Sequence[tuple[str, int]],
        at: datetime,
        table_id: str | None = None,
    ) -> None:
        """Write one movement and its legs ``(ledger account, amount)``; checked by the caller."""
        movement = LedgerTransaction(key=key, kind=kind, table_id=table_id, created_at=at)
        self.db.add(movement)
        await self.db.flush()  # the movement's id first: the legs refer to it
        self.db.add_all(
            LedgerEntry(transaction_id=movement.id, account=account, amount=amount)
            for account, amount in legs
        )
        await self.db.flush()

    async def has_movement(self, key: str) -> bool:
        """Whether the movement with this unique key was written."""
        query = select(LedgerTransaction.id).where(LedgerTransaction.key == key)
        return await self.db.scalar(query) is not None

    async def balance(self, account: str) -> int:
        """The sum of the entries of one ledger account."""
        total = await self.db.scalar(
            select(func.coalesce(func.sum(LedgerEntry.amount), 0)).where(
                LedgerEntry.account == account
            )
        )
        return int(total or 0)

    async def total(self) -> int:
        """The sum of every entry of the ledger."""
        total = await self.db.scalar(select(func.coalesce(func.sum(LedgerEntry.amount), 0)))
        return int(total or 0)

    async def movements_of(
        self, account: str, limit: int
    ) -> Sequence[tuple[LedgerTransaction, int]]:
        """The newest ``limit`` movements touching one ledger account, with its leg's amount."""
        rows = await self.db.execute(
            select(LedgerTransaction, LedgerEntry.amount)
            .join(LedgerEntry, LedgerEntry.transaction_id == LedgerTransaction.id)
            .where(LedgerEntry.account == account)
            .order_by(LedgerTransaction.id.desc())
            .limit(limit)
        )
        return [(movement, amount) for movement, amount in rows.all()]

    async def movements_at_table(self, table_id: str) -> Sequence[LedgerTransaction]:
        """The movements of one table (stake, payout), in order."""
        query = (
            select(LedgerTransaction)
            .where(LedgerTransaction.table_id == table_id)
            .order_by(LedgerTransaction.id)
        )
        return (await self.db.execute(query)).scalars().all()

    async def legs_of(self, movement_id: int) -> Sequence[LedgerEntry]:
        """The legs of one movement, in order."""
        query = (
            select(LedgerEntry)
            .where(LedgerEntry.transaction_id == movement_id)
            .order_by(LedgerEntry.id)
        )
        return (await self.db.execute(query)).scalars().all()


class CampaignRepository:
    """Each account's campaign: where it stands and its best run."""

    def __init__(self, db: AsyncSession) -> None:
        self.db = db

    async def get(self, account_id: str) -> CampaignRecord | None:
        """The account's campaign, if it has one."""
        return await self.db.get(CampaignRecord, account_id)

    def add(self, campaign: CampaignRecord) -> None:
        """Add a new campaign."""
        self.db.add(campaign)

    async def best_runs(self) -> Sequence[tuple[CampaignRecord, str | None]]:
        """Every campaign with a stage cleared, of a claimed account, with the account's name."""
        query = (
            select(CampaignRecord, Account.name)
            .join(Account, Account.id == CampaignRecord.account_id)
            .where(CampaignRecord.best_stage > 0, Account.name.is_not(None))
        )
        return [(campaign, name) for campaign, name in (await self.db.execute(query)).all()]


class DailyRepository:
    """The attempts at the daily quilt, one per daily game."""

    def __init__(self, db: AsyncSession) -> None:
        self.db = db

    async def get(self, game_id: str) -> DailyAttempt | None:
        """The attempt played as this game, if it is one."""
        return await self.db.get(DailyAttempt, game_id)

    async def attempts_of(self, account_id: str, day: str) -> Sequence[DailyAttempt]:
        """An account's attempts of one day, in the order they began."""
        query = (
            select(DailyAttempt)
            .where(DailyAttempt.account_id == account_id, DailyAttempt.day == day)
            .order_by(DailyAttempt.created_at, DailyAttempt.game_id)
        )
        return (await self.db.execute(query)).scalars().all()

    def add(self, attempt: DailyAttempt) -> None:
        """Add a new attempt (its game row must be written first)."""
        self.db.add(attempt)

    async def ranked_results(self, day: str) -> Sequence[tuple[DailyAttempt, str | None]]:
        """The finished ranked attempts of one day of claimed accounts, with their names."""
        query = (
            select(DailyAttempt, Account.name)
            .join(Account, Account.id == DailyAttempt.account_id)
            .where(
                DailyAttempt.day == day,
                DailyAttempt.ranked.is_(True),
                DailyAttempt.finished_at.is_not(None),
                Account.name.is_not(None),
            )
        )
        return [(attempt, name) for attempt, name in (await self.db.execute(query)).all()]


class TableResultRepository:
    """Each seat's result of each finished table."""

    def __init__(self, db: AsyncSession) -> None:
        self.db = db

    def add(self, result: TableResult) -> None:
        """Add one seat's result."""
        self.db.add(result)

    async def of_account(self, account_id: str) -> Sequence[TableResult]:
        """The account's results, the last finished first."""
        query = (
            select(TableResult)
            .where(TableResult.account_id == account_id)
            .order_by(TableResult.finished_at.desc())
        )
        return (await self.db.execute(query)).scalars().all()

    async def points_by_account(
        self, since: datetime | None
    ) -> Sequence[tuple[str, str | None, int, int]]:
        """For each claimed account: ``(account id, name, leaderboard points, tables)`` of its
        ranked results finished ``since`` (every one if ``None``)."""
        query = (
            select(
                TableResult.account_id,
                Account.name,
                func.sum(TableResult.leaderboard_points),
                func.count(),
            )
            .join(Account, Account.id == TableResult.account_id)
            .where(Account.name.is_not(None))
            .where(TableResult.ranked.is_(True))  # never a chosen, rehearsable deal
            .group_by(TableResult.account_id, Account.name)
        )
        if since is not None:
            query = query.where(TableResult.finished_at >= since)
        rows = (await self.db.execute(query)).all()
        return [(account_id, name, points, tables) for account_id, name, points, tables in rows]


class AchievementRepository:
    """The achievements each account was awarded."""

    def __init__(self, db: AsyncSession) -> None:
        self.db = db

    async def of_account(self, account_id: str) -> Sequence[AchievementRecord]:
        """The achievements the account has."""
        query = select(AchievementRecord).where(AchievementRecord.account_id == account_id)
        return (await self.db.execute(query)).scalars().all()

    async def keys_of(self, account_id: str) -> set[str]:
        """The keys of the achievements the account has."""
        query = select(AchievementRecord.key).where(AchievementRecord.account_id == account_id)
        return set((await self.db.execute(query)).scalars().all())

    def add(self, achievement: AchievementRecord) -> None:
        """Award one achievement."""
        self.db.add(achievement)


class NewTableEntry(NamedTuple):
    """A decision to append to a table's log (a row of ``table_entries``), with the seat clocks
    it started or stopped (``SeatClockValues``): written by the log writer's batches beside
    the patience entries (services/logwriter.py)."""

    table_id: str
    seq: int
    seat: int
    move: str
    created_at: datetime
    by_stand_in: bool
    clocks: tuple[SeatClockValues, ...] = ()


class SeatClockValues(NamedTuple):
    """The new values of one seat's clock row (``table_seat_clocks``)."""

    table_id: str
    seat: int
    kind: str | None
    deadline: datetime | None
    away: str | None
    disconnected_at: datetime | None


TABLE_ENTRY_COLUMNS = ("table_id", "seq", "seat", "move", "created_at", "by_stand_in")
CLOCK_COLUMNS = ("kind", "deadline", "away", "disconnected_at")


async def append_table_entries(
    db: AsyncSession | AsyncConnection, entries: Sequence[NewTableEntry]
) -> None:
    """Append tables' decisions to their logs, note each table's last seq and write the seat
    clocks they changed: Core statements for the whole batch, as :func:`append_entries`."""
    tables = TableRecord.metadata.tables
    entries_table = tables[TableEntry.__tablename__]
    tables_table = tables[TableRecord.__tablename__]
    clocks_table = tables[SeatClock.__tablename__]
    await db.execute(
        insert(entries_table),
        [{c: getattr(entry, c) for c in TABLE_ENTRY_COLUMNS} for entry in entries],
    )
    await db.execute(
        update(tables_table)
        .where(tables_table.c.id == bindparam("b_id"))
        .values(last_seq=bindparam("b_seq")),
        [{"b_id": entry.table_id, "b_seq": entry.seq} for entry in entries],
    )
    clocks = [clock for entry in entries for clock in entry.clocks]
    if clocks:
        await db.execute(
            update(clocks_table)
            .where(
                clocks_table.c.table_id == bindparam("b_table"),
                clocks_table.c.seat == bindparam("b_seat"),
            )
            .values({c: bindparam(f"b_{c}") for c in CLOCK_COLUMNS}),
            [
                {
                    "b_table": clock.table_id,
                    "b_seat": clock.seat,
                    **{f"b_{c}": getattr(clock, c) for c in CLOCK_COLUMNS},
                }
                for clock in clocks
            ],
        )


class TableRepository:
    """A stored table as it was dealt and played: its row, its seats, its setup and seat clocks
    (a lobby table), its log."""

    def __init__(self, db: AsyncSession) -> None:
        self.db = db

    async def get(self, table_id: str) -> TableRecord | None:
        """The table with this id, if any."""
        return await self.db.get(TableRecord, table_id)

    async def setup_of(self, table_id: str) -> TableSetup | None:
        """The setup of a lobby table (``None`` for a table without a lobby)."""
        return await self.db.get(TableSetup, table_id)

    async def seats_of(self, table_id: str) -> Sequence[TableSeat]:
        """Who sits at each seat of the table, in seat order."""
        query = select(TableSeat).where(TableSeat.table_id == table_id).order_by(TableSeat.seat)
        return (await self.db.execute(query)).scalars().all()

    async def clocks_of(self, table_id: str) -> Sequence[SeatClock]:
        """The seat clocks of a started lobby table (one per person's seat)."""
        query = select(SeatClock).where(SeatClock.table_id == table_id)
        return (await self.db.execute(query)).scalars().all()

    async def entries(self, table_id: str) -> Sequence[TableEntry]:
        """The table's log, in order."""
        query = select(TableEntry).where(TableEntry.table_id == table_id).order_by(TableEntry.seq)
        return (await self.db.execute(query)).scalars().all()

    async def log_of(self, table_id: str) -> list[tuple[int, str]]:
        """The table's log as ``(seat, move)`` pairs, in order."""
        query = (
            select(TableEntry.seat, TableEntry.move)
            .where(TableEntry.table_id == table_id)
            .order_by(TableEntry.seq)
        )
        return [(seat, move) for seat, move in await self.db.execute(query)]

    async def ids_with_status(self, status: str) -> list[str]:
        """The ids of the tables with ``status``, oldest first."""
        query = (
            select(TableRecord.id)
            .where(TableRecord.status == status)
            .order_by(TableRecord.created_at)
        )
        return list((await self.db.execute(query)).scalars())

    async def ids_of_account(self, account_id: str, status: str | None) -> list[str]:
        """The ids of the tables ``account_id`` sits at (only those with ``status`` if given),
        newest first."""
        query = (
            select(TableRecord.id)
            .join(TableSeat, TableSeat.table_id == TableRecord.id)
            .where(TableSeat.account_id == account_id)
            .order_by(TableRecord.created_at.desc(), TableRecord.id)
        )
        if status is not None:
            query = query.where(TableRecord.status == status)
        return list((await self.db.execute(query)).scalars())

    async def of_account_with_status(self, account_id: str, status: str) -> Sequence[TableRecord]:
        """The tables with ``status`` that ``account_id`` sits at, newest first."""
        query = (
            select(TableRecord)
            .join(TableSeat, TableSeat.table_id == TableRecord.id)
            .where(TableSeat.account_id == account_id, TableRecord.status == status)
            .order_by(TableRecord.created_at.desc())
        )
        return (await self.db.execute(query)).scalars().all()

    async def seat_counts(self, table_ids: Sequence[str]) -> dict[str, int]:
        """How many seats each of these tables has."""
        query = (
            select(TableSeat.table_id, func.count())
            .where(TableSeat.table_id.in_(table_ids))
            .group_by(TableSeat.table_id)
        )
        return {table: count for table, count in (await self.db.execute(query)).all()}

    async def last_entry_at(self, table_ids: Sequence[str]) -> dict[str, datetime]:
        """When the last entry of each of these tables was written (tables with one)."""
        query = (
            select(TableEntry.table_id, func.max(TableEntry.created_at))
            .where(TableEntry.table_id.in_(table_ids))
            .group_by(TableEntry.table_id)
        )
        return {table: at for table, at in (await self.db.execute(query)).all()}

    async def lock(self, table_ids: Iterable[str]) -> None:
        """Hold these tables' rows until the transaction ends (:func:`~.locks.lock_rows`)."""
        await lock_rows(self.db, TableRecord, table_ids)

    def add(self, row: TableRecord) -> None:
        """Add a new table (flush before adding the rows that refer to it)."""
        self.db.add(row)

    def add_all(self, rows: Iterable[TableSeat | TableSetup | SeatClock]) -> None:
        """Add the seats, setup or seat clocks of a table."""
        self.db.add_all(rows)

    async def flush(self) -> None:
        """Write what was added so far (rows that refer to it come next)."""
        await self.db.flush()

    async def set_status(self, table_ids: Sequence[str], status: str) -> None:
        """Give these tables ``status``."""
        query = update(TableRecord).where(TableRecord.id.in_(table_ids)).values(status=status)
        await self.db.execute(query)

    async def finish(self, table_id: str, status: str, result: Any, at: datetime) -> None:
        """Close a table with its end data."""
        await self.db.execute(
            update(TableRecord)
            .where(TableRecord.id == table_id)
            .values(status=status, result=result, finished_at=at)
        )

    async def append(self, entry: TableEntry) -> None:
        """Append an accepted entry to its table's log and note its seq in the summary."""
        self.db.add(entry)
        await self.db.execute(
            update(TableRecord).where(TableRecord.id == entry.table_id).values(last_seq=entry.seq)
        )

    async def write_clocks(self, table_id: str, clocks: Sequence[SeatClock]) -> None:
        """Store the seat clocks and presence of these seats as given."""
        for clock in clocks:
            await self.db.execute(
                update(SeatClock)
                .where(SeatClock.table_id == table_id, SeatClock.seat == clock.seat)
                .values(
                    kind=clock.kind,
                    deadline=clock.deadline,
                    away=clock.away,
                    disconnected_at=clock.disconnected_at,
                )
            )

    # -- the lobby ------------------------------------------------------------------------------

    async def waiting_public(self, waiting: str) -> list[str]:
        """The public tables with status ``waiting`` that every seated person can still pay,
        oldest first."""
        result = await self.db.execute(
            select(TableRecord.id)
            .join(TableSetup, TableSetup.table_id == TableRecord.id)
            .where(
                TableRecord.status == waiting,
                TableSetup.private.is_(False),
                not_(_cannot_start()),
            )
            .order_by(TableRecord.created_at, TableRecord.id)
        )
        return list(result.scalars())

    async def by_invite(self, code: str) -> str | None:
        """The table of an invitation code, if any."""
        return await self.db.scalar(select(TableSetup.table_id).where(TableSetup.invite == code))

    async def cannot_start(self, table_id: str) -> bool:
        """Whether a seated person of this staked table can no longer pay its stake."""
        query = (
            select(_cannot_start())
            .select_from(TableRecord)
            .join(TableSetup, TableSetup.table_id == TableRecord.id)
            .where(TableRecord.id == table_id)
        )
        return bool(await self.db.scalar(query))

    async def take_seat(self, table_id: str, seat: int, account_id: str) -> bool:
        """Sit ``account_id`` at ``seat`` if it is still free; whether it was."""
        taken = await self.db.execute(
            update(TableSeat)
            .where(
                TableSeat.table_id == table_id,
                TableSeat.seat == seat,
                TableSeat.account_id.is_(None),
                TableSeat.level.is_(None),
            )
            .values(account_id=account_id)
        )
        return bool(taken.rowcount == 1)  # type: ignore[attr-defined]

    async def vacate(self, table_id: str, account_id: str) -> None:
        """Free the seat of ``account_id`` at this table."""
        await self.db.execute(
            update(TableSeat)
            .where(TableSeat.table_id == table_id, TableSeat.account_id == account_id)
            .values(account_id=None)
        )

    async def unpayable_of(self, payers: Sequence[str], besides: str, waiting: str) -> list[str]:
        """The waiting tables (but ``besides``) of ``payers`` that one seated person can no
        longer pay, each held until the transaction ends; a table another transaction holds is
        skipped, not waited for."""
        theirs = select(TableSeat.table_id).where(TableSeat.account_id.in_(payers))
        found = await self.db.execute(
            select(TableRecord.id)
            .join(TableSetup, TableSetup.table_id == TableRecord.id)
            .where(
                TableRecord.status == waiting,
                TableRecord.id != besides,
                TableRecord.id.in_(theirs),
                _cannot_start(),
            )
            .with_for_update(of=TableRecord, skip_locked=True)
        )
        return list(found.scalars())


def _cannot_start() -> ColumnElement[bool]:
    """A waiting table (joined with its setup) with a stake that a seated person can no longer
    pay: a guest (no taler), or a balance below the stake."""
    balance = (
        select(func.coalesce(func.sum(LedgerEntry.amount), 0))
        .where(LedgerEntry.account == literal("player:") + TableSeat.account_id)
        .scalar_subquery()
    )
    guest = exists().where(Account.id == TableSeat.account_id, Account.name.is_(None))
    short = exists().where(
        TableSeat.table_id == TableRecord.id,
        TableSeat.account_id.is_not(None),
        or_(guest, balance < TableSetup.stake),
    )
    return (TableSetup.stake > 0) & short


class ChatRepository:
    """The chat lines of tables."""

    def __init__(self, db: AsyncSession) -> None:
        self.db = db

    async def add(self, line: ChatLine) -> None:
        """Keep a new line (its id is set once this returns)."""
        self.db.add(line)
        await self.db.flush()

    async def last_text(self, table_id: str, account_id: str) -> str | None:
        """The text of the account's last line at this table, if any."""
        query = (
            select(ChatLine.text)
            .where(_lines_of(table_id, account_id))
            .order_by(ChatLine.id.desc())
            .limit(1)
        )
        return await self.db.scalar(query)

    async def count_since(self, table_id: str, account_id: str, since: datetime) -> int:
        """How many lines the account wrote at this table after ``since``."""
        query = (
            select(func.count())
            .select_from(ChatLine)
            .where(_lines_of(table_id, account_id), ChatLine.created_at > since)
        )
        return int(await self.db.scalar(query) or 0)

    async def recent(self, table_id: str, limit: int) -> list[tuple[ChatLine, str | None]]:
        """The last ``limit`` lines of a table with their writers' names, newest first."""
        rows = await self.db.execute(
            select(ChatLine, Account.name)
            .join(Account, Account.id == ChatLine.account_id)
            .where(ChatLine.table_id == table_id)
            .order_by(ChatLine.id.desc())
            .limit(limit)
        )
        return [(line, name) for line, name in rows.all()]


def _lines_of(table_id: str, account_id: str) -> ColumnElement[bool]:
    return (ChatLine.table_id == table_id) & (ChatLine.account_id == account_id)


class ReviewRepository:
    """Finished game reviews, and the claims of the processes computing them (docs/progress.md,
    "Game review"): a review is claimed by one process at a time, insert-or-nothing, so of two
    processes that ask at once exactly one computes it."""

    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"

    def __init__(self, db: AsyncSession) -> None:
        self.db = db

    async def get(self, kind: str, subject_id: str, seat: int) -> GameReview | None:
        """The review (or the claim) of this seat of the table or game, if any."""
        return await self.db.get(GameReview, (kind, subject_id, seat))

    async def claim(
        self,
        kind: str,
        subject_id: str,
        seat: int,
        *,
        version: int,
        owner: str,
        at: datetime,
        stale_before: datetime,
    ) -> bool:
        """Claim computing this review for ``owner``; whether it is ours now.

        A new claim is inserted or nothing (the primary key decides between racing processes).
        An existing row is taken over only if nobody is computing it: it failed, it is of another
        ``version`` of the review's rules, or its claim is older than ``stale_before`` (its
        process is gone). The condition is part of the update, so PostgreSQL checks it again on
        the row a concurrent taker committed, and SQLite has one writer anyway.
        """
        claim = {
            "kind": kind,
            "subject_id": subject_id,
            "seat": seat,
            "version": version,
            "state": self.RUNNING,
            "owner": owner,
            "claimed_at": at,
        }
        dialect = postgresql if self.db.get_bind().dialect.name == "postgresql" else sqlite
        inserted = await self.db.execute(
            dialect.insert(GameReview).values(claim).on_conflict_do_nothing()
        )
        if inserted.rowcount == 1:  # type: ignore[attr-defined]
            return True
        taken = await self.db.execute(
            update(GameReview)
            .where(
                _review_key(kind, subject_id, seat),
                or_(
                    GameReview.state == self.FAILED,
                    GameReview.version != version,
                    and_(GameReview.state == self.RUNNING, GameReview.claimed_at < stale_before),
                ),
            )
            .values({**claim, "review": null(), "failure": None, "finished_at": None})
            .execution_options(synchronize_session=False)
        )
        return bool(taken.rowcount == 1)  # type: ignore[attr-defined]

    async def finish(
        self,
        kind: str,
        subject_id: str,
        seat: int,
        *,
        owner: str,
        at: datetime,
        review: dict[str, Any] | None = None,
        failure: str | None = None,
    ) -> bool:
        """Store the ``review`` computed under ``owner``'s claim (or its ``failure``); whether
        the claim was still ``owner``'s (a claim taken over is left to its new owner)."""
        done = await self.db.execute(
            update(GameReview)
            .where(
                _review_key(kind, subject_id, seat),
                GameReview.owner == owner,
                GameReview.state == self.RUNNING,
            )
            .values(
                state=self.FAILED if failure is not None else self.DONE,
                review=review if review is not None else null(),
                failure=failure,
                finished_at=at,
            )
            .execution_options(synchronize_session=False)
        )
        return bool(done.rowcount == 1)  # type: ignore[attr-defined]


def _review_key(kind: str, subject_id: str, seat: int) -> ColumnElement[bool]:
    return and_(
        GameReview.kind == kind, GameReview.subject_id == subject_id, GameReview.seat == seat
    )
