"""Speedquilt, the dice game of quilting neighbours.

``make(variant, **options)`` builds the engine (the registry calls it):

* ``table`` — 1 to 4 seats (``players=K``; one seat plays the solo rules);
* ``solo`` — one seat, 12 rounds with the giving turn; a campaign stage adds ``target``,
  ``rounds``, ``top_shelf`` / ``bottom_shelf``;
* ``daily`` — the daily quilt: one seat, ``day="2026-11-29"`` and the server's ``secret`` (bytes)
  key its dice; start it with ``dice.daily_deal(day, secret)``.

All of them are one engine with other :class:`~.options.Options`.
"""

from __future__ import annotations

from typing import Any

from spielcenter.games.base import UnknownGameError

__all__ = ["VARIANTS", "make"]

VARIANTS = ("table", "solo", "daily")


def make(variant: str, **options: Any) -> Any:
    """The Speedquilt engine for ``variant`` configured by ``options`` (see :class:`Options`).

    ``options`` may also be one ``options=Options(...)`` object; ``catalogue=`` replaces the
    built-in catalogue (for tests of odd positions).
    """
    from .options import Context, Options
    from .rules import Speedquilt

    if variant not in VARIANTS:
        raise UnknownGameError(f"unknown Speedquilt variant {variant!r}; known: {VARIANTS}")
    catalogue = options.pop("catalogue", None)
    config = options.pop("options", None)
    if config is None:
        if variant != "table":
            options.setdefault("players", 1)
        try:
            config = Options(**options)
        except TypeError as fault:
            raise UnknownGameError(f"bad Speedquilt option: {fault}") from None
    if variant != "table" and config.players != 1:
        raise UnknownGameError(f"the {variant} variant has one seat")
    if variant == "daily" and config.day is None:
        raise UnknownGameError("the daily quilt needs day= and secret=")
    if catalogue is None:
        from .catalogue import load_catalogue

        catalogue = load_catalogue()
    return Speedquilt(Context(config, catalogue), variant)
