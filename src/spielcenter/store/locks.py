"""Row locks that mean the same on PostgreSQL and SQLite (docs/ledger.md, "One balance, one
debit at a time").

A check that decides a write (does the balance cover the stake? is the table still waiting?)
must read under a lock that every other such write takes too, or two transactions both read
the old value and both write. :func:`lock_rows` is that lock, held until the transaction ends.
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from .models import Account, TableRecord

__all__ = ["lock_rows"]


async def lock_rows(
    db: AsyncSession, model: type[Account] | type[TableRecord], ids: Iterable[str]
) -> None:
    """Hold the rows of ``model`` with these ids until the caller's transaction ends.

    PostgreSQL: ``SELECT … ORDER BY id FOR UPDATE`` — the rows are taken in id order, so two
    transactions that want some of the same rows take them in the same order and never wait for
    each other in a circle. A second transaction asking for a held row waits for the first to
    end, then reads what it committed.

    SQLite has no row locks but one writer at a time: a transaction is the writer from its first
    write to its end, and what it reads after that first write nobody else can change. A write
    that changes nothing (``created_at = created_at``) makes this transaction the writer now,
    before it reads what it will decide on (a later writer waits for it: ``busy_timeout``).
    """
    wanted = sorted(set(ids))
    if not wanted:
        return
    if db.get_bind().dialect.name == "sqlite":
        await db.execute(
            update(model)
            .where(model.id.in_(wanted))
            .values(created_at=model.created_at)
            .execution_options(synchronize_session=False)
        )
        return
    await db.execute(
        select(model.id).where(model.id.in_(wanted)).order_by(model.id).with_for_update()
    )
