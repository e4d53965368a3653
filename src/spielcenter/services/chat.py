"""The chat of a table: plain text lines with a length limit and flood limits.

A line is kept exactly as written (after trimming) and is never interpreted: clients show it as
text, never as HTML, so nothing in it can run anywhere. Refusals change nothing:

* ``bad_message``: empty, longer than :data:`MAX_LENGTH`, or holding control characters;
* ``chat_repeated``: the same line as the sender's previous one at this table;
* ``chat_flood``: more than :data:`BURST` lines within :data:`WINDOW`.
"""

from __future__ import annotations

import unicodedata
from datetime import datetime, timedelta

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from spielcenter.games.base import JSON
from spielcenter.store.models import ChatLine
from spielcenter.store.repositories import AccountRepository, ChatRepository

from .common import Clock, ServiceError, as_utc

__all__ = ["BURST", "MAX_LENGTH", "RECENT", "WINDOW", "ChatService", "clean_line"]

MAX_LENGTH = 200
BURST = 3
"""At most this many lines of one person per :data:`WINDOW` at one table."""
WINDOW = timedelta(seconds=10)
RECENT = 50
"""How many lines a ``table.state`` carries."""


def clean_line(text: str) -> str:
    """The line as it will be kept (NFC, trimmed), or ``bad_message`` saying what is wrong."""
    line = unicodedata.normalize("NFC", text).strip()
    if not line:
        raise ServiceError("bad_message", "a chat line needs some text")
    if len(line) > MAX_LENGTH:
        raise ServiceError("bad_message", f"a chat line has at most {MAX_LENGTH} characters")
    if any(unicodedata.category(char) in ("Cc", "Cf") for char in line):
        raise ServiceError("bad_message", "a chat line holds no control characters")
    return line


def _public(line: ChatLine, name: str | None) -> JSON:
    return {
        "id": line.id,
        "seat": line.seat,
        "name": name,
        "text": line.text,
        "at": as_utc(line.created_at).isoformat(),
    }


class ChatService:
    """Writing and reading the chat lines of tables."""

    def __init__(self, sessionmaker: async_sessionmaker[AsyncSession], clock: Clock) -> None:
        self.sessionmaker = sessionmaker
        self.clock = clock

    async def say(self, table_id: str, account_id: str, seat: int, text: str) -> JSON:
        """Keep one line of a seated person; the line as the protocol sends it."""
        line = clean_line(text)
        now = self.clock()
        async with self.sessionmaker.begin() as db:
            chat = ChatRepository(db)
            await self._check_flood(chat, table_id, account_id, line, now)
            row = ChatLine(
                table_id=table_id, account_id=account_id, seat=seat, text=line, created_at=now
            )
            await chat.add(row)
            name = await AccountRepository(db).name_of(account_id)
            return _public(row, name)

    async def _check_flood(
        self, chat: ChatRepository, table_id: str, account_id: str, line: str, now: datetime
    ) -> None:
        if await chat.last_text(table_id, account_id) == line:
            raise ServiceError("chat_repeated", "you have just written that line")
        if await chat.count_since(table_id, account_id, now - WINDOW) >= BURST:
            raise ServiceError(
                "chat_flood", f"at most {BURST} lines in {int(WINDOW.total_seconds())} s"
            )

    async def recent(self, table_id: str, limit: int = RECENT) -> list[JSON]:
        """The last ``limit`` lines of a table, oldest first."""
        async with self.sessionmaker() as db:
            rows = await ChatRepository(db).recent(table_id, limit)
        return [_public(line, name) for line, name in reversed(rows)]
