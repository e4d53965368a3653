"""Deal numbers a client may ask for, and the random ones the server draws: one rule for solo
games (``services/games.py``) and practice tables (``services/tables.py``)."""

from __future__ import annotations

import secrets

from spielcenter.games.shuffle import DealNumberError, check_deal

from .common import ServiceError

__all__ = ["MAX_CLIENT_DEAL", "RANDOM_DEALS", "client_deal", "random_deal"]

RANDOM_DEALS = 999_999_999
"""Random deals are drawn from 1 … this: short enough to read out and retype."""
MAX_CLIENT_DEAL = 2**53 - 1
"""Deal numbers the browser can hold exactly (JavaScript numbers are doubles)."""


def random_deal() -> int:
    """A deal number drawn at random from 1 … :data:`RANDOM_DEALS`."""
    return secrets.randbelow(RANDOM_DEALS) + 1


def client_deal(deal: int) -> int:
    """``deal`` if a client may ask for it, else ``bad_request`` saying why."""
    try:
        check_deal(deal)
    except DealNumberError as exc:
        raise ServiceError("bad_request", str(exc)) from exc
    if deal > MAX_CLIENT_DEAL:
        raise ServiceError("bad_request", f"deal numbers go up to {MAX_CLIENT_DEAL} here")
    return deal
