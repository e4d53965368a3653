"""Knots in the Crazy Quilt: quilt cards that each wait for another of them (seed 000).

The proof (docstring of :mod:`spielcenter.solvers.crazy_quilt_knots`) is checked against a plain
brute-force search over the engine's own moves (``brute_force_wins`` of the solver's tests, no
pruning at all): every position with a knot is lost. A deliberately broken rule, which forgets
that a card in the stock or the waste can let a quilt card out, is shown to fail that check.
"""

from __future__ import annotations

import random

from spielcenter.games.cards import ACE, KING, Card
from spielcenter.games.crazy_quilt import CELL_INDEX, CELLS, SHORT_ENDS, SIZE, QuiltState, make
from spielcenter.solvers.crazy_quilt import solve
from spielcenter.solvers.crazy_quilt_knots import describe, knot, knot_proof
from spielcenter.solvers.crazy_quilt_position import position_of
from spielcenter.solvers.winnable import winnable_deals

from .test_crazy_quilt_solver import brute_force_wins, open_ends, patch_at, quilt_with

SEEDS = range(1_500)
"""The small positions the proof is checked on (about one in a hundred has a knot)."""


def diamonds_left(quilt: dict[str, str], stock: tuple[str, ...], down: int) -> QuiltState:
    """A classic end position: every foundation complete but the diamonds' down one at
    ``down``; the cards it still needs lie in the quilt (cells named) and the stock."""
    cells: list[Card | None] = [None] * CELLS
    for name, card in quilt.items():
        cells[CELL_INDEX[name]] = Card.parse(card)
    return QuiltState(
        deal=1,
        redeals=1,
        round_the_corner=False,
        quilt=tuple(cells),
        stock=tuple(Card.parse(card) for card in stock),
        waste=(),
        up=(KING, KING, KING, KING),
        down=(ACE, ACE, down, ACE),
        redeals_left=1,
    )


def full_patch_position(seed: int) -> QuiltState:
    """A small end position whose quilt is a full 3 × 3 patch away from the edge (so that its
    middle card lies between others): each suit leaves its top few up-cards and bottom few
    down-cards out, nine of them in the patch, the rest in the stock and the waste."""
    rng = random.Random(seed)
    loose, up, down = open_ends(rng, 11)
    in_quilt = min(len(loose), 9)
    in_stock = rng.randint(0, len(loose) - in_quilt)
    row, column = rng.randint(1, SIZE - 4), rng.randint(1, SIZE - 4)
    cells = quilt_with(rng.sample(patch_at(row, column), in_quilt), loose[:in_quilt])
    return QuiltState(
        deal=seed + 1,
        redeals=1,
        round_the_corner=rng.random() < 0.5,
        quilt=cells,
        stock=tuple(loose[in_quilt : in_quilt + in_stock]),
        waste=tuple(loose[in_quilt + in_stock :]),
        up=(up[0], up[1], up[2], up[3]),
        down=(down[0], down[1], down[2], down[3]),
        redeals_left=rng.randint(0, 1),
    )


# -- the rule on one position ------------------------------------------------------------------


def test_a_card_between_the_two_cards_that_wait_for_it_is_a_knot() -> None:
    """Rule: the 3♦ lies sideways between the 2♦ and the A♦, so it leaves only after one of
    them; they can leave only to the down foundation, which waits for the 3♦, or onto a 3♦ or
    a 2♦ on the waste, and no such card is outside the three. None of them ever leaves."""
    assert SHORT_ENDS[CELL_INDEX["c6"]] == (CELL_INDEX["b6"], CELL_INDEX["d6"])
    state = diamonds_left({"b6": "2D", "c6": "3D", "d6": "AD"}, ("4D",), down=5)
    assert describe(knot(position_of(state))) == "b6 c6 d6"
    assert not brute_force_wins(state)


def test_a_free_short_end_unties_it() -> None:
    """The same cards with the A♦ in the stock: the 3♦'s short end is free, and the deal is won."""
    state = diamonds_left({"b6": "2D", "c6": "3D"}, ("4D", "AD"), down=5)
    assert knot(position_of(state)) == 0
    assert brute_force_wins(state)


def test_a_card_the_foundation_takes_now_unties_it() -> None:
    """With the 4♦ at the 3♦'s other end, the down foundation takes the 4♦ at once, and then
    the 3♦, the 2♦ and the A♦ from the stock."""
    state = diamonds_left({"b6": "2D", "c6": "3D", "d6": "4D"}, ("AD",), down=5)
    assert knot(position_of(state)) == 0
    assert brute_force_wins(state)


# -- the proof against the brute force ---------------------------------------------------------


def test_every_position_with_a_knot_is_lost_by_the_brute_force() -> None:
    """Soundness: on the small positions a knot is found in, no line wins."""
    knotted = [seed for seed in SEEDS if knot(position_of(full_patch_position(seed)))]
    assert len(knotted) >= 15  # 17: the family holds knots, so the check checks something
    for seed in knotted:
        assert not brute_force_wins(full_patch_position(seed)), seed


def test_a_rule_that_forgets_the_stock_and_the_waste_fails_the_brute_force() -> None:
    """The broken rule counts only quilt cards as enablers: it finds knots in positions that a
    card from the stock or the waste unties, and the brute force wins some of them."""
    won = 0
    for seed in SEEDS[:200]:
        position = position_of(full_patch_position(seed))
        if knot(position, count_outside=False) and not knot(position):
            won += brute_force_wins(full_patch_position(seed))
    assert won > 0


def test_no_deal_the_lists_hold_as_won_has_a_knot() -> None:
    game = make("classic")
    for deal in sorted(winnable_deals("crazy-quilt", "classic"))[:60]:
        assert knot_proof(position_of(game.start(deal))) is None, deal


# -- the solver ---------------------------------------------------------------------------------


def test_solve_answers_lost_with_the_knot_as_proof() -> None:
    state = diamonds_left({"b6": "2D", "c6": "3D", "d6": "AD"}, ("4D",), down=5)
    verdict = solve(state)
    assert verdict.result == "lost"
    assert verdict.proof == str(knot_proof(position_of(state)))
    assert "3 quilt cards can never leave the quilt (A♦ 2♦ 3♦)" in verdict.proof
