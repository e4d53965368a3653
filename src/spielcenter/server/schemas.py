"""The shapes of HTTP bodies at the edge (Pydantic); anything else is refused with 400."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from .nul import REFUSAL, holds_nul


class Body(BaseModel):
    """Request bodies: unknown keys are an error, and no type is silently coerced."""

    model_config = ConfigDict(extra="forbid", strict=True)

    @model_validator(mode="before")
    @classmethod
    def _no_nul(cls, data: Any) -> Any:
        # Portable storage: PostgreSQL cannot hold NUL in text (server/nul.py).
        if holds_nul(data):
            raise ValueError(REFUSAL)
        return data


class Credentials(Body):
    """A name and a password, to claim an account or to log in."""

    name: str = Field(max_length=200)
    password: str = Field(max_length=1000)


class SettingsUpdate(Body):
    """The settings a player may change; only the keys sent are changed."""

    lang: Literal["de", "en"] | None = None
    auto_move: bool | None = None
    theme: Literal["light", "dark", "system"] | None = None
    sounds: bool | None = None
    clock_beep: bool | None = None
    """The clock's warning beep (its own switch: a warning is not a living-room sound)."""
    winnable_only: bool | None = None
    """The one switch both patiences once shared; read only where a game has no own switch."""
    winnable_only_cruel: bool | None = None
    winnable_only_crazy_quilt: bool | None = None
    left_handed: bool | None = None
    # The Speedquilt table view (gear menu): theme, giving auto-continue, computer tempo.
    table_theme: Literal["lamp", "linen"] | None = None
    auto_continue: bool | None = None
    tempo: Literal["slow", "normal", "fast"] | None = None

    def changes(self) -> dict[str, Any]:
        """The keys the request set."""
        return self.model_dump(exclude_unset=True, exclude_none=True)


class GameCreate(Body):
    """A new game: a game and variant with a deal number (or a random one, or with
    ``winnable_only`` a random one of the proven winnable deals), or a restart."""

    game: str | None = Field(default=None, max_length=32)
    variant: str | None = Field(default=None, max_length=32)
    deal: int | None = None
    restart: str | None = Field(default=None, max_length=64)
    winnable_only: bool = False


class MePublic(BaseModel):
    """The account behind the session, as ``GET /api/me`` shows it."""

    id: str
    name: str | None
    guest: bool
    settings: dict[str, Any]
    csrf: str
