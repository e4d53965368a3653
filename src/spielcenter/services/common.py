"""What every service shares: the error type carrying a protocol code, and the clock."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from datetime import UTC, datetime

Clock = Callable[[], datetime]
"""The time source of the services: passed in, so tests can move time."""


StageTimer = Callable[[str, float], None]
"""Counts how long a stage of the hot path took (``stage``, milliseconds or a batch size): the
server's latency trace (``server/latency.py``) when it is on."""


def no_timing(_stage: str, _value: float) -> None:
    """The stage timer while no trace is on."""


def utcnow() -> datetime:
    """The server clock, in UTC."""
    return datetime.now(UTC)


def as_utc(moment: datetime) -> datetime:
    """``moment`` with its time zone; SQLite hands back naive UTC datetimes."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def new_id() -> str:
    """A fresh random identifier for an account or a game (unguessable, 32 hex digits)."""
    return secrets.token_hex(16)


class ServiceError(Exception):
    """A request the services refuse; ``code`` is one of the protocol's error codes.

    Nothing has changed when this is raised.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
