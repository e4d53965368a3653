"""The character NUL (U+0000) is refused at the edge, everywhere.

PostgreSQL cannot store NUL in text (asyncpg fails with "invalid byte sequence for encoding
UTF8: 0x00") while SQLite can: an id or a chat line holding one would be a server error on one
database and fine on the other. No name, id, move or message of the protocol has a use for it,
so requests and messages holding one are refused as bad input on both (docs/protocol.md).
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import unquote_to_bytes

from starlette.types import ASGIApp, Receive, Scope, Send

from .errors import error_response

NUL = "\x00"
JSON_NUL = "\\u0000"
"""How NUL appears in JSON text (json.loads refuses a raw control character in a string)."""
REFUSAL = "the character U+0000 (NUL) is not allowed"


def holds_nul(value: Any) -> bool:
    """True if a string anywhere in ``value`` (keys included) holds NUL."""
    if isinstance(value, str):
        return NUL in value
    if isinstance(value, dict):
        return any(holds_nul(k) or holds_nul(v) for k, v in value.items())
    if isinstance(value, list | tuple):
        return any(holds_nul(item) for item in value)
    return False


def json_text_holds_nul(text: str) -> bool:
    """True if a JSON text would decode to a string holding NUL."""
    return JSON_NUL in text or NUL in text


def message_ref(text: str) -> Any:
    """The ``id`` of a refused WebSocket message, so that its error still carries ``ref``."""
    try:
        data = json.loads(text)
    except ValueError:
        return None
    ref = data.get("id") if isinstance(data, dict) else None
    return ref if isinstance(ref, str | int) else None


class RefuseNul:
    """ASGI middleware: an HTTP request whose path or query holds NUL is ``400 bad_request``.

    (Bodies are checked by :class:`spielcenter.server.schemas.Body`, WebSocket messages by the
    socket's reader.)
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and _request_holds_nul(scope):
            await error_response(400, "bad_request", REFUSAL)(scope, receive, send)
            return
        await self.app(scope, receive, send)


def _request_holds_nul(scope: Scope) -> bool:
    path: str = scope.get("path", "")
    query: bytes = scope.get("query_string", b"")
    return NUL in path or b"\x00" in unquote_to_bytes(query)
