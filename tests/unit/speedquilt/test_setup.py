"""Setup (seed 003 "Spielbeginn", speedquilt.md §2): decks, shop, dealt four, the start choice."""

from __future__ import annotations

import pytest

from spielcenter.games.base import IllegalMoveError
from spielcenter.games.shuffle import shuffled
from spielcenter.games.speedquilt.dice import deck_seeds
from spielcenter.games.speedquilt.model import Deck
from spielcenter.games.speedquilt.setup import START_CELLS
from spielcenter.games.speedquilt.state import Phase

from .engine_helpers import CATALOGUE, block, chosen, game


def test_both_decks_are_shuffled_from_the_seed_as_documented() -> None:
    engine = game(3)
    state = engine.start(77)
    seeds = deck_seeds(77, 3)
    patterns = shuffled(CATALOGUE.pattern_ids, seeds.pattern)
    kits = shuffled(CATALOGUE.kit_ids, seeds.kit)
    assert state.shelves[Deck.PATTERN] == patterns[:4]
    assert state.shelves[Deck.KIT] == kits[:4]
    assert state.seats[0].hand == patterns[4:6] + kits[4:6]
    assert state.decks[Deck.PATTERN] == patterns[4 + 2 * 3 :]
    assert state.decks[Deck.KIT] == kits[4 + 2 * 3 :]


def test_the_same_seed_deals_the_same_game_and_another_seed_another() -> None:
    engine = game(2)
    assert engine.encode(engine.start(5)) == engine.encode(engine.start(5))
    assert engine.start(5).decks != engine.start(6).decks


def test_the_shop_has_four_pattern_blocks_on_top_and_four_kits_below() -> None:
    state = game(4).start(3)
    assert len(state.shelves[Deck.PATTERN]) == 4
    assert all(block(b).deck is Deck.PATTERN for b in state.shelves[Deck.PATTERN] if b)
    assert len(state.shelves[Deck.KIT]) == 4
    assert all(block(b).is_kit for b in state.shelves[Deck.KIT] if b)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_each_seat_is_dealt_two_pattern_blocks_and_two_kits(players: int) -> None:
    state = game(players).start(11)
    for seat in state.seats:
        decks = [block(b).deck for b in seat.hand]
        assert decks.count(Deck.PATTERN) == 2 and decks.count(Deck.KIT) == 2


def test_every_block_is_in_exactly_one_place_after_the_deal() -> None:
    state = game(4).start(9)
    places = [*state.decks[Deck.PATTERN], *state.decks[Deck.KIT]]
    places += [b for shelf in state.shelves.values() for b in shelf if b]
    places += [b for seat in state.seats for b in seat.hand]
    assert sorted(places) == sorted(CATALOGUE.pattern_ids + CATALOGUE.kit_ids)


def test_the_returned_block_goes_under_its_deck() -> None:
    engine = game(1)
    state = engine.start(4)
    hand = state.seats[0].hand
    returned = hand[2]  # a kit
    row = [b for b in hand if b != returned]
    state = engine.play(state, f"choose {' '.join(row)} return {returned}", 0)
    assert state.decks[Deck.KIT][-1] == returned


def test_the_other_three_lie_in_a_row_in_the_chosen_order() -> None:
    engine = game(1)
    state = engine.start(4)
    a, b, c, d = state.seats[0].hand
    state = engine.play(state, f"choose {d} {a} {c} return {b}", 0)
    quilt = state.seats[0].quilt
    assert [quilt[cell].block_id for cell in START_CELLS] == [d, a, c]
    assert all(not placed.finished for placed in quilt.values())


def test_all_seats_choose_at_the_same_time() -> None:
    engine = game(3)
    state = engine.start(2)
    assert engine.to_act(state) == {0, 1, 2}
    state = engine.apply(state, engine.legal_moves(state, 1)[0], 1)
    assert engine.to_act(state) == {0, 2}
    assert state.phase is Phase.CHOOSING
    assert all(not seat.quilt for seat in state.seats)


def test_a_seat_chooses_only_once() -> None:
    engine = game(2)
    state = engine.start(2)
    move = engine.legal_moves(state, 0)[0]
    state = engine.apply(state, move, 0)
    with pytest.raises(IllegalMoveError):
        engine.check(state, move, 0)


def test_the_choice_names_exactly_the_dealt_four() -> None:
    engine = game(2)
    state = engine.start(2)
    other = state.seats[1].hand
    mine = state.seats[0].hand
    with pytest.raises(IllegalMoveError, match="dealt blocks"):
        engine.play(state, f"choose {mine[0]} {mine[1]} {mine[2]} return {other[0]}", 0)


def test_a_seat_has_24_ways_to_choose() -> None:
    engine = game(2)
    assert len(engine.legal_moves(engine.start(8), 0)) == 4 * 3 * 2 * 1


def test_the_start_player_is_drawn_from_the_seed() -> None:
    engine = game(4)
    starts = {engine.start(deal).start_player for deal in range(1, 60)}
    assert starts == {0, 1, 2, 3}
    state = chosen(engine, 21)
    assert state.turn is not None
    assert state.turn.seat == deck_seeds(21, 4).start_player == state.start_player


def test_play_goes_round_the_seats_in_order() -> None:
    engine = game(3)
    state = chosen(engine, 21)
    order = []
    for _ in range(4):
        assert state.turn is not None
        order.append(state.turn.seat)
        state = engine.play(state, "roll", state.turn.seat)
        state = engine.play(state, "end", state.turn.seat)
    first = order[0]
    assert order == [first, (first + 1) % 3, (first + 2) % 3, first]
    assert state.round == 2
