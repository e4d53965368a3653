"""Block info: colour, scoring or ability, rule and patches in sentences, and what it means now."""

from __future__ import annotations

import pytest

from spielcenter.games.speedquilt.blockinfo import BlockContext, block_info, calculation
from spielcenter.games.speedquilt.catalogue import Catalogue
from spielcenter.games.speedquilt.model import (
    COLOURS,
    Block,
    Colour,
    Deck,
    Die,
    KitKind,
    Line,
    Patch,
    PlacedBlock,
    Rule,
    Scoring,
)
from spielcenter.games.speedquilt.scoring import score_quilt

R, B, G, Y, P = Colour.RED, Colour.BLUE, Colour.GREEN, Colour.YELLOW, Colour.PURPLE

STAIRS = Block(
    "P01",
    Deck.PATTERN,
    R,
    (Patch(colour=R), Patch(), Patch(4)),
    Rule.ASCENDING,
    Scoring(Line.FINISHED_NEIGHBOUR, 2),
)
PAIR = Block(
    "P02",
    Deck.PATTERN,
    None,
    (Patch(letter="A"), Patch(letter="A"), Patch(5, B)),
    Rule.EQUAL,
    Scoring(Line.COLOUR_NEIGHBOUR, 3, B),
)
BLUE = Block("P03", Deck.PATTERN, B, (Patch(), Patch(), Patch()), None, Scoring(Line.FIXED, 1))
THIMBLE = Block("K01", Deck.KIT, P, (Patch(6), Patch()), kit=KitKind.THIMBLE)
CATALOGUE = Catalogue((STAIRS, PAIR, BLUE, THIMBLE))


def roll(*values: int) -> list[Die]:
    return [Die(colour, value) for colour, value in zip(COLOURS, values, strict=True)]


def test_the_info_names_the_colour_and_the_scoring_in_whole_sentences() -> None:
    assert block_info(STAIRS, "de")[:2] == [
        "Ein roter Musterblock.",
        "Fertig zählt er 2 Punkte je fertiger Nachbar (oben, unten, links, rechts).",
    ]
    assert block_info(STAIRS, "en")[:2] == [
        "A red pattern block.",
        "Once finished, it scores 2 points per finished neighbour (above, below, left, right).",
    ]


def test_a_remnant_has_no_colour_until_it_is_finished() -> None:
    assert block_info(PAIR, "de")[0].startswith("Ein Flickenrest ohne Farbe")
    assert block_info(PAIR, "en")[0].startswith("A remnant without colour")


def test_a_kit_names_its_ability() -> None:
    assert block_info(THIMBLE, "de")[:2] == [
        "Ein lila Nähzeug: Fingerhut.",
        "Fertig kann es: Einmal pro Zug (auch im Zug der anderen) machst du einen Würfel um 1 "
        "größer oder kleiner (nicht über 6 oder unter 1).",
    ]
    assert block_info(THIMBLE, "en")[0] == "A purple sewing kit: thimble."


def test_the_info_explains_the_rule() -> None:
    assert "Regel =: Flicken mit demselben Buchstaben brauchen dieselbe Zahl." in block_info(PAIR)
    assert "No rule." in block_info(BLUE, "en")


def test_each_patch_gets_its_own_sentence() -> None:
    assert block_info(STAIRS, "de")[3:6] == [
        "Flicken 1: nur der rote Würfel.",
        "Flicken 2: jeder Würfel.",
        "Flicken 3: genau eine 4.",
    ]
    assert block_info(PAIR, "en")[3:6] == [
        "Patch 1: any die (letter A).",
        "Patch 2: any die (letter A).",
        "Patch 3: only the blue die showing exactly a 5.",
    ]


def test_in_the_shop_the_info_says_whether_the_roll_can_buy_the_block() -> None:
    four_fours = BlockContext(CATALOGUE, roll(4, 4, 4, 4, 2), {}, None)
    three_fours = BlockContext(CATALOGUE, roll(4, 4, 4, 1, 2), {}, None)
    assert "Mit deinem Wurf kannst du ihn kaufen (vier gleiche: 4)." in block_info(
        STAIRS, "de", four_fours
    )
    assert "Your roll cannot buy it: that takes four equal dice." in block_info(
        STAIRS, "en", three_fours
    )
    assert "Your roll can buy it (three equal dice: 4)." in block_info(THIMBLE, "en", three_fours)


def test_with_scissors_one_die_of_any_value_stands_in_for_one_of_the_equal_dice() -> None:
    """Design (kits): a finished scissors lets, once per turn, one die of any value stand in for
    one of the equal dice when buying; the shop's sentence says so (issue 38)."""
    three_fours = roll(4, 4, 4, 1, 2)
    one = BlockContext(CATALOGUE, three_fours, {}, None, scissors=1)
    assert (
        "Mit deinem Wurf und der Schere kannst du ihn kaufen: drei gleiche (4) und ein "
        "beliebiger Würfel." in block_info(STAIRS, "de", one)
    )
    assert (
        "Your roll and your scissors can buy it: three equal dice (4) and any one die."
        in block_info(STAIRS, "en", one)
    )
    two_fours = BlockContext(CATALOGUE, roll(4, 4, 3, 1, 2), {}, None, scissors=1)
    assert (
        "Mit deinem Wurf kannst du ihn nicht kaufen: dafür brauchst du vier gleiche Würfel, "
        "mit der Schere drei gleiche und einen beliebigen." in block_info(STAIRS, "de", two_fours)
    )
    assert (
        "Your roll cannot buy it: that takes four equal dice, or three equal and any one with "
        "your scissors." in block_info(STAIRS, "en", two_fours)
    )
    two_scissors = BlockContext(CATALOGUE, roll(4, 4, 3, 1, 2), {}, None, scissors=2)
    assert (
        "Your roll and your scissors can buy it: two equal dice (4) and any two dice."
        in block_info(STAIRS, "en", two_scissors)
    )
    # Without scissors (or with them used up this turn) the roll alone counts.
    assert "Your roll cannot buy it: that takes four equal dice." in block_info(
        STAIRS, "en", BlockContext(CATALOGUE, three_fours, {}, None)
    )


def test_in_the_shop_the_info_counts_the_blocks_of_that_colour_in_her_quilt() -> None:
    quilt = {(0, 0): PlacedBlock("P03", (None,) * 3), (1, 0): PlacedBlock("P02", (None,) * 3)}
    none_yet = BlockContext(CATALOGUE, (), quilt, None)
    assert "In deinem Quilt liegt noch kein roter Block." in block_info(STAIRS, "de", none_yet)
    assert "Your quilt already holds 1 blue block." in block_info(BLUE, "en", none_yet)


def test_in_the_quilt_the_info_says_which_dice_fit_which_patches_now() -> None:
    quilt = {(0, 0): PlacedBlock("P01", (None, None, None))}
    context = BlockContext(CATALOGUE, roll(2, 3, 4, 6, 6), quilt, (0, 0))
    info = block_info(STAIRS, "de", context)
    assert "Dein roter Würfel (2) passt auf Flicken 1 und 2." in info
    assert "Dein blauer Würfel (3) passt auf Flicken 2." in info
    assert "Dein grüner Würfel (4) passt auf Flicken 3." in info
    assert not any("gelber" in sentence for sentence in info)  # a 6 fits nowhere here
    assert "Your green die (4) fits patch 3." in block_info(STAIRS, "en", context)


def test_the_info_says_when_no_die_fits() -> None:
    quilt = {(0, 0): PlacedBlock("P01", (None, None, None))}
    context = BlockContext(CATALOGUE, roll(6, 6, 6, 6, 6), quilt, (0, 0))
    assert "None of your dice fits this block now." in block_info(STAIRS, "en", context)


def test_a_finished_pattern_block_says_what_it_counts_now_and_why() -> None:
    quilt = {
        (0, 0): PlacedBlock("P01", (1, 2, 4)),
        (1, 0): PlacedBlock("P03", (1, 1, 1)),
        (0, 1): PlacedBlock("K01", (6, 1)),
    }
    context = BlockContext(CATALOGUE, (), quilt, (0, 0))
    assert "Er zählt jetzt 4 Punkte: 2 fertige Nachbarn × 2 = 4." in block_info(
        STAIRS, "de", context
    )
    assert "It scores 4 points now: 2 finished neighbours × 2 = 4." in block_info(
        STAIRS, "en", context
    )


def test_a_finished_remnant_shows_the_colour_the_game_chose() -> None:
    quilt = {(0, 0): PlacedBlock("P02", (5, 5, 5)), (1, 0): PlacedBlock("P03", (1, 1, 1))}
    info = block_info(PAIR, "de", BlockContext(CATALOGUE, (), quilt, (0, 0)))
    assert "Er zählt jetzt 3 Punkte: 1 blauer Nachbar × 3 = 3." in info
    # The remnant is its own only beneficiary here; the game picks the first best colour.
    assert any(s.startswith("Als Farbe wählt das Spiel") for s in info)


def test_the_calculation_reads_like_the_end_table() -> None:
    quilt = {(0, 0): PlacedBlock("P01", (1, 2, 4)), (1, 0): PlacedBlock("P03", (1, 1, 1))}
    entry = score_quilt(quilt, CATALOGUE).at((0, 0))
    assert entry is not None
    assert calculation(entry, "de") == "1 fertiger Nachbar × 2 = 2"
    assert calculation(entry, "en") == "1 finished neighbour × 2 = 2"


def test_an_unknown_language_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="'de' and 'en', not 'fr'"):
        block_info(STAIRS, "fr")  # type: ignore[arg-type]
