"""The Crazy Quilt hint is the honest player's choice: it sees what the player saw, never more.

Design (patience.md): "Hint: a good next move from the player's point of view (it must not use
the face-down stock order of Crazy Quilt)". A player who turned the waste over at a redeal knows
the new stock's order: the hint, given the moves played, remembers it too.
"""

from __future__ import annotations

import random
from dataclasses import replace
from functools import cache

import pytest

from spielcenter.games import get_game
from spielcenter.games.base import Status
from spielcenter.games.crazy_quilt import QuiltState
from spielcenter.solvers.crazy_quilt_honest import (
    guarded_move,
    known_position,
    play_honestly,
    rule_of_thumb,
)
from spielcenter.solvers.crazy_quilt_search import solve_position
from spielcenter.solvers.hints import QUILT_HINT_NODE_BUDGET, remembered_stock
from spielcenter.solvers.registry import hint

SECOND = "second-redeal"


@cache
def rule_of_thumb_game(deal: int, variant: str) -> tuple[str, ...]:
    """The moves of a whole game played by the honest player's rules of thumb alone."""
    return tuple(play_honestly(deal, variant, node_budget=0).moves)


def positions(deal: int, variant: str) -> list[tuple[QuiltState, list[str]]]:
    """Every position of that game, with the moves that led to it."""
    game = get_game("crazy-quilt", variant)
    moves = list(rule_of_thumb_game(deal, variant))
    state, out = game.start(deal), [(game.start(deal), [])]
    for number, move in enumerate(moves, start=1):
        state = game.play(state, move)
        out.append((state, moves[:number]))
    return out


def after_redeal(deal: int, variant: str) -> list[tuple[QuiltState, list[str]]]:
    return [(state, moves) for state, moves in positions(deal, variant) if "r" in moves]


@cache
def deal_winnable_after_the_redeal() -> int:
    """The first second-redeal deal whose hint right after the first redeal is a winning line
    (found by asking the hint, not hard-coded)."""
    game = get_game("crazy-quilt", SECOND)
    for deal in range(1, 30):
        state, moves = after_redeal(deal, SECOND)[0]
        if hint(game, state, moves).verdict == "winnable":
            return deal
    raise AssertionError("no deal among the first 29 is winnable right after its redeal")


# -- what the player remembers ----------------------------------------------------------------


def test_before_the_first_redeal_the_player_knows_no_stock_order():
    game = get_game("crazy-quilt")
    before = [(state, moves) for state, moves in positions(1, "classic") if "r" not in moves]
    for state, moves in before:
        assert remembered_stock(game, game.view_for(state, 0), moves) is None
    assert len(before) >= 10


@pytest.mark.parametrize("variant", ["classic", SECOND])
def test_after_a_redeal_the_player_knows_the_stock_in_its_order(variant: str):
    game = get_game("crazy-quilt", variant)
    checked = 0
    for state, moves in after_redeal(2, variant):
        assert remembered_stock(game, game.view_for(state, 0), moves) == list(state.stock)
        checked += 1
    assert checked >= 10


def test_a_history_that_does_not_lead_to_the_position_is_refused():
    game = get_game("crazy-quilt")
    state, moves = positions(3, "classic")[12]
    with pytest.raises(ValueError, match="does not lead to this position"):
        hint(game, state, moves[:-1])


def test_a_history_with_an_illegal_move_is_refused_naming_the_move():
    game = get_game("crazy-quilt")
    state, moves = positions(3, "classic")[5]
    with pytest.raises(ValueError, match=r"move 3 of the history \('zz'\)"):
        hint(game, state, [*moves[:2], "zz", *moves[2:]])


# -- the hint never reads the stock -------------------------------------------------------------


def test_before_the_first_redeal_the_history_does_not_change_the_hint():
    game = get_game("crazy-quilt")
    before = [(state, moves) for state, moves in positions(4, "classic") if "r" not in moves]
    for state, moves in before[::5]:
        assert hint(game, state, moves) == hint(game, state)
    assert len(before) >= 10


@pytest.mark.parametrize("variant", ["classic", SECOND])
def test_with_a_history_the_hint_is_the_same_whatever_the_stock_order_in_the_state(variant):
    # What the player knows of the stock comes from the views along the history, not the state.
    game = get_game("crazy-quilt", variant)
    rng = random.Random(f"stock-{variant}")
    compared = 0
    for state, moves in positions(5, variant)[::7]:
        if len(state.stock) < 2:
            continue
        stock = list(state.stock)
        while tuple(stock) == state.stock:
            rng.shuffle(stock)
        assert hint(game, replace(state, stock=tuple(stock)), moves) == hint(game, state, moves)
        compared += 1
    assert compared >= 5


# -- what the hint says ---------------------------------------------------------------------------


def test_before_a_redeal_the_hint_is_the_honest_players_guarded_rule_of_thumb():
    game = get_game("crazy-quilt")
    before = [(state, moves) for state, moves in positions(6, "classic") if "r" not in moves]
    assert len(before) >= 10
    for state, moves in before[::4]:
        view = game.view_for(state, 0)
        given = hint(game, state, moves)
        assert given.verdict == "unknown"
        assert given.move in (view["legal"] if len(view["legal"]) == 1 else [guarded_move(view)])


def test_a_hint_that_overrules_the_rule_of_thumb_says_it_keeps_the_redeal_open():
    # The guard trades the obvious move for one after which the relaxed game across the redeal
    # stays clearable for more of the stock orders the player cannot tell apart; the text says so.
    game = get_game("crazy-quilt")
    overruled = 0
    for deal in range(1, 4):
        for state, moves in positions(deal, "classic"):
            if "r" in moves:
                break
            view = game.view_for(state, 0)
            given = hint(game, state, moves)
            if len(view["legal"]) > 1 and given.move != rule_of_thumb(view):
                assert given.text_key == "hint.quilt.keeps_redeal_open"
                overruled += 1
            else:
                assert given.text_key != "hint.quilt.keeps_redeal_open"
    assert overruled > 0


def test_after_a_redeal_a_winnable_hint_is_the_first_move_of_a_winning_line():
    game = get_game("crazy-quilt", SECOND)
    deal = deal_winnable_after_the_redeal()
    state, moves = after_redeal(deal, SECOND)[0]
    given = hint(game, state, moves)
    assert (given.verdict, given.text_key) == ("winnable", "hint.quilt.keeps_winnable")
    after = game.play(state, given.move)
    known = known_position(game.view_for(after, 0), after.stock)
    assert (
        solve_position(known, node_budget=QUILT_HINT_NODE_BUDGET, across_redeal=True).result
        == "won"
    )


def test_with_a_redeal_left_the_hint_looks_across_it():
    # Right after the first of two redeals the player knows the stock, and the hint's search
    # prunes by the relaxed game across the last redeal: within the same budget it decides
    # positions that a search without that check leaves open. Its answers are proofs. Deals
    # 1-12 (1-30 until 2026-12-07): seven decided only with the check, "lost" and "winnable"
    # among them.
    game = get_game("crazy-quilt", SECOND)
    decided_only_with_the_check = 0
    for deal in range(1, 13):
        state, moves = after_redeal(deal, SECOND)[0]
        if game.status(state) is not Status.PLAYING:
            continue
        known = known_position(game.view_for(state, 0), state.stock)
        plain = solve_position(known, node_budget=QUILT_HINT_NODE_BUDGET).result
        given = hint(game, state, moves)
        if given.verdict == "lost":
            assert solve_position(known, node_budget=10**6, across_redeal=True).result == "lost"
        if given.verdict == "winnable":
            after = game.play(state, given.move)
            known_after = known_position(game.view_for(after, 0), after.stock)
            verdict = solve_position(known_after, node_budget=10**6, across_redeal=True)
            assert verdict.result == "won"
        if plain == "unknown" and given.verdict != "unknown":
            decided_only_with_the_check += 1
    assert decided_only_with_the_check >= 5


def test_following_the_hints_after_a_winnable_redeal_wins_the_game():
    game = get_game("crazy-quilt", SECOND)
    state, moves = after_redeal(deal_winnable_after_the_redeal(), SECOND)[0]
    while game.status(state) is Status.PLAYING and len(moves) < 400:
        move = hint(game, state, moves).move
        assert move is not None
        state = game.play(state, move)
        moves = [*moves, move]
    assert game.status(state) is Status.WON


def test_a_hint_says_lost_when_the_known_stock_leaves_no_winning_line():
    game = get_game("crazy-quilt")
    for deal in range(1, 6):
        for state, moves in after_redeal(deal, "classic")[::3]:
            if game.status(state) is not Status.PLAYING:
                continue
            given = hint(game, state, moves)
            if given.verdict == "lost":
                assert given.text_key == "hint.quilt.no_winning_line"
                known = known_position(game.view_for(state, 0), state.stock)
                assert solve_position(known, node_budget=10**6).result == "lost"
                game.check(state, game.parse_move(given.move))
                return
    raise AssertionError("no proven lost position after a redeal in deals 1..5")


def test_every_hint_along_a_game_is_a_legal_move():
    game = get_game("crazy-quilt", SECOND)
    for state, moves in positions(7, SECOND)[::3]:
        given = hint(game, state, moves)
        if game.status(state) is Status.PLAYING:
            game.check(state, game.parse_move(given.move))
        else:
            assert given.move is None
