"""The bargain bin — Wühlkorb (seed 003, speedquilt.md §3.3)."""

from __future__ import annotations

import pytest

from spielcenter.games.base import IllegalMoveError
from spielcenter.games.speedquilt.model import Deck
from spielcenter.games.speedquilt.rules import Speedquilt
from spielcenter.games.speedquilt.state import GameState

from .engine_helpers import chosen, clear_quilt, game, lay, play, rolled, shelf_block


def _last_roll(values: list[int], rolls: int = 3) -> tuple[Speedquilt, GameState, int]:
    """The active seat's quilt: P04 ("<", three open patches) and P01 (6, any, any)."""
    engine = game(2)
    state = chosen(engine, 4)
    assert state.turn is not None
    me = state.turn.seat
    clear_quilt(state, me)
    lay(state, me, (0, 0), "P04")
    lay(state, me, (1, 0), "P01")
    return engine, rolled(state, me, values, rolls=rolls), me


def test_the_bargain_bin_opens_only_after_the_last_roll() -> None:
    engine, state, me = _last_roll([1, 2, 3, 4, 5], rolls=2)
    with pytest.raises(IllegalMoveError, match="only after the last roll"):
        engine.play(state, "bin red to P04:1", me)


def test_one_die_goes_on_a_patch_without_completing_the_block() -> None:
    engine, state, me = _last_roll([1, 2, 3, 4, 5])
    state = engine.play(state, "bin red to P04:1", me)
    assert state.seats[me].quilt[(0, 0)].filled == (1, None, None)


def test_two_dice_may_go_on_patches_of_different_blocks() -> None:
    engine, state, me = _last_roll([1, 2, 3, 4, 5])
    state = engine.play(state, "bin red to P04:1 green to P01:2", me)
    assert state.seats[me].quilt[(0, 0)].filled == (1, None, None)
    assert state.seats[me].quilt[(1, 0)].filled == (None, 3, None)


def test_bin_dice_must_leave_the_block_finishable() -> None:
    engine, state, me = _last_roll([6, 2, 3, 4, 5])
    with pytest.raises(IllegalMoveError, match="could not be finished"):
        engine.play(state, "bin red to P04:1", me)


def test_the_bargain_bin_is_open_only_if_nothing_else_was_done() -> None:
    engine, state, me = _last_roll([6, 2, 3, 4, 5])
    state = engine.play(state, "sew P01 red:1 blue:2 green:3", me)
    with pytest.raises(IllegalMoveError, match="nothing else was done"):
        engine.play(state, "bin yellow to P04:1", me)


def test_the_bargain_bin_is_the_turns_only_action() -> None:
    engine, state, me = _last_roll([6, 2, 3, 4, 5])
    state = engine.play(state, "bin blue to P04:1", me)
    with pytest.raises(IllegalMoveError, match="only action"):
        engine.play(state, "sew P01 red:1 green:2 yellow:3", me)
    with pytest.raises(IllegalMoveError, match="used already"):
        engine.play(state, "bin green to P04:2", me)


def test_a_blind_draw_takes_the_top_block_of_the_chosen_deck() -> None:
    engine, state, me = _last_roll([1, 2, 3, 4, 5])
    top = state.decks[Deck.KIT][0]
    state = engine.play(state, "bin draw kit", me)
    assert state.turn is not None and state.turn.drawn == (Deck.KIT, top)
    assert top not in state.decks[Deck.KIT]


def test_the_drawn_block_may_be_laid_into_the_quilt() -> None:
    engine, state, me = _last_roll([1, 2, 3, 4, 5])
    top = state.decks[Deck.PATTERN][0]
    state = play(engine, state, me, "bin draw pattern", "bin place at 0,1")
    assert state.seats[me].quilt[(0, 1)].block_id == top


def test_the_drawn_block_may_go_back_under_its_deck() -> None:
    engine, state, me = _last_roll([1, 2, 3, 4, 5])
    top = state.decks[Deck.PATTERN][0]
    state = play(engine, state, me, "bin draw pattern", "bin return")
    assert state.decks[Deck.PATTERN][-1] == top


def test_the_drawn_block_is_seen_only_by_the_drawer() -> None:
    engine, state, me = _last_roll([1, 2, 3, 4, 5])
    top = state.decks[Deck.PATTERN][0]
    state = engine.play(state, "bin draw pattern", me)
    assert engine.view_for(state, me)["turn"]["drawn"] == {"deck": "pattern", "block": top}
    assert engine.view_for(state, 1 - me)["turn"]["drawn"] == {"deck": "pattern", "block": None}
    assert top not in str(engine.view_for(state, 1 - me))


def test_the_drawn_block_follows_the_placement_rule() -> None:
    engine, state, me = _last_roll([1, 2, 3, 4, 5])
    state = engine.play(state, "bin draw kit", me)
    with pytest.raises(IllegalMoveError, match="cannot lie"):
        engine.play(state, "bin place at 3,0", me)


def test_the_turn_ends_only_after_the_drawn_block_is_placed_or_returned() -> None:
    engine, state, me = _last_roll([1, 2, 3, 4, 5])
    state = engine.play(state, "bin draw kit", me)
    with pytest.raises(IllegalMoveError, match="drawn block"):
        engine.play(state, "end", me)


def test_an_empty_deck_cannot_be_drawn_from() -> None:
    engine, state, me = _last_roll([1, 2, 3, 4, 5])
    state.decks[Deck.KIT].clear()
    with pytest.raises(IllegalMoveError, match="deck is empty"):
        engine.play(state, "bin draw kit", me)


def test_a_blind_draw_cannot_be_undone() -> None:
    engine, state, me = _last_roll([1, 2, 3, 4, 5])
    state = play(engine, state, me, "bin draw kit", "bin return")
    with pytest.raises(IllegalMoveError, match="nothing to undo"):
        engine.play(state, "undo", me)


def test_an_undone_buy_that_showed_a_block_keeps_the_bargain_bin_closed() -> None:
    """Seed 003: the bin's draw is blind ("ziehst blind"). A buy shows everyone the block that
    refills the shelf; undo puts it back on top of its deck, so a draw after the undo would take
    a block she has just seen (issue 37, attack 17). The bin stays closed for the turn."""
    engine, state, me = _last_roll([4, 4, 4, 1, 2])
    kit = shelf_block(state, Deck.KIT)
    refill = state.decks[Deck.KIT][0]
    bought = engine.play(state, f"buy {kit} at 0,1 with red blue green", me)
    assert refill in bought.shelves[Deck.KIT]  # everyone sees the refill now
    undone = engine.play(bought, "undo", me)
    assert undone.decks[Deck.KIT][0] == refill
    with pytest.raises(IllegalMoveError, match="no longer be blind"):
        engine.play(undone, "bin draw kit", me)
    with pytest.raises(IllegalMoveError, match="no longer be blind"):
        engine.play(undone, "bin yellow to P04:1", me)
    assert not any(m.startswith("bin") for m in map(engine.format_move, _legal(engine, undone)))


def test_an_undone_sewing_shows_nothing_and_leaves_the_bargain_bin_open() -> None:
    """Sewing shows no block: after its undo nothing else was done, and the bin may be used."""
    engine, state, me = _last_roll([6, 2, 3, 4, 5])
    state = play(engine, state, me, "sew P01 red:1 blue:2 green:3", "undo")
    state = engine.play(state, "bin draw kit", me)
    assert state.turn is not None and state.turn.drawn is not None


def _legal(engine: Speedquilt, state: GameState) -> list[object]:
    assert state.turn is not None
    return list(engine.legal_moves(state, state.turn.seat))
