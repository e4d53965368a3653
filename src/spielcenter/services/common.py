"""What every service shares: the error type carrying a protocol code, and the clock."""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

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


def _refuse(value: Any) -> Any:
    raise TypeError(f"{type(value).__name__} is not JSON")


_C_ENCODER = getattr(json.encoder, "c_make_encoder", None)
_FLAGS = (False, False, True)
_chunks: Callable[[Any, int], Any] | None = (
    None
    if _C_ENCODER is None
    # markers (no check for cycles), default, strings, indent, separators, sort, skip, NaN
    else _C_ENCODER(None, _refuse, json.encoder.encode_basestring, None, ":", ",", *_FLAGS)
)
"""The standard library's C encoder, made once: ``json.dumps`` makes one for every call, and a
frozen view is about twenty calls."""
_text_slowly = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode
string_json: Callable[[str], str] = json.encoder.encode_basestring
"""A string as :func:`compact_json` writes it (in C)."""
_string_text = string_json


def compact_json(value: Any) -> str:
    """``value`` as compact JSON, as ``json.dumps`` writes it (not ASCII-escaped)."""
    if _chunks is None:
        return _text_slowly(value)
    if isinstance(value, str):
        return _string_text(value)
    return "".join(_chunks(value, 0))


def json_items(values: list[Any]) -> list[str]:
    """Each item of ``values`` as :func:`compact_json` writes it, in one pass: a list of strings
    (a pile of cards, the legal moves) by the C string encoder alone, without a call of
    :func:`compact_json` per item (a view is a dozen such lists and about thirty items)."""
    if _chunks is None:
        return [_text_slowly(value) for value in values]
    join, chunks = "".join, _chunks
    texts: list[str] = []
    for value in values:
        if type(value) is str:
            texts.append(_string_text(value))
        elif type(value) is list and value and type(value[0]) is str:
            try:
                texts.append("[" + ",".join(map(_string_text, value)) + "]")
            except TypeError:  # not strings all through
                texts.append(join(chunks(value, 0)))
        else:
            texts.append(join(chunks(value, 0)))
    return texts
