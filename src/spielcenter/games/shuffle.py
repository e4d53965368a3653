"""The deal shuffle: SplitMix64 feeding an unbiased Fisher–Yates shuffle.

The algorithm is part of the product's promise: deal number N gives the same layout on every
machine and in every future version. It is written down in ``docs/shuffle.md``; golden tests pin
deals 1, 2 and 1000 of each game. Never change a constant or the order of draws here.

>>> shuffled(list(range(5)), 1)
[2, 1, 4, 3, 0]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")

MASK64 = (1 << 64) - 1
GOLDEN_GAMMA = 0x9E3779B97F4A7C15
MAX_DEAL = (1 << 63) - 1


class DealNumberError(ValueError):
    """A deal number outside 1 … 2^63−1."""


def check_deal(deal: object) -> int:
    """Return ``deal`` if it is a valid deal number, else raise :class:`DealNumberError`.

    Anything else is refused, a secret seed too: the games that take one say so themselves.
    """
    if isinstance(deal, bool) or not isinstance(deal, int):
        raise DealNumberError(f"deal number must be an integer, not {deal!r}")
    if not 1 <= deal <= MAX_DEAL:
        raise DealNumberError(f"deal number {deal} is outside 1 … {MAX_DEAL}")
    return deal


class SplitMix64:
    """Steele, Lea and Flood's SplitMix64 generator (2014): 64-bit state, 64-bit outputs."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def next_u64(self) -> int:
        """The next 64-bit output."""
        self.state = (self.state + GOLDEN_GAMMA) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, bound: int) -> int:
        """A uniform integer in ``0 … bound-1`` (rejection sampling, so no modulo bias)."""
        return below(self.next_u64, bound)


def below(next_u64: Callable[[], int], bound: int) -> int:
    """A uniform integer in ``0 … bound-1`` from a source of 64-bit outputs, without modulo bias.

    Shared by SplitMix64 and the keyed stream of secret seeds (``games/seeds.py``), so both draw
    exactly as ``docs/shuffle.md`` describes.
    """
    if bound <= 0:
        raise ValueError("bound must be positive")
    # Accept x only below the largest multiple of bound that fits in 64 bits.
    limit = (1 << 64) - ((1 << 64) % bound)
    while True:
        x = next_u64()
        if x < limit:
            return x % bound


def fisher_yates(items: Sequence[T], draw_below: Callable[[int], int]) -> list[T]:
    """Return a new list: ``items`` shuffled by Fisher–Yates with ``draw_below(n)``.

    For i = n−1 down to 1, j = below(i+1) and items i and j swap places.
    """
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = draw_below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def shuffled(items: Sequence[T], seed: int) -> list[T]:
    """Return a new list: ``items`` shuffled by Fisher–Yates driven by SplitMix64(seed)."""
    return fisher_yates(items, SplitMix64(seed).below)
