"""Crazy Quilt in the browser: the rules of seeds 000/002 as a player meets them on screen."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, ViewportSize, expect

from spielcenter.games.base import get_game

from .ui import (
    DESKTOP,
    PHONE,
    PageFactory,
    assert_fits_the_width,
    assert_readable,
    movable,
    play_line,
    seq,
    set_auto_move,
    shown_id,
    start_deal,
    wait_past,
)

pytestmark = pytest.mark.browser

RANKS = "A23456789TJQK"
BOTH_FIT_DEAL = 293
"""A deal where, after a dozen foundation moves, a quilt card fits an up and a down foundation."""


def waste_top(page: Page) -> str | None:
    return page.locator('.board [data-dst="w"] [data-card]').first.get_attribute("data-card")


def turn_a_card(page: Page) -> None:
    before = seq(page)
    page.locator(".board .stock").click()
    wait_past(page, before)


def test_at_the_start_sixteen_quilt_cards_are_available(open_page: PageFactory) -> None:
    page = open_page()
    start_deal(page, "crazy-quilt", 1)
    expect(page.locator(".board .cell.available")).to_have_count(16)
    expect(page.locator(".board .cell [data-card]")).to_have_count(64)


def test_every_other_quilt_card_lies_sideways_starting_upright(open_page: PageFactory) -> None:
    page = open_page()
    start_deal(page, "crazy-quilt", 1)
    across = page.eval_on_selector_all(
        ".board .cell", "cells => cells.map(c => c.classList.contains('across'))"
    )
    assert across == [(r + c) % 2 == 1 for r in range(8) for c in range(8)]
    a1 = page.locator('.board .cell[data-cell="a1"] .card').bounding_box()
    b1 = page.locator('.board .cell[data-cell="b1"] .card').bounding_box()
    assert a1 and b1 and a1["height"] > a1["width"] and b1["width"] > b1["height"]


def test_a_turned_stock_card_lies_on_the_waste(open_page: PageFactory) -> None:
    page = open_page()
    start_deal(page, "crazy-quilt", 1)
    set_auto_move(page, False)
    count = int(page.locator(".board .stock .back-count").text_content() or "")
    turn_a_card(page)
    assert waste_top(page) is not None
    expect(page.locator(".board .stock .back-count")).to_have_text(str(count - 1))


def test_a_quilt_card_builds_on_the_waste_one_rank_up_or_down_in_suit(
    open_page: PageFactory, screenshots: Path
) -> None:
    page = open_page()
    start_deal(page, "crazy-quilt", 1)
    set_auto_move(page, False)
    for _ in range(32):
        turn_a_card(page)
        for i in range(movable(page).count()):
            cell = movable(page).nth(i)
            if not cell.get_attribute("data-cell"):
                continue
            cell.click()
            if page.locator('.board [data-dst="w"].target').count():
                break
            page.keyboard.press("Escape")
        else:
            continue
        break
    name = cell.get_attribute("data-cell")
    card = cell.locator("[data-card]").get_attribute("data-card")
    under = waste_top(page)
    assert card and under and card[1] == under[1]
    assert abs(RANKS.index(card[0]) - RANKS.index(under[0])) == 1
    page.screenshot(path=screenshots / "crazy-quilt-desktop.png")
    before = seq(page)
    page.locator('.board [data-dst="w"]').click()
    wait_past(page, before)
    assert waste_top(page) == card
    expect(page.locator(f'.board .cell[data-cell="{name}"] [data-card]')).to_have_count(0)


def test_a_double_click_sends_a_free_card_to_its_foundation(open_page: PageFactory) -> None:
    page = open_page()
    start_deal(page, "crazy-quilt", 1)
    set_auto_move(page, False)
    for i in range(movable(page).count()):
        movable(page).nth(i).click()
        found = page.locator(".board .foundation.target")
        if found.count():
            place = found.first.get_attribute("data-dst")
            break
        page.keyboard.press("Escape")
    page.keyboard.press("Escape")
    cell = movable(page).nth(i)
    card = cell.locator("[data-card]").get_attribute("data-card")
    before = seq(page)
    cell.dblclick()
    wait_past(page, before)
    expect(page.locator(f'.board [data-dst="{place}"] [data-card]')).to_have_attribute(
        "data-card", str(card)
    )


def test_a_free_card_is_dragged_onto_a_target(open_page: PageFactory) -> None:
    page = open_page()
    start_deal(page, "crazy-quilt", 1)
    set_auto_move(page, False)
    source = movable(page).first
    name = source.get_attribute("data-cell")
    box = source.bounding_box()
    assert box
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + 20, box["y"] + 20, steps=3)
    target = page.locator(".board .target").first
    place = target.get_attribute("data-dst")
    spot = target.bounding_box()
    assert spot and place
    before = seq(page)
    page.mouse.move(spot["x"] + spot["width"] / 2, spot["y"] + spot["height"] / 2, steps=5)
    page.mouse.up()
    wait_past(page, before)
    expect(page.locator(f'.board .cell[data-cell="{name}"] [data-card]')).to_have_count(0)


def test_an_empty_stock_may_be_redealt_once_from_the_waste(open_page: PageFactory) -> None:
    page = open_page()
    start_deal(page, "crazy-quilt", 2)
    set_auto_move(page, False)
    while page.locator(".board .stock .back-count").count():
        turn_a_card(page)
    expect(page.locator(".board .stock")).to_have_attribute("data-action", "r")
    expect(page.locator(".board .redeals-left")).to_have_text("Redeals: 1")
    turn_a_card(page)
    expect(page.locator(".board .redeals-left")).to_have_text("Redeals: 0")
    expect(page.locator(".board .stock .back-count")).to_have_text("32")


def test_the_quilt_fits_a_phone_and_plays_by_taps(
    open_page: PageFactory, screenshots: Path
) -> None:
    page = open_page(viewport=PHONE)
    start_deal(page, "crazy-quilt", 1)
    set_auto_move(page, False)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    quilt = page.locator(".board .quilt").bounding_box()
    assert quilt and quilt["x"] >= 0 and quilt["x"] + quilt["width"] <= PHONE["width"]
    turn_a_card(page)
    movable(page).first.click()
    expect(page.locator(".board .target")).not_to_have_count(0)
    page.screenshot(path=screenshots / "crazy-quilt-phone.png", full_page=True)


def box_of(place: Locator) -> dict[str, float]:
    box = place.bounding_box()
    assert box is not None
    return box


@pytest.mark.parametrize(
    ("viewport", "locale", "words"),
    [
        (DESKTOP, "en-GB", ("Foundations", "Stock", "Waste")),
        (PHONE, "de-DE", ("Zielstapel", "Vorrat", "Abwurfstapel")),
    ],
    ids=["desktop-en", "phone-de"],
)
def test_the_waste_lies_by_the_stock_apart_from_the_foundations(
    open_page: PageFactory, viewport: ViewportSize, locale: str, words: tuple[str, str, str]
) -> None:
    """Issue 38, finding 11: the waste lay at the end of the row of down foundations, as if it
    were a fifth one. It lies beside the stock (seed: "Next to it you will form a face-up waste
    pile"), away from the foundations, and each is named in words."""
    page = open_page(viewport=viewport, locale=locale)
    start_deal(page, "crazy-quilt", 1)
    set_auto_move(page, False)
    turn_a_card(page)
    foundations = page.locator(".board .foundations")
    expect(foundations.locator(".foundation")).to_have_count(8)
    expect(foundations.locator('[data-dst="w"], .stock')).to_have_count(0)
    labels = (".foundations-label", ".stock-label", ".waste-label")
    for label, word in zip(labels, words, strict=True):
        expect(page.locator(f".board {label}")).to_have_text(word)
        assert_readable(page, page.locator(f".board {label}"))
    waste, stock = box_of(page.locator('.board [data-dst="w"]')), box_of(page.locator(".stock"))
    assert abs(waste["y"] - stock["y"]) < 2, "the waste lies in the stock's row"
    by_the_stock = waste["x"] - (stock["x"] + stock["width"])
    assert by_the_stock > 0, "the waste lies right of the stock"
    for i in range(8):
        pile = box_of(foundations.locator(".foundation").nth(i))
        # In line with no foundation, and nearer the stock than to any of them.
        assert abs(pile["y"] - waste["y"]) > pile["height"] / 4
        assert waste["x"] - (pile["x"] + pile["width"]) > by_the_stock
    assert_fits_the_width(page)


def line_to_a_card_fitting_both_ways(deal: int) -> tuple[list[str], str, str]:
    """Play ``deal`` by the engine: the first foundation move it lists, else turn a card, until
    an available quilt card fits both an up and a down foundation. The moves, that card's cell
    and a cell whose card fits one foundation only."""
    engine = get_game("crazy-quilt", "classic")
    state, line = engine.start(deal), []
    for _ in range(60):
        homes: dict[str, set[str]] = {}
        for move in map(engine.format_move, engine.legal_moves(state, 0)):
            if move[0] in "abcdefgh" and move[-1] in "ud":
                homes.setdefault(move[:-1], set()).add(move[-1])
        both = [cell for cell, ends in homes.items() if ends == {"u", "d"}]
        one = [cell for cell, ends in homes.items() if len(ends) == 1]
        if both and one:
            return line, both[0], one[0]
        moves = [engine.format_move(m) for m in engine.legal_moves(state, 0)]
        move = next((m for m in moves if m[-1] in "ud"), "s")
        state = engine.play(state, move, 0)
        line.append(move)
    raise AssertionError(f"deal {deal} never offers a card two foundations")


def open_the_position(page: Page, deal: int) -> tuple[str, str]:
    """Deal ``deal`` and play it to the position of ``line_to_a_card_fitting_both_ways``; the
    cell of the card that fits both ways and of one that fits one way."""
    line, both, one = line_to_a_card_fitting_both_ways(deal)
    start_deal(page, "crazy-quilt", deal)
    set_auto_move(page, False)
    game_id = shown_id(page)
    page.goto("/#/")
    page.wait_for_selector(".game-panel")
    assert play_line(page, game_id, line) == "playing"
    page.goto(f"/#/game/{game_id}")
    page.wait_for_selector(".game-screen[data-seq] .board")
    return both, one


def test_a_card_that_fits_both_foundations_asks_which_one(open_page: PageFactory) -> None:
    """Issue 38, finding 11: a double-click always sent a card to the up foundation when the
    down one took it too. It asks, naming both in words; Escape closes it and plays nothing;
    asked again from the keyboard (Enter twice), Tab and Enter choose the down foundation, and
    the card lands there."""
    page = open_page()
    both, _ = open_the_position(page, BOTH_FIT_DEAL)
    cell = page.locator(f'.board .cell[data-cell="{both}"]')
    card = str(cell.locator("[data-card]").get_attribute("data-card"))
    suit = card[1]
    below = RANKS[RANKS.index(card[0]) - 1] + suit
    above = RANKS[RANKS.index(card[0]) + 1] + suit
    before = seq(page)
    cell.dblclick()
    choice = page.locator(".foundation-choice")
    expect(choice).to_be_visible()
    symbol = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[suit]
    name = {"T": "10"}.get(card[0], card[0])
    expect(choice.locator(".choice-title")).to_have_text(f"Where should {name}{symbol} go?")
    options = choice.locator("button.choice-option")
    expect(options).to_have_text(
        [
            f"onto {below[0]}{symbol}, going up to the King",
            f"onto {above[0]}{symbol}, going down to the Ace",
        ]
    )
    expect(options.first).to_be_focused()
    page.keyboard.press("Escape")
    expect(choice).to_have_count(0)
    assert seq(page) == before, "Escape plays nothing"
    # The keyboard's double-click: Enter twice on the card, which has the focus back.
    expect(cell).to_be_focused()
    page.keyboard.press("Enter")
    page.keyboard.press("Enter")
    expect(options.first).to_be_focused()
    page.keyboard.press("Tab")
    expect(options.nth(1)).to_be_focused()
    page.keyboard.press("Enter")
    wait_past(page, before)
    expect(page.locator(f'.board [data-dst="d{suit}"] [data-card]')).to_have_attribute(
        "data-card", card
    )
    expect(page.locator(f'.board [data-dst="u{suit}"] [data-card]')).to_have_attribute(
        "data-card", below
    )
    expect(choice).to_have_count(0)


def test_a_card_that_fits_one_foundation_goes_there_at_once(open_page: PageFactory) -> None:
    """Where only one foundation takes the card, a double-click plays it without asking."""
    page = open_page()
    _, one = open_the_position(page, BOTH_FIT_DEAL)
    cell = page.locator(f'.board .cell[data-cell="{one}"]')
    before = seq(page)
    cell.dblclick()
    wait_past(page, before)
    expect(cell.locator("[data-card]")).to_have_count(0)
    expect(page.locator(".foundation-choice")).to_have_count(0)


def test_on_a_phone_a_double_tap_offers_both_foundations_in_german(
    open_page: PageFactory,
) -> None:
    """The choice is for fingers too: a double-tap opens it, readable on the phone, and a tap
    on "abwärts" plays the card onto the down foundation."""
    page = open_page(viewport=PHONE, locale="de-DE")
    both, _ = open_the_position(page, BOTH_FIT_DEAL)
    cell = page.locator(f'.board .cell[data-cell="{both}"]')
    card = str(cell.locator("[data-card]").get_attribute("data-card"))
    before = seq(page)
    cell.tap()
    cell.tap()
    choice = page.locator(".foundation-choice")
    assert_readable(page, choice.locator(".choice-title"))
    down = choice.locator("button.choice-option", has_text="abwärts bis zum Ass")
    assert_readable(page, down)
    box = down.bounding_box()
    assert box and box["height"] >= 40, "big enough for a finger"
    assert_fits_the_width(page)
    down.tap()
    wait_past(page, before)
    expect(page.locator(f'.board [data-dst="d{card[1]}"] [data-card]')).to_have_attribute(
        "data-card", card
    )
