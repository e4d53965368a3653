"""permessage-deflate per message (server/deflate.py): a message under the threshold goes as it
is, a larger one compressed, and a standard client (websockets' own, as a browser) reads both."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import pytest
import websockets
from starlette.applications import Starlette
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket
from websockets.client import ClientProtocol
from websockets.extensions.permessage_deflate import (
    ClientPerMessageDeflateFactory,
    PerMessageDeflate,
)
from websockets.frames import CTRL_OPCODES, Frame
from websockets.server import ServerProtocol
from websockets.uri import parse_uri

from spielcenter.cli.serve import socket_options
from spielcenter.server.deflate import (
    DEFAULT_MIN_BYTES,
    SocketProtocol,
    ThresholdDeflate,
    ThresholdDeflateFactory,
    protocol,
)
from spielcenter.settings import Settings

from ..security.live import served

SMALL = json.dumps({"type": "event", "game_id": "g" * 32, "seq": 7, "changes": {"legal": ["1a"]}})
"""A patience event with what changed: well under the threshold."""


def big(seq: int) -> str:
    """A table's event with its view: a few kB of JSON, much of it as in the one before."""
    view = {"quilts": [[f"patch-{seat}-{k}" for k in range(40)] for seat in range(4)]}
    legal = [f"sew {k} at {k % 9},{k % 7}" for k in range(60)]
    return json.dumps({"type": "table.event", "seq": seq, "view": view, "legal": legal})


def agreed_pair(min_bytes: int = DEFAULT_MIN_BYTES) -> tuple[ServerProtocol, ClientProtocol]:
    """A server and a standard client (websockets' defaults, as a browser offers) that agreed on
    permessage-deflate in memory: the server's side is :class:`ThresholdDeflate`."""
    client = ClientProtocol(
        parse_uri("ws://example.test/ws"),
        extensions=[ClientPerMessageDeflateFactory(compress_settings={"memLevel": 5})],
    )
    server = ServerProtocol(
        extensions=[ThresholdDeflateFactory(min_bytes, server_max_window_bits=12)]
    )
    request = client.connect()
    client.send_request(request)
    server.receive_data(b"".join(client.data_to_send()))
    (received,) = server.events_received()
    server.send_response(server.accept(received))
    client.receive_data(b"".join(server.data_to_send()))
    client.events_received()
    assert isinstance(server.extensions[0], ThresholdDeflate)
    assert isinstance(client.extensions[0], PerMessageDeflate)
    return server, client


def sent(server: ServerProtocol, client: ClientProtocol, text: str) -> tuple[bytes, str]:
    """``text`` sent by the server: its frame on the wire, and what the client read from it."""
    server.send_text(text.encode())
    wire = b"".join(server.data_to_send())
    client.receive_data(wire)
    (frame,) = client.events_received()
    assert isinstance(frame, Frame)
    return wire, bytes(frame.data).decode()


def rsv1(wire: bytes) -> bool:
    """RFC 7692: RSV1 set on a message's first frame means it is compressed."""
    return bool(wire[0] & 0x40)


def test_rfc7692_a_small_message_goes_uncompressed_and_a_standard_client_reads_it() -> None:
    server, client = agreed_pair()
    wire, read = sent(server, client, SMALL)
    assert len(SMALL) < DEFAULT_MIN_BYTES
    assert not rsv1(wire)
    assert wire[2:] == SMALL.encode()  # the JSON itself after a two-byte header
    assert read == SMALL


def test_rfc7692_a_large_message_is_compressed_and_read_back_whole() -> None:
    server, client = agreed_pair()
    text = big(1)
    wire, read = sent(server, client, text)
    assert len(text) >= DEFAULT_MIN_BYTES
    assert rsv1(wire)
    assert len(wire) < len(text) / 3
    assert read == text


def test_context_takeover_survives_uncompressed_messages_between_compressed_ones() -> None:
    """Neither side's compression context sees a message sent as it is: the next compressed
    one still decodes, and still gains from the one compressed before it."""
    server, client = agreed_pair()
    first, _ = sent(server, client, big(1))
    sizes = []
    for seq in range(2, 12):
        small = SMALL.replace('"seq": 7', f'"seq": {seq}')
        wire, read = sent(server, client, small)
        assert not rsv1(wire) and read == small
        wire, read = sent(server, client, big(seq))
        assert rsv1(wire) and read == big(seq)
        sizes.append(len(wire))
    assert max(sizes) < len(first) / 2  # the window held the message before


def test_a_threshold_of_zero_compresses_every_message_as_uvicorn_did() -> None:
    server, client = agreed_pair(min_bytes=0)
    for text in (SMALL, big(1), "{}"):
        wire, read = sent(server, client, text)
        assert rsv1(wire) and read == text


def test_a_client_that_offers_no_deflate_gets_every_message_as_it_is() -> None:
    client = ClientProtocol(parse_uri("ws://example.test/ws"))
    server = ServerProtocol(extensions=[ThresholdDeflateFactory(DEFAULT_MIN_BYTES)])
    client.send_request(client.connect())
    server.receive_data(b"".join(client.data_to_send()))
    (request,) = server.events_received()
    server.send_response(server.accept(request))
    client.receive_data(b"".join(server.data_to_send()))
    client.events_received()
    assert server.extensions == []
    wire, read = sent(server, client, big(1))
    assert not rsv1(wire) and read == big(1)


# -- under uvicorn --------------------------------------------------------------------------


async def _speak(socket: WebSocket) -> None:
    await socket.accept()
    await socket.send_text(SMALL)
    await socket.send_text(big(1))
    await socket.close()


APP = Starlette(routes=[WebSocketRoute("/ws", _speak)])


class _Noting(PerMessageDeflate):
    """The client's side, noting the RSV1 bit of every data frame as it arrived."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.compressed: list[bool] = []

    def decode(self, frame: Frame, *, max_size: int | None = None) -> Frame:
        if frame.opcode not in CTRL_OPCODES:
            self.compressed.append(frame.rsv1)
        return super().decode(frame, max_size=max_size)


class _NotingFactory(ClientPerMessageDeflateFactory):
    def process_response_params(self, params: Any, accepted_extensions: Any) -> PerMessageDeflate:
        agreed = super().process_response_params(params, accepted_extensions)
        return _Noting(
            agreed.remote_no_context_takeover,
            agreed.local_no_context_takeover,
            agreed.remote_max_window_bits,
            agreed.local_max_window_bits,
        )


async def _read_both(address: str) -> tuple[list[str], list[bool]]:
    factory = _NotingFactory(compress_settings={"memLevel": 5})
    async with websockets.connect(
        f"ws://{address}/ws", compression=None, extensions=[factory]
    ) as socket:
        texts = [await socket.recv(), await socket.recv()]
        (noting,) = socket.protocol.extensions
        assert isinstance(noting, _Noting)
        return [str(t) for t in texts], noting.compressed


@pytest.fixture
def threshold_server() -> Iterator[str]:
    with served(APP, ws=protocol(DEFAULT_MIN_BYTES)) as address:  # type: ignore[arg-type]
        yield address


async def test_under_uvicorn_a_small_message_goes_as_it_is_and_a_large_one_compressed(
    threshold_server: str,
) -> None:
    texts, compressed = await asyncio.wait_for(_read_both(threshold_server), 30)
    assert texts == [SMALL, big(1)]
    assert compressed == [False, True]


def test_serve_runs_uvicorn_with_the_settings_threshold() -> None:
    """``spielcenter serve`` hands uvicorn the protocol with ``DEFLATE_MIN_BYTES``."""
    chosen = socket_options(Settings(DEFLATE_MIN_BYTES=100))["ws"]
    assert issubclass(chosen, SocketProtocol) and chosen.min_bytes == 100
    assert socket_options(Settings())["ws"].min_bytes == DEFAULT_MIN_BYTES
