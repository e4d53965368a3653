"""Issue 37, attacks 1 and 2: secret randomness and provable fairness (docs/security.md).

1. *A spectator computes a table's whole deal.* The decks and dice of a table used to follow from
   its deal number alone, drawn from 1 … 999 999 999 (~30 bits), and the shuffle and the dice key
   are public: from the 8 shop blocks a spectator sees, a search over that space finds the deal
   (33 CPU-seconds in C) and with it both seats' private start blocks and every roll.
2. *A chosen deal wins against the house.* ``POST /api/lobby`` took a ``deal``: rehearse it for
   free against a deterministic computer, replay the decisions at a staked table, collect.

Every lobby, staked and ranked table is now dealt from a secret seed of 32 bytes from the OS's
CSPRNG; the table shows only its commitment until the end, then reveals the seed so that anyone
can check every die and draw (``spielcenter speedquilt verify``).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient

from spielcenter.settings import Settings

from ..server.conftest import database_rows
from ..server.lobby_helpers import Person, accounts, join, lobby_table, post, socket_as
from ..server.tables_helpers import engine_of

SAMPLE = 2_000
"""Deal numbers the test's spectator tries besides the ones the server keeps for the table. The
real search sweeps all 999 999 999 in ~3 CPU-minutes of C; the test cannot, so it adds to a
random sample every deal number the table's randomness could have come from (read from the
database, as the sweep would have found it) and shows that the shop identifies it."""


def _started_lobby_table(device: TestClient) -> tuple[dict[str, Any], list[dict[str, str]]]:
    """Two people at a lobby table (started), and a third account to watch."""
    anna, bea, cleo = accounts(device, 3)
    table = lobby_table(device, anna)
    join(device, bea, table["id"])
    return table, [anna, bea, cleo]


def _deal_numbers_of(settings: Settings, table_id: str) -> list[int]:
    """Every deal number the server keeps for the table (none, for a secret seed)."""
    rows = database_rows(settings, f"SELECT deal FROM tables WHERE id = '{table_id}'")
    return [deal for (deal,) in rows if deal is not None]


def _shop_search(table: dict[str, Any], shop: dict[str, Any], candidates: list[int]) -> list[int]:
    """The spectator's search: every candidate deal number whose shop is the one she sees."""
    engine = engine_of(table)
    found = []
    for deal in candidates:
        state = engine.start(deal)
        if {str(deck): shelf for deck, shelf in state.shelves.items()} == shop:
            found.append(deal)
    return found


def test_a_spectator_cannot_compute_the_private_blocks_of_a_lobby_table_from_its_shop(
    devices: Callable[..., TestClient], settings: Settings
) -> None:
    device = devices()
    table, (anna, bea, cleo) = _started_lobby_table(device)
    with socket_as(device, cleo) as ws:
        watched = Person(ws, table, 0).open()
    hands = []
    for seat, cookies in enumerate((anna, bea)):
        with socket_as(device, cookies) as ws:
            hands.append(Person(ws, table, seat).open()["view"]["seats"][seat]["hand"])
    assert watched["seat"] is None and all(len(hand) == 4 for hand in hands)
    candidates = random.Random(37).sample(range(1, 1_000_000_000), SAMPLE)
    candidates += _deal_numbers_of(settings, table["id"])
    found = _shop_search(table, watched["view"]["shop"], candidates)
    engine = engine_of(table)
    predicted = [[engine.start(deal).seats[seat].hand for seat in (0, 1)] for deal in found]
    assert hands not in predicted, f"the shop gave away deal {found}: both seats' hands"


def test_a_lobby_table_refuses_a_chosen_deal_and_creates_nothing(
    devices: Callable[..., TestClient],
) -> None:
    device = devices()
    (anna,) = accounts(device, 1)
    before = device.get("/api/lobby").json()["tables"]
    refused = post(device, anna, "/api/lobby", {"players": 2, "stake": 500, "deal": 1002})
    assert refused.status_code == 400, refused.text
    error = refused.json()["error"]
    assert error["code"] == "deal_not_allowed"
    assert "secret seed" in error["message"] and "practice" in error["message"]
    assert device.get("/api/lobby").json()["tables"] == before
