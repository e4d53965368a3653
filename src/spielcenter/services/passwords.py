"""Password hashing (argon2) on a small pool of its own threads, behind a semaphore.

argon2 costs about 125 ms of CPU and 64 MiB per call, by design. On the event loop's default
executor a flood of claims or logins would take every thread the hints and the computer players
search on (issue 37; measured in docs/server.md, "Accounts and sessions"). So hashing
has ``workers`` threads of its own, and never more than that many hashes run at once.

The semaphore comes before the pool on purpose: a request waits for its turn in asyncio, where a
client that gave up leaves the queue; a job queued inside the executor would still be hashed
after its request is gone.
"""

from __future__ import annotations

import asyncio
import functools
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

THREAD_PREFIX = "spielcenter-password"
_T = TypeVar("_T")


class PasswordHashing:
    """Hash and verify passwords, at most ``workers`` at once, off the default executor."""

    def __init__(self, hasher: PasswordHasher, workers: int) -> None:
        self.hasher = hasher
        self.pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix=THREAD_PREFIX)
        self.turns = asyncio.Semaphore(workers)

    @functools.cached_property
    def _dummy_hash(self) -> str:
        # Verifying against this hash when a name is unknown keeps both answers equally slow.
        return self.hasher.hash("not-a-real-password")

    async def hash(self, password: str) -> str:
        """The argon2 hash of ``password``."""
        return await self._run(functools.partial(self.hasher.hash, password))

    async def verify(self, password_hash: str | None, password: str) -> bool:
        """Whether ``password`` matches ``password_hash``; without a hash it takes as long and
        is ``False``."""
        return await self._run(functools.partial(self._verify, password_hash, password))

    def _verify(self, password_hash: str | None, password: str) -> bool:
        try:
            matches = self.hasher.verify(password_hash or self._dummy_hash, password)
        except (VerificationError, InvalidHashError):
            return False
        return bool(matches) and password_hash is not None

    async def _run(self, call: functools.partial[_T]) -> _T:
        async with self.turns:
            return await asyncio.get_running_loop().run_in_executor(self.pool, call)

    def close(self) -> None:
        """Stop the threads (the server is shutting down)."""
        self.pool.shutdown(wait=False, cancel_futures=True)
