"""The shared conformance suite, for Speedquilt: random players for 1–4 seats and every variant.

The same promises as the patience games (tests/conformance/test_patience_conformance.py), for a
game where several seats may act at once:
* every legal move of every seat in ``to_act`` applies; a move of a seat that is not asked, and a
  move that was legal a moment ago but is not now, is refused with ``IllegalMoveError`` and
  changes nothing;
* the JSON codec round-trips, views are plain JSON and never carry the deal number or the dice key;
* a replay of the log gives the same position (determinism);
* a finished game has no seat to act and no legal move.
(Block accounting, the 3 × 3 limit and per-seat privacy are checked at every step of the engine's
own playout test, tests/unit/speedquilt/test_playout.py.)
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from spielcenter.games import IllegalMoveError, MoveSyntaxError, Status, get_game
from spielcenter.games.base import Game
from spielcenter.server.websocket import MOVE_TEXT_MAX

SECRET = b"conformance-secret"
ENGINES = [
    ("table", {"players": 2}, 11),
    ("table", {"players": 3}, 12),
    ("table", {"players": 4}, 13),
    ("solo", {}, 14),
    ("solo", {"target": 30, "rounds": 8, "top_shelf": 3}, 15),
    ("daily", {"day": "2026-11-29", "secret": SECRET}, 16),
]
MOVE_LIMIT = 4000


def engine_of(variant: str, options: dict[str, Any]) -> Game[Any, Any]:
    return get_game("speedquilt", variant, **options)


def assert_sound(game: Game[Any, Any], state: Any, deal: int) -> None:
    data = game.encode(state)
    assert game.encode(game.decode(json.loads(json.dumps(data)))) == data
    for seat in [*range(game.seats), None]:
        view = json.dumps(game.view_for(state, seat))
        assert f'"deal": {deal}' not in view
        assert SECRET.decode() not in view
    if game.status(state) is not Status.PLAYING:
        assert game.to_act(state) == frozenset()
        assert all(game.legal_moves(state, seat) == [] for seat in range(game.seats))


def assert_refusals(game: Game[Any, Any], state: Any, stale: list[tuple[int, str]]) -> None:
    """Moves of seats not asked, and stale moves, are refused and change nothing."""
    before = game.encode(state)
    acting = game.to_act(state)
    for seat, text in stale:
        legal_now = {game.format_move(m) for m in game.legal_moves(state, seat)}
        if seat in acting and text in legal_now:
            continue
        with pytest.raises(IllegalMoveError):
            game.play(state, text, seat)
    for seat in set(range(game.seats)) - acting:
        for move in game.legal_moves(state, min(acting))[:3] if acting else []:
            with pytest.raises(IllegalMoveError):
                game.play(state, game.format_move(move), seat)
    assert game.encode(state) == before


def random_game(game: Game[Any, Any], deal: int, rng: random.Random) -> list[tuple[int, str]]:
    state = game.start(deal)
    log: list[tuple[int, str]] = []
    recent: list[tuple[int, str]] = []
    for step in range(MOVE_LIMIT):
        if step % 5 == 0:
            assert_sound(game, state, deal)
            assert_refusals(game, state, recent[-6:])
        choices = {s: game.legal_moves(state, s) for s in sorted(game.to_act(state))}
        choices = {s: moves for s, moves in choices.items() if moves}
        if not choices:
            break
        seat = rng.choice(sorted(choices))
        text = game.format_move(rng.choice(choices[seat]))
        state = game.play(state, text, seat)
        log.append((seat, text))
        recent.append((seat, text))
    assert_sound(game, state, deal)
    assert game.status(state) is not Status.PLAYING
    return log


@pytest.mark.parametrize(("variant", "options", "deal"), ENGINES)
def test_random_players_play_every_variant_to_its_end_by_the_rules(
    variant: str, options: dict[str, Any], deal: int
) -> None:
    game = engine_of(variant, options)
    log = random_game(game, deal, random.Random(deal))
    replayed = game.replay(deal, log)
    # A campaign stage is won or lost against its target; other games are simply finished.
    expected = {Status.WON, Status.LOST} if "target" in options else {Status.FINISHED}
    assert game.status(replayed) in expected
    assert game.encode(replayed) == game.encode(game.replay(deal, log))


@pytest.mark.parametrize(("variant", "options", "deal"), ENGINES[:1] + ENGINES[3:4])
def test_text_that_is_no_move_is_a_syntax_error(
    variant: str, options: dict[str, Any], deal: int
) -> None:
    game = engine_of(variant, options)
    state = game.start(deal)
    for text in ["", "rol", "sew", "buy P01 at x,y", "keep orange", "give red to", "choose"]:
        with pytest.raises(MoveSyntaxError):
            game.play(state, text, 0)


@pytest.mark.parametrize(("variant", "options", "deal"), ENGINES)
def test_every_move_the_engine_offers_fits_in_a_socket_message(
    variant: str, options: dict[str, Any], deal: int
) -> None:
    """docs/protocol.md: a move travels as text of at most MOVE_TEXT_MAX characters, so every
    legal move of every seat, at every step of a random game, must fit (five-dice sewings of
    the eight-patch blocks and four-dice purchases are the longest)."""
    game = engine_of(variant, options)
    rng = random.Random(deal)
    state = game.start(deal)
    longest = ""
    for _ in range(MOVE_LIMIT):
        offered = [
            (seat, game.format_move(move))
            for seat in sorted(game.to_act(state))
            for move in game.legal_moves(state, seat)
        ]
        if not offered:
            break
        longest = max([longest, *(text for _, text in offered)], key=len)
        seat, text = rng.choice(offered)
        state = game.play(state, text, seat)
    assert len(longest) <= MOVE_TEXT_MAX, longest
    assert len(longest) > 32  # the old limit of the game protocol, too short for these moves
