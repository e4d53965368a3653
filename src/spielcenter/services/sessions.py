"""Server-side sessions: a random token in the cookie, a keyed hash of it in the database.

A stolen database therefore holds no usable token, and ending a session is deleting its row.

A session ends on the server, whatever the cookie says, when it has not been used for ``idle``
(30 days by default) or is older than ``lifetime`` (400 days, the longest a browser keeps a
cookie): a token copied from a device one stopped using does not work for ever. Its last use is
written at most once per :data:`TOUCH_EVERY`, not on every request, so the idle time is exact to
that hour.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from spielcenter.store.models import Account, Session
from spielcenter.store.repositories import AccountRepository, SessionRepository

from .common import Clock, as_utc

TOUCH_EVERY = timedelta(hours=1)
"""How stale a session's ``last_seen_at`` may get before a request writes it anew."""


@dataclass(frozen=True)
class Login:
    """A live session and its account, as the server needs them per request."""

    session_id: int
    account_id: str
    csrf: str


class SessionService:
    """Creates, resolves and ends sessions."""

    def __init__(
        self,
        sessionmaker: async_sessionmaker[AsyncSession],
        secret_key: str,
        clock: Clock,
        idle: timedelta = timedelta(days=30),
        lifetime: timedelta = timedelta(days=400),
    ) -> None:
        self.sessionmaker = sessionmaker
        self.secret = secret_key.encode()
        self.clock = clock
        self.idle = idle
        self.lifetime = lifetime

    def hash_token(self, token: str) -> str:
        """The keyed hash stored for ``token``."""
        return hmac.new(self.secret, token.encode(), hashlib.sha256).hexdigest()

    async def create(self, db: AsyncSession, account_id: str) -> tuple[str, Login]:
        """A new session for an account (inside the caller's transaction): token and login."""
        token = secrets.token_urlsafe(32)
        now = self.clock()
        row = Session(
            account_id=account_id,
            token_hash=self.hash_token(token),
            csrf=secrets.token_urlsafe(32),
            created_at=now,
            last_seen_at=now,
        )
        SessionRepository(db).add(row)
        await db.flush()
        return token, Login(row.id, account_id, row.csrf)

    async def resolve(self, token: str | None) -> Login | None:
        """The login behind a cookie's token, or ``None`` if it is unknown or ended."""
        if not token or len(token) > 128:
            return None
        async with self.sessionmaker() as db:
            row = await SessionRepository(db).by_token_hash(self.hash_token(token))
        if row is None:
            return None
        now = self.clock()
        last_seen = as_utc(row.last_seen_at)
        if self._expired(as_utc(row.created_at), last_seen, now):
            async with self.sessionmaker.begin() as db:
                await SessionRepository(db).remove(row.id)
            return None
        if now - last_seen >= TOUCH_EVERY:
            async with self.sessionmaker.begin() as db:
                await SessionRepository(db).touch(row.id, now)
        return Login(row.id, row.account_id, row.csrf)

    def _expired(self, created: datetime, last_seen: datetime, now: datetime) -> bool:
        return now - last_seen >= self.idle or now - created >= self.lifetime

    async def end(self, login: Login) -> None:
        """End this one session."""
        async with self.sessionmaker.begin() as db:
            await SessionRepository(db).remove(login.session_id)

    async def end_all(self, account_id: str) -> None:
        """End every session of the account (logout everywhere)."""
        async with self.sessionmaker.begin() as db:
            await SessionRepository(db).remove_all_of(account_id)

    async def account(self, login: Login) -> Account:
        """The account of a login."""
        async with self.sessionmaker() as db:
            account = await AccountRepository(db).get(login.account_id)
            if account is None:  # the session row cascades with its account
                raise LookupError(f"account {login.account_id} is gone")
            return account
