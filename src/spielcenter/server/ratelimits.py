"""Rate limits through ``limits``: login attempts per name and per address, messages per socket.

The counters live in memory (one process); with several processes they move to Redis.
"""

from __future__ import annotations

from limits import RateLimitItem, parse, storage, strategies


class RateLimits:
    """Moving-window limits over one in-memory store; rates in `limits` notation."""

    def __init__(self, login: str = "5/minute", socket_messages: str = "20/second") -> None:
        self.limiter = strategies.MovingWindowRateLimiter(storage.MemoryStorage())
        self.login = parse(login)
        self.socket_messages = parse(socket_messages)

    def allow(self, item: RateLimitItem, *key: str) -> bool:
        """Count one attempt under ``key``; ``False`` if the limit is used up."""
        return self.limiter.hit(item, *key)

    def allow_login(self, name_key: str, address: str) -> bool:
        """Count a login attempt for a name from an address; both limits must allow it."""
        by_name = self.allow(self.login, "login-name", name_key)
        by_address = self.allow(self.login, "login-address", address)
        return by_name and by_address

    def allow_message(self, socket_id: str) -> bool:
        """Count one message of a socket."""
        return self.allow(self.socket_messages, "socket", socket_id)
