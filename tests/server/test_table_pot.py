"""The pot of a table as everyone at it sees it (``GET /api/ledger/tables/{id}``), and the
setting ``CLOCK_SCALE`` that shortens every clock of a table (for the browser tests)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from spielcenter.settings import Settings

from .conftest import FakeClock
from .lobby_helpers import (
    Person,
    claimed_accounts,
    get,
    join,
    later,
    ledger,
    lobby_table,
    until_type,
)
from .tables_helpers import devices, make_table_app

__all__ = ["devices", "make_table_app"]  # fixtures used by the tests below

STAKE = 100
SCALE = 0.5


@pytest.fixture
def settings(tmp_path: Path, database_url: str | None) -> Settings:
    """The tests' settings with every clock at half its length."""
    return Settings(
        ENV="development",
        DATA_DIR=tmp_path,
        DATABASE_URL=database_url,
        SECRET_KEY="test",
        CLOCK_SCALE=SCALE,
    )


def test_with_a_clock_scale_the_think_time_and_the_grace_are_that_much_shorter(
    devices: Callable[..., TestClient], clock: FakeClock
) -> None:
    device = devices()
    start = clock.now
    table = lobby_table(device, dict(device.cookies), bots=["easy"], think=30, giving=15)
    with device.websocket_connect("/ws") as ws:
        state = Person(ws, table, 0).open()
        (running,) = state["clocks"]
        later(device, clock, table["id"], 30 * SCALE)
        beep = until_type(ws, "table.clock")[-1]
        later(device, clock, table["id"], 10 * SCALE)
        expired = until_type(ws, "table.clock")[-1]
    assert running["deadline"] == (start + timedelta(seconds=30 * SCALE)).isoformat()
    assert running["grace_until"] == (start + timedelta(seconds=40 * SCALE)).isoformat()
    assert (beep["phase"], expired["phase"]) == ("grace", "expired")


def test_the_pot_shows_every_stake_and_the_house_pays_for_the_computer(
    devices: Callable[..., TestClient],
) -> None:
    device = devices()
    anna, bea = claimed_accounts(device, 2)
    table = lobby_table(device, anna, players=3, bots=[None, "easy"], stake=STAKE)
    join(device, bea, table["id"])
    seen = get(device, bea, f"/api/ledger/tables/{table['id']}")
    (stake,) = seen["movements"]
    assert (seen["pot"], seen["stake"], stake["kind"]) == (3 * STAKE, STAKE, "stake")
    assert stake["legs"] == [
        {"who": "seat", "seat": 0, "amount": -STAKE},
        {"who": "seat", "seat": 1, "amount": -STAKE},
        {"who": "house", "seat": None, "amount": -STAKE},
        {"who": "pot", "seat": None, "amount": 3 * STAKE},
    ]


def test_at_the_end_the_pot_is_empty_and_its_payout_balances(
    devices: Callable[..., TestClient],
) -> None:
    device = devices()
    (anna,) = claimed_accounts(device, 1)
    table = lobby_table(device, anna, bots=["easy"], stake=STAKE)
    with device.websocket_connect("/ws") as ws:
        person = Person(ws, table, 0)
        person.play(person.open())
    seen = get(device, anna, f"/api/ledger/tables/{table['id']}")
    stake, payout = seen["movements"]
    places = get(device, anna, f"/api/tables/{table['id']}")["result"]["places"]
    hers = sum(leg["amount"] for leg in payout["legs"] if leg["who"] == "seat")
    assert seen["pot"] == 0
    assert [sum(leg["amount"] for leg in m["legs"]) for m in (stake, payout)] == [0, 0]
    assert hers == (2 * STAKE // places.count(1) if places[0] == 1 else 0)
    assert ledger(device, anna)["balance"] == 1000 - STAKE + hers
