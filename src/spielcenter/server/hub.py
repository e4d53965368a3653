"""The connection hub: the open sockets of this process, who watches which game or table, and
the fan-out of events to them (docs/protocol.md).

The hub holds connections and sends; it knows no message but the ``game_id`` of an event it
publishes. The WebSocket endpoint (``websocket.py``) adds and removes sockets, a table's actor
(``tables.py``) fans its events out through it, and with several processes the registry of
``cluster.py`` keeps the sockets of the other processes here too.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import types
from collections import Counter
from collections.abc import Coroutine, Generator
from dataclasses import dataclass, field
from typing import Any, Protocol

from fastapi import WebSocket
from starlette.websockets import WebSocketDisconnect, WebSocketState

from spielcenter.services.common import compact_json
from spielcenter.services.games import CHANGES, Event
from spielcenter.services.sessions import Login
from spielcenter.settings import Settings

__all__ = [
    "CLOSE_GOING_AWAY",
    "CLOSE_NO_SESSION",
    "Connection",
    "Hub",
    "Origin",
    "Watcher",
    "with_ref",
]

SEND_TIMEOUT_S = 5.0
CLOSE_GOING_AWAY = 1001
CLOSE_NO_SESSION = 4401
"""Closing code when the socket has no live session (never had one, or it was ended)."""


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
    wants_changes: bool = False
    """The client asked (``open`` with ``changes``) for events with what changed instead of
    the whole view (docs/protocol.md, "What changed")."""

    async def send(self, message: dict[str, Any]) -> None:
        """Send one message; a socket too slow to take it within the timeout is closed."""
        await self.send_text(encode(message))

    async def send_text(self, text: str) -> None:
        """Send one message already encoded (:func:`encode`), as :meth:`send` does."""
        async with self.send_lock:
            if self.socket.application_state is not WebSocketState.CONNECTED:
                return
            try:
                await _within(SEND_TIMEOUT_S, self.socket.send_text(text))
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
        """Send a committed event to every watcher of its game, and to whoever asked for it.

        The event is encoded once for all of this process's sockets (the asker's copy only
        gains its ``ref``): a patience entry is the hot path.
        """
        watchers = set(self.watchers.get(event["game_id"], ()))
        asker = origin if isinstance(origin, Origin) else None
        if asker is not None:
            watchers.add(asker.connection)
        forms = _EventForms(event)
        for connection in watchers:
            ref = asker.ref if asker is not None and connection is asker.connection else None
            if not isinstance(connection, Connection):
                await connection.send(with_ref(forms.whole, ref))
                continue
            text = forms.text(connection.wants_changes)
            await connection.send_text(text if ref is None else text_with_ref(text, ref))

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


class _EventForms:
    """A game event as each socket takes it: with its whole ``view``, or (the sockets that
    asked) with its ``changes`` when it has them; each form encoded at most once."""

    def __init__(self, event: dict[str, Any]) -> None:
        self.event = event
        # The game service writes the form with changes itself (services/games.py, Event).
        compact = event.compact if isinstance(event, Event) else None
        self.encoded: dict[bool, str] = {} if compact is None else {True: compact}

    @property
    def whole(self) -> dict[str, Any]:
        """The event with its whole view."""
        return {k: v for k, v in self.event.items() if k != CHANGES}

    def text(self, wants_changes: bool) -> str:
        # Each form built only when a socket takes it (a patience event has one watcher).
        compact = wants_changes and CHANGES in self.event
        text = self.encoded.get(compact)
        if text is None:
            form = {k: v for k, v in self.event.items() if k != "view"} if compact else self.whole
            text = self.encoded[compact] = encode(form)
        return text


async def _within(seconds: float, send: Coroutine[Any, Any, None]) -> None:
    """Await ``send``, at most ``seconds`` once it has to wait (``TimeoutError`` then).

    Its first step runs at once: a send that finds room in the socket's buffer (nearly every
    one) is over before it could wait, and needs no timer. One that waits goes on under
    ``asyncio.timeout`` on the sending task itself (``wait_for`` would run it as a task of its
    own). A timer made and cancelled for every event was ≈ 3 % of an entry's CPU
    (docs/performance.md, "CPU per entry after the batches").
    """
    try:
        waiting_for = send.send(None)
    except StopIteration:
        return
    async with asyncio.timeout(seconds):
        await _go_on(send, waiting_for)


@types.coroutine
def _go_on(send: Coroutine[Any, Any, None], waiting_for: Any) -> Generator[Any, Any, None]:
    """The rest of a coroutine whose first step yielded ``waiting_for``, as ``await`` would
    run it: what the task sends or throws in goes on to it."""
    while True:
        try:
            answer = yield waiting_for
        except BaseException as thrown:  # the timeout's cancellation, or the task's
            try:
                waiting_for = send.throw(thrown)
            except StopIteration:
                return
            continue
        try:
            waiting_for = send.send(answer)
        except StopIteration:
            return


def _count_down(counter: Counter[Any], key: Any) -> None:
    counter[key] -= 1
    if counter[key] <= 0:
        del counter[key]  # no key stays behind for a session or address without sockets


def encode(message: dict[str, Any]) -> str:
    """A message as the socket sends it: compact JSON, as Starlette's ``send_json`` writes."""
    return compact_json(message)


def text_with_ref(text: str, ref: Any) -> str:
    """An encoded message with the ``ref`` of the client message it answers, added at its end
    (an encoded message is a JSON object: it ends with ``}``)."""
    written = str(ref) if type(ref) is int else compact_json(ref)  # a client's id: mostly a number
    return f'{text[:-1]},"ref":{written}}}'


def with_ref(message: dict[str, Any], ref: Any) -> dict[str, Any]:
    """``message`` with the ``ref`` of the client message it answers (if that had an ``id``)."""
    return {**message, "ref": ref} if ref is not None else message
