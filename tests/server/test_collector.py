"""The served app and the garbage collector (docs/performance.md, "The stalls at 1 000
players"): what lives as long as the process is frozen once started, and the oldest generation,
which holds every live game and socket, is collected rarely."""

from __future__ import annotations

import gc

from fastapi.testclient import TestClient

from spielcenter.server.app import OLDEST_AFTER, create_app
from spielcenter.settings import Settings

from .conftest import CHEAP, FakeClock
from .ladder import resolve


def test_a_served_app_freezes_its_start_and_collects_the_oldest_generation_rarely(
    settings: Settings, clock: FakeClock
) -> None:
    thresholds = gc.get_threshold()
    app = create_app(
        settings, resolve=resolve, clock=clock, password_hasher=CHEAP, freeze_startup_heap=True
    )
    try:
        with TestClient(app):
            assert gc.get_freeze_count() > 0
            assert gc.get_threshold() == (*thresholds[:2], OLDEST_AFTER)
            assert OLDEST_AFTER > 10  # CPython's default
    finally:  # the rest of the test process collects as before
        gc.unfreeze()
        gc.set_threshold(*thresholds)
