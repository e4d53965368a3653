"""The game review of a stored Speedquilt table (issue 42): her decisions against the strong player.

The review itself is pure (:mod:`spielcenter.bots.review`); this reads a finished table's log
from the store and runs it off the event loop. A table that is not over is refused: a review
never shows anything of a running game.
"""

from __future__ import annotations

import asyncio

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from spielcenter.bots.review import ReviewError, review
from spielcenter.games.base import JSON, Seat
from spielcenter.store.repositories import TableRepository

from .common import ServiceError
from .fairness import dealt_from
from .history import table_engine

__all__ = ["review_stored_table"]

FINISHED = "finished"


async def review_stored_table(
    sessionmaker: async_sessionmaker[AsyncSession], table_id: str, seat: Seat
) -> JSON:
    """The review of ``seat``'s decisions at the finished table ``table_id``."""
    async with sessionmaker() as db:
        tables = TableRepository(db)
        row = await tables.get(table_id)
        if row is None:
            raise ServiceError("not_found", f"no table {table_id!r}")
        log = await tables.log_of(table_id)
    engine = table_engine(row)
    if engine is None:
        raise ServiceError("bad_request", f"table {table_id!r} cannot be replayed here")
    if row.status != FINISHED:
        raise ServiceError("not_over", "the game is not over: a review comes only after the end")
    try:
        reviewed = await asyncio.to_thread(review, engine, dealt_from(row), log, seat)
    except ReviewError as refusal:
        raise ServiceError("bad_request", str(refusal)) from None
    return {"table": table_id, **reviewed.to_json(engine)}
