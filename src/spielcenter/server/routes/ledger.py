"""The account's taler over HTTP: balance and movements; a table's pot (docs/ledger.md)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from ..deps import LoginDep
from .tables import RegistryDep

router = APIRouter(prefix="/api/ledger", tags=["ledger"])


@router.get("")
async def statement(registry: RegistryDep, login: LoginDep) -> dict[str, Any]:
    """``{"balance", "history"}`` of the caller (the first look opens it with 1 000 taler)."""
    return await registry.ledger.statement(login.account_id)


@router.get("/tables/{table_id}")
async def table_pot(table_id: str, registry: RegistryDep, login: LoginDep) -> dict[str, Any]:
    """The pot of a table: what it holds and every stake and payout, leg by leg (the house's
    legs included), so anyone at the table can see where its taler came from and went."""
    summary = await registry.summary(table_id)
    seats = {s["account_id"]: s["seat"] for s in summary["seats"] if s.get("account_id")}
    pot: dict[str, Any] = await registry.ledger.table_pot(table_id, seats)
    return {**pot, "stake": (summary.get("setup") or {}).get("stake", 0)}
