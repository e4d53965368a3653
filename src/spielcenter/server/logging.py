"""Structured logs: JSON lines in production, readable console lines in development."""

from __future__ import annotations

import logging
import time
from typing import Any

import structlog
from starlette.types import ASGIApp, Message, Receive, Scope, Send


def configure_logging(development: bool) -> None:
    """Set up structlog (and route the standard library's records through the same level)."""
    renderer: Any = (
        structlog.dev.ConsoleRenderer() if development else structlog.processors.JSONRenderer()
    )
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            structlog.processors.format_exc_info,
            renderer,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(logging.INFO),
        cache_logger_on_first_use=True,
    )


log = structlog.get_logger("spielcenter.server")


class AccessLog:
    """ASGI middleware writing one line per HTTP request: method, path, status, duration."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500

        async def send_and_note(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, send_and_note)
        finally:
            log.info(
                "http",
                method=scope["method"],
                path=scope["path"],
                status=status,
                ms=round((time.perf_counter() - started) * 1000, 1),
            )
