"""The placement rule: a die may only go where the block can still be completed; sewing."""

from __future__ import annotations

from spielcenter.games.speedquilt.feasibility import can_complete, can_place, sewing_assignments
from spielcenter.games.speedquilt.model import COLOURS, Block, Colour, Deck, Die, Patch, Rule

R, B, G, Y, P = Colour.RED, Colour.BLUE, Colour.GREEN, Colour.YELLOW, Colour.PURPLE


def block(*patches: Patch, rule: Rule | None = None) -> Block:
    return Block("T01", Deck.PATTERN, R, patches, rule)


def roll(*values: int) -> list[Die]:
    return [Die(colour, value) for colour, value in zip(COLOURS, values, strict=True)]


def test_a_number_on_a_patch_takes_exactly_that_value() -> None:
    four = block(Patch(4), Patch(), Patch())
    assert can_place(four, (None, None, None), 0, 4, G)
    assert not can_place(four, (None, None, None), 0, 5, G)


def test_a_coloured_border_takes_only_the_die_of_that_colour() -> None:
    red = block(Patch(colour=R), Patch(), Patch())
    assert can_place(red, (None, None, None), 0, 3, R)
    assert not can_place(red, (None, None, None), 0, 3, B)


def test_an_empty_patch_takes_any_number_and_any_colour() -> None:
    free = block(Patch(), Patch(), Patch())
    assert all(can_place(free, (None,) * 3, 1, v, c) for v in range(1, 7) for c in COLOURS)


def test_a_filled_patch_takes_no_second_die() -> None:
    free = block(Patch(), Patch(), Patch())
    assert not can_place(free, (2, None, None), 0, 3, R)


def test_a_patch_that_does_not_exist_takes_nothing() -> None:
    free = block(Patch(), Patch(), Patch())
    assert not can_place(free, (None,) * 3, 3, 3, R)
    assert not can_place(free, (None,) * 3, -1, 3, R)


def test_ascending_needs_each_number_larger_than_the_one_before() -> None:
    stairs = block(Patch(), Patch(), Patch(), rule=Rule.ASCENDING)
    assert can_complete(stairs, (1, 2, 4))  # gaps are allowed
    assert not can_complete(stairs, (1, 2, 2))
    assert not can_complete(stairs, (3, 2, 5))


def test_ascending_leaves_room_for_the_empty_patches() -> None:
    stairs = block(Patch(), Patch(), Patch(), rule=Rule.ASCENDING)
    assert can_place(stairs, (None, None, None), 0, 4, R)  # 4 5 6 still fits
    assert not can_place(stairs, (None, None, None), 0, 5, R)  # nothing above 6
    assert not can_place(stairs, (None, None, None), 2, 2, R)  # nothing below 1


def test_ascending_respects_numbers_printed_on_later_patches() -> None:
    stairs = block(Patch(), Patch(), Patch(3), rule=Rule.ASCENDING)
    assert can_place(stairs, (None,) * 3, 1, 2, R)
    assert not can_place(stairs, (None,) * 3, 1, 3, R)
    assert not can_place(stairs, (None,) * 3, 0, 2, R)  # patch 2 would need a value in (2, 3)


def test_equal_needs_the_same_number_on_patches_with_the_same_letter() -> None:
    pair = block(Patch(letter="A"), Patch(letter="A"), Patch(), rule=Rule.EQUAL)
    assert can_place(pair, (5, None, None), 1, 5, B)
    assert not can_place(pair, (5, None, None), 1, 4, B)


def test_equal_letters_may_share_a_number() -> None:
    full_house = block(
        Patch(letter="A"), Patch(letter="A"), Patch(letter="B"), Patch(letter="B"), rule=Rule.EQUAL
    )
    assert can_complete(full_house, (3, 3, 3, 3))


def test_equal_respects_a_number_printed_on_a_lettered_patch() -> None:
    pair = block(Patch(letter="A"), Patch(6, letter="A"), Patch(), rule=Rule.EQUAL)
    assert not can_place(pair, (None,) * 3, 0, 5, R)
    assert can_place(pair, (None,) * 3, 0, 6, R)


def test_sum_forty_needs_all_patches_together_at_least_forty() -> None:
    seven = Block("T02", Deck.PATTERN, R, (Patch(),) * 7, Rule.SUM40)
    assert can_complete(seven, (None,) * 7)
    assert can_place(seven, (None,) * 7, 0, 4, R)  # 4 + 6·6 = 40
    assert not can_place(seven, (None,) * 7, 0, 3, R)  # 3 + 36 = 39
    assert not can_complete(seven, (6, 6, 6, 6, 6, 5, 4))


def test_sewing_fills_all_empty_patches_at_once_with_distinct_dice() -> None:
    pair = block(Patch(letter="A"), Patch(letter="A"), Patch(colour=P), rule=Rule.EQUAL)
    dice = roll(2, 5, 2, 1, 3)  # red 2, blue 5, green 2, yellow 1, purple 3
    ways = sewing_assignments(pair, (None, None, None), dice)
    assert ways == [((0, 0), (1, 2), (2, 4)), ((0, 2), (1, 0), (2, 4))]


def test_sewing_is_impossible_when_the_dice_do_not_fit() -> None:
    stairs = block(Patch(), Patch(), Patch(), rule=Rule.ASCENDING)
    assert sewing_assignments(stairs, (None,) * 3, roll(4, 4, 4, 4, 4)) == []


def test_sewing_fills_only_the_patches_still_empty() -> None:
    stairs = block(Patch(), Patch(), Patch(), rule=Rule.ASCENDING)
    ways = sewing_assignments(stairs, (1, None, 6), roll(1, 6, 6, 6, 3))
    assert ways == [((1, 4),)]


def test_a_finished_block_cannot_be_sewn_again() -> None:
    free = block(Patch(), Patch(), Patch())
    assert sewing_assignments(free, (1, 2, 3), roll(1, 2, 3, 4, 5)) == []
