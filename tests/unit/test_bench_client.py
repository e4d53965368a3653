"""bench/server.py's own WebSocket client (``LeanSocket``) speaks the protocol a browser speaks
to the server: RFC 6455 frames, masked, with permessage-deflate (RFC 7692) agreed as websockets
offers it. Checked against uvicorn's WebSocket server (the benchmark's bare echo), which
compresses every message it sends and rejects an unmasked or badly compressed frame."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from bench.server import LeanSocket, free_port, start_echo, wait_until_up


async def _echoed(folder: Path, texts: list[str]) -> list[tuple[str, int]]:
    port = free_port()
    echo = start_echo(port, str(folder))
    try:
        await wait_until_up(f"http://127.0.0.1:{port}/")
        socket = await LeanSocket.open(f"ws://127.0.0.1:{port}/", {})
        answers = []
        for text in texts:  # each one compressed on its way, in one context (context takeover)
            await socket.send(text)
            answers.append(await socket.received())
        await socket.close()
        return answers
    finally:
        echo.terminate()
        echo.wait(10)


def test_the_lean_client_s_messages_come_back_as_sent_through_deflate(tmp_path: Path) -> None:
    """RFC 6455/7692: what it sends masked and compressed, the server reads; what the server
    sends compressed (uvicorn compresses everything), it reads; and it tells the bytes each
    message took on the wire, frame header included."""
    small = json.dumps({"type": "move", "game_id": "x" * 32, "move": "3f", "id": 1})
    large = json.dumps({"view": ["Kreuz Dame"] * 300, "seq": 2})  # 4 kB: a 2-byte length
    answers = asyncio.run(_echoed(tmp_path, [small, large, large, "Grüße, ♣"]))
    assert [text for text, _ in answers] == [small, large, large, "Grüße, ♣"]
    wire = [size for _, size in answers]
    assert wire[1] < len(large) // 10  # compressed: 300 times the same card
    assert wire[2] < wire[1]  # the same message again: the context remembers it
