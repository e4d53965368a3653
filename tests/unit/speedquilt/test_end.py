"""The end of a table game and its scoring (seed 003 "Ende und Wertung", speedquilt.md §5)."""

from __future__ import annotations

import pytest

from spielcenter.games.base import IllegalMoveError, Status
from spielcenter.games.speedquilt.model import Deck
from spielcenter.games.speedquilt.rules import Speedquilt
from spielcenter.games.speedquilt.state import GameState

from .engine_helpers import chosen, clear_quilt, game, lay, play, rolled, shelf_block

EIGHT = [(x, y) for y in range(3) for x in range(3)][:8]
FILLERS = ["P01", "P02", "P03", "P05", "P06", "P07", "P08", "P09"]


def _about_to_place_the_ninth(players: int, round_no: int) -> tuple[Speedquilt, GameState, int]:
    engine = game(players)
    state = chosen(engine, 6)
    assert state.turn is not None
    me = state.turn.seat
    clear_quilt(state, me)
    for cell, block_id in zip(EIGHT, FILLERS, strict=True):
        lay(state, me, cell, block_id)
    state.round = round_no
    return engine, rolled(state, me, [4, 4, 4, 1, 2]), me


def _finish_turns(engine: Speedquilt, state: GameState, turns: int) -> GameState:
    for _ in range(turns):
        assert state.turn is not None
        seat = state.turn.seat
        state = play(engine, state, seat, "roll", "end")
    return state


def test_the_ninth_block_triggers_the_end_after_one_more_round() -> None:
    engine, state, me = _about_to_place_the_ninth(3, round_no=5)
    kit = shelf_block(state, Deck.KIT, 0)
    state = play(engine, state, me, f"buy {kit} at 2,2 with red blue green", "end")
    assert state.end_round == 6
    left_in_round = (state.start_player - (me + 1)) % 3
    state = _finish_turns(engine, state, left_in_round + 3 - 1)
    assert engine.status(state) is Status.PLAYING and state.round == 6
    state = _finish_turns(engine, state, 1)
    assert engine.status(state) is Status.FINISHED and state.final_round == 6


def test_eight_blocks_do_not_trigger_the_end() -> None:
    engine, state, me = _about_to_place_the_ninth(2, round_no=5)
    state = engine.play(state, "end", me)
    assert state.end_round is None


def test_a_table_game_ends_after_round_30_at_the_latest() -> None:
    engine = game(2)
    state = chosen(engine, 6)
    state.round = 30
    state = _finish_turns(engine, state, 1)
    assert engine.status(state) is Status.PLAYING
    state = _finish_turns(engine, state, 1)
    assert engine.status(state) is Status.FINISHED and state.final_round == 30


def test_after_the_end_nobody_acts_and_every_move_is_refused() -> None:
    engine = game(2)
    state = chosen(engine, 6)
    state.round = 30
    state = _finish_turns(engine, state, 2)
    assert engine.to_act(state) == frozenset()
    assert engine.legal_moves(state, 0) == []
    with pytest.raises(IllegalMoveError, match="not seat 0's turn"):
        engine.play(state, "roll", 0)


def _scored(engine: Speedquilt, state: GameState, seat: int, blocks: dict[str, bool]) -> int:
    clear_quilt(state, seat)
    for x, (block_id, finished) in enumerate(blocks.items()):
        lay(state, seat, (x, 0), block_id, finished=finished)
    return engine.scores(state)[seat]


def test_only_finished_pattern_blocks_score() -> None:
    engine = game(2)
    state = chosen(engine, 6)
    fixed = engine.ctx.block("P05").scoring
    assert fixed is not None
    assert _scored(engine, state, 0, {"P05": True, "P35": False}) == fixed.points


def test_unfinished_remnants_have_no_colour() -> None:
    engine = game(2)
    state = chosen(engine, 6)
    per_red = engine.ctx.block("P18").scoring  # per red block in the quilt
    assert per_red is not None and engine.ctx.block("P04").is_remnant
    assert _scored(engine, state, 0, {"P18": True, "P04": False}) == per_red.points * 1
    assert _scored(engine, state, 0, {"P18": True, "P04": True}) == per_red.points * 2


def test_most_points_win_and_a_tie_goes_to_fewer_empty_patches() -> None:
    engine = game(3)
    state = chosen(engine, 6)
    _scored(engine, state, 0, {"P05": True, "P07": False})  # fixed 4, three empty patches
    _scored(engine, state, 1, {"P15": True, "K01": True})  # fixed 4, none empty
    _scored(engine, state, 2, {"P01": True})  # a finished neighbour line alone: 0
    points = engine.scores(state)
    assert points[0] == points[1] > points[2]
    assert engine.places(state) == [2, 1, 3]


def test_players_tied_on_points_and_empty_patches_share_the_place() -> None:
    engine = game(2)
    state = chosen(engine, 6)
    _scored(engine, state, 0, {"P05": True})
    _scored(engine, state, 1, {"P15": True})
    assert engine.places(state) == [1, 1]


def test_the_end_table_shows_points_places_and_the_breakdown() -> None:
    engine = game(2)
    state = chosen(engine, 6)
    state.round = 30
    state = _finish_turns(engine, state, 2)
    view = engine.view_for(state, 0)
    assert view["status"] == "finished"
    assert view["scores"] == engine.scores(state)
    assert view["places"] == engine.places(state)
    assert len(view["breakdown"]) == 2
