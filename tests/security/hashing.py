"""A password hasher that counts how many of its calls run at once, and on which threads."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from argon2 import PasswordHasher


class CountingHasher(PasswordHasher):
    """argon2 at its lowest cost, each call held ``pause_s`` so that overlapping calls overlap."""

    def __init__(self, pause_s: float = 0.0) -> None:
        super().__init__(time_cost=1, memory_cost=8, parallelism=1)
        self.pause_s = pause_s
        self.lock = threading.Lock()
        self.running = 0
        self.most_at_once = 0
        self.calls = 0
        self.threads: set[str] = set()

    @contextmanager
    def _counted(self) -> Iterator[None]:
        with self.lock:
            self.running += 1
            self.calls += 1
            self.most_at_once = max(self.most_at_once, self.running)
            self.threads.add(threading.current_thread().name)
        try:
            time.sleep(self.pause_s)
            yield
        finally:
            with self.lock:
                self.running -= 1

    def hash(self, password: str | bytes, *, salt: bytes | None = None) -> str:
        with self._counted():
            return super().hash(password, salt=salt)

    def verify(self, hash: str | bytes, password: str | bytes) -> Any:
        with self._counted():
            return super().verify(hash, password)


def at_once(calls: list[Callable[[], Any]]) -> list[Any]:
    """Run the calls on threads of their own, all started together; their results in order."""
    results: list[Any] = [None] * len(calls)
    start = threading.Barrier(len(calls))

    def run(k: int) -> None:
        start.wait()
        results[k] = calls[k]()

    threads = [threading.Thread(target=run, args=(k,)) for k in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results
