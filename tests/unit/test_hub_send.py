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
