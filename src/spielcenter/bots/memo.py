"""A cache for functions of one block and its filling, keyed by the block's identity.

A :class:`~spielcenter.games.speedquilt.model.Block` is a frozen dataclass whose hash walks
every patch, and a bot asks about the same few blocks thousands of times per game: hashing them
for ``functools.lru_cache`` cost more than the answers. The catalogue hands out one object per
block, so the object's identity is a cheap and exact key (the block itself is kept alongside, so
an identity is never reused for another block while its entry lives).

The cache lives as long as the server process and is shared by every table it runs: it keeps
the ``maxsize`` answers used most recently, so what it holds stays the blocks of the games in
play (docs/performance.md, "Soak").
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from functools import update_wrapper
from typing import Generic, TypeVar

from spielcenter.games.speedquilt.model import Block

__all__ = ["BlockCache", "block_cache"]

T = TypeVar("T")
Filled = tuple[int | None, ...]


class BlockCache(Generic[T]):
    """``f(block, filled)`` remembered by the block's identity and the filling; at most
    ``maxsize`` answers, the least recently used dropped first."""

    def __init__(self, function: Callable[[Block, Filled], T], maxsize: int) -> None:
        if maxsize < 1:
            raise ValueError(f"a block cache holds at least one answer, not {maxsize}")
        self.function = function
        self.maxsize = maxsize
        self._store: OrderedDict[tuple[int, Filled], tuple[Block, T]] = OrderedDict()
        update_wrapper(self, function)

    def __call__(self, block: Block, filled: Filled) -> T:
        key = (id(block), filled)
        hit = self._store.get(key)
        if hit is not None and hit[0] is block:
            self._store.move_to_end(key)
            return hit[1]
        value = self.function(block, filled)
        self._store[key] = (block, value)
        self._store.move_to_end(key)
        if len(self._store) > self.maxsize:
            self._store.popitem(last=False)
        return value

    def __len__(self) -> int:
        """How many answers are held now."""
        return len(self._store)

    def values(self) -> list[T]:
        """The answers held now (for measuring what the cache costs)."""
        return [value for _block, value in self._store.values()]

    def clear(self) -> None:
        """Forget every answer."""
        self._store.clear()


def block_cache(maxsize: int) -> Callable[[Callable[[Block, Filled], T]], BlockCache[T]]:
    """Cache ``f(block, filled)`` by the block's identity and the filling, keeping the
    ``maxsize`` answers used most recently."""

    def wrap(function: Callable[[Block, Filled], T]) -> BlockCache[T]:
        return BlockCache(function, maxsize)

    return wrap
