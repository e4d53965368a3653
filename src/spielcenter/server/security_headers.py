"""Security headers on every HTTP response: pages, JSON, static files, errors, even a 500.

The policy allows only this origin's own files: no inline script, style or handler (the client
has none: tests/security/test_headers.py reads it, and every browser test fails on a console
"Refused to …"), no plugins, no ``<base>``, and no framing by any page (clickjacking). Setting
``element.style`` from script is the CSSOM, which ``style-src 'self'`` allows; ``connect-src
'self'`` covers the WebSocket of the same host (``ws:``/``wss:``, CSP level 3).
"""

from __future__ import annotations

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self'",
        "connect-src 'self'",
        "font-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    # frame-ancestors for browsers that do not read it yet.
    "X-Frame-Options": "DENY",
    # Other sites learn nothing of the page (a table's id, an invitation code in the address).
    "Referrer-Policy": "same-origin",
}


class SecurityHeaders:
    """ASGI middleware adding :data:`HEADERS` to every HTTP response that lacks them."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in HEADERS.items():
                    if name not in headers:
                        headers.append(name, value)
            await send(message)

        await self.app(scope, receive, send_with_headers)
