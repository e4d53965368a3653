"""The lobby over HTTP: create a table for people, list the waiting ones, invitations, join,
leave before the start (docs/protocol.md, "Lobby over HTTP")."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter
from pydantic import Field

from spielcenter.services.lobby import MAX_STAKE, NewTable

from ..deps import CheckedLoginDep, LoginDep
from ..schemas import Body
from .tables import RegistryDep

router = APIRouter(prefix="/api/lobby", tags=["lobby"])

Level = Literal["easy", "normal", "strong"]


class LobbyCreate(Body):
    """A new table: the caller at seat 0; per further seat a computer level or ``None`` (free)."""

    players: int = Field(ge=2, le=4)
    bots: list[Level | None] = Field(default_factory=list, max_length=3)
    think: Literal[30, 60, 90, 120] | None = None
    giving: Literal[15, 20, 30] | None = None
    tempo: Literal["slow", "normal", "fast"] = "normal"
    stake: int = Field(default=0, ge=0, le=MAX_STAKE)
    private: bool = False
    stand_in: Level = "normal"
    deal: int | None = None


class LobbyJoin(Body):
    """Joining, with the invitation code of a private table."""

    invite: str | None = Field(default=None, max_length=64)


@router.post("", status_code=201)
async def create_lobby_table(
    body: LobbyCreate, registry: RegistryDep, login: CheckedLoginDep
) -> dict[str, Any]:
    """A table waiting for people (it starts at once when no seat is free)."""
    table_id = await registry.lobby.create(login.account_id, NewTable(**body.model_dump()))
    return await registry.summary(table_id, login.account_id)


@router.get("")
async def waiting_tables(registry: RegistryDep, login: LoginDep) -> dict[str, Any]:
    """The public tables waiting for people, oldest first."""
    waiting = await registry.lobby.waiting()
    return {"tables": [await registry.summary(i, login.account_id) for i in waiting]}


@router.get("/invite/{code}")
async def invited_table(code: str, registry: RegistryDep, login: LoginDep) -> dict[str, Any]:
    """The table of an invitation link."""
    return await registry.summary(await registry.lobby.by_invite(code), login.account_id)


@router.post("/{table_id}/join")
async def join_table(
    table_id: str, body: LobbyJoin, registry: RegistryDep, login: CheckedLoginDep
) -> dict[str, Any]:
    """Take the lowest free seat; the last one starts the game (stakes into the pot)."""
    await registry.lobby.join(login.account_id, table_id, body.invite)
    return await registry.summary(table_id, login.account_id)


@router.post("/{table_id}/leave")
async def leave_table(
    table_id: str, registry: RegistryDep, login: CheckedLoginDep
) -> dict[str, Any]:
    """Give up a seat before the start."""
    await registry.lobby.leave(login.account_id, table_id)
    return await registry.summary(table_id, login.account_id)
