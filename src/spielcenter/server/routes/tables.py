"""Speedquilt tables over HTTP: create one, list the account's, show one (docs/protocol.md)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query, Request
from pydantic import Field

from spielcenter.services.common import ServiceError

from ..deps import CheckedLoginDep, LoginDep
from ..registry import TableRegistry
from ..schemas import Body

router = APIRouter(prefix="/api/tables", tags=["tables"])

Level = Literal["easy", "normal", "strong"]


class SoloOptions(Body):
    """A campaign stage's numbers (all optional)."""

    target: int | None = Field(default=None, ge=1, le=500)
    rounds: int | None = Field(default=None, ge=1, le=30)
    top_shelf: int | None = Field(default=None, ge=1, le=4)
    bottom_shelf: int | None = Field(default=None, ge=1, le=4)


class TableCreate(Body):
    """A new table: the caller at seat 0, computer players at the other seats."""

    variant: Literal["table", "solo"] = "table"
    players: int | None = Field(default=None, ge=1, le=4)
    bots: list[Level] = Field(default_factory=list, max_length=3)
    tempo: Literal["slow", "normal", "fast"] = "normal"
    options: SoloOptions | None = None
    deal: int | None = None


def get_registry(request: Request) -> TableRegistry:
    """The live tables of the app serving this request."""
    registry: TableRegistry = request.app.state.tables
    return registry


RegistryDep = Annotated[TableRegistry, Depends(get_registry)]


@router.post("", status_code=201)
async def create_table(
    body: TableCreate, registry: RegistryDep, login: CheckedLoginDep
) -> dict[str, Any]:
    """A new table; its computers start at once. Play it over the WebSocket (``table.*``)."""
    options = body.options.model_dump(exclude_none=True) if body.options else None
    actor = await registry.create(
        login.account_id,
        variant=body.variant,
        players=body.players,
        bots=body.bots,
        tempo=body.tempo,
        options=options,
        deal=body.deal,
    )
    return actor.stored.summary(login.account_id)


@router.get("")
async def list_tables(
    registry: RegistryDep, login: LoginDep, state: str | None = None
) -> dict[str, Any]:
    """The tables the account sits at, newest first (``state=open`` or ``finished``)."""
    return {"tables": await registry.summaries(login.account_id, state)}


@router.get("/{table_id}")
async def show_table(
    table_id: str,
    registry: RegistryDep,
    login: LoginDep,
    invite: Annotated[str | None, Query(max_length=64)] = None,
) -> dict[str, Any]:
    """One table as the caller may see it (a spectator sees the public view; a private table
    only with its ``invite``)."""
    actor = await registry.get(table_id)
    if not actor.stored.may_watch(login.account_id, invite):
        raise ServiceError("invite_required", "this table is watched by invitation only")
    reader = actor.stored.seat_of(login.account_id)
    message = actor.state_message(reader)
    return {
        **actor.stored.summary(login.account_id),
        **{key: message[key] for key in ("seat", "view", "to_act", "legal", "history")},
    }
