"""The WebSocket protocol of docs/protocol.md: open, move, undo, redo, hint, ping.

Each socket belongs to one session. A refused message gets an ``error`` reply and changes
nothing; the socket stays open. Committed events go to every socket watching the game, in
``seq`` order (the game service publishes them while the game is locked).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, Protocol
from urllib.parse import urlsplit

from fastapi import APIRouter, WebSocket
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError
from starlette.websockets import WebSocketDisconnect, WebSocketState

from spielcenter.services.common import ServiceError
from spielcenter.services.sessions import Login
from spielcenter.settings import Settings

from .addresses import client_address
from .deps import SESSION_COOKIE, Platform
from .logging import log
from .nul import REFUSAL as NUL_REFUSAL
from .nul import json_text_holds_nul, message_ref

MAX_MESSAGE_BYTES = 8 * 1024
MAX_JSON_DEPTH = 32
"""The deepest nesting of arrays and objects a message may have. The protocol's messages are two
levels deep; Python's parser gives up (``RecursionError``) near a thousand, which 8 KiB reach."""
SEND_TIMEOUT_S = 5.0
CLOSE_GOING_AWAY = 1001
CLOSE_POLICY = 1008
"""Closing code when the page's ``Origin`` is neither this server's nor an allowed one."""
CLOSE_NO_SESSION = 4401
"""Closing code when the socket has no live session (never had one, or it was ended)."""
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
tests/conformance/test_speedquilt_conformance.py checks every legal move of random games)."""


class _GameMessage(_Message):
    game_id: str = Field(min_length=1, max_length=64)


class OpenMessage(_GameMessage):
    """Subscribe to a game; with ``last_seq`` only what was missed."""

    type: Literal["open"]
    last_seq: int | None = Field(default=None, ge=0)


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


ClientMessage = Annotated[
    OpenMessage | MoveMessage | UndoMessage | RedoMessage | HintMessage | PingMessage,
    Field(discriminator="type"),
]
_client_message: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)


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


def _bad(exc: ValidationError, ref: Any) -> BadMessage:
    first = exc.errors()[0]
    where = ".".join(str(p) for p in first.get("loc", ()))
    error = BadMessage(f"{where}: {first.get('msg', 'invalid')}" if where else first["msg"])
    error.ref = ref  # type: ignore[attr-defined]
    return error


# -- sockets and who watches what -------------------------------------------------------------


class Watcher(Protocol):
    """What the hub and a table's actor need of a socket: its login, an id, what it watches,
    and sending. A :class:`Connection` is a socket of this process; with several processes a
    table's owner also holds the sockets of other processes (``server/cluster.py``)."""

    login: Login
    id: str
    games: set[str]

    async def send(self, message: dict[str, Any]) -> None:
        """Send one message to the socket."""


@dataclass(eq=False)
class Connection:
    """One open socket of one session, from one client address (``server/addresses.py``)."""

    socket: WebSocket
    login: Login
    address: str = ""
    id: str = field(default_factory=lambda: secrets.token_hex(8))
    games: set[str] = field(default_factory=set)
    send_lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    async def send(self, message: dict[str, Any]) -> None:
        """Send one message; a socket too slow to take it within the timeout is closed."""
        async with self.send_lock:
            if self.socket.application_state is not WebSocketState.CONNECTED:
                return
            try:
                await asyncio.wait_for(self.socket.send_json(message), SEND_TIMEOUT_S)
            except (TimeoutError, RuntimeError, WebSocketDisconnect):
                await self.close(CLOSE_GOING_AWAY)

    async def close(self, code: int) -> None:
        """Close the socket (if it is still open)."""
        if self.socket.application_state is WebSocketState.CONNECTED:
            # The other side may already be gone; then there is nothing left to close.
            with contextlib.suppress(RuntimeError):
                await self.socket.close(code)


@dataclass(frozen=True)
class Origin:
    """Who asked for an event: that socket gets it with ``ref``."""

    connection: Connection
    ref: Any


class Hub:
    """The open sockets, by game and by session: fan-out of events, closing on logout."""

    def __init__(self) -> None:
        self.connections: set[Connection] = set()
        self.watchers: dict[str, set[Watcher]] = {}
        # Open sockets per session and per address, for the limits of the handshake.
        self.per_session: Counter[int] = Counter()
        self.per_address: Counter[str] = Counter()

    def has_room(self, login: Login, address: str, settings: Settings) -> bool:
        """Whether the session and the address may open one more socket in this process."""
        return (
            self.per_session[login.session_id] < settings.SOCKETS_PER_SESSION
            and self.per_address[address] < settings.SOCKETS_PER_ADDRESS
        )

    def add(self, connection: Connection) -> None:
        """A socket opened."""
        self.connections.add(connection)
        self.per_session[connection.login.session_id] += 1
        self.per_address[connection.address] += 1

    def remove(self, connection: Watcher) -> None:
        """A socket closed: it watches nothing any more."""
        if isinstance(connection, Connection) and connection in self.connections:
            self.connections.discard(connection)
            _count_down(self.per_session, connection.login.session_id)
            _count_down(self.per_address, connection.address)
        for game_id in connection.games:
            watchers = self.watchers.get(game_id)
            if watchers is not None:
                watchers.discard(connection)
                if not watchers:
                    del self.watchers[game_id]

    def unwatch(self, connection: Watcher, game_id: str) -> None:
        """``connection`` no longer receives the events of ``game_id``."""
        connection.games.discard(game_id)
        watchers = self.watchers.get(game_id)
        if watchers is not None:
            watchers.discard(connection)
            if not watchers:
                del self.watchers[game_id]

    def watches(self, game_id: str) -> bool:
        """Whether a socket watches ``game_id`` (a game or a table's key)."""
        return game_id in self.watchers

    def watch(self, connection: Watcher, game_id: str) -> None:
        """``connection`` receives the events of ``game_id`` from now on."""
        connection.games.add(game_id)
        self.watchers.setdefault(game_id, set()).add(connection)

    async def publish(self, event: dict[str, Any], origin: object) -> None:
        """Send a committed event to every watcher of its game, and to whoever asked for it."""
        watchers = set(self.watchers.get(event["game_id"], ()))
        asker = origin if isinstance(origin, Origin) else None
        if asker is not None:
            watchers.add(asker.connection)
        for connection in watchers:
            mine = asker is not None and connection is asker.connection
            reply = _with_ref(event, asker.ref) if asker is not None and mine else event
            await connection.send(reply)

    async def close_session(self, session_id: int) -> None:
        """Close the sockets of an ended session."""
        await self._close([c for c in self.connections if c.login.session_id == session_id])

    async def close_account(self, account_id: str) -> None:
        """Close every socket of an account (logout everywhere)."""
        await self._close([c for c in self.connections if c.login.account_id == account_id])

    async def close_all(self) -> None:
        """Close every socket: the server is shutting down."""
        await self._close(list(self.connections), CLOSE_GOING_AWAY)

    async def _close(self, connections: list[Connection], code: int = CLOSE_NO_SESSION) -> None:
        for connection in connections:
            await connection.close(code)


def _count_down(counter: Counter[Any], key: Any) -> None:
    counter[key] -= 1
    if counter[key] <= 0:
        del counter[key]  # no key stays behind for a session or address without sockets


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
        await socket.app.state.tables.closed(connection)


async def _serve(platform: Platform, connection: Connection) -> None:
    while True:
        try:
            frame = await connection.socket.receive()
        except (WebSocketDisconnect, RuntimeError):
            return
        if frame["type"] == "websocket.disconnect":
            return
        await _answer(platform, connection, frame)


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
        # Speedquilt tables have their own messages and actor (server/tables.py).
        from .tables import handle_table_message, table_request

        table = table_request(text)
        if table is not None:
            data, ref = table
            await handle_table_message(connection.socket.app.state.tables, connection, data, ref)
            return
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
            await connection.send(_with_ref({"type": "pong"}, ref))
        case OpenMessage(game_id=game_id, last_seq=last_seq):

            async def deliver(messages: list[dict[str, Any]]) -> None:
                platform.hub.watch(connection, game_id)
                for outgoing in messages:
                    await connection.send(_with_ref(outgoing, ref))

            await games.catch_up(account, game_id, last_seq, deliver)
            await connection.socket.app.state.tables.follow_game(game_id)
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
            await connection.send(_with_ref(reply, ref))


def _with_ref(message: dict[str, Any], ref: Any) -> dict[str, Any]:
    return {**message, "ref": ref} if ref is not None else message
