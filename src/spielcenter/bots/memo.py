"""A cache for functions of one block and its filling, keyed by the block's identity.

A :class:`~spielcenter.games.speedquilt.model.Block` is a frozen dataclass whose hash walks
every patch, and a bot asks about the same few blocks thousands of times per game: hashing them
for ``functools.lru_cache`` cost more than the answers. The catalogue hands out one object per
block, so the object's identity is a cheap and exact key (the block itself is kept alongside, so
an identity is never reused for another block while its entry lives).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import TypeVar

from spielcenter.games.speedquilt.model import Block

__all__ = ["block_cache"]

T = TypeVar("T")
Filled = tuple[int | None, ...]


def block_cache(
    maxsize: int,
) -> Callable[[Callable[[Block, Filled], T]], Callable[[Block, Filled], T]]:
    """Cache ``f(block, filled)`` by the block's identity and the filling; forget all when full."""

    def wrap(function: Callable[[Block, Filled], T]) -> Callable[[Block, Filled], T]:
        store: dict[tuple[int, Filled], tuple[Block, T]] = {}

        @wraps(function)
        def cached(block: Block, filled: Filled) -> T:
            key = (id(block), filled)
            hit = store.get(key)
            if hit is not None and hit[0] is block:
                return hit[1]
            if len(store) >= maxsize:
                store.clear()
            value = function(block, filled)
            store[key] = (block, value)
            return value

        return cached

    return wrap
