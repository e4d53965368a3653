"""``spielcenter speedquilt deal``: the start of a deal in the terminal."""

from __future__ import annotations

import json

import pytest

from spielcenter.cli import main
from spielcenter.games.speedquilt.dice import deck_seeds

from .engine_helpers import game


def test_deal_json_shows_the_shop_the_dealt_fours_and_the_start_player(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["speedquilt", "deal", "--seed", "7", "--players", "3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    state = game(3).start(7)
    assert data["shop"] == {str(deck): shelf for deck, shelf in state.shelves.items()}
    assert data["hands"] == [seat.hand for seat in state.seats]
    assert data["start_player"] == deck_seeds(7, 3).start_player
    assert "deck_order" not in data


def test_deal_reveal_adds_the_deck_orders(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["speedquilt", "deal", "--seed", "7", "--players", "2", "--json", "--reveal"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data["deck_order"]["pattern"]) == data["decks"]["pattern"]


def test_deal_text_names_every_seat(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["speedquilt", "deal", "--seed", "7", "--players", "4"]) == 0
    out = capsys.readouterr().out
    assert all(f"Seat {seat} is dealt" in out for seat in range(4))


@pytest.mark.parametrize(("seed", "players"), [("0", "2"), ("5", "0"), ("5", "5")])
def test_a_bad_seed_or_seat_count_is_a_clear_error(
    seed: str, players: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["speedquilt", "deal", "--seed", seed, "--players", players]) == 2
    assert "speedquilt deal:" in capsys.readouterr().err
