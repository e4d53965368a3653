"""A person finds the lobby tables she sits at that have not started (``state=waiting``): a
private one is listed nowhere else."""

from __future__ import annotations

from collections.abc import Callable

from fastapi.testclient import TestClient

from .lobby_helpers import accounts, get, join, lobby_table
from .tables_helpers import devices, make_table_app

__all__ = ["devices", "make_table_app"]  # fixtures used by the tests below


def test_her_waiting_tables_are_those_she_sits_at_that_have_not_started(
    devices: Callable[..., TestClient],
) -> None:
    device = devices()
    anna, bea = accounts(device, 2)
    private = lobby_table(device, anna, private=True)
    started = lobby_table(device, anna)
    join(device, bea, started["id"])
    waiting = get(device, anna, "/api/tables?state=waiting")["tables"]
    assert [table["id"] for table in waiting] == [private["id"]]
    assert get(device, bea, "/api/tables?state=waiting")["tables"] == []
    assert get(device, anna, "/api/lobby")["tables"] == []  # private: listed nowhere else
