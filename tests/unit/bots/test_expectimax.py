"""The dice core: exact tables for sewing and buying, the best plan, exact expectimax."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from spielcenter.bots.expectimax import (
    FULL,
    SHAPE,
    PlanAction,
    best_plan,
    buy_table,
    index_of,
    keep_values,
    plan_values,
    sew_table,
    with_rerolls,
)
from spielcenter.games.speedquilt.catalogue import load_catalogue
from spielcenter.games.speedquilt.difficulty import one_turn_chance

CATALOGUE = load_catalogue()


@pytest.mark.parametrize("block_id", ["P01", "P07", "P03", "K05"])
def test_the_one_turn_chance_of_the_tables_equals_the_exact_fraction(block_id: str) -> None:
    block = CATALOGUE.block(block_id)
    sewable = (sew_table(block, (None,) * len(block.patches)) > 0).astype(float).reshape(SHAPE)
    chance = with_rerolls(sewable, 2, 0.0).mean()
    assert chance == pytest.approx(float(one_turn_chance(block)), abs=1e-12)


def test_four_equal_dice_buy_a_pattern_block_and_three_a_kit() -> None:
    at = np.ravel_multi_index(index_of((4, 4, 4, 4, 2)), SHAPE)
    pattern_masks = [m for m in range(32) if int(buy_table(4)[at]) >> m & 1]
    kit_masks = [m for m in range(32) if int(buy_table(3)[at]) >> m & 1]
    assert pattern_masks == [0b01111]
    assert len(kit_masks) == 4 and all(m & 0b10000 == 0 for m in kit_masks)


def test_a_die_serves_only_one_action_in_a_plan() -> None:
    six = CATALOGUE.block("P01")  # 6 any any
    kit = CATALOGUE.block("K05")
    actions = [
        PlanAction("sew P01", 3.0, sew_table(six, (None, None, None))),
        PlanAction("buy kit", 2.0, buy_table(3)),
    ]
    values = (6, 6, 6, 1, 2)  # three sixes: either buy a kit or sew P01, not both with them
    plan = best_plan(actions, values)
    used = [mask for _, mask in plan]
    assert all(a & b == 0 for i, a in enumerate(used) for b in used[i + 1 :])
    total = plan_values(actions)[index_of(values)]
    assert total == pytest.approx(sum(a.value for a in actions if a.name in dict(plan)))
    assert kit.id == "K05"


def test_stopping_is_worth_the_plan_of_the_dice_on_the_table() -> None:
    final = np.zeros(SHAPE)
    final[index_of((6, 6, 6, 6, 1))] = 5.0
    assert keep_values(final, (6, 6, 6, 6, 1), 2, 0.0)[FULL] == 5.0


def test_a_rerolled_die_is_averaged_over_its_six_faces() -> None:
    final = np.zeros(SHAPE)
    final[index_of((6, 6, 6, 6, 6))] = 1.0
    values = keep_values(final, (6, 6, 6, 6, 1), 1, 0.0)
    assert values[0b01111] == pytest.approx(1 / 6)
    assert values.argmax() == 0b01111


def test_each_reroll_costs_what_it_gives_away() -> None:
    final = np.zeros(SHAPE)
    final[index_of((6, 6, 6, 6, 6))] = 1.0
    free = keep_values(final, (6, 6, 6, 6, 1), 1, 0.0)
    costly = keep_values(final, (6, 6, 6, 6, 1), 1, 0.25)
    assert costly[0b01111] == pytest.approx(free[0b01111] - 0.25)


def test_two_rerolls_are_worth_the_exact_two_step_expectation() -> None:
    final = np.zeros(SHAPE)
    final[index_of((6, 6, 6, 6, 6))] = 1.0
    # Keep four sixes, reroll the last die up to twice: 1 - (5/6)^2.
    value = keep_values(final, (6, 6, 6, 6, 1), 2, 0.0)[0b01111]
    assert value == pytest.approx(float(1 - Fraction(5, 6) ** 2))
