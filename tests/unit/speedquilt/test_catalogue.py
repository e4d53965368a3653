"""The block catalogue: its decks, its constraints, and clear errors for a bad catalogue file."""

from __future__ import annotations

import re
from collections import Counter
from importlib import resources
from statistics import median

import pytest

from spielcenter.games.speedquilt.catalogue import (
    CatalogueError,
    load_catalogue,
    parse_catalogue,
    parse_patch,
)
from spielcenter.games.speedquilt.difficulty import prefills_needed
from spielcenter.games.speedquilt.feasibility import can_complete
from spielcenter.games.speedquilt.model import COLOURS, Colour, Deck, KitKind, Patch, Rule
from spielcenter.games.speedquilt.scoring import typical_points

CATALOGUE = load_catalogue()
TEXT = resources.files("spielcenter.games.speedquilt").joinpath("catalogue.toml").read_text()


def edit(block_id: str, old: str, new: str) -> str:
    """The catalogue text with ``old`` replaced by ``new`` inside the entry of ``block_id``."""
    start = TEXT.index(f'id = "{block_id}"')
    end = TEXT.find("[[", start)
    end = len(TEXT) if end < 0 else end
    entry = TEXT[start:end]
    assert old in entry, f"{old!r} not in {block_id}"
    return TEXT[:start] + entry.replace(old, new, 1) + TEXT[end:]


def patches_line(block_id: str) -> str:
    start = TEXT.index(f'id = "{block_id}"')
    match = re.compile(r"patches = \[.*\]").search(TEXT, start)
    assert match is not None
    return match.group(0)


# -- the decks ----------------------------------------------------------------------------------


def test_the_pattern_deck_has_45_blocks_8_of_each_colour_and_5_remnants() -> None:
    colours = Counter(b.colour for b in CATALOGUE.patterns)
    assert len(CATALOGUE.patterns) == 45
    assert all(colours[c] == 8 for c in COLOURS)
    assert colours[None] == 5 == sum(b.is_remnant for b in CATALOGUE)


def test_the_kit_deck_has_each_of_the_five_kinds_in_each_of_the_five_colours() -> None:
    pairs = {(b.kit, b.colour) for b in CATALOGUE.kits}
    assert len(CATALOGUE.kits) == 25
    assert pairs == {(k, c) for k in KitKind for c in COLOURS}


def test_ids_are_stable_p01_to_p45_and_k01_to_k25() -> None:
    assert CATALOGUE.pattern_ids == tuple(f"P{n:02d}" for n in range(1, 46))
    assert CATALOGUE.kit_ids == tuple(f"K{n:02d}" for n in range(1, 26))
    assert CATALOGUE.block("P07").id == "P07"


def test_an_unknown_id_is_a_clear_error() -> None:
    with pytest.raises(CatalogueError, match="P46: no such block"):
        CATALOGUE.block("P46")


def test_pattern_blocks_carry_a_scoring_line_and_kits_an_ability() -> None:
    assert all(b.scoring and b.kit is None and b.deck is Deck.PATTERN for b in CATALOGUE.patterns)
    assert all(b.kit and b.scoring is None and b.is_kit for b in CATALOGUE.kits)


def test_kits_have_two_or_three_patches() -> None:
    assert {len(b.patches) for b in CATALOGUE.kits} <= {2, 3}


def test_pattern_blocks_have_three_to_six_patches_except_the_sum_blocks() -> None:
    plain = {len(b.patches) for b in CATALOGUE.patterns if b.rule is not Rule.SUM40}
    assert plain <= {3, 4, 5, 6}


def test_there_are_four_sum_forty_blocks_of_seven_or_eight_patches() -> None:
    sums = [b for b in CATALOGUE.patterns if b.rule is Rule.SUM40]
    assert len(sums) == 4
    assert {len(b.patches) for b in sums} <= {7, 8}


def test_about_half_the_pattern_blocks_have_no_rule_the_rest_split_between_lt_and_eq() -> None:
    rules = Counter(b.rule for b in CATALOGUE.patterns)
    assert 20 <= rules[None] <= 25
    assert abs(rules[Rule.ASCENDING] - rules[Rule.EQUAL]) <= 2


def test_every_block_can_be_completed_from_empty() -> None:
    assert all(can_complete(b, (None,) * len(b.patches)) for b in CATALOGUE)


def test_blocks_needing_prefilled_patches_are_rare_and_score_more() -> None:
    needy = [b for b in CATALOGUE.patterns if prefills_needed(b) > 0]
    others = [b for b in CATALOGUE.patterns if prefills_needed(b) == 0]
    assert 4 <= len(needy) <= 9
    assert min(typical_points(b) for b in needy) > median(typical_points(b) for b in others)


def test_coloured_lines_name_a_colour() -> None:
    for b in CATALOGUE.patterns:
        assert b.scoring is not None
        named = b.scoring.colour is not None
        assert named == (b.scoring.line.value in {"colour_block", "colour_neighbour"}), b.id


# -- reading patches ---------------------------------------------------------------------------


def test_a_patch_is_written_as_value_colour_and_letter_words() -> None:
    assert parse_patch("any") == Patch()
    assert parse_patch("5") == Patch(5)
    assert parse_patch("A blue") == Patch(colour=Colour.BLUE, letter="A")


# -- a bad catalogue fails with the block and the fault ------------------------------------------


def test_the_catalogue_file_as_shipped_is_valid() -> None:
    assert parse_catalogue(TEXT) == CATALOGUE


@pytest.mark.parametrize(
    ("block_id", "old", "new", "message"),
    [
        ("P07", '"4"]', '"7"]', "P07: patch 3 has value 7; values are 1–6"),
        ("P02", '"red"', '"pink"', "P02: patch 1: 'pink' is not a value 1–6"),
        ("P01", '"6"', '""', "P01: patch 1 is empty"),
        ("P02", 'colour = "blue"', 'colour = "teal"', "P02: colour 'teal' is not one of"),
        ("P01", 'score = "finished_neighbour"', 'score = "luck"', "P01: score 'luck'"),
        ("P01", "points = 1", "points = 0", "P01: points must be a whole number of at least 1"),
        ("P05", 'id = "P05"', 'id = "P50"', "P05: entry number 5 has id 'P50'"),
        ("P01", '"6", ', '"6 A", ', "P01: letters belong only on '=' blocks"),
        ("K01", 'kind = "thimble"', 'kind = "needle"', "K01: kind 'needle'"),
        ("K01", '["6", "6"]', '["6"]', "K01: has 1 patches; a kit has 2–3"),
        ("P01", "points = 1", "points = 1\nshiny = true", "P01: unknown fields ['shiny']"),
    ],
)
def test_a_bad_entry_names_the_block_and_the_fault(
    block_id: str, old: str, new: str, message: str
) -> None:
    with pytest.raises(CatalogueError, match=re.escape(message)):
        parse_catalogue(edit(block_id, old, new))


def test_a_block_that_cannot_be_completed_is_rejected() -> None:
    bad = edit("P04", patches_line("P04"), 'patches = ["6", "any", "any"]')
    with pytest.raises(CatalogueError, match="P04: cannot be completed from empty"):
        parse_catalogue(bad)


def test_a_letter_on_a_single_patch_is_rejected() -> None:
    bad = edit("P03", patches_line("P03"), 'patches = ["A", "B", "any"]')
    with pytest.raises(CatalogueError, match="P03: every letter of an '=' block needs two"):
        parse_catalogue(bad)


def test_a_pattern_block_with_seven_patches_and_no_sum_rule_is_rejected() -> None:
    bad = edit("P01", patches_line("P01"), "patches = [" + ", ".join(['"any"'] * 7) + "]")
    with pytest.raises(CatalogueError, match="P01: has 7 patches; a pattern block has 3–6"):
        parse_catalogue(bad)


def test_a_missing_colour_count_is_rejected() -> None:
    bad = edit("P01", 'colour = "red"', 'colour = "blue"')
    with pytest.raises(CatalogueError, match="pattern deck: 7 red blocks; it has 8 of each"):
        parse_catalogue(bad)


def test_a_kit_kind_twice_in_one_colour_is_rejected() -> None:
    bad = edit("K02", 'kind = "thimble"', 'kind = "pins"')
    with pytest.raises(CatalogueError, match=r"kit deck: 0 \w+ thimble kits; it has one of each"):
        parse_catalogue(bad)


def test_a_file_that_is_not_toml_is_rejected() -> None:
    with pytest.raises(CatalogueError, match="not valid TOML"):
        parse_catalogue("[[pattern]\nid = ")
