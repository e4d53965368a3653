"""The taler ledger (speedquilt.md §7): start balance 1 000, stakes into the pot at the start, the
house pays for computers, the winner takes the pot, ties split, the remainder to the house,
leaving forfeits; double entry, so the ledger's sum never changes."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient

from spielcenter.services.ledger import HOUSE, pot, split_pot

from .conftest import FakeClock
from .lobby_helpers import (
    Person,
    claimed_accounts,
    join,
    later,
    ledger,
    lobby_table,
    post,
    socket_as,
    until_type,
)
from .tables_helpers import devices, make_table_app, receive_until

__all__ = ["devices", "make_table_app"]  # fixtures used by the tests below

STAKE = 100


def books(device: TestClient, *ledger_accounts: str) -> list[int]:
    """The balances of ledger accounts, and last the sum of the whole ledger."""
    service = device.app.state.tables.ledger  # type: ignore[attr-defined]
    balances = [device.portal.call(service.balance_of, a) for a in ledger_accounts]  # type: ignore[union-attr]
    return [*balances, device.portal.call(service.total)]  # type: ignore[union-attr]


def test_every_claimed_account_starts_with_1000_taler(devices: Callable[..., TestClient]) -> None:
    device = devices()
    (anna,) = claimed_accounts(device, 1)
    statement = ledger(device, anna)
    assert statement["balance"] == 1000
    assert [(m["kind"], m["amount"]) for m in statement["history"]] == [("opening", 1000)]
    assert ledger(device, anna)["balance"] == 1000  # opened once


def test_the_stakes_go_into_the_pot_at_the_start_and_the_house_pays_for_computers(
    devices: Callable[..., TestClient],
) -> None:
    device = devices()
    anna, bea = claimed_accounts(device, 2)
    table = lobby_table(device, anna, players=3, bots=[None, "easy"], stake=STAKE)
    assert ledger(device, anna)["balance"] == 1000  # nothing is paid before the start
    join(device, bea, table["id"])
    assert ledger(device, anna)["balance"] == ledger(device, bea)["balance"] == 1000 - STAKE
    house, in_pot, total = books(device, HOUSE, pot(table["id"]))
    assert in_pot == 3 * STAKE
    assert house == -2 * 1000 - STAKE  # two openings and the computer's stake
    assert total == 0


def test_a_person_needs_the_balance_to_sit_down(devices: Callable[..., TestClient]) -> None:
    device = devices()
    anna, bea, cleo = claimed_accounts(device, 3)
    too_much = post(device, anna, "/api/lobby", {"players": 2, "stake": 1001})
    assert too_much.status_code == 402
    assert too_much.json()["error"]["code"] == "insufficient_taler"
    first = lobby_table(device, anna, stake=600)
    join(device, bea, first["id"])
    second = lobby_table(device, cleo, stake=500)
    refused = join(device, bea, second["id"])
    assert refused.status_code == 402
    assert ledger(device, bea)["balance"] == 400
    assert post(device, cleo, f"/api/lobby/{second['id']}/leave").json()["status"] == "cancelled"


def test_the_winner_takes_the_pot() -> None:
    assert split_pot(300, [2, 1, 3], [True, True, False]) == ([0, 300, 0], 0)


def test_tied_winners_split_the_pot_and_the_remainder_goes_to_the_house() -> None:
    assert split_pot(200, [1, 1, 1], [True, True, True]) == ([66, 66, 66], 2)


def test_the_house_takes_the_share_of_a_winning_computer() -> None:
    assert split_pot(300, [1, 1, 3], [True, False, True]) == ([150, 0, 0], 150)


def test_leaving_forfeits_the_stake() -> None:
    # A person who left and had not come back at the end is not paid: her share is the house's.
    assert split_pot(200, [1, 2], [False, True]) == ([0, 0], 200)


def test_a_staked_game_of_two_people_and_a_computer_pays_out_the_pot(
    devices: Callable[..., TestClient], clock: FakeClock
) -> None:
    device = devices()
    anna, bea = claimed_accounts(device, 2)
    table = lobby_table(
        device,
        anna,
        players=3,
        bots=[None, "easy"],
        stake=STAKE,
        think=30,
        giving=15,
        stand_in="easy",
        seed=4242,
    )
    tid = table["id"]
    seats = join(device, bea, tid).json()["seats"]
    names = [f"player:{seat['account_id']}" for seat in seats[:2]]
    before = books(device, *names, HOUSE, pot(tid))
    results: dict[int, dict[str, Any]] = {}

    def play(person: Person, latest: dict[str, Any]) -> None:
        results[person.seat] = person.play(latest)

    with socket_as(device, bea) as ws_b:
        with socket_as(device, anna) as ws_a:
            first, second = Person(ws_a, table, 0), Person(ws_b, table, 1)
            states = [first.open(), second.open()]
            said = first.send("table.chat", text="Viel Glück!")
            heard = until_type(ws_b, "table.chat")[-1]
            # Nobody chooses her start blocks: the clocks run out, the computer chooses for both.
            later(device, clock, tid, 40)
            started = [
                receive_until(ws, lambda m: m.get("view", {}).get("phase") == "turn")[-1]
                for ws in (ws_a, ws_b)
            ]
            bea_plays = threading.Thread(target=play, args=(second, started[1]))
            bea_plays.start()
            middle = first.play(started[0], stop=lambda m: m["seq"] >= 40)
        # Anna closed her tab in the middle; she comes back on a new socket and plays to the end.
        with socket_as(device, anna) as ws_a:
            back = Person(ws_a, table, 0)
            again = back.open(last_seq=middle["seq"])
            results[0] = back.play(again)
            end_a = until_type(ws_a, "table.end")[-1]
        bea_plays.join(timeout=120)
    after = books(device, *names, HOUSE, pot(tid))
    assert [s["clocks"][0]["kind"] for s in states] == ["start", "start"]
    assert heard["text"] == said["text"] == "Viel Glück!" and heard["seat"] == 0
    assert again["seat"] == 0
    assert [e["seq"] for e in again["missed"]] == list(range(middle["seq"] + 1, again["seq"] + 1))
    assert results[0]["view"]["status"] == results[1]["view"]["status"] == "finished"
    shares, house_part = split_pot(3 * STAKE, end_a["result"]["places"], [True, True, False])
    assert before[:2] == [1000 - STAKE] * 2 and before[3] == 3 * STAKE
    assert after[:2] == [1000 - STAKE + shares[0], 1000 - STAKE + shares[1]]
    assert after[2] == before[2] + house_part and after[3] == 0
    assert sum(after[:4]) == sum(before[:4]) and after[4] == before[4] == 0


def test_a_person_who_left_and_did_not_come_back_forfeits_her_stake(
    devices: Callable[..., TestClient],
) -> None:
    device = devices()
    anna, bea = claimed_accounts(device, 2)
    # The strong computer plays her seat after she left, and wins: the pot is the house's.
    table = lobby_table(device, anna, stake=STAKE, stand_in="strong", seed=4242)
    seats = join(device, bea, table["id"]).json()["seats"]
    names = [f"player:{seat['account_id']}" for seat in seats]
    house_before = books(device, HOUSE)[0]
    with socket_as(device, anna) as ws_a, socket_as(device, bea) as ws_b:
        leaver, stayer = Person(ws_a, table, 0), Person(ws_b, table, 1)
        leaver.open()
        assert leaver.send("table.leave")["type"] == "table.left"
        stayer.play(stayer.open())
        end = until_type(ws_b, "table.end")[-1]
    shares, house_part = split_pot(2 * STAKE, end["result"]["places"], [False, True])
    after = books(device, *names, HOUSE, pot(table["id"]))
    assert after[0] == 1000 - STAKE  # whatever her seat scored
    assert after[1] == 1000 - STAKE + shares[1]
    assert end["result"]["places"][0] == 1 and house_part >= STAKE
    assert after[2] == house_before + house_part
    assert after[3] == 0 and after[4] == 0
