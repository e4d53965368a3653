"""Rate limits: attempts at the doors (logins, claims, new guests, game reviews) and messages
per account.

Attempts at the doors go through ``limits`` (moving windows), counted where every process sees
them when the processes share a Redis (otherwise N processes would grant an address N times the
attempts); one process counts them in memory. They are rare (a person logs in once a month),
so a Redis round trip each costs nothing that matters.

Messages are counted per account, over all its sockets together, by :class:`MessageBudget`: a
token bucket in the memory of the process holding the sockets. A message is the hot path (700
players send several a second), so the check is a dict lookup and a little arithmetic; the
``limits`` memory storage cost too much of the server's time at 700 players (issue 40: a lock,
a list per key and a timer thread expiring keys; measured in docs/server.md, "WebSocket").
Not sharing it through Redis is deliberate: a round trip per message would cost more than the
flood it stops, and the budget protects the process that does the work (an account's sockets on
P processes get at most P budgets, each process at most one).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from limits import RateLimitItem, parse
from limits.aio import storage as shared_storage
from limits.aio import strategies as shared_strategies

SWEEP_EVERY = 1024
"""Messages between two sweeps of :class:`MessageBudget`'s idle buckets."""


@dataclass
class _Bucket:
    tokens: float
    stamp: float


class MessageBudget:
    """A token bucket per account: ``rate.amount`` messages at once, refilled evenly over
    ``rate``'s period (``20/second``: a burst of 20, then 20 a second)."""

    def __init__(self, rate: RateLimitItem, clock: Callable[[], float] = time.monotonic) -> None:
        self.capacity = float(rate.amount)
        self.per_second = rate.amount / rate.get_expiry()
        self.clock = clock
        self.buckets: dict[str, _Bucket] = {}
        self.until_sweep = SWEEP_EVERY

    def allow(self, account_id: str) -> bool:
        """Take one message from the account's budget; ``False`` if it is used up."""
        now = self.clock()
        bucket = self.buckets.get(account_id)
        if bucket is None:
            bucket = self.buckets[account_id] = _Bucket(self.capacity, now)
        else:
            refill = (now - bucket.stamp) * self.per_second
            bucket.tokens, bucket.stamp = min(self.capacity, bucket.tokens + refill), now
        self.until_sweep -= 1
        if self.until_sweep <= 0:
            self._sweep(now)
        if bucket.tokens < 1:
            return False
        bucket.tokens -= 1
        return True

    def _sweep(self, now: float) -> None:
        # A bucket that has refilled to the brim is the same as none: dropping it changes no
        # answer and keeps memory to the accounts that sent something lately.
        self.until_sweep = SWEEP_EVERY
        full = [
            account
            for account, bucket in self.buckets.items()
            if bucket.tokens + (now - bucket.stamp) * self.per_second >= self.capacity
        ]
        for account in full:
            del self.buckets[account]


class RateLimits:
    """The limits of one process: rates in `limits` notation, ``redis_url`` shares the doors'."""

    def __init__(
        self,
        login: str = "5/minute",
        socket_messages: str = "20/second",
        redis_url: str | None = None,
        claim: str = "5/minute",
        guests: str = "60/hour",
        reviews: str = "10/minute",
    ) -> None:
        doors: shared_storage.Storage = (
            shared_storage.RedisStorage(
                "async+" + redis_url, implementation="redispy", key_prefix="spielcenter-limits"
            )
            if redis_url
            else shared_storage.MemoryStorage()
        )
        self.doors = shared_strategies.MovingWindowRateLimiter(doors)
        self.login = parse(login)
        self.claim = parse(claim)
        self.guests = parse(guests)
        self.reviews = parse(reviews)
        self.messages = MessageBudget(parse(socket_messages))

    async def allow_login(self, name_key: str, address: str) -> bool:
        """Count a login attempt for a name from an address; both limits must allow it."""
        return await self._by_name_and_address(self.login, "login", name_key, address)

    async def allow_claim(self, name_key: str, address: str) -> bool:
        """Count a claim of a name from an address, like a login: each may hash a password."""
        return await self._by_name_and_address(self.claim, "claim", name_key, address)

    async def allow_guest(self, address: str) -> bool:
        """Count a new guest account from an address."""
        return await self.doors.hit(self.guests, "guest-address", address)

    async def allow_review(self, account_id: str) -> bool:
        """Count a game review an account starts (a stored one is not started, so not counted)."""
        return await self.doors.hit(self.reviews, "review-account", account_id)

    async def _by_name_and_address(
        self, rate: RateLimitItem, door: str, name_key: str, address: str
    ) -> bool:
        by_name = await self.doors.hit(rate, f"{door}-name", name_key)
        by_address = await self.doors.hit(rate, f"{door}-address", address)
        return by_name and by_address

    def allow_message(self, account_id: str) -> bool:
        """Count one message of an account (whichever of its sockets sent it)."""
        return self.messages.allow(account_id)
