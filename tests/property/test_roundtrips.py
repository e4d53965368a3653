"""Property tests: the notations of cards, moves and states read back what they wrote."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from spielcenter.games import get_game
from spielcenter.games.cards import RANKS, SUITS, Card
from spielcenter.games.shuffle import MAX_DEAL
from tests.conformance.test_conformance import PATIENCE_VARIANTS, move_space

GAMES = PATIENCE_VARIANTS
game_and_variant = st.sampled_from(GAMES)


@given(st.sampled_from(RANKS), st.sampled_from(SUITS))
def test_a_card_reads_back_as_written(rank: str, suit: str) -> None:
    card = Card.parse(rank + suit)
    assert str(card) == rank + suit
    assert Card.parse(str(card)) == card


@given(st.data())
def test_every_move_of_the_move_space_reads_back_in_canonical_form(data: st.DataObject) -> None:
    name, variant = data.draw(game_and_variant)
    game = get_game(name, variant)
    text = data.draw(st.sampled_from(move_space(name)))
    move = game.parse_move(text)
    assert game.format_move(move) == text
    assert game.parse_move(game.format_move(move)) == move


@settings(max_examples=60, deadline=None)
@given(
    game_and_variant,
    st.integers(min_value=1, max_value=MAX_DEAL),
    st.lists(st.integers(min_value=0, max_value=10_000), max_size=80),
)
def test_any_reachable_state_survives_the_json_codec(
    gv: tuple[str, str], deal: int, choices: list[int]
) -> None:
    game = get_game(*gv)
    state = game.start(deal)
    for choice in choices:
        legal = game.legal_moves(state)
        if not legal:
            break
        state = game.apply(state, legal[choice % len(legal)])
    data = json.loads(json.dumps(game.encode(state)))
    assert game.decode(data) == state
    assert game.encode(game.decode(data)) == data
