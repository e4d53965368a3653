"""The hint button: Cruel asks the solver, Crazy Quilt looks only at what the player sees."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from spielcenter.games import get_game
from spielcenter.games.base import Status
from spielcenter.games.crazy_quilt import QuiltState
from spielcenter.solvers.cruel import solve
from spielcenter.solvers.hints import UNDO_NODE_BUDGET, Hint, quilt_hint
from spielcenter.solvers.registry import hint

# -- Cruel -------------------------------------------------------------------------------------


def first_deal_with(result: str, variant: str = "classic") -> int:
    return next(d for d in range(1, 200) if solve(d, variant, node_budget=20_000).result == result)


@pytest.mark.parametrize("variant", ["classic", "stuck", "perseverance"])
def test_the_cruel_hint_is_a_move_that_keeps_the_game_winnable(variant):
    deal = first_deal_with("won", variant)
    game = get_game("cruel", variant)
    state = game.start(deal)
    given = hint(game, state)
    assert given.verdict == "winnable"
    assert given.text_key == "hint.cruel.keeps_winnable"
    after = game.play(state, given.move)
    assert solve(after).result == "won"


def test_following_the_cruel_hints_wins_the_game():
    game = get_game("cruel", "stuck")
    state = game.start(first_deal_with("won", "stuck"))
    for _ in range(200):
        if game.status(state) is not Status.PLAYING:
            break
        state = game.play(state, hint(game, state).move)
    assert game.status(state) is Status.WON


def test_a_lost_cruel_game_without_history_says_lost_and_gives_no_undo_point():
    deal = first_deal_with("lost")
    game = get_game("cruel")
    given = hint(game, game.start(deal))
    assert given.verdict == "lost"
    assert given.undo_to is None


def losing_history(variant: str) -> tuple[int, list[str]]:
    """A game that starts winnable and is lost after its last move (found by seeded play).

    Each position played is asked for a loss proven within 300 positions: a random game soon
    reaches a position whose loss is that cheap to prove (classic deal 1 after 26 moves,
    perseverance deal 1 after 4), while a larger budget, 5 000 until 2026-12-07, spent
    seconds on the positions before it, whose searches run out."""
    game = get_game("cruel", variant)
    rng = random.Random(f"losing-{variant}")
    for deal in range(1, 60):
        if solve(deal, variant, node_budget=20_000).result != "won":
            continue
        state, moves = game.start(deal), []
        while game.status(state) is Status.PLAYING and len(moves) < 60:
            move = game.format_move(rng.choice(game.legal_moves(state)))
            state = game.play(state, move)
            moves.append(move)
            if solve(state, node_budget=300).result == "lost":
                return deal, moves
    raise AssertionError("no losing game found")


@pytest.mark.parametrize("variant", ["classic", "perseverance"])
def test_a_lost_cruel_game_with_history_says_how_far_to_undo(variant):
    deal, moves = losing_history(variant)
    game = get_game("cruel", variant)
    given = hint(game, game.replay(deal, moves), moves)
    assert given.verdict == "lost"
    assert given.undo_to is not None
    # The last position the solver shows winnable (with the hint's budget); the next is not.
    keep = game.replay(deal, moves[: given.undo_to])
    assert solve(keep, node_budget=UNDO_NODE_BUDGET).result == "won"
    after = game.replay(deal, moves[: given.undo_to + 1])
    assert solve(after, node_budget=UNDO_NODE_BUDGET).result != "won"


def test_an_undecided_cruel_position_gets_a_heuristic_legal_move():
    deal = next(d for d in range(1, 50) if solve(d, node_budget=2).result == "unknown")
    game = get_game("cruel")
    state = game.start(deal)
    given = hint(game, state, node_budget=1)
    assert given.verdict == "unknown"
    assert given.text_key == "hint.cruel.heuristic"
    game.check(state, game.parse_move(given.move))


def test_the_cruel_heuristic_prefers_a_foundation_move():
    game = get_game("cruel")
    for deal in range(1, 30):
        state = game.start(deal)
        ups = [game.format_move(m) for m in game.legal_moves(state) if m.is_to_foundation]
        given = hint(game, state, node_budget=1)
        if ups and given.verdict == "unknown":
            assert given.move in ups
            return
    raise AssertionError("no deal with a foundation move among the first 29")


def test_a_won_cruel_game_has_no_move_to_hint():
    game = get_game("cruel")
    deal = first_deal_with("won")
    state = game.replay(deal, solve(deal).moves)
    assert hint(game, state) == Hint(None, "winnable", "hint.won")


def test_a_game_without_hints_is_refused():
    game = get_game("speedquilt")
    with pytest.raises(ValueError, match="no hints"):
        hint(game, None)


# -- Crazy Quilt ---------------------------------------------------------------------------------


def quilt_positions(count: int) -> list[QuiltState]:
    """Positions along seeded random games of Crazy Quilt."""
    game = get_game("crazy-quilt")
    rng = random.Random("quilt-hints")
    states = []
    for deal in range(1, 1 + count):
        state = game.start(deal)
        for _ in range(rng.randint(0, 40)):
            moves = game.legal_moves(state)
            if not moves:
                break
            state = game.apply(state, rng.choice(moves))
        states.append(state)
    return states


def test_the_crazy_quilt_hint_is_the_same_whatever_the_stock_order():
    game = get_game("crazy-quilt")
    rng = random.Random("stock-order")
    compared = 0
    for state in quilt_positions(30):
        if len(state.stock) < 2:
            continue
        stock = list(state.stock)
        while tuple(stock) == state.stock:
            rng.shuffle(stock)
        other = replace(state, stock=tuple(stock))
        assert other != state
        assert hint(game, other) == hint(game, state)
        compared += 1
    assert compared >= 10


def test_the_crazy_quilt_hint_is_a_legal_move():
    game = get_game("crazy-quilt")
    for state in quilt_positions(20):
        given = hint(game, state)
        if given.move is not None:
            game.check(state, game.parse_move(given.move))


def test_the_crazy_quilt_hint_prefers_a_foundation_move():
    game = get_game("crazy-quilt")
    seen = 0
    for state in quilt_positions(30):
        legal = [game.format_move(m) for m in game.legal_moves(state)]
        ups = [m for m in legal if m[-1] in "ud"]
        if ups:
            given = hint(game, state)
            assert given.move in ups
            assert given.text_key == "hint.quilt.foundation"
            seen += 1
    assert seen >= 5


def test_the_crazy_quilt_hint_builds_on_the_waste_only_when_that_frees_a_card():
    game = get_game("crazy-quilt")
    seen = 0
    for state in quilt_positions(30):
        given = hint(game, state)
        if given.text_key == "hint.quilt.waste_frees":
            assert given.move.endswith("w")
            before = len(game.view_for(state, 0)["available"])
            after = game.view_for(game.play(state, given.move), 0)["available"]
            assert len(after) >= before  # the card left, and at least one more came free
            seen += 1
    assert seen >= 1


def test_the_crazy_quilt_hint_turns_a_stock_card_when_nothing_better_is_there():
    view = {
        "status": "playing",
        "legal": ["s"],
        "quilt": [[None] * 8 for _ in range(8)],
    }
    assert quilt_hint(view) == Hint("s", "unknown", "hint.quilt.turn")


def test_the_crazy_quilt_hint_says_building_is_all_that_is_left_when_it_frees_nothing():
    # With the stock spent, no redeal and no founding, a build that frees no quilt card is
    # no choice of the rule of thumb's: the hint says it is the only kind of move there is.
    quilt: list[list[str | None]] = [[None] * 8 for _ in range(8)]
    quilt[3][4] = "7H"
    view = {"status": "playing", "legal": ["e4w"], "quilt": quilt}
    assert quilt_hint(view) == Hint("e4w", "unknown", "hint.quilt.waste_only")


def test_the_crazy_quilt_hint_has_no_move_when_no_move_is_legal():
    view = {"status": "lost", "legal": [], "quilt": [[None] * 8 for _ in range(8)]}
    assert quilt_hint(view) == Hint(None, "lost", "hint.none")
