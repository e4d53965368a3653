"""The account's taler over HTTP: balance and movements (docs/ledger.md)."""

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
