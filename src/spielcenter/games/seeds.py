"""Secret seeds: the randomness of ranked and staked games, committed at the start, revealed at
the end (``docs/shuffle.md``, "Secret seeds").

A deal number (1 … 2^63−1, drawn by the server from 1 … 999 999 999) is fine for practice and
patience, but it is far too small a secret: the shuffle is public, so whoever sees a few dealt
blocks can search every number and then knows every hidden block and every future die. A game
that decides taler or a leaderboard starts instead from a :class:`SecretSeed` of 32 bytes that the
server draws from the operating system's CSPRNG (``secrets.token_bytes``). Everything random in
such a game comes from :class:`KeyedStream` — BLAKE2b keyed by the whole seed, in counter mode —
so no intermediate value smaller than the seed exists that a search could enumerate.

At the start the server shows only the :func:`commitment` (SHA-256 of a domain tag and the seed);
after the end it reveals the seed, and anyone can check the commitment and recompute every die
and every draw (``spielcenter speedquilt verify``).

This module is pure: the seed is passed in (the server draws it), nothing here reads a clock or a
random source.

>>> seed = SecretSeed(bytes(range(32)))
>>> seed
SecretSeed(<hidden>)
>>> commitment(seed) == commitment(SecretSeed.from_hex(seed.hex()))
True
>>> KeyedStream(seed, "example").below(6) in range(6)
True
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from .shuffle import below, fisher_yates

__all__ = [
    "COMMITMENT_TAG",
    "MAX_SEED_BYTES",
    "MIN_SEED_BYTES",
    "SEED_BYTES",
    "KeyedStream",
    "SecretSeed",
    "SeedError",
    "commitment",
    "fingerprint",
    "keyed_shuffled",
    "matches",
]

T = TypeVar("T")

SEED_BYTES = 32
"""What the server draws: 256 bits."""
MIN_SEED_BYTES = 16
"""At least 128 bits: below that a seed could one day be searched."""
MAX_SEED_BYTES = 64
"""BLAKE2b takes keys of at most 64 bytes."""
COMMITMENT_TAG = b"spielcenter-seed-commitment/1|"
"""Prefixed to the seed before hashing, so the commitment is no hash used anywhere else."""
STREAM_TAG = b"spielcenter-stream/1|"
FINGERPRINT_CHARS = 12
"""How much of the commitment people are shown: enough to compare by eye."""


class SeedError(ValueError):
    """Text or bytes that are not a secret seed (wrong length, not hexadecimal)."""


@dataclass(frozen=True)
class SecretSeed:
    """The 16–64 secret bytes a game's randomness comes from.

    Its ``repr`` and ``str`` never show the bytes (a log line or an error message must not reveal
    a running game's seed); :meth:`hex` is the deliberate way to write it down.
    """

    value: bytes = field(repr=False)

    def __post_init__(self) -> None:
        if not isinstance(self.value, bytes):
            raise SeedError("a secret seed is bytes")
        if not MIN_SEED_BYTES <= len(self.value) <= MAX_SEED_BYTES:
            raise SeedError(
                f"a secret seed has {MIN_SEED_BYTES} to {MAX_SEED_BYTES} bytes, "
                f"not {len(self.value)}"
            )

    def __repr__(self) -> str:
        return "SecretSeed(<hidden>)"

    __str__ = __repr__

    def hex(self) -> str:
        """The seed as lowercase hexadecimal (as it is stored and, after the end, revealed)."""
        return self.value.hex()

    @classmethod
    def from_hex(cls, text: str) -> SecretSeed:
        """The seed written by :meth:`hex`; :class:`SeedError` if ``text`` is not one."""
        try:
            value = bytes.fromhex(text)
        except (ValueError, TypeError):
            raise SeedError("a secret seed is written as hexadecimal digits") from None
        return cls(value)


def commitment(seed: SecretSeed) -> str:
    """``SHA-256(COMMITMENT_TAG ‖ seed)`` in lowercase hex: shown from the start of the game."""
    return hashlib.sha256(COMMITMENT_TAG + seed.value).hexdigest()


def matches(seed: SecretSeed, promised: str) -> bool:
    """Whether ``seed`` is the one the commitment ``promised`` was made for."""
    return hmac.compare_digest(commitment(seed), promised.strip().lower())


def fingerprint(promised: str) -> str:
    """The start of a commitment, as people are shown it (``"3f9ac41e07b2"``)."""
    return promised[:FINGERPRINT_CHARS]


class KeyedStream:
    """A stream of 64-bit numbers: output ``i`` (0, 1, 2 …) of the stream named ``label`` is

        BLAKE2b(b"spielcenter-stream/1|" + label + b"|" + str(i), key=seed, digest_size=8)

    read big-endian. Different labels give independent streams; without the seed no output can
    be computed, and every output depends on every bit of the seed.
    """

    __slots__ = ("_counter", "_key", "_prefix")

    def __init__(self, seed: SecretSeed, label: str) -> None:
        self._key = seed.value
        self._prefix = STREAM_TAG + label.encode() + b"|"
        self._counter = 0

    def next_u64(self) -> int:
        """The next output."""
        message = self._prefix + str(self._counter).encode()
        self._counter += 1
        digest = hashlib.blake2b(message, key=self._key, digest_size=8).digest()
        return int.from_bytes(digest, "big")

    def below(self, bound: int) -> int:
        """A uniform integer in ``0 … bound-1`` (the rejection sampling of docs/shuffle.md)."""
        return below(self.next_u64, bound)


def keyed_shuffled(items: Sequence[T], seed: SecretSeed, label: str) -> list[T]:
    """``items`` shuffled by the Fisher–Yates of docs/shuffle.md, drawing from the stream
    ``label`` of ``seed``."""
    return fisher_yates(items, KeyedStream(seed, label).below)
