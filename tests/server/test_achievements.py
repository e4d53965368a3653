"""Achievements: the seven of the seed (003, "Erfolge") and our own, each from a built game."""

from __future__ import annotations

from itertools import product
from pathlib import Path
from typing import Any

import pytest

from spielcenter.games.base import Status, get_game
from spielcenter.games.speedquilt.catalogue import load_catalogue
from spielcenter.games.speedquilt.model import PlacedBlock
from spielcenter.games.speedquilt.scoring import QuiltError, score_quilt
from spielcenter.games.speedquilt.state import Phase
from spielcenter.services.achievements import ACHIEVEMENTS, Facts, QuiltFacts, earned
from spielcenter.services.campaign import Outcome
from spielcenter.services.results import FinishedGame, award, quilt_facts
from spielcenter.web.i18n import catalog

from .conftest import FakeClock
from .progress_world import make_world, play_idle

CATALOGUE = load_catalogue()
ENGINE = get_game("speedquilt", "solo")


def quilt(**changes: Any) -> QuiltFacts:
    """An ordinary finished quilt that earns nothing, with ``changes``."""
    base: dict[str, Any] = {
        "points": 10,
        "pattern_points": 10,
        "place": 1,
        "seats": 1,
        "blocks": 5,
        "finished_blocks": 3,
        "finished_kit_kinds": frozenset({"thimble"}),
        "single_colour_rows": 0,
        "gifts": 0,
        "round_bonus": 0,
    }
    return QuiltFacts(**{**base, **changes})


def speedquilt(q: QuiltFacts, **changes: Any) -> Facts:
    return Facts(game="speedquilt", variant="table", status=Status.FINISHED, quilt=q, **changes)


def patience(game: str, variant: str, status: Status, moves: int, **changes: Any) -> Facts:
    return Facts(game=game, variant=variant, status=status, moves=("3f",) * moves, **changes)


def outcome(stage: int, cleared: bool, completed: bool = False, points: int = 0) -> Outcome:
    return Outcome(stage, cleared, 30, 0, False, completed, cleared, points)


def finished_block(block_id: str) -> PlacedBlock:
    """The block with values its patches accept (the first that scoring takes as possible)."""
    patches = len(CATALOGUE.block(block_id).patches)
    for values in product(range(1, 7), repeat=patches):
        placed = PlacedBlock(block_id, values)
        try:
            score_quilt({(0, 0): placed}, CATALOGUE)
        except QuiltError:
            continue
        return placed
    raise AssertionError(f"no filling of {block_id}")


def empty_block(block_id: str) -> PlacedBlock:
    return PlacedBlock(block_id, (None,) * len(CATALOGUE.block(block_id).patches))


def final_state(blocks: dict[tuple[int, int], PlacedBlock]) -> Any:
    state = ENGINE.start(7).copy()
    state.seats[0].quilt = dict(blocks)
    state.phase = Phase.OVER
    return state


def facts_of(blocks: dict[tuple[int, int], PlacedBlock]) -> QuiltFacts:
    finished = FinishedGame.of_solo_game(
        "g", "anna", "speedquilt", "solo", ENGINE, final_state(blocks), [], Status.FINISHED, None
    )
    return quilt_facts(finished, 0)


# -- the seven of the seed -------------------------------------------------------------------------


def test_well_gifted_is_five_dice_taken_while_giving_in_one_game() -> None:
    assert "well_gifted" in earned(speedquilt(quilt(gifts=5)))
    assert "well_gifted" not in earned(speedquilt(quilt(gifts=4)))


def test_all_one_colour_is_a_single_coloured_row_in_the_finished_quilt() -> None:
    reds = [b.id for b in CATALOGUE.patterns if str(b.colour) == "red"][:3]
    row = {(x, 0): empty_block(block_id) for x, block_id in enumerate(reds)}
    mixed = dict(row) | {(2, 0): PlacedBlock("P02", (None,) * 3)}
    assert "one_colour" in earned(speedquilt(facts_of(row)))
    assert "one_colour" not in earned(speedquilt(facts_of(mixed)))


def test_full_sewing_box_is_all_five_kit_kinds_finished() -> None:
    kits = ["K01", "K06", "K11", "K16", "K21"]  # thimble, dye bath, scissors, machine, pins
    cells = [(0, 0), (1, 0), (2, 0), (0, 1), (1, 1)]
    box = {cell: finished_block(kit) for cell, kit in zip(cells, kits, strict=True)}
    four = dict(box) | {(1, 1): PlacedBlock("K21", (None, None))}
    assert "full_sewing_box" in earned(speedquilt(facts_of(box)))
    assert "full_sewing_box" not in earned(speedquilt(facts_of(four)))


def test_no_patch_free_is_all_nine_blocks_finished() -> None:
    assert "no_patch_free" in earned(speedquilt(quilt(blocks=9, finished_blocks=9)))
    assert "no_patch_free" not in earned(speedquilt(quilt(blocks=9, finished_blocks=8)))


def test_master_quilt_is_forty_points_from_pattern_blocks() -> None:
    assert "master_quilt" in earned(speedquilt(quilt(points=40, pattern_points=40)))
    # The solo round bonus is not from pattern blocks.
    bonus = quilt(points=44, pattern_points=38, round_bonus=6)
    assert "master_quilt" not in earned(speedquilt(bonus))


def test_daily_guest_is_a_daily_quilt_played() -> None:
    assert "daily_guest" in earned(speedquilt(quilt(), daily=True))
    assert "daily_guest" not in earned(speedquilt(quilt()))


def test_all_seven_stages_is_the_seventh_stage_cleared() -> None:
    assert "all_seven_stages" in earned(speedquilt(quilt(), campaign=outcome(7, True, True)))
    assert "all_seven_stages" not in earned(speedquilt(quilt(), campaign=outcome(6, True)))


# -- our own --------------------------------------------------------------------------------


def test_cruel_won_without_a_redeal() -> None:
    assert "cruel_no_redeal" in earned(patience("cruel", "classic", Status.WON, 80))
    with_redeal = Facts("cruel", "classic", Status.WON, moves=("3f", "r", "4f"))
    assert "cruel_no_redeal" not in earned(with_redeal)


def test_crazy_quilt_won_without_the_redeal() -> None:
    assert "crazy_quilt_no_redeal" in earned(patience("crazy-quilt", "classic", Status.WON, 120))
    lost = patience("crazy-quilt", "classic", Status.LOST, 120)
    assert "crazy_quilt_no_redeal" not in earned(lost)


def test_a_perseverance_win() -> None:
    assert "perseverance" in earned(patience("cruel", "perseverance", Status.WON, 150))
    assert "perseverance" not in earned(patience("cruel", "classic", Status.WON, 150))


def test_a_cruel_streak_of_three() -> None:
    assert "cruel_streak" in earned(patience("cruel", "classic", Status.WON, 150, streak=3))
    assert "cruel_streak" not in earned(patience("cruel", "classic", Status.WON, 150, streak=2))


def test_a_patience_won_in_a_hundred_moves_or_fewer() -> None:
    assert "quick_patience" in earned(patience("cruel", "classic", Status.WON, 100))
    assert "quick_patience" not in earned(patience("cruel", "classic", Status.WON, 101))


def test_a_first_patience_win() -> None:
    assert "first_patience_win" in earned(patience("crazy-quilt", "classic", Status.WON, 150))
    assert "first_patience_win" not in earned(patience("cruel", "classic", Status.LOST, 150))


def test_a_first_campaign_stage_cleared() -> None:
    assert "first_stage" in earned(speedquilt(quilt(), campaign=outcome(1, True)))
    assert "first_stage" not in earned(speedquilt(quilt(), campaign=outcome(1, False)))


def test_all_seven_stages_with_fifty_campaign_points() -> None:
    fifty = outcome(7, True, True, points=50)
    assert "fifty_campaign_points" in earned(speedquilt(quilt(), campaign=fifty))
    short = outcome(7, True, True, points=49)
    assert "fifty_campaign_points" not in earned(speedquilt(quilt(), campaign=short))


def test_a_swift_quilt_has_three_rounds_left_after_the_ninth_block() -> None:
    assert "swift_quilt" in earned(speedquilt(quilt(round_bonus=6)))
    assert "swift_quilt" not in earned(speedquilt(quilt(round_bonus=4)))


def test_a_table_won_against_others() -> None:
    assert "table_winner" in earned(speedquilt(quilt(seats=3, place=1)))
    assert "table_winner" not in earned(speedquilt(quilt(seats=1, place=1)))


# -- awarding --------------------------------------------------------------------------------


def test_there_are_the_seven_of_the_seed_and_at_least_eight_more() -> None:
    seed = {
        "well_gifted",
        "one_colour",
        "full_sewing_box",
        "no_patch_free",
        "master_quilt",
        "daily_guest",
        "all_seven_stages",
    }
    keys = {a.key for a in ACHIEVEMENTS}
    assert seed <= keys and len(keys - seed) >= 8
    assert {a.game for a in ACHIEVEMENTS} >= {"speedquilt", "cruel", "crazy-quilt"}


@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_achievement_has_a_name_and_a_description(lang: str) -> None:
    messages = catalog(lang)
    for achievement in ACHIEVEMENTS:
        assert messages.get(achievement.name_key, achievement.name_key) != achievement.name_key
        assert messages.get(achievement.text_key, achievement.text_key) != achievement.text_key


async def test_an_achievement_is_awarded_once_per_account_with_the_date(
    tmp_path: Path, clock: FakeClock
) -> None:
    world = await make_world(tmp_path, clock)
    anna = await world.account("anna")
    async with world.games.sessionmaker.begin() as db:
        first = await award(db, anna, ["daily_guest"], None, clock())
    clock.advance(3600)
    async with world.games.sessionmaker.begin() as db:
        again = await award(db, anna, ["daily_guest"], None, clock())
    listed = await world.progress.history.achievements(anna)
    await world.close()
    assert [a["key"] for a in first] == ["daily_guest"] and again == []
    guest = next(a for a in listed["achievements"] if a["key"] == "daily_guest")
    assert guest["awarded_at"] == first[0]["awarded_at"] and listed["earned"] == 1


async def test_the_end_of_a_daily_quilt_shows_the_new_achievement(
    tmp_path: Path, clock: FakeClock
) -> None:
    world = await make_world(tmp_path, clock)
    anna = await world.account("anna")
    first = await world.progress.daily.play(anna)
    events = await play_idle(world.games, anna, first["game"]["id"])
    second = await world.progress.daily.play(anna)
    practice = await play_idle(world.games, anna, second["game"]["id"])
    await world.close()
    assert [a["key"] for a in events[-1]["achievements"]] == ["daily_guest"]
    assert "achievements" not in practice[-1]
