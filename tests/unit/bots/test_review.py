"""The game review (issue 42): her decisions against the strong player, marked by points lost."""

from __future__ import annotations

import json
from typing import Any

import pytest

from spielcenter.bots.review import (
    FINE_BELOW,
    MISTAKE_FROM,
    Decision,
    ReviewError,
    decisions,
    judge,
    review,
)
from spielcenter.bots.tournament import play_game
from spielcenter.games.speedquilt.model import Deck
from spielcenter.games.speedquilt.moves import Buy, Keep, Move, Reroll, Sew
from spielcenter.games.speedquilt.state import GameState

from ..speedquilt.engine_helpers import B, G, P, R, Y, chosen, clear_quilt, game, lay, rolled


def _decision(engine: Any, state: GameState, kind: str, *moves: Move) -> Decision:
    """Her decision in a constructed position (seat 0), as the review walks it."""
    return Decision(1, 0, state.round, kind, engine.view_for(state, 0), tuple(moves))


def _fives_and_nothing_else() -> tuple[Any, GameState]:
    """Her only open block is P06 (5 5 5), the shop is empty, the first roll shows 5 5 5 3 1:
    the dice already sew everything there is to sew."""
    engine = game(2)
    state = clear_quilt(chosen(engine, 34), 0)
    lay(state, 0, (0, 0), "P06")
    state.shelves = {deck: [None] * len(shelf) for deck, shelf in state.shelves.items()}
    return engine, rolled(state, 0, [5, 5, 5, 3, 1])


def test_rerolling_dice_that_already_sew_the_only_block_is_a_mistake() -> None:
    engine, state = _fives_and_nothing_else()
    judged = judge(engine, _decision(engine, state, "roll", Keep(()), Reroll()), 0)
    assert judged.best == ("stop rolling",)
    assert judged.loss >= MISTAKE_FROM
    assert judged.verdict == "mistake"


def test_rerolling_only_dice_that_can_do_nothing_costs_just_the_gift_and_is_fine() -> None:
    # Keeping the three fives loses no sewing; the reroll only hands the other seat a die
    # (0.35 points as the strong player reckons it): below the line where a choice is marked.
    engine, state = _fives_and_nothing_else()
    judged = judge(engine, _decision(engine, state, "roll", Keep((R, B, G)), Reroll()), 0)
    assert 0 < judged.loss < FINE_BELOW
    assert judged.verdict == "fine"


def test_stopping_with_the_dice_that_sew_the_block_is_fine() -> None:
    engine, state = _fives_and_nothing_else()
    judged = judge(engine, _decision(engine, state, "roll", Keep((R, B, G, Y, P))), 0)
    assert judged.loss == 0
    assert judged.verdict == "fine"


def _last_round_four_ones() -> tuple[Any, GameState]:
    """The last round of the game, after the last roll: 1 1 1 1 6; her quilt holds P05 (1 1 any,
    3 points); the top shelf holds P14, the bottom shelf is empty."""
    engine = game(2)
    state = clear_quilt(chosen(engine, 35), 0)
    lay(state, 0, (0, 0), "P05")
    state.shelves[Deck.PATTERN] = ["P14", None, None, None]
    state.shelves[Deck.KIT] = [None] * len(state.shelves[Deck.KIT])
    state = rolled(state, 0, [1, 1, 1, 1, 6], rolls=3)
    state.end_round = state.round
    return engine, state


def test_buying_a_block_that_can_no_longer_be_finished_instead_of_sewing_is_a_mistake() -> None:
    # Four ones buy P14, but no turn is left to sew it and one die cannot: it will never score.
    # The strong player sews P05 with two ones and the six.
    engine, state = _last_round_four_ones()
    bought = Buy("P14", (1, 0), (R, B, G, Y))
    judged = judge(engine, _decision(engine, state, "act", bought), 0)
    assert judged.best[0].startswith("sew P05")
    assert judged.points < 0  # a block that is never finished scores nothing and fills a cell
    assert judged.verdict == "mistake"
    assert judged.kind == "buying"


def test_sewing_what_the_strong_player_sews_is_fine() -> None:
    engine, state = _last_round_four_ones()
    sewn = Sew("P05", ((R, 0), (B, 1), (P, 2)))
    judged = judge(engine, _decision(engine, state, "act", sewn), 0)
    assert judged.loss == pytest.approx(0.0)
    assert judged.verdict == "fine"
    assert judged.kind == "sewing"
    assert judged.own >= 3  # P05 scores 3 points once sewn: her move alone is worth them


@pytest.mark.parametrize(("levels", "seed"), [(["strong", "normal"], 6), (["strong"], 8)])
def test_a_review_of_the_strong_players_own_game_finds_no_mistakes(
    levels: list[str], seed: int
) -> None:
    variant = "solo" if len(levels) == 1 else "table"
    played = play_game(levels, seed, variant=variant)
    engine = game(len(levels), variant) if variant == "table" else game(1, "solo")
    reviewed = review(engine, seed, played.moves, 0)
    assert reviewed.judgements, "a whole game has decisions"
    assert {j.verdict for j in reviewed.judgements} == {"fine"}
    assert sum(reviewed.left_by_kind().values()) == pytest.approx(0.0, abs=1e-9)
    assert reviewed.score == played.scores[0]


@pytest.fixture(scope="module")
def duel() -> tuple[Any, list[tuple[int, str]]]:
    """A finished game of normal (seat 0) against strong (seat 1), deal 5."""
    return game(2), play_game(["normal", "strong"], 5).moves


def test_a_game_that_is_not_over_is_refused(duel: tuple[Any, list[tuple[int, str]]]) -> None:
    engine, log = duel
    with pytest.raises(ReviewError, match="not over"):
        review(engine, 5, log[:-1], 0)


def test_a_seat_that_is_not_at_the_table_and_a_log_that_does_not_replay_are_refused(
    duel: tuple[Any, list[tuple[int, str]]],
) -> None:
    engine, log = duel
    with pytest.raises(ReviewError, match="no seat 2"):
        review(engine, 5, log, 2)
    with pytest.raises(ReviewError, match="entry 1 does not replay"):
        review(engine, 5, [(0, "reroll"), *log], 0)


def test_a_review_holds_only_her_own_decisions_and_nothing_she_did_not_see(
    duel: tuple[Any, list[tuple[int, str]]],
) -> None:
    engine, log = duel
    out = review(engine, 5, log, 0).to_json(engine)
    # Every reviewed decision is settled by one of her own entries.
    assert out["decisions"]
    assert all(log[d["seq"] - 1][0] == 0 for d in out["decisions"])
    # Every block the review names was in one of her views; the block seat 1 put back at the
    # start (private to seat 1 until it turns up in the shop) is named only if she saw it.
    seen: set[str] = set()
    for d in decisions(engine, 5, log, 0):
        seen |= _blocks_in(d.view)
    text = json.dumps(out)
    named = {word.strip('",:[]') for word in text.split()} & _all_block_ids(engine)
    assert named <= seen
    returned = log[next(i for i, (s, m) in enumerate(log) if s == 1 and m.startswith("choose"))]
    put_back = returned[1].split()[-1]
    if put_back not in seen:
        assert put_back not in text


def _blocks_in(view: Any) -> set[str]:
    found: set[str] = set()
    if isinstance(view, dict):
        for value in view.values():
            found |= _blocks_in(value)
    elif isinstance(view, list):
        for value in view:
            found |= _blocks_in(value)
    elif isinstance(view, str) and len(view) == 3 and view[0] in "PK" and view[1:].isdigit():
        found.add(view)
    return found


def _all_block_ids(engine: Any) -> set[str]:
    return {block.id for block in engine.ctx.catalogue}


def test_the_summary_adds_up_the_marked_losses_and_names_the_costliest(
    duel: tuple[Any, list[tuple[int, str]]],
) -> None:
    engine, log = duel
    reviewed = review(engine, 5, log, 0)
    out = reviewed.to_json(engine)
    counted = [j for j in reviewed.judgements if j.verdict != "unclear"]
    assert out["summary"]["left_total"] == pytest.approx(sum(j.loss for j in counted), abs=0.02)
    costliest = reviewed.costliest()
    assert len(costliest) <= 3
    assert all(j.verdict in ("inaccuracy", "mistake") for j in costliest)
    assert [j.loss for j in costliest] == sorted((j.loss for j in costliest), reverse=True)
    # The strong player's choice is also told in words for the page (the reroll after a basket
    # needs none of its own), with nothing of the move notation but ids, dice and cells.
    for decision in out["decisions"]:
        assert len(decision["best_lines"]) == len([b for b in decision["best"] if b != "reroll"])
        assert all(line["key"].startswith("review.best.") for line in decision["best_lines"])
    for j in reviewed.judgements:
        if j.loss < FINE_BELOW:
            assert j.verdict == "fine"
        elif j.noise >= j.loss:  # the two valuations disagree by as much as is at stake
            assert j.verdict == "unclear"
        else:
            assert j.verdict == ("mistake" if j.loss >= MISTAKE_FROM else "inaccuracy")
