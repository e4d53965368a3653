"""The quilt's cell masks as signed 64-bit integers (cell 63 the sign bit), which the beams keep
so that mypyc runs their moves on native integers: every operation the beams make on them must
give the cells the unsigned Python masks give, in the same order, compiled or not (the tests
run the compiled build when it is current, tests/unit/test_native.py)."""

from __future__ import annotations

import random

import pytest

from spielcenter.games import Status, get_game
from spielcenter.games.cards import ACE, KING, Card
from spielcenter.games.crazy_quilt import (
    CELLS,
    SIZE,
    VARIANTS,
    QuiltState,
    apply_move,
    legal_moves,
)
from spielcenter.solvers.codes import RANK
from spielcenter.solvers.crazy_quilt import start_state
from spielcenter.solvers.crazy_quilt_last_pass import quilt_masks
from spielcenter.solvers.crazy_quilt_position import (
    ALL_CELLS,
    available,
    cell_of,
    low_cell,
    position_of,
    signed_cells,
    touches,
    unsigned_cells,
    vanish,
    vanish_signed,
)
from spielcenter.solvers.crazy_quilt_search import Search, decide

from .test_crazy_quilt_solver import brute_force_wins, open_ends, quilt_with, replay_from

LAST = 1 << (CELLS - 1)
"""Cell 63, the cell whose bit is the sign of a signed mask."""


def masks(rng: random.Random, count: int) -> list[int]:
    """Unsigned masks of the 64 cells: the corners of the range (none, all, cell 63 alone, cells
    62 and 63, every cell but 63) and random ones, sparse and dense."""
    chosen = [0, ALL_CELLS, LAST, LAST | LAST >> 1, ALL_CELLS ^ LAST, 1, LAST >> 1]
    for _ in range(count):
        chosen.append(rng.getrandbits(CELLS) & rng.getrandbits(CELLS) & rng.getrandbits(CELLS))
        chosen.append(rng.getrandbits(CELLS) | LAST)
    return chosen


def test_a_signed_mask_holds_the_same_cells_and_turns_back() -> None:
    # Cell c is in a signed mask exactly when it is in the unsigned one (bit c of the two's
    # complement), the signed mask fits 64 signed bits, and unsigned_cells undoes it.
    for mask in masks(random.Random(41), 200):
        signed = signed_cells(mask)
        assert -(1 << 63) <= signed < 1 << 63
        assert [signed >> c & 1 for c in range(CELLS)] == [mask >> c & 1 for c in range(CELLS)]
        assert unsigned_cells(signed) == mask
        assert signed.to_bytes(8, "little", signed=True) == mask.to_bytes(8, "little")


def test_and_or_xor_and_not_on_signed_masks_give_the_unsigned_masks_cells() -> None:
    rng = random.Random(7)
    pool = masks(rng, 60)
    for a, b in zip(pool, reversed(pool), strict=True):
        sa, sb = signed_cells(a), signed_cells(b)
        assert unsigned_cells(sa & sb) == a & b
        assert unsigned_cells(sa | sb) == a | b
        assert unsigned_cells(sa ^ sb) == a ^ b
        assert unsigned_cells(sa & ~sb) == a & ~b & ALL_CELLS


def test_the_lowest_cell_first_visits_the_cells_in_their_order_cell_63_last() -> None:
    # The beams visit a mask's cells lowest first (the move order, and so the answers, depend
    # on it); cell 63 alone is the one mask whose negation does not fit 64 bits.
    for mask in masks(random.Random(3), 200):
        rest = signed_cells(mask)
        visited = []
        while rest:
            low = low_cell(rest)
            rest ^= low
            visited.append(cell_of(low))
        assert visited == [c for c in range(CELLS) if mask >> c & 1]


def test_ghosts_vanish_from_signed_masks_as_from_unsigned_ones() -> None:
    rng = random.Random(11)
    for _ in range(300):
        gone = rng.getrandbits(CELLS) & rng.getrandbits(CELLS)
        ghosts = rng.getrandbits(CELLS) & ~gone & ALL_CELLS
        free = available(gone)
        want = vanish(gone, free, ghosts)
        got = vanish_signed(signed_cells(gone), signed_cells(free), signed_cells(ghosts))
        assert (unsigned_cells(got[0]), unsigned_cells(got[1])) == want


def test_the_beams_safe_moves_on_signed_masks_are_the_exact_searchs() -> None:
    # Search.force_signed (the beams') against Search.force (the exact search's) from positions
    # along random plays of classic and round-the-corner deals: the same moves, the same cells.
    rng = random.Random(5)
    for variant, deal in (("classic", 3), ("classic", 113), ("round-the-corner", 14)):
        state = start_state(deal, variant)
        for _ in range(120):
            moves = legal_moves(state)
            if not moves:
                break
            position = position_of(state)
            search = Search(position.cards, position.round_the_corner, 10**6)
            fnd = position.up + position.down
            gone = position.gone
            free = available(gone)
            unsigned: list[str] = []
            signed: list[str] = []
            want = search.force(gone, free, position.waste, fnd, unsigned)
            got = search.force_signed(
                signed_cells(gone), signed_cells(free), position.waste, fnd, signed
            )
            assert signed == unsigned
            assert (unsigned_cells(got[0]), unsigned_cells(got[1]), got[2], got[3]) == want
            assert search.signed_following(fnd) == signed_cells(search.following(fnd))
            state = apply_move(state, rng.choice(moves))


def test_the_searchs_quilt_masks_are_those_of_the_cards_left_in_the_quilt() -> None:
    # Search._quilt_masks reads the cells from a signed mask as native integers for speed; it
    # must give what crazy_quilt_last_pass.quilt_masks gives for the codes of the cells not gone
    # (the relaxed check's answers depend on it), whatever cells are gone, 62 and 63 among them.
    for variant, deal in (("classic", 3), ("round-the-corner", 14)):
        position = position_of(start_state(deal, variant))
        search = Search(position.cards, position.round_the_corner, 10**6)
        for gone in masks(random.Random(deal), 150):
            left = bytes(
                code for cell, code in enumerate(position.cards) if code and not gone >> cell & 1
            )
            assert search._quilt_masks(signed_cells(gone)) == quilt_masks(left)


# -- the exact search on signed masks -----------------------------------------------------

CORNER = tuple(row * SIZE + column for row in (5, 6, 7) for column in (5, 6, 7))
"""The quilt's last 3 × 3 patch, cells 45–47, 53–55 and 61–63: 62 and 63 are the cells whose bits
are a signed mask's two highest (63 its sign), so every mask of a position here holds them."""


def corner_end_position(seed: int) -> QuiltState:
    """A small end position whose quilt cards lie in :data:`CORNER`, cells 62 and 63 always
    among them: as ``constructed_end_position`` of the solver's tests, only the patch fixed
    (there it is one patch in 36)."""
    rng = random.Random(seed)
    variant = rng.choice(VARIANTS)
    redeals = 2 if "second-redeal" in variant else 1
    loose, up, down = open_ends(rng, rng.randint(5, 10))
    in_quilt = rng.randint(2, min(len(loose), len(CORNER)))
    in_stock = rng.randint(0, len(loose) - in_quilt)
    chosen = [CELLS - 1, CELLS - 2, *rng.sample(CORNER[:-2], in_quilt - 2)]
    cells = quilt_with(chosen, loose[:in_quilt])
    return QuiltState(
        deal=seed + 1,
        redeals=redeals,
        round_the_corner="round-the-corner" in variant,
        quilt=cells,
        stock=tuple(loose[in_quilt : in_quilt + in_stock]),
        waste=tuple(loose[in_quilt + in_stock :]),
        up=(up[0], up[1], up[2], up[3]),
        down=(down[0], down[1], down[2], down[3]),
        redeals_left=rng.randint(0, redeals),
    )


def test_corner_positions_are_true_crazy_quilt_positions_with_cards_in_cells_62_and_63() -> None:
    for seed in range(40):
        state = corner_end_position(seed)
        game = get_game("crazy-quilt", state.variant)
        assert game.decode(game.encode(state)) == state
        assert state.quilt[CELLS - 1] is not None and state.quilt[CELLS - 2] is not None


@pytest.mark.parametrize("batch", range(4))
def test_the_exact_search_on_signed_masks_agrees_with_brute_force_in_the_quilts_last_cells(
    batch: int,
) -> None:
    # The exact search (Search.search, _children, turns, _usable, the relaxed checks and its
    # keys) keeps the quilt's masks signed, cell 63 the sign bit. A cell read short there (a
    # card in cell 62 or 63 never available, founded or built on; a key that forgets whether
    # cell 63 is empty; the last pass's relaxed check missing its card) turns won positions
    # lost or lost ones won: every verdict must be the brute force's over the engine's own
    # moves, with and without the check across the redeal, every won line must replay, and a
    # search resumed from an interrupted one's positions (their keys) must agree too.
    verdicts = set()
    for seed in range(batch * 40, batch * 40 + 40):
        state = corner_end_position(seed)
        position = position_of(state)
        truth = "won" if brute_force_wins(state) else "lost"
        game = get_game("crazy-quilt", state.variant)
        for across_redeal in (False, True):
            verdict, _ = decide(position, 10**6, None, across_redeal, set())
            assert verdict.result == truth, (seed, across_redeal)
            if truth == "won":
                assert game.status(replay_from(state, verdict.moves)) is Status.WON, seed
        first, lost = decide(position, 5, None, False, set())
        if first.result == "unknown":
            assert decide(position, 10**6, None, True, lost)[0].result == truth, seed
        verdicts.add(truth)
    assert verdicts == {"won", "lost"}


def spades_in_the_corner(stock: str, waste: str) -> QuiltState:
    """The last pass of a classic game where only spades are left: up at 10, down at 4 (so
    JS QS KS go up, 3S 2S AS down); 2S, JS, QS in cells 61, 62, 63. JS, the up foundation's next
    card, waits behind 2S and QS (cell 62's short ends face 61 and 63), neither of which a
    foundation takes before JS or 3S; ``stock`` and ``waste`` (bottom to top) hold the rest."""
    quilt: list[Card | None] = [None] * CELLS
    quilt[61], quilt[62], quilt[63] = Card.parse("2S"), Card.parse("JS"), Card.parse("QS")
    return QuiltState(
        deal=1,
        redeals=1,
        round_the_corner=False,
        quilt=tuple(quilt),
        stock=tuple(Card.parse(text) for text in stock.split()),
        waste=tuple(Card.parse(text) for text in waste.split()),
        up=(10, KING, KING, KING),
        down=(4, ACE, ACE, ACE),
        redeals_left=0,
    )


def test_a_game_won_only_by_building_cell_63s_card_onto_the_waste_is_won_by_the_exact_search() -> (
    None
):
    # QS (cell 63) built onto KS, the waste's top, frees JS; building 2S onto AS instead, once
    # turned, buries KS; neither QS nor 2S goes to a foundation before JS or 3S (under KS).
    state = spades_in_the_corner("AS", "3S KS")
    game = get_game("crazy-quilt", state.variant)
    assert game.decode(game.encode(state)) == state
    assert brute_force_wins(state)
    for across_redeal in (False, True):
        verdict, _ = decide(position_of(state), 10**6, None, across_redeal, set())
        assert verdict.result == "won"
        assert game.status(replay_from(state, verdict.moves)) is Status.WON
        assert "h8w" in verdict.moves  # the name of cell 63's build onto the waste


def test_a_waste_top_is_usable_when_a_foundation_takes_it_or_an_available_card_touches_it() -> None:
    # Search.turns stops at a turned card only when it can be used at once (Search._usable, on
    # a signed mask of the available cells): a foundation takes it, or an available quilt card
    # of its suit one rank away (king and ace too, round the corner) can be built onto it.
    rng = random.Random(13)
    for variant, deal in (("classic", 7), ("round-the-corner", 21)):
        position = position_of(start_state(deal, variant))
        search = Search(position.cards, position.round_the_corner, 10**6)
        for free in masks(rng, 40):
            fnd = tuple(rng.randint(ACE - 1, KING) for _ in range(4)) + tuple(
                rng.randint(ACE, KING + 1) for _ in range(4)
            )
            for top in set(position.cards) - {0}:
                suit, rank = top >> 4, top & RANK
                founded = fnd[suit] == rank - 1 or fnd[4 + suit] == rank + 1
                built_on = any(
                    free >> cell & 1 and touches(code, top, position.round_the_corner)
                    for cell, code in enumerate(position.cards)
                    if code
                )
                assert search._usable(top, signed_cells(free), fnd) == (founded or built_on)
