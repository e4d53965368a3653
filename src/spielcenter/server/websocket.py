"""The WebSocket protocol of docs/protocol.md: open, move, undo, redo, hint, ping.

Each socket belongs to one session. A refused message gets an ``error`` reply and changes
nothing; the socket stays open. Committed events go to every socket watching the game, in
``seq`` order (the game service publishes them while the game is locked).
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from typing import Annotated, Any, Literal, Protocol
from urllib.parse import urlsplit

from fastapi import APIRouter, WebSocket
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError
from starlette.websockets import WebSocketDisconnect

from spielcenter.services.common import ServiceError

from .addresses import client_address
from .deps import SESSION_COOKIE, Platform
from .hub import CLOSE_NO_SESSION, Connection, Origin, Watcher, with_ref
from .logging import log
from .nul import REFUSAL as NUL_REFUSAL
from .nul import json_text_holds_nul, message_ref

MAX_MESSAGE_BYTES = 8 * 1024
MAX_JSON_DEPTH = 32
"""The deepest nesting of arrays and objects a message may have. The protocol's messages are two
levels deep; Python's parser gives up (``RecursionError``) near a thousand, which 8 KiB reach."""
CLOSE_POLICY = 1008
"""Closing code when the page's ``Origin`` is neither this server's nor an allowed one."""
CLOSE_TOO_MANY_SOCKETS = 4429
"""Closing code when the session or the address already has as many sockets as it may."""

router = APIRouter()

# -- client messages ------------------------------------------------------------------------


class _Message(BaseModel):
    # Unknown fields are ignored (a newer client may send more); known ones are never coerced.
    model_config = ConfigDict(extra="ignore", strict=True)
    id: str | int | None = Field(default=None)


MOVE_TEXT_MAX = 80
"""The longest move text a message may carry: every move any engine offers fits (a Speedquilt
sewing of five dice, `sew P13 purple:8 yellow:7 green:6 blue:5 red:4`, is 46 characters;
tests/conformance/test_conformance.py checks every legal move of random games)."""


class _GameMessage(_Message):
    game_id: str = Field(min_length=1, max_length=64)


class OpenMessage(_GameMessage):
    """Subscribe to a game; with ``last_seq`` only what was missed."""

    type: Literal["open"]
    last_seq: int | None = Field(default=None, ge=0)
    changes: bool = False
    """Events to this socket carry what changed instead of the whole view (when smaller)."""


class MoveMessage(_GameMessage):
    """Play a move in the game's notation."""

    type: Literal["move"]
    move: str = Field(min_length=1, max_length=MOVE_TEXT_MAX)
    seq: int | None = Field(default=None, ge=0)


class UndoMessage(_GameMessage):
    """Take back the last move."""

    type: Literal["undo"]
    seq: int | None = Field(default=None, ge=0)


class RedoMessage(_GameMessage):
    """Play again the move last taken back."""

    type: Literal["redo"]
    seq: int | None = Field(default=None, ge=0)


class HintMessage(_GameMessage):
    """Ask for a good next move."""

    type: Literal["hint"]


class PingMessage(_Message):
    """Keep-alive."""

    type: Literal["ping"]


class _TableMessage(_Message):
    table_id: str = Field(min_length=1, max_length=64)


class TableOpenMessage(_TableMessage):
    """Watch a table; the answer is ``table.state``."""

    type: Literal["table.open"]
    last_seq: int | None = Field(default=None, ge=0)
    invite: str | None = Field(default=None, min_length=1, max_length=64)
    """The invitation code: a private table is watched by the people at it or with it."""


class TableMoveMessage(_TableMessage):
    """A decision of the sender's own seat."""

    type: Literal["table.move"]
    move: str = Field(min_length=1, max_length=MOVE_TEXT_MAX)
    seq: int | None = Field(default=None, ge=0)


class TableChatMessage(_TableMessage):
    """A chat line of the sender's seat (checked by services/chat.py)."""

    type: Literal["table.chat"]
    text: str = Field(min_length=1, max_length=1000)


class TableLeaveMessage(_TableMessage):
    """Leave a started table: a computer plays the seat until she comes back."""

    type: Literal["table.leave"]


class TableReturnMessage(_TableMessage):
    """Take the seat back from the computer."""

    type: Literal["table.return"]


TableMessage = (
    TableOpenMessage | TableMoveMessage | TableChatMessage | TableLeaveMessage | TableReturnMessage
)
"""The messages of a Speedquilt table (docs/protocol.md, "Speedquilt tables"): its actor
handles them (``tables.py``)."""

ClientMessage = Annotated[
    OpenMessage
    | MoveMessage
    | UndoMessage
    | RedoMessage
    | HintMessage
    | PingMessage
    | TableMessage,
    Field(discriminator="type"),
]
_client_message: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)
_table_message: TypeAdapter[TableMessage] = TypeAdapter(
    Annotated[TableMessage, Field(discriminator="type")]
)


class BadMessage(Exception):
    """A message that is not one of the protocol's."""


def too_deep(text: str, limit: int = MAX_JSON_DEPTH) -> bool:
    """Whether the JSON ``text`` nests arrays and objects deeper than ``limit``.

    Checked before any parsing, on every message: counting the brackets (two scans in C) settles
    it for every message with at most ``limit`` of them; only others get a pass in Python that
    skips strings (at most 8 KiB, so well under a millisecond).
    """
    if text.count("[") + text.count("{") <= limit:
        return False
    depth, in_string, escaped = 0, False, False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > limit:
                return True
        elif char in "]}":
            depth -= 1
    return False


def read_message(raw: str) -> tuple[ClientMessage, Any]:
    """Parse one client message; raise :class:`BadMessage` saying what is wrong.

    Also returns the client's ``id`` (if any) so that even refusals carry ``ref``.
    """
    if len(raw.encode()) > MAX_MESSAGE_BYTES:
        raise BadMessage(f"message larger than {MAX_MESSAGE_BYTES} bytes")
    try:
        # Parsed and checked in one call: a message the JSON parser and the checks of the
        # Python objects take alike (tests/unit/test_messages.py), in half the instructions.
        message = _client_message.validate_json(raw)
    except ValidationError:
        pass  # the long way below says what is wrong, as it always did
    else:
        return message, message.id
    try:
        data = json.loads(raw)
    except ValueError:
        raise BadMessage("not JSON") from None
    if not isinstance(data, dict):
        raise BadMessage("a message is a JSON object with a 'type'")
    ref = data.get("id") if isinstance(data.get("id"), str | int) else None
    try:
        return _client_message.validate_python(data), ref
    except ValidationError as exc:
        raise _bad(exc, ref) from None


def parse_table_message(data: dict[str, Any]) -> TableMessage:
    """A ``table.*`` message checked again (one routed from another process)."""
    return _table_message.validate_python(data)


def _bad(exc: ValidationError, ref: Any) -> BadMessage:
    first = exc.errors()[0]
    where = ".".join(str(p) for p in first.get("loc", ()))
    error = BadMessage(f"{where}: {first.get('msg', 'invalid')}" if where else first["msg"])
    error.ref = ref  # type: ignore[attr-defined]
    return error


# -- the live tables, as the socket needs them ------------------------------------------------


class Tables(Protocol):
    """The live tables of the app (``tables.TableRegistry``, or ``cluster.ClusteredRegistry``
    with several processes), as the socket reaches them: without importing them, so that the
    tables may use the messages and the hub defined down here."""

    async def handle(self, message: TableMessage, connection: Watcher, ref: Any) -> None:
        """Have the table's actor answer a validated ``table.*`` message."""

    async def closed(self, connection: Watcher) -> None:
        """A socket of this process closed."""

    async def follow_game(self, game_id: str) -> None:
        """A socket of this process opens a patience game (before it is shown the position)."""


def _tables(socket: WebSocket) -> Tables:
    tables: Tables = socket.app.state.tables
    return tables


# -- the endpoint ---------------------------------------------------------------------------


DEFAULT_PORTS = {"http": 80, "https": 443}
WEB_SCHEMES = {"ws": "http", "wss": "https"}
"""The page's scheme that belongs to a socket's: a page on ``https`` opens ``wss``."""

OriginKey = tuple[str, str, int]


def origin_key(url: str) -> OriginKey | None:
    """``(scheme, host, port)`` of an origin, the default port filled in; ``None`` for anything
    that is not an ``http``/``https`` origin (``null``, garbage)."""
    parts = urlsplit(url)
    try:
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname:
        return None
    return parts.scheme, parts.hostname.lower(), port or DEFAULT_PORTS[parts.scheme]


def origin_allowed(socket: WebSocket, allowed: list[str]) -> bool:
    """Browsers always send ``Origin``: it must be this server's own or a configured one, the
    same scheme, host and port (a plain-``http`` page on the same host is another origin: a
    network attacker can write into it)."""
    origin = socket.headers.get("origin")
    if origin is None:
        return True  # not a browser: a cross-site page cannot open a socket without Origin
    key = origin_key(origin)
    if key is None:
        return False
    scheme = WEB_SCHEMES.get(socket.url.scheme, "http")
    own = origin_key(f"{scheme}://{socket.headers.get('host', '')}")
    return key == own or key in {origin_key(url) for url in allowed}


async def refuse(socket: WebSocket, code: int, reason: str) -> None:
    """Refuse a handshake with a close code the browser can read.

    Closing before accepting makes the server answer HTTP 403, which a browser reports as a
    failed connection with code 1006: the page could not tell "log in again" from "another
    site". So the socket is accepted and at once closed with the code of the reason.
    """
    log.info("ws_refused", reason=reason, code=code, origin=socket.headers.get("origin"))
    await socket.accept()
    await socket.close(code)


@router.websocket("/ws")
async def websocket_endpoint(socket: WebSocket) -> None:
    """One player's socket: read messages until it closes."""
    platform: Platform = socket.app.state.platform
    if not origin_allowed(socket, platform.settings.ALLOWED_ORIGINS):
        await refuse(socket, CLOSE_POLICY, "origin")
        return
    login = await platform.sessions.resolve(socket.cookies.get(SESSION_COOKIE))
    if login is None:
        await refuse(socket, CLOSE_NO_SESSION, "no_session")
        return
    address = client_address(socket)
    if not platform.hub.has_room(login, address, platform.settings):
        await refuse(socket, CLOSE_TOO_MANY_SOCKETS, "too_many_sockets")
        return
    # Counted before the accept (which waits): two handshakes at once cannot both take the last
    # place.
    connection = Connection(socket, login, address)
    platform.hub.add(connection)
    try:
        await socket.accept()
        await _serve(platform, connection)
    finally:
        platform.hub.remove(connection)
        # With several processes, the owners of the tables it watched forget it too.
        await _tables(socket).closed(connection)


async def _serve(platform: Platform, connection: Connection) -> None:
    while True:
        try:
            frame = await connection.socket.receive()
        except (WebSocketDisconnect, RuntimeError):
            return
        if frame["type"] == "websocket.disconnect":
            return
        began = time.perf_counter()
        await _answer(platform, connection, frame)
        platform.timing("message", (time.perf_counter() - began) * 1000)


async def _answer(platform: Platform, connection: Connection, frame: Mapping[str, Any]) -> None:
    ref: Any = None
    try:
        if not platform.limits.allow_message(connection.login.account_id):
            raise ServiceError("rate_limited", "too many messages: slow down")
        text = frame.get("text")
        if text is None:
            raise BadMessage("send text frames holding JSON")
        if too_deep(text):
            # Before anything parses it: a parser would fail with RecursionError.
            raise BadMessage(f"JSON nested too deep (more than {MAX_JSON_DEPTH} levels)")
        if json_text_holds_nul(text):
            ref = message_ref(text)
            raise BadMessage(NUL_REFUSAL)
        message, ref = read_message(text)
        await _dispatch(platform, connection, message, ref)
    except BadMessage as exc:
        await connection.send(_error("bad_message", str(exc), getattr(exc, "ref", ref)))
    except ServiceError as exc:
        await connection.send(_error(exc.code, exc.message, ref))
    except Exception:
        # A fault of the server (say, the database went away): nothing was saved or shown, the
        # player hears about it, and the socket stays usable.
        log.exception("ws_failed", socket=connection.id)
        await connection.send(_error("server_error", "the server failed; nothing changed", ref))


def _error(code: str, message: str, ref: Any) -> dict[str, Any]:
    error = {"type": "error", "code": code, "message": message}
    return {**error, "ref": ref} if ref is not None else error


async def _dispatch(
    platform: Platform, connection: Connection, message: ClientMessage, ref: Any
) -> None:
    games, account = platform.games, connection.login.account_id
    origin = Origin(connection, ref)
    match message:
        case PingMessage():
            await connection.send(with_ref({"type": "pong"}, ref))
        case _TableMessage():
            # A table's own actor answers, in its order (tables.py; cluster.py routes it).
            await _tables(connection.socket).handle(message, connection, ref)
        case OpenMessage(game_id=game_id, last_seq=last_seq, changes=changes):
            connection.wants_changes = connection.wants_changes or changes

            async def deliver(messages: list[dict[str, Any]]) -> None:
                platform.hub.watch(connection, game_id)
                for outgoing in messages:
                    await connection.send(with_ref(outgoing, ref))

            # Followed before the position is read: with several processes, every entry the
            # others did not publish (they knew no other follower) is committed by then
            # (cluster.py). Only its owner follows a game: ``open`` refuses anybody else first.
            await games.open(account, game_id)
            connection.games.add(game_id)  # follows from now (before it watches: cluster.py)
            await _tables(connection.socket).follow_game(game_id)
            await games.catch_up(account, game_id, last_seq, deliver)
        case MoveMessage(game_id=game_id, move=move, seq=seq):
            await games.move(account, game_id, move, seq, origin)
        case UndoMessage(game_id=game_id, seq=seq):
            await games.undo(account, game_id, seq, origin)
        case RedoMessage(game_id=game_id, seq=seq):
            await games.redo(account, game_id, seq, origin)
        case HintMessage(game_id=game_id):
            hint = await games.hint(account, game_id)
            reply: dict[str, Any] = {
                "type": "hint",
                "game_id": game_id,
                "move": hint.move,
                "text": hint.text_key,
            }
            if hint.verdict is not None:
                reply["verdict"] = hint.verdict
            if hint.undo_to is not None:
                reply["undo_to"] = hint.undo_to
            await connection.send(with_ref(reply, ref))
