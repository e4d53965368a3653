"""A socket too slow to take a message within the send timeout is closed as going away, and
the sender goes on (server/hub.py)."""

from __future__ import annotations

import asyncio

import pytest
from starlette.websockets import WebSocketState

from spielcenter.server import hub
from spielcenter.server.hub import CLOSE_GOING_AWAY, Connection


class StuckSocket:
    """A socket whose peer never reads: a send never completes."""

    application_state = WebSocketState.CONNECTED

    def __init__(self) -> None:
        self.closed_with: int | None = None

    async def send_text(self, _text: str) -> None:
        await asyncio.Event().wait()

    async def close(self, code: int) -> None:
        self.closed_with = code
        self.application_state = WebSocketState.DISCONNECTED


async def test_a_socket_that_takes_no_message_within_the_timeout_is_closed_as_going_away(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(hub, "SEND_TIMEOUT_S", 0.05)
    socket = StuckSocket()
    connection = Connection(socket, login=None)  # type: ignore[arg-type]  # sending needs none
    await asyncio.wait_for(connection.send({"type": "pong"}), 2)
    assert socket.closed_with == CLOSE_GOING_AWAY
    await connection.send({"type": "pong"})  # a closed socket is not sent to again


class SlowSocket(StuckSocket):
    """A socket whose peer reads a little late: a send waits, then completes."""

    def __init__(self) -> None:
        super().__init__()
        self.sent: list[str] = []

    async def send_text(self, text: str) -> None:
        await asyncio.sleep(0.01)
        await asyncio.sleep(0)
        self.sent.append(text)


async def test_a_send_that_waits_less_than_the_timeout_arrives_and_the_socket_stays_open(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A send runs its first step at once and is timed only from where it waits
    # (server/hub.py, _within): what it waits for reaches it, and its result comes back.
    monkeypatch.setattr(hub, "SEND_TIMEOUT_S", 1.0)
    socket = SlowSocket()
    connection = Connection(socket, login=None)  # type: ignore[arg-type]  # sending needs none
    await connection.send({"type": "pong"})
    await connection.send({"type": "pong", "ref": 2})
    assert socket.sent == ['{"type":"pong"}', '{"type":"pong","ref":2}']
    assert socket.closed_with is None


async def test_a_sender_cancelled_while_its_send_waits_is_cancelled_not_timed_out() -> None:
    # The server shutting down cancels the tasks that send: that is no slow socket to close.
    socket = StuckSocket()
    connection = Connection(socket, login=None)  # type: ignore[arg-type]  # sending needs none
    sending = asyncio.ensure_future(connection.send({"type": "pong"}))
    await asyncio.sleep(0.01)
    sending.cancel()
    with pytest.raises(asyncio.CancelledError):
        await sending
    assert socket.closed_with is None
