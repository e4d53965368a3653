"""Whole games of computer players: 1, 2 and 4 seats, every move validated by the engine."""

from __future__ import annotations

import pytest

from spielcenter.bots import LEVELS
from spielcenter.bots.tournament import play_game
from spielcenter.games.base import Status

from ..speedquilt.engine_helpers import game


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_each_level_plays_a_whole_solo_game_with_only_legal_moves(level: str) -> None:
    result = play_game([level], 21, variant="solo")
    assert result.moves and result.places == [1]
    moves = {text.split()[0] for _, text in result.moves}
    assert {"choose", "roll", "end", "remove"} <= moves


def test_two_computer_players_finish_a_table_game() -> None:
    result = play_game(["strong", "easy"], 22)
    engine = game(2)
    state = engine.replay(22, result.moves)
    assert engine.status(state) is Status.FINISHED
    assert result.scores == engine.scores(state)


def test_four_computer_players_of_all_levels_finish_a_table_game() -> None:
    result = play_game(["easy", "normal", "strong", "normal"], 44)
    seats_moving = {seat for seat, _ in result.moves}
    assert seats_moving == {0, 1, 2, 3}
    assert any(text.startswith(("give", "pass")) for _, text in result.moves)
    assert sorted(result.places)[0] == 1
