"""The exact one-turn chance of a block, the difficulty measure, and points following difficulty."""

from __future__ import annotations

from fractions import Fraction

import pytest

from spielcenter.games.speedquilt.catalogue import load_catalogue
from spielcenter.games.speedquilt.difficulty import (
    difficulty,
    one_turn_chance,
    prefills_needed,
    ranks,
    spearman,
)
from spielcenter.games.speedquilt.model import Block, Colour, Deck, Patch, Rule
from spielcenter.games.speedquilt.scoring import typical_points

R, B = Colour.RED, Colour.BLUE


def block(*patches: Patch, rule: Rule | None = None) -> Block:
    return Block("T01", Deck.PATTERN, R, patches, rule)


def test_a_single_six_is_missed_only_if_fifteen_throws_miss_it() -> None:
    # Keeping a six is optimal, so each of the five dice gets three throws.
    assert one_turn_chance(block(Patch(6))) == 1 - Fraction(5, 6) ** 15


def test_a_coloured_patch_needs_its_own_die() -> None:
    red_six_blue_six = block(Patch(6, R), Patch(6, B))
    assert one_turn_chance(red_six_blue_six) == (1 - Fraction(5, 6) ** 3) ** 2


def test_one_roll_of_an_equal_pair_needs_two_dice_alike() -> None:
    pair = block(Patch(letter="A"), Patch(letter="A"), rule=Rule.EQUAL)
    assert one_turn_chance(pair, rolls=1) == 1 - Fraction(6 * 5 * 4 * 3 * 2, 6**5)


def test_one_roll_of_five_ascending_needs_five_different_numbers() -> None:
    stairs = block(*(Patch(),) * 5, rule=Rule.ASCENDING)
    assert one_turn_chance(stairs, rolls=1) == Fraction(6 * 5 * 4 * 3 * 2, 6**5)


def test_every_reroll_raises_the_chance() -> None:
    stairs = block(*(Patch(),) * 5, rule=Rule.ASCENDING)
    one, two, three = (one_turn_chance(stairs, rolls=n) for n in (1, 2, 3))
    assert one < two < three < 1


def test_a_block_any_dice_fit_is_sewn_at_once() -> None:
    assert one_turn_chance(block(Patch(), Patch(), Patch())) == 1


def test_the_chance_starts_from_the_dice_already_on_the_block() -> None:
    stairs = block(Patch(), Patch(), Patch(6), rule=Rule.ASCENDING)
    assert one_turn_chance(stairs, (5, None, None)) == 0  # nothing fits between 5 and 6
    assert one_turn_chance(block(Patch(), Patch(6)), (3, None)) == 1 - Fraction(5, 6) ** 15


def test_more_than_five_empty_patches_cannot_be_sewn_in_one_turn() -> None:
    six = block(*(Patch(),) * 6)
    assert (one_turn_chance(six), prefills_needed(six)) == (0, 1)
    assert difficulty(six) == 2.0


def test_two_patches_of_one_colour_cannot_be_sewn_in_one_turn() -> None:
    two_red = block(Patch(colour=R), Patch(colour=R), Patch())
    assert (one_turn_chance(two_red), prefills_needed(two_red)) == (0, 1)
    assert one_turn_chance(two_red, (3, None, None)) == 1


def test_difficulty_is_one_minus_the_chance_for_one_turn_blocks() -> None:
    six = block(Patch(6))
    assert difficulty(six) == pytest.approx(float(Fraction(5, 6) ** 15))


def test_the_colour_of_the_dice_does_not_change_the_chance_by_itself() -> None:
    red_first = block(Patch(2, R), Patch(colour=B), Patch(), rule=Rule.ASCENDING)
    blue_first = block(Patch(2, B), Patch(colour=R), Patch(), rule=Rule.ASCENDING)
    assert one_turn_chance(red_first) == one_turn_chance(blue_first)


def test_ranks_share_the_mean_rank_on_ties() -> None:
    assert ranks([3.0, 1.0, 3.0, 2.0]) == [3.5, 1.0, 3.5, 2.0]


def test_spearman_is_minus_one_for_reversed_order() -> None:
    assert spearman([1, 2, 3], [9, 5, 1]) == pytest.approx(-1.0)


def test_harder_pattern_blocks_score_more() -> None:
    patterns = load_catalogue().patterns
    hardness = [difficulty(b) for b in patterns]
    points = [typical_points(b) for b in patterns]
    assert spearman(hardness, points) >= 0.5


def test_every_block_of_the_catalogue_has_a_chance_or_needs_prefilled_patches() -> None:
    for b in load_catalogue():
        chance = one_turn_chance(b)
        assert (chance > 0) == (prefills_needed(b) == 0), b.id
