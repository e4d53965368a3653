"""Rate limits through ``limits``: login attempts per name and per address, messages per socket.

A socket lives in one process, so its message counter stays in that process's memory. Login
attempts are counted where every process sees them when the processes share a Redis (otherwise
N processes would grant an address N times the attempts); one process counts them in memory.
"""

from __future__ import annotations

from limits import RateLimitItem, parse, storage, strategies
from limits.aio import storage as shared_storage
from limits.aio import strategies as shared_strategies


class RateLimits:
    """Moving-window limits; rates in `limits` notation, ``redis_url`` shares the login limit."""

    def __init__(
        self,
        login: str = "5/minute",
        socket_messages: str = "20/second",
        redis_url: str | None = None,
    ) -> None:
        self.limiter = strategies.MovingWindowRateLimiter(storage.MemoryStorage())
        logins: shared_storage.Storage = (
            shared_storage.RedisStorage(
                "async+" + redis_url, implementation="redispy", key_prefix="spielcenter-limits"
            )
            if redis_url
            else shared_storage.MemoryStorage()
        )
        self.login_limiter = shared_strategies.MovingWindowRateLimiter(logins)
        self.login = parse(login)
        self.socket_messages = parse(socket_messages)

    def allow(self, item: RateLimitItem, *key: str) -> bool:
        """Count one attempt under ``key`` in this process; ``False`` if the limit is used up."""
        return self.limiter.hit(item, *key)

    async def allow_login(self, name_key: str, address: str) -> bool:
        """Count a login attempt for a name from an address; both limits must allow it."""
        by_name = await self.login_limiter.hit(self.login, "login-name", name_key)
        by_address = await self.login_limiter.hit(self.login, "login-address", address)
        return by_name and by_address

    def allow_message(self, socket_id: str) -> bool:
        """Count one message of a socket."""
        return self.allow(self.socket_messages, "socket", socket_id)
