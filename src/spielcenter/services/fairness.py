"""Secret seeds on the server: drawn from the OS's CSPRNG, kept secret with a commitment shown from
the start, revealed after the end and checked (issue 37; docs/shuffle.md, "Secret seeds").

Every table from the lobby, every table that counts for a leaderboard and every campaign stage is
dealt from a :class:`SecretSeed` of 32 bytes (``secrets.token_bytes``). Its row keeps the seed
(hex) and the commitment; the ``deal`` column stays empty. Deal numbers remain for practice
against computers ("play deal #N") and for patience; a table dealt from a number is never ranked.

What leaves the server (:func:`fairness_of`): the commitment and its short fingerprint from the
start; the seed only once the game is over; and with a finished game's replay the verdict of
:func:`~spielcenter.games.speedquilt.fairness.verify` on the very steps the reader is sent.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from spielcenter.games.base import JSON, Deal
from spielcenter.games.seeds import SEED_BYTES, SecretSeed, commitment, fingerprint
from spielcenter.games.speedquilt.fairness import verify

__all__ = [
    "SeedSource",
    "dealt_from",
    "fairness_of",
    "fresh_seed",
    "seeded",
    "verified",
]

SeedSource = Callable[[], SecretSeed]
"""Draws the seed of a new game (the OS's CSPRNG; tests may fix it)."""


class DealtRow(Protocol):
    """A stored game or table: a deal number, or a seed and its commitment."""

    deal: int | None
    seed: str | None
    commitment: str | None


def fresh_seed() -> SecretSeed:
    """A new secret seed of 32 bytes from the operating system's CSPRNG."""
    return SecretSeed(secrets.token_bytes(SEED_BYTES))


def seeded(seed: SecretSeed) -> dict[str, Any]:
    """The column values of a row dealt from ``seed``: no deal number, the seed, its commitment."""
    return {"deal": None, "seed": seed.hex(), "commitment": commitment(seed)}


def dealt_from(row: DealtRow) -> Deal:
    """What the stored game was dealt from: its secret seed, else its deal number."""
    if row.seed is not None:
        return SecretSeed.from_hex(row.seed)
    if row.deal is None:
        raise ValueError("a stored game has neither a deal number nor a seed")
    return row.deal


def fairness_of(row: DealtRow, over: bool) -> JSON | None:
    """What players are shown of the seed: the commitment (and its fingerprint) from the start,
    the seed itself only once the game is ``over``; ``None`` for a game dealt from a number."""
    if row.commitment is None:
        return None
    return {
        "commitment": row.commitment,
        "fingerprint": fingerprint(row.commitment),
        "seed": row.seed if over else None,
    }


def verified(row: DealtRow, over: bool, steps: Sequence[JSON], catalogue: Any) -> JSON | None:
    """The fairness block of a replay: :func:`fairness_of`, and once the game is over the verdict
    of checking the revealed seed against the commitment and every die and draw in ``steps``
    (the steps the reader is sent, so the line on the replay page speaks of what she saw)."""
    shown = fairness_of(row, over)
    if shown is None or not over or row.seed is None:
        return shown
    verdict = verify(
        SecretSeed.from_hex(row.seed),
        shown["commitment"],
        steps,
        catalogue.pattern_ids,
        catalogue.kit_ids,
    )
    return {**shown, "verdict": verdict.to_json()}
