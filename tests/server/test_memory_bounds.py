"""What a long-running server process keeps in memory (docs/performance.md, "Soak"): tables and
games that nobody plays any more are let go, and come back from their logs unchanged."""

from __future__ import annotations

import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from spielcenter.server.memwatch import MemoryWatch
from spielcenter.server.registry import TableRegistry
from spielcenter.server.tables import TableActor
from spielcenter.services import games as games_service
from spielcenter.services.games import GameService

from .conftest import new_game
from .tables_helpers import ScriptedHuman, devices, make_table_app, new_table

__all__ = ["devices", "make_table_app"]  # fixtures used by the tests below

DEAL = 4242


def registry_of(device: TestClient) -> TableRegistry:
    """The server's table registry."""
    registry: TableRegistry = device.app.state.tables  # type: ignore[attr-defined]
    return registry


def games_of(device: TestClient) -> GameService:
    """The server's game service."""
    games: GameService = device.app.state.platform.games  # type: ignore[attr-defined]
    return games


def her_turn_alone(message: dict[str, Any]) -> bool:
    """The game waits for seat 0 and nobody else."""
    return bool(message["to_act"] == [0] and message["legal"] and message["seq"] >= 4)


def parked(actor: TableActor, within_s: float = 20.0) -> bool:
    """Whether the actor comes to wait for a person with nothing else to do."""
    give_up = time.monotonic() + within_s
    while actor.parked_since is None and time.monotonic() < give_up:
        time.sleep(0.02)
    return actor.parked_since is not None


def leave_at_her_turn(device: TestClient, table: dict[str, Any]) -> dict[str, Any]:
    """Play seat 0 for a while, then close the socket when the game waits for her alone."""
    with device.websocket_connect("/ws") as ws:
        human = ScriptedHuman(ws, table)
        latest = human.play(human.open(), stop=her_turn_alone)
    assert her_turn_alone(latest)
    return latest


def look_at_another_table(device: TestClient) -> None:
    """Open some other table (the registry loads it, and tidies up as it does)."""
    other = new_table(device, deal=DEAL + 1, players=2, bots=["easy"])
    with device.websocket_connect("/ws") as ws:
        ScriptedHuman(ws, other).open()


def table_let_go_when_idle(
    devices: Callable[..., TestClient],
) -> tuple[TestClient, TableRegistry, dict[str, Any]]:
    """A device, its table registry (letting idle tables go at once) and a new table of hers."""
    device = devices()
    registry = registry_of(device)
    registry.idle_seconds = 0.0
    return device, registry, new_table(device, deal=DEAL, players=2, bots=["easy"])


def test_a_table_waiting_for_a_person_who_left_is_let_go_and_replayed_when_she_returns(
    devices: Callable[..., TestClient],
) -> None:
    device, registry, table = table_let_go_when_idle(devices)
    left = leave_at_her_turn(device, table)
    look_at_another_table(device)
    assert table["id"] not in registry.actors
    with device.websocket_connect("/ws") as ws:
        human = ScriptedHuman(ws, table)
        again = human.open()
        assert again["seq"] == left["seq"] and again["view"] == left["view"]
        last = human.play(again)
    assert last["view"]["status"] == "finished"


def test_a_waiting_table_that_a_socket_watches_is_kept(
    devices: Callable[..., TestClient],
) -> None:
    device, registry, table = table_let_go_when_idle(devices)
    with device.websocket_connect("/ws") as ws:
        human = ScriptedHuman(ws, table)
        human.play(human.open(), stop=her_turn_alone)
        actor = registry.actors[table["id"]]
        assert parked(actor)
        look_at_another_table(device)
        assert registry.actors.get(table["id"]) is actor


def test_a_waiting_table_is_kept_for_a_while_after_its_person_left(
    devices: Callable[..., TestClient],
) -> None:
    device = devices()
    registry = registry_of(device)
    assert registry.idle_seconds >= 30  # a reload or a short loss of the network costs nothing
    table = new_table(device, deal=DEAL, players=2, bots=["easy"])
    leave_at_her_turn(device, table)
    actor = registry.actors[table["id"]]
    assert parked(actor)
    look_at_another_table(device)
    assert registry.actors.get(table["id"]) is actor


def open_and_leave(device: TestClient, game_id: str) -> None:
    """Open a game on a socket, then close the socket."""
    with device.websocket_connect("/ws") as ws:
        ws.send_json({"type": "open", "game_id": game_id})
        assert ws.receive_json()["type"] == "state"


def test_only_the_most_recently_used_positions_nobody_watches_stay_in_memory(
    devices: Callable[..., TestClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(games_service, "UNWATCHED_GAMES", 2)
    device = devices()
    ids = [new_game(device, "cruel", deal=deal)["id"] for deal in (1, 2, 3, 4)]
    for game_id in ids:
        open_and_leave(device, game_id)
    assert list(games_of(device)._live) == ids[-2:]
    open_and_leave(device, ids[0])  # a position let go is replayed when opened again
    assert list(games_of(device)._live) == [ids[-1], ids[0]]


def test_a_position_that_a_socket_watches_stays_however_many_games_follow(
    devices: Callable[..., TestClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(games_service, "UNWATCHED_GAMES", 2)
    device = devices()
    watched, *others = [new_game(device, "cruel", deal=deal)["id"] for deal in (1, 2, 3, 4, 5)]
    with device.websocket_connect("/ws") as ws:
        ws.send_json({"type": "open", "game_id": watched})
        assert ws.receive_json()["type"] == "state"
        for game_id in others:
            open_and_leave(device, game_id)
        assert list(games_of(device)._live) == [watched, *others[-2:]]


class Ballast:
    """Something that takes memory (4 KB) and that the garbage collector counts."""

    def __init__(self) -> None:
        self.data = bytearray(4000)


async def test_a_traced_server_reports_the_allocation_sites_that_grew_between_snapshots(
    tmp_path: Path,
) -> None:
    watch = MemoryWatch(tmp_path, frames=1)
    tracemalloc.start(1)
    try:
        watch.report()
        grown = [Ballast() for _ in range(500)]  # about 2 MB
        report = watch.report().read_text()
    finally:
        tracemalloc.stop()
    assert report.startswith("snapshot 2:")
    by_line = report.split("## grown since snapshot 1, by line")[1].splitlines()
    assert Path(__file__).name in by_line[1]  # the largest growth is the line above
    assert f"{__name__}.Ballast" in report.split("## live objects per type")[1]
    assert len(grown) == 500
