"""Provably fair, from the store: a finished table's revealed seed checked from every seat.

``spielcenter speedquilt verify --table ID`` runs :func:`verify_stored_table` against the
configured database. It checks what :func:`~spielcenter.games.speedquilt.fairness.verify` checks
for one reader — the commitment, the deal, every die and every draw shown — for a spectator and
for every seat in turn (so every seat's dealt blocks and blind draws are covered), and it replays
every entry of the log from the seed through the rules, each one checked as the table checked it.
A replay exported from the browser is checked the same way by :func:`verify_replay`.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from spielcenter.games.base import JSON, GameError, Seat
from spielcenter.games.seeds import SecretSeed, SeedError, matches
from spielcenter.games.speedquilt.catalogue import load_catalogue
from spielcenter.games.speedquilt.fairness import Verdict, verify
from spielcenter.games.speedquilt.rules import Speedquilt
from spielcenter.store.repositories import TableRepository

from .common import ServiceError
from .history import speedquilt_steps, table_engine

__all__ = ["verify_replay", "verify_stored_table"]

FINISHED = "finished"


def _seed_of(fairness: Any) -> tuple[SecretSeed, str]:
    """The revealed seed and the commitment of a ``fairness`` block, or a clear refusal."""
    if not isinstance(fairness, dict) or not fairness.get("commitment"):
        raise ServiceError(
            "not_seeded",
            "this game was dealt from a chosen deal number (practice): it has no seed to check",
        )
    if not fairness.get("seed"):
        raise ServiceError("not_over", "the game is not over: its seed stays secret until the end")
    try:
        return SecretSeed.from_hex(str(fairness["seed"])), str(fairness["commitment"])
    except SeedError as fault:
        raise ServiceError("bad_request", f"the revealed seed is not valid: {fault}") from None


def verify_replay(data: Any) -> JSON:
    """Check a replay as ``/api/my-tables/{id}/replay`` or ``/api/my-games/{id}/replay`` sends
    it (``{"table"|"game": {..., "fairness"}, "steps": [...]}``); ``bad_request`` (or
    ``not_seeded`` / ``not_over``) if it cannot be checked at all."""
    if not isinstance(data, dict) or not isinstance(data.get("steps"), list):
        raise ServiceError("bad_request", "a replay is a JSON object with 'steps'")
    holder = data.get("table") or data.get("game")
    if not isinstance(holder, dict):
        raise ServiceError("bad_request", "a replay names its 'table' or 'game'")
    seed, promised = _seed_of(holder.get("fairness"))
    catalogue = load_catalogue()
    verdict = verify(seed, promised, data["steps"], catalogue.pattern_ids, catalogue.kit_ids)
    return {
        "id": holder.get("id"),
        "commitment": promised,
        "seed": seed.hex(),
        "steps": len(data["steps"]),
        **verdict.to_json(),
    }


async def verify_stored_table(
    sessionmaker: async_sessionmaker[AsyncSession], table_id: str
) -> JSON:
    """Check a finished table of the store from every seat and for a spectator."""
    async with sessionmaker() as db:
        tables = TableRepository(db)
        row = await tables.get(table_id)
        if row is None:
            raise ServiceError("not_found", f"no table {table_id!r}")
        seats = await tables.seats_of(table_id)
        log = await tables.log_of(table_id)
    engine = table_engine(row)
    if engine is None:
        raise ServiceError("bad_request", f"table {table_id!r} cannot be replayed here")
    fairness = {"commitment": row.commitment, "seed": row.seed if row.status == FINISHED else None}
    seed, promised = _seed_of(fairness)
    faults = _replay_faults(engine, seed, log)
    report: JSON = {"id": table_id, "commitment": promised, "seed": seed.hex()}
    report.update(entries=len(log), legal=not faults)
    if faults:  # the steps of a log that does not replay from this seed cannot be built
        verdict = Verdict(commitment_ok=matches(seed, promised), faults=faults)
        if not verdict.commitment_ok:
            verdict.faults.insert(0, "the stored seed does not match the commitment shown")
        return {**report, **verdict.to_json(), "readers": {}}
    readers: list[Seat | None] = [None, *range(len(seats))]
    catalogue = engine.ctx.catalogue
    verdicts: dict[str, Verdict] = {}
    for reader in readers:
        steps = speedquilt_steps(engine, seed, log, reader)
        name = "spectator" if reader is None else f"seat {reader}"
        verdicts[name] = verify(seed, promised, steps, catalogue.pattern_ids, catalogue.kit_ids)
    public = verdicts["spectator"]
    seated = [v for name, v in verdicts.items() if name != "spectator"]
    return {
        **report,
        "ok": all(v.ok for v in verdicts.values()),
        "commitment_ok": public.commitment_ok,
        "rolls": public.rolls,
        "dice": public.dice,
        # A seat checks what everyone saw (the shop, the refills) plus her own dealt blocks and
        # blind draws: add what each seat checked beyond the spectator.
        "dealt": public.dealt + sum(v.dealt - public.dealt for v in seated),
        "draws": public.draws + sum(v.draws - public.draws for v in seated),
        "unchecked": max(v.unchecked for v in verdicts.values()),
        "faults": [f"{name}: {f}" for name, v in verdicts.items() for f in v.faults],
        "readers": {name: verdict.to_json() for name, verdict in verdicts.items()},
    }


def _replay_faults(engine: Speedquilt, seed: SecretSeed, log: list[tuple[int, str]]) -> list[str]:
    """Every entry played again from the seed through the rules (checked, as the table did)."""
    state = engine.start(seed)
    for seq, (seat, text) in enumerate(log, start=1):
        try:
            state = engine.play(state, text, seat)
        except GameError as fault:
            return [f"entry {seq} ({text!r} by seat {seat}) is not legal from the seed: {fault}"]
    return []
