"""Scoring of finished quilts: the eight lines, remnant colours, places and leaderboard points."""

from __future__ import annotations

import pytest

from spielcenter.games.speedquilt.catalogue import Catalogue
from spielcenter.games.speedquilt.model import (
    Block,
    Cell,
    Colour,
    Deck,
    KitKind,
    Line,
    Patch,
    PlacedBlock,
    Scoring,
)
from spielcenter.games.speedquilt.scoring import (
    QuiltError,
    QuiltScore,
    leaderboard_points,
    rank_players,
    score_quilt,
)

R, B, G, Y, P = Colour.RED, Colour.BLUE, Colour.GREEN, Colour.YELLOW, Colour.PURPLE
ANY3 = (Patch(), Patch(), Patch())


def pattern(
    block_id: str, colour: Colour | None, line: Line, points: int, of: Colour | None = None
) -> Block:
    return Block(block_id, Deck.PATTERN, colour, ANY3, None, Scoring(line, points, of))


def kit(block_id: str, colour: Colour, kind: KitKind) -> Block:
    return Block(block_id, Deck.KIT, colour, ANY3[:2], kit=kind)


def done(block: Block) -> PlacedBlock:
    return PlacedBlock(block.id, (1,) * len(block.patches))


def open_(block: Block) -> PlacedBlock:
    return PlacedBlock(block.id, (1,) + (None,) * (len(block.patches) - 1))


def score(layout: dict[Cell, tuple[Block, bool]]) -> QuiltScore:
    catalogue = Catalogue(tuple(block for block, _ in layout.values()))
    quilt = {cell: done(b) if finished else open_(b) for cell, (b, finished) in layout.items()}
    return score_quilt(quilt, catalogue)


def plain(block_id: str, colour: Colour | None) -> Block:
    """A filler pattern block worth nothing to the test at hand (fixed 0 is not allowed: 1)."""
    return pattern(block_id, colour, Line.FIXED, 1)


def test_only_finished_pattern_blocks_score() -> None:
    sun = pattern("P01", R, Line.FIXED, 5)
    result = score({(0, 0): (sun, False)})
    entry = result.at((0, 0))
    assert entry is not None and not entry.finished
    assert (entry.points, result.total) == (0, 0)


def test_fixed_points_are_flat() -> None:
    result = score({(0, 0): (pattern("P01", R, Line.FIXED, 5), True)})
    assert result.total == 5


def test_finished_neighbour_counts_finished_blocks_above_below_left_right() -> None:
    star = pattern("P01", R, Line.FINISHED_NEIGHBOUR, 2)
    layout = {
        (1, 1): (star, True),
        (0, 1): (kit("K01", B, KitKind.PINS), True),  # left, a finished kit counts
        (1, 0): (plain("P02", G), True),  # above
        (2, 1): (plain("P03", Y), False),  # right, unfinished: not counted
        (2, 2): (plain("P04", P), True),  # diagonal: not a neighbour
    }
    entry = score(layout).at((1, 1))
    assert entry is not None
    assert (entry.count, entry.factor, entry.points) == (2, 2, 4)


def test_colour_block_counts_blocks_of_that_colour_anywhere_finished_or_not_itself_included() -> (
    None
):
    red_count = pattern("P01", R, Line.COLOUR_BLOCK, 2, of=R)
    layout = {
        (0, 0): (red_count, True),
        (2, 2): (plain("P02", R), False),  # far away and unfinished: counts
        (1, 1): (kit("K01", R, KitKind.THIMBLE), False),
        (2, 0): (plain("P03", B), True),
    }
    entry = score(layout).at((0, 0))
    assert entry is not None
    assert (entry.count, entry.points) == (3, 6)


def test_colour_neighbour_counts_orthogonal_neighbours_of_that_colour() -> None:
    likes_blue = pattern("P01", R, Line.COLOUR_NEIGHBOUR, 3, of=B)
    layout = {
        (1, 1): (likes_blue, True),
        (1, 0): (plain("P02", B), False),
        (1, 2): (kit("K01", B, KitKind.PINS), True),
        (0, 1): (plain("P03", G), True),
        (0, 0): (plain("P04", B), True),  # diagonal
    }
    entry = score(layout).at((1, 1))
    assert entry is not None
    assert (entry.count, entry.points) == (2, 6)


def test_finished_line_counts_rows_and_columns_of_three_finished_blocks() -> None:
    liner = pattern("P01", R, Line.FINISHED_LINE, 4)
    layout = {
        (0, 0): (liner, True),
        (1, 0): (plain("P02", B), True),
        (2, 0): (plain("P03", G), True),  # top row finished
        (0, 1): (plain("P04", Y), True),
        (0, 2): (plain("P05", P), True),  # left column finished
        (1, 1): (plain("P06", R), True),
        (2, 1): (plain("P07", R), False),  # middle row has an unfinished block
        (1, 2): (plain("P08", B), True),
    }
    entry = score(layout).at((0, 0))
    assert entry is not None
    assert (entry.count, entry.points) == (3, 12)  # top row, left column, middle column


def test_all_colours_pays_when_every_colour_appears_in_the_quilt() -> None:
    rainbow = pattern("P01", R, Line.ALL_COLOURS, 6)
    layout = {
        (0, 0): (rainbow, True),
        (1, 0): (plain("P02", B), False),
        (2, 0): (kit("K01", G, KitKind.PINS), False),
        (0, 1): (plain("P03", Y), True),
        (1, 1): (plain("P04", P), False),
    }
    entry = score(layout).at((0, 0))
    assert entry is not None
    assert (entry.count, entry.points) == (5, 6)


def test_all_colours_pays_nothing_when_a_colour_is_missing() -> None:
    rainbow = pattern("P01", R, Line.ALL_COLOURS, 6)
    layout = {(0, 0): (rainbow, True), (1, 0): (plain("P02", B), True)}
    entry = score(layout).at((0, 0))
    assert entry is not None
    assert (entry.count, entry.points) == (2, 0)


def test_mono_line_counts_rows_and_columns_of_three_blocks_of_one_colour() -> None:
    mono = pattern("P01", G, Line.MONO_LINE, 5)
    layout = {
        (0, 0): (mono, True),
        (1, 0): (plain("P02", G), False),  # unfinished blocks keep their colour
        (2, 0): (kit("K01", G, KitKind.THIMBLE), True),
        (0, 1): (plain("P03", G), True),
        (0, 2): (plain("P04", B), True),  # the column is not single-coloured
    }
    entry = score(layout).at((0, 0))
    assert entry is not None
    assert (entry.count, entry.points) == (1, 5)


def test_kit_kind_counts_different_kinds_among_finished_kits() -> None:
    sewing_box = pattern("P01", R, Line.KIT_KIND, 3)
    layout = {
        (0, 0): (sewing_box, True),
        (1, 0): (kit("K01", B, KitKind.PINS), True),
        (2, 0): (kit("K02", G, KitKind.PINS), True),  # same kind: counted once
        (0, 1): (kit("K03", Y, KitKind.THIMBLE), True),
        (1, 1): (kit("K04", P, KitKind.SCISSORS), False),  # unfinished: not counted
    }
    entry = score(layout).at((0, 0))
    assert entry is not None
    assert (entry.count, entry.points) == (2, 6)


def test_a_finished_remnant_takes_the_colour_that_gives_the_highest_total() -> None:
    remnant = pattern("P01", None, Line.FIXED, 1)
    likes_green = pattern("P02", R, Line.COLOUR_NEIGHBOUR, 4, of=G)
    result = score({(0, 0): (remnant, True), (1, 0): (likes_green, True)})
    assert result.remnant_colours == {(0, 0): G}
    entry = result.at((0, 0))
    assert entry is not None and entry.colour is G and entry.chosen_colour
    assert result.total == 1 + 4


def test_the_colours_of_several_remnants_are_chosen_together() -> None:
    # Each remnant alone would gain by several colours; only both yellow pay every line in full.
    left = pattern("P01", None, Line.COLOUR_BLOCK, 3, of=Y)
    middle = pattern("P02", None, Line.COLOUR_NEIGHBOUR, 2, of=Y)
    right = pattern("P03", Y, Line.MONO_LINE, 10)
    result = score({(0, 0): (left, True), (1, 0): (middle, True), (2, 0): (right, True)})
    assert result.remnant_colours == {(0, 0): Y, (1, 0): Y}
    assert result.total == 3 * 3 + 2 * 2 + 10


def test_an_unfinished_remnant_has_no_colour() -> None:
    remnant = pattern("P01", None, Line.FIXED, 1)
    counter = pattern("P02", R, Line.ALL_COLOURS, 6)
    layout = {
        (0, 0): (remnant, False),
        (1, 0): (counter, True),
        (2, 0): (plain("P03", B), True),
        (0, 1): (plain("P04", G), True),
        (1, 1): (plain("P05", Y), True),
    }
    result = score(layout)
    assert result.remnant_colours == {}
    entry = result.at((1, 0))
    assert entry is not None and (entry.count, entry.points) == (4, 0)


def test_empty_patches_are_counted_over_every_block() -> None:
    layout = {(0, 0): (plain("P01", R), False), (1, 0): (kit("K01", B, KitKind.PINS), False)}
    assert score(layout).empty_patches == 2 + 1


def test_most_points_wins() -> None:
    a = QuiltScore(30, (), {}, 0)
    b = QuiltScore(31, (), {}, 5)
    assert rank_players([a, b]) == [2, 1]


def test_a_tie_goes_to_fewer_empty_patches() -> None:
    a = QuiltScore(30, (), {}, 3)
    b = QuiltScore(30, (), {}, 1)
    assert rank_players([a, b]) == [2, 1]


def test_players_tied_on_points_and_empty_patches_share_the_place() -> None:
    scores = [QuiltScore(30, (), {}, 2), QuiltScore(30, (), {}, 2), QuiltScore(20, (), {}, 0)]
    assert rank_players(scores) == [1, 1, 3]


@pytest.mark.parametrize(("place", "points", "expected"), [(1, 30, 200), (2, 25, 150), (3, 10, 60)])
def test_leaderboard_gives_five_per_point_and_a_place_bonus_of_50_25_10(
    place: int, points: int, expected: int
) -> None:
    assert leaderboard_points(place, points) == expected


def test_shared_places_each_get_that_places_bonus() -> None:
    places = rank_players([QuiltScore(20, (), {}, 0), QuiltScore(20, (), {}, 0)])
    assert [leaderboard_points(p, 20) for p in places] == [150, 150]


def test_fourth_place_gets_no_bonus() -> None:
    assert leaderboard_points(4, 12) == 60


def test_an_unknown_block_is_a_clear_error() -> None:
    catalogue = Catalogue((plain("P01", R),))
    with pytest.raises(QuiltError, match="P09"):
        score_quilt({(0, 0): PlacedBlock("P09", (1, 1, 1))}, catalogue)


def test_a_wrong_number_of_patch_values_is_a_clear_error() -> None:
    catalogue = Catalogue((plain("P01", R),))
    with pytest.raises(QuiltError, match="2 patch values given, the block has 3"):
        score_quilt({(0, 0): PlacedBlock("P01", (1, 1))}, catalogue)


def test_values_that_break_a_patch_are_a_clear_error() -> None:
    six = Block("P01", Deck.PATTERN, R, (Patch(6), Patch(), Patch()), None, Scoring(Line.FIXED, 1))
    with pytest.raises(QuiltError, match="break its patches"):
        score_quilt({(0, 0): PlacedBlock("P01", (5, 1, 1))}, Catalogue((six,)))


def test_a_quilt_larger_than_three_by_three_is_a_clear_error() -> None:
    blocks = (plain("P01", R), plain("P02", B))
    quilt = {(0, 0): done(blocks[0]), (3, 0): done(blocks[1])}
    with pytest.raises(QuiltError, match="larger than 3 × 3"):
        score_quilt(quilt, Catalogue(blocks))
