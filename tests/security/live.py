"""The app under a real uvicorn on a loopback port, in a thread of the test, for what only a
real server shows (a handshake refused before it is accepted becomes an HTTP 403 there, which a
browser reports as a failed connection without any close code)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import uvicorn
from fastapi import FastAPI

from ..backends import free_port

START_TIMEOUT_S = 30.0


@contextmanager
def served(app: FastAPI, **options: Any) -> Iterator[str]:
    """``app`` listening on loopback while the block runs (``options`` are uvicorn's); its
    ``host:port``."""
    port = free_port()
    config = uvicorn.Config(app, port=port, log_level="warning", lifespan="on", **options)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + START_TIMEOUT_S
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.02)
    try:
        yield f"127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=START_TIMEOUT_S)
