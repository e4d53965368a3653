"""The conformance suite every patience engine passes (OpenSpiel's random-playout test).

From many deals, random legal moves are played to the end. At every step:
* every card is exactly where it should be (52 cards once / 104 cards twice);
* every legal move applies, and every other move of the game's move space is refused with
  ``IllegalMoveError`` (never a crash, never a silent change);
* the JSON codec round-trips and the view is plain JSON;
* undo equals replay, and redo restores;
* a finished game (won or lost) has no legal move and no seat to act.
"""

from __future__ import annotations

import json
import random
import string
import sys
from collections import Counter
from typing import Any

import pytest

from spielcenter.games import IllegalMoveError, MoveSyntaxError, Record, Status, get_game
from spielcenter.games.base import RECORD_CHECKPOINT, Game
from spielcenter.games.cards import RANKS, SUITS

CRUEL = [("cruel", v) for v in ("classic", "stuck", "perseverance")]
CRAZY_QUILT = [
    ("crazy-quilt", v)
    for v in ("classic", "second-redeal", "round-the-corner", "second-redeal+round-the-corner")
]
PLAYOUT_DEALS = {"cruel": range(1, 41), "crazy-quilt": range(1, 13)}
MOVE_LIMIT = 3000


def move_space(name: str) -> list[str]:
    """Every syntactically possible move text of a patience game."""
    if name == "cruel":
        piles = range(1, 13)
        return (
            [f"{p}f" for p in piles] + [f"{a}>{b}" for a in piles for b in piles if a != b] + ["r"]
        )
    cells = [f"{c}{r}" for c in "abcdefgh" for r in range(1, 9)]
    return [f"{cell}{t}" for cell in cells for t in "udw"] + ["wu", "wd", "s", "r"]


def foundation_cards(top: str | None, suit: str, downwards: bool = False) -> list[str]:
    """The cards on a foundation with top rank ``top`` (up from the ace, or down from the king)."""
    if top is None:
        return []
    index = RANKS.index(top)
    ranks = RANKS[index:] if downwards else RANKS[: index + 1]
    return [rank + suit for rank in ranks]


def cards_in_play(game: Game[Any, Any], state: Any) -> Counter[str]:
    """Count every card of the position, wherever it lies, from the documented view shapes."""
    view = game.view_for(state, 0)
    seen: Counter[str] = Counter()
    if game.name == "cruel":
        for pile in view["piles"]:
            seen.update(pile)
        for suit in SUITS:
            seen.update(foundation_cards(view["foundations"][suit], suit))
        return seen
    for row in view["quilt"]:
        seen.update(card for card in row if card is not None)
    seen.update(view["waste"])
    module = sys.modules[type(game).__module__]
    seen.update(str(card) for card in module.reveal(state))
    for suit in SUITS:
        seen.update(foundation_cards(view["foundations"]["up"][suit], suit))
        seen.update(foundation_cards(view["foundations"]["down"][suit], suit, downwards=True))
    return seen


def expected_cards(name: str) -> Counter[str]:
    copies = 1 if name == "cruel" else 2
    return Counter({rank + suit: copies for rank in RANKS for suit in SUITS})


def assert_position_is_sound(game: Game[Any, Any], state: Any) -> None:
    assert cards_in_play(game, state) == expected_cards(game.name)
    encoded = game.encode(state)
    assert game.decode(json.loads(json.dumps(encoded))) == state
    json.dumps(game.view_for(state, 0))
    status = game.status(state)
    if status is not Status.PLAYING:
        assert game.legal_moves(state) == []
        assert game.to_act(state) == frozenset()


def assert_moves_partition(game: Game[Any, Any], state: Any) -> None:
    """Legal moves apply; every other move of the move space is refused and changes nothing."""
    legal = {game.format_move(m) for m in game.legal_moves(state)}
    before = game.encode(state)
    for text in move_space(game.name):
        if text in legal:
            after = game.play(state, text)
            assert game.encode(after) != before, f"{text} changed nothing"
        else:
            with pytest.raises(IllegalMoveError):
                game.play(state, text)
    assert game.encode(state) == before


def random_playout(game: Game[Any, Any], deal: int, rng: random.Random) -> list[str]:
    state = game.start(deal)
    moves: list[str] = []
    for step in range(MOVE_LIMIT):
        assert_position_is_sound(game, state)
        if step % 7 == 0:
            assert_moves_partition(game, state)
        legal = game.legal_moves(state)
        if not legal:
            break
        text = game.format_move(rng.choice(legal))
        state = game.play(state, text)
        moves.append(text)
    return moves


@pytest.mark.parametrize(("name", "variant"), CRUEL + CRAZY_QUILT)
def test_random_playouts_keep_every_card_and_every_rule(name: str, variant: str) -> None:
    game = get_game(name, variant)
    rng = random.Random(f"{name}/{variant}")
    finished = 0
    for deal in PLAYOUT_DEALS[name]:
        moves = random_playout(game, deal, rng)
        final = game.replay(deal, moves)
        finished += game.status(final) is not Status.PLAYING
    assert finished > 0, "no random playout reached the end of a game"


@pytest.mark.parametrize(("name", "variant"), CRUEL + CRAZY_QUILT)
def test_undo_equals_replay_and_redo_restores(name: str, variant: str) -> None:
    game = get_game(name, variant)
    rng = random.Random(f"undo/{name}/{variant}")
    for deal in (3, 77, 1000):
        moves = random_playout(game, deal, rng)[:60]
        for k in sorted(rng.sample(range(1, len(moves) + 1), min(8, len(moves)))):
            record = Record(game, deal, moves[:k])
            after = record.state
            assert record.undo()
            assert record.state == game.replay(deal, moves[: k - 1])
            assert record.redo()
            assert record.state == after


@pytest.mark.parametrize(("name", "variant"), CRUEL + CRAZY_QUILT)
def test_undo_all_the_way_back_passes_through_every_replayed_position(
    name: str, variant: str
) -> None:
    """Undo across the record's checkpoints (it keeps only every 16th position) still gives,
    step by step, the replay of the moves left; redo brings every step back."""
    game = get_game(name, variant)
    moves = random_playout(game, 31, random.Random(f"back/{name}/{variant}"))[:50]
    assert len(moves) > 2 * RECORD_CHECKPOINT
    record = Record(game, 31, moves)
    for k in range(len(moves) - 1, -1, -1):
        assert record.undo()
        assert record.state == game.replay(31, moves[:k])
    assert not record.undo()
    for k in range(1, len(moves) + 1):
        assert record.redo()
        assert record.state == game.replay(31, moves[:k])
    assert not record.redo()


@pytest.mark.parametrize(("name", "variant"), CRUEL + CRAZY_QUILT)
def test_a_replay_of_the_same_moves_gives_the_same_position(name: str, variant: str) -> None:
    game = get_game(name, variant)
    moves = random_playout(game, 4242, random.Random(1))
    assert game.encode(game.replay(4242, moves)) == game.encode(game.replay(4242, moves))


@pytest.mark.parametrize(("name", "variant"), CRUEL + CRAZY_QUILT)
def test_text_that_is_no_move_is_a_syntax_error_not_an_illegal_move(
    name: str, variant: str
) -> None:
    game = get_game(name, variant)
    state = game.start(1)
    rng = random.Random(5)
    space = set(move_space(name))
    alphabet = string.ascii_letters + string.digits + "<>-+ "
    refused = 0
    for _ in range(400):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 5)))
        try:
            move = game.parse_move(text)
        except MoveSyntaxError:
            refused += 1
            with pytest.raises(MoveSyntaxError):
                game.play(state, text)
            continue
        # Whatever parses is a move of the game's move space, in its canonical form.
        assert game.format_move(move) in space
    assert refused > 300
