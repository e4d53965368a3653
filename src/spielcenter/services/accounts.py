"""Accounts: guests at once, claimed with a name and a password, logins and settings.

Names are text and only text, unique in their folded form and written in one script
(``services/names.py``).
"""

from __future__ import annotations

import asyncio
import weakref
from typing import Any

from argon2 import PasswordHasher
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from spielcenter.store.models import Account
from spielcenter.store.repositories import AccountRepository, SessionRepository

from .common import Clock, ServiceError, new_id
from .names import legacy_key, name_key, normalise_name
from .passwords import PasswordHashing
from .sessions import Login, SessionService

PASSWORD_MIN, PASSWORD_MAX = 8, 256
DEFAULT_SETTINGS: dict[str, Any] = {
    "lang": "de",
    "auto_move": True,
    "theme": "system",
    "sounds": True,
}


async def _claimable(accounts: AccountRepository, login: Login, name: str) -> Account:
    """The guest account of ``login``, if it may take ``name``; else why not."""
    account = await accounts.get(login.account_id)
    if account is None:
        raise ServiceError("not_found", "this account no longer exists")
    if account.name is not None:
        raise ServiceError("already_claimed", "this account already has a name")
    if await accounts.by_name_key(name_key(name)) is not None:
        raise ServiceError("name_taken", f"the name {name!r} is taken")
    return account


def check_password(password: str) -> None:
    """Refuse passwords that are too short or absurdly long."""
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise ServiceError(
            "bad_password", f"a password has {PASSWORD_MIN} to {PASSWORD_MAX} characters"
        )


class AccountService:
    """Guests, claiming, logging in and out, and per-account settings."""

    def __init__(
        self,
        sessionmaker: async_sessionmaker[AsyncSession],
        sessions: SessionService,
        clock: Clock,
        hasher: PasswordHasher | None = None,
        hash_workers: int = 2,
    ) -> None:
        self.sessionmaker = sessionmaker
        self.sessions = sessions
        self.clock = clock
        self.passwords = PasswordHashing(hasher or PasswordHasher(), hash_workers)
        # An account's settings are merged one request at a time: the gear saves each switch
        # as it is flipped, and two saves read at once would each write their merge over the
        # other's (a lost update). A lock per account, so that one account's flood of saves
        # keeps nobody else's waiting; it lives while a save holds or awaits it. Across
        # processes (PostgreSQL) the account's row lock does the same.
        self._merging: weakref.WeakValueDictionary[str, asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )

    def close(self) -> None:
        """Stop the password hashing threads."""
        self.passwords.close()

    async def new_guest(self, lang: str = "de") -> tuple[str, Login]:
        """A new guest account with its first session: the cookie token and the login."""
        async with self.sessionmaker.begin() as db:
            account = Account(
                id=new_id(),
                settings={**DEFAULT_SETTINGS, "lang": lang},
                created_at=self.clock(),
            )
            AccountRepository(db).add(account)
            await db.flush()
            return await self.sessions.create(db, account.id)

    async def claim(self, login: Login, raw_name: str, password: str) -> tuple[str, Login]:
        """Turn the guest behind ``login`` into a named account, on a new session.

        Everything that can refuse the claim cheaply is checked before the password is hashed
        (and checked again with the hash in hand: another claim may have come in between). The
        guest's session ends, like the one a login replaces: whoever knew the guest's token or
        CSRF token does not get the named account with it.
        """
        name = normalise_name(raw_name)
        check_password(password)
        async with self.sessionmaker() as db:
            await _claimable(AccountRepository(db), login, name)
        password_hash = await self.passwords.hash(password)
        try:
            async with self.sessionmaker.begin() as db:
                account = await _claimable(AccountRepository(db), login, name)
                account.name, account.name_key = name, name_key(name)
                account.password_hash = password_hash
                await SessionRepository(db).remove(login.session_id)
                return await self.sessions.create(db, account.id)
        except IntegrityError as exc:  # a claim of the same name at the same moment
            raise ServiceError("name_taken", f"the name {name!r} is taken") from exc

    async def login(
        self, raw_name: str, password: str, replacing: Login | None
    ) -> tuple[str, Login]:
        """A new session for the named account; the session it replaces on this device ends."""
        async with self.sessionmaker() as db:
            account = await AccountRepository(db).by_name_keys(
                legacy_key(raw_name), name_key(raw_name)
            )
        stored = account.password_hash if account and account.password_hash else None
        # Verified even for an unknown name, so that both refusals take as long.
        matches = await self.passwords.verify(stored, password)
        if account is None or not matches:
            raise ServiceError("bad_login", "wrong name or password")
        async with self.sessionmaker.begin() as db:
            if replacing is not None:
                await SessionRepository(db).remove(replacing.session_id)
            return await self.sessions.create(db, account.id)

    async def update_settings(self, login: Login, changes: dict[str, Any]) -> dict[str, Any]:
        """Merge already validated ``changes`` into the account's settings; the new settings."""
        merging = self._merging.setdefault(login.account_id, asyncio.Lock())
        async with merging, self.sessionmaker.begin() as db:
            account = await AccountRepository(db).get(login.account_id, for_update=True)
            if account is None:
                raise ServiceError("not_found", "this account no longer exists")
            # A new dict, so SQLAlchemy sees the JSON column change.
            account.settings = {**DEFAULT_SETTINGS, **(account.settings or {}), **changes}
            return dict(account.settings)
