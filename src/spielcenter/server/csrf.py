"""CSRF protection: every state-changing request repeats its session's token in a header.

A page of another site can make the browser send our cookie, but it cannot read ``/api/me`` to
learn the token, so it cannot set the header.
"""

from __future__ import annotations

import hmac

from fastapi import Request

from spielcenter.services.sessions import Login

from .errors import ApiError

CSRF_HEADER = "X-CSRF-Token"


def check_csrf(request: Request, login: Login) -> None:
    """Raise ``403 csrf`` unless the request carries the session's CSRF token."""
    sent = request.headers.get(CSRF_HEADER, "")
    if not sent or not hmac.compare_digest(sent.encode(), login.csrf.encode()):
        raise ApiError(403, "csrf", f"missing or wrong {CSRF_HEADER} header (see GET /api/me)")
