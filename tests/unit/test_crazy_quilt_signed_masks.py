"""The quilt's cell masks as signed 64-bit integers (cell 63 the sign bit), which the beams keep
so that mypyc runs their moves on native integers: every operation the beams make on them must
give the cells the unsigned Python masks give, in the same order, compiled or not (the tests
run the compiled build when it is current, tests/unit/test_native.py)."""

from __future__ import annotations

import random

from spielcenter.games.crazy_quilt import CELLS, apply_move, legal_moves
from spielcenter.solvers.crazy_quilt import start_state
from spielcenter.solvers.crazy_quilt_last_pass import quilt_masks
from spielcenter.solvers.crazy_quilt_position import (
    ALL_CELLS,
    available,
    cell_of,
    low_cell,
    position_of,
    signed_cells,
    unsigned_cells,
    vanish,
    vanish_signed,
)
from spielcenter.solvers.crazy_quilt_search import Search

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
    # Search._quilt_masks reads the cells in two native halves for speed; it must give what
    # crazy_quilt_last_pass.quilt_masks gives for the codes of the cells not gone (the relaxed
    # check's answers depend on it), whatever cells are gone, 62 and 63 among them.
    for variant, deal in (("classic", 3), ("round-the-corner", 14)):
        position = position_of(start_state(deal, variant))
        search = Search(position.cards, position.round_the_corner, 10**6)
        for gone in masks(random.Random(deal), 150):
            left = bytes(
                code for cell, code in enumerate(position.cards) if code and not gone >> cell & 1
            )
            assert search._quilt_masks(gone) == quilt_masks(left)
