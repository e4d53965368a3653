"""Cruel in the browser: the rules of seed 001 as a player meets them on screen."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import ViewportSize, WebSocketRoute, expect

from spielcenter.games import get_game

from .ui import (
    DESKTOP,
    MAX_STEPS,
    PHONE,
    PageFactory,
    assert_readable,
    board_cards,
    movable,
    moves_made,
    play_first_by_click,
    play_first_by_drag,
    play_line,
    play_to_the_end,
    seq,
    set_auto_move,
    shown_id,
    start_deal,
    top_card,
    wait_past,
    wait_until_quiet,
)

pytestmark = pytest.mark.browser

# Deal numbers chosen because the "first highlighted move" policy ends them soon.
LONG_DEAL = 42
SHORT_DEAL = 158


CLICKED_AT_THE_END = 8
"""The last moves of LONG_DEAL that the test plays by clicks; the ones before go over a socket."""


def first_highlighted_line(deal: int) -> list[str]:
    """The moves `play_first_by_click` makes in ``deal`` until it ends, worked out with the
    engine: the first pile (in the board's order) whose card may move, onto its foundation if
    that lights up, else onto the first pile that does; a redeal when no card can move."""
    game = get_game("cruel")
    state, line = game.start(deal), []
    while game.status(state) == "playing":
        legal = [game.format_move(m) for m in game.legal_moves(state, 0)]
        cards = [m for m in legal if m != "r"]
        if not cards and "r" not in legal:
            break
        if cards:
            source = min(int(m.split(">")[0].rstrip("f")) for m in cards)
            mine = [m for m in cards if int(m.split(">")[0].rstrip("f")) == source]
            home = [m for m in mine if m.endswith("f")]
            move = home[0] if home else min(mine, key=lambda m: int(m.split(">")[1]))
        else:
            move = "r"
        line.append(move)
        state = game.play(state, move, 0)
    return line


def test_a_deal_played_by_clicks_ends_on_the_end_screen(
    open_page: PageFactory, screenshots: Path
) -> None:
    """The end of a deal played by clicks: LONG_DEAL, which the first highlighted moves win.
    All but its last moves are played over a socket of her session (as another window of hers
    would), the rest by clicks on the game screen, down to the winning one."""
    page = open_page()
    start_deal(page, "cruel", LONG_DEAL)
    set_auto_move(page, False)
    game_id = shown_id(page)
    line = first_highlighted_line(LONG_DEAL)
    page.goto("/#/")
    page.wait_for_selector(".game-panel")
    assert play_line(page, game_id, line[:-CLICKED_AT_THE_END]) == "playing"
    page.goto(f"/#/game/{game_id}")
    page.wait_for_selector(".game-screen[data-seq] .board")
    set_auto_move(page, False)
    before = moves_made(page)
    status = play_to_the_end(page, play_first_by_click)
    assert moves_made(page) > before, "the end came by clicks"
    assert status in {"won", "lost"}
    box = page.locator(".overlay .end-box")
    expect(box).to_have_class(f"end-box {status}")
    expect(box.locator("h2")).to_have_text("You won!" if status == "won" else "No more moves")
    expect(box).to_contain_text(f"Deal #{LONG_DEAL}")
    expect(box.locator(".play-again")).to_be_visible()
    expect(box.locator(".same-deal")).to_be_visible()
    page.screenshot(path=screenshots / f"cruel-{status}-desktop.png")


def test_a_deal_played_by_drags_ends_and_counts_in_the_statistics(open_page: PageFactory) -> None:
    page = open_page()
    start_deal(page, "cruel", SHORT_DEAL)
    set_auto_move(page, False)
    status = play_to_the_end(page, play_first_by_drag)
    assert status in {"won", "lost"}
    page.locator(".overlay .home").click()
    row = page.locator('.game-panel[data-game="cruel"] tr[data-variant="classic"]')
    expect(row.locator("td").nth(1)).to_have_text("1")
    expect(row.locator("td").nth(3)).to_have_text("1" if status == "won" else "0")


def test_play_this_deal_again_starts_the_same_deal_afresh(open_page: PageFactory) -> None:
    page = open_page()
    start_deal(page, "cruel", SHORT_DEAL)
    start = board_cards(page)
    set_auto_move(page, False)
    play_to_the_end(page, play_first_by_click)
    page.locator(".overlay .same-deal").click()
    expect(page.locator(".game-screen")).to_have_attribute("data-status", "playing")
    expect(page.locator(".deal-number")).to_have_text(f"Deal #{SHORT_DEAL}")
    assert moves_made(page) == 0
    assert board_cards(page) == start


def test_only_the_top_card_moves_and_targets_come_from_the_server(open_page: PageFactory) -> None:
    page = open_page()
    start_deal(page, "cruel", 1)
    set_auto_move(page, False)
    for i in range(movable(page).count()):
        pile = movable(page).nth(i)
        top_card(pile).click()
        expect(pile).to_have_class("pile movable selected")
        assert page.locator(".board .target").count() >= 1
        page.keyboard.press("Escape")
    # A card under the top card of a pile with no legal move selects nothing.
    still = page.locator(".board .pile:not(.movable)").first
    still.locator(".card").first.click(position={"x": 8, "y": 8})
    expect(page.locator(".board .target")).to_have_count(0)


def test_a_card_moves_onto_the_next_higher_card_of_its_suit(open_page: PageFactory) -> None:
    page = open_page()
    start_deal(page, "cruel", 1)
    set_auto_move(page, False)
    for i in range(movable(page).count()):
        top_card(movable(page).nth(i)).click()
        targets = page.locator(".board .pile.target")
        if targets.count():
            break
        page.keyboard.press("Escape")
    source = page.locator(".board .pile.selected")
    card = top_card(source).get_attribute("data-card")
    target = targets.first
    under = top_card(target).get_attribute("data-card")
    assert card and under and card[1] == under[1]
    assert "A23456789TJQK".index(under[0]) == "A23456789TJQK".index(card[0]) + 1
    number = target.get_attribute("data-pile")
    before = seq(page)
    target.click()
    wait_past(page, before)
    expect(top_card(page.locator(f'.board .pile[data-pile="{number}"]'))).to_have_attribute(
        "data-card", card
    )


def test_a_double_click_sends_a_card_to_its_foundation(open_page: PageFactory) -> None:
    page = open_page()
    start_deal(page, "cruel", 1)
    set_auto_move(page, False)
    for i in range(movable(page).count()):
        top_card(movable(page).nth(i)).click()
        if page.locator(".board .foundation.target").count():
            break
        page.keyboard.press("Escape")
    page.keyboard.press("Escape")
    source = movable(page).nth(i)
    card = top_card(source).get_attribute("data-card")
    assert card
    before = seq(page)
    top_card(source).dblclick()
    wait_past(page, before)
    expect(page.locator(f'.board [data-dst="f{card[1]}"] .card')).to_have_attribute(
        "data-card", card
    )


def test_undo_takes_back_a_move_and_redo_plays_it_again(open_page: PageFactory) -> None:
    page = open_page()
    start_deal(page, "cruel", 1)
    set_auto_move(page, False)
    start = board_cards(page)
    play_first_by_click(page)
    after = board_cards(page)
    assert after != start
    before = seq(page)
    page.locator(".controls .undo").click()
    wait_past(page, before)
    assert board_cards(page) == start
    assert moves_made(page) == 0
    before = seq(page)
    page.keyboard.press("Control+y")
    wait_past(page, before)
    assert board_cards(page) == after
    before = seq(page)
    page.keyboard.press("u")
    wait_past(page, before)
    assert board_cards(page) == start


def test_the_hint_highlights_a_move_of_the_server(open_page: PageFactory) -> None:
    page = open_page()
    start_deal(page, "cruel", 1)
    page.locator(".controls .hint-button").click()
    expect(page.locator(".status-line")).to_contain_text("Hint:")
    expect(page.locator(".board .hint, .controls .hint")).not_to_have_count(0)
    page.keyboard.press("Escape")
    page.keyboard.press("h")
    expect(page.locator(".board .hint, .controls .hint")).not_to_have_count(0)


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_hint_is_readable_without_scrolling_and_goes_when_the_position_changes(
    open_page: PageFactory, screenshots: Path, viewport: ViewportSize
) -> None:
    """Issue 38, findings 2 and 3: the hint was near-black on dark green below the fold, and it
    still named a card long gone after moves, an undo or a redeal."""
    page = open_page(viewport=viewport)
    start_deal(page, "cruel", 1)
    set_auto_move(page, False)
    status = page.locator(".status-line")
    page.locator(".controls .hint-button").click()
    expect(status).to_contain_text("Hint:")
    assert_readable(page, status)
    page.screenshot(
        path=screenshots / f"cruel-hint-{'phone' if viewport == PHONE else 'desktop'}.png"
    )
    before = seq(page)
    play_first_by_click(page)
    wait_past(page, before)
    expect(status).not_to_contain_text("Hint:")
    page.locator(".controls .hint-button").click()
    expect(status).to_contain_text("Hint:")
    before = seq(page)
    page.locator(".controls .undo").click()
    wait_past(page, before)
    expect(status).not_to_contain_text("Hint:")


def test_a_redeal_deals_the_cards_again_in_fours_in_the_same_order(open_page: PageFactory) -> None:
    page = open_page()
    start_deal(page, "cruel", 1)
    set_auto_move(page, False)
    play_first_by_click(page)
    before_cards = board_cards(page)
    before = seq(page)
    page.keyboard.press("r")
    wait_past(page, before)
    piles = board_cards(page)
    assert [c for pile in piles for c in pile] == [c for pile in before_cards for c in pile]
    sizes = [len(pile) for pile in piles]
    total = sum(sizes)
    assert sizes == [min(4, max(0, total - 4 * i)) for i in range(12)]


def test_auto_move_sends_foundation_cards_home_after_a_move(open_page: PageFactory) -> None:
    page = open_page()
    start_deal(page, "cruel", 1)
    set_auto_move(page, True)
    home = page.locator(".board .foundation .card")
    ranks_before = [home.nth(i).get_attribute("data-card") for i in range(4)]
    play_first_by_click(page)
    wait_until_quiet(page)
    assert moves_made(page) >= 2
    for i in range(movable(page).count()):
        top_card(movable(page).nth(i)).click()
        expect(page.locator(".board .foundation.target")).to_have_count(0)
        page.keyboard.press("Escape")
    assert [home.nth(i).get_attribute("data-card") for i in range(4)] != ranks_before


def test_a_reload_mid_game_continues_where_it_was(open_page: PageFactory) -> None:
    page = open_page()
    start_deal(page, "cruel", 1)
    set_auto_move(page, False)
    play_first_by_click(page)
    play_first_by_click(page)
    cards, made = board_cards(page), moves_made(page)
    page.reload()
    page.wait_for_selector(".game-screen[data-seq] .board")
    assert board_cards(page) == cards
    assert moves_made(page) == made
    expect(page.locator(".clock")).to_have_text(re.compile(r"^\d+:\d\d$"))
    play_first_by_click(page)
    assert moves_made(page) == made + 1


def test_a_dropped_connection_reconnects_and_play_goes_on(open_page: PageFactory) -> None:
    page = open_page()
    # The page's sockets go through the test, which can cut one as a lost network would.
    sockets: list[WebSocketRoute] = []

    def relay(socket: WebSocketRoute) -> None:
        socket.connect_to_server()
        sockets.append(socket)

    page.route_web_socket("**/ws", relay)
    start_deal(page, "cruel", 1)
    set_auto_move(page, False)
    play_first_by_click(page)
    made = moves_made(page)
    assert len(sockets) == 1
    sockets[0].close()
    for _ in range(MAX_STEPS):
        if len(sockets) == 2:
            break
        page.wait_for_timeout(20)
    assert len(sockets) == 2, "the page did not connect again"
    expect(page.locator(".game-screen")).not_to_have_class(re.compile(r"\boffline\b"))
    play_first_by_click(page)
    assert moves_made(page) == made + 1


def test_new_deal_key_starts_another_deal(open_page: PageFactory) -> None:
    page = open_page()
    start_deal(page, "cruel", 1)
    page.keyboard.press("n")
    expect(page.locator(".deal-number")).not_to_have_text("Deal #1")
    expect(page.locator(".game-screen")).to_have_attribute("data-seq", "0")
    assert moves_made(page) == 0


def test_the_phone_layout_has_no_horizontal_scrolling(
    open_page: PageFactory, screenshots: Path
) -> None:
    page = open_page(viewport=PHONE)
    start_deal(page, "cruel", 1)
    set_auto_move(page, False)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    top_card(movable(page).first).tap()
    before = seq(page)
    page.locator(".board .target").first.tap()
    wait_past(page, before)
    assert moves_made(page) == 1
    top_card(movable(page).first).tap()
    page.screenshot(path=screenshots / "cruel-phone.png", full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_desktop_screenshot_shows_a_selected_card_and_its_targets(
    open_page: PageFactory, screenshots: Path
) -> None:
    page = open_page()
    start_deal(page, "cruel", 1)
    set_auto_move(page, False)
    play_first_by_click(page)
    top_card(movable(page).first).click()
    expect(page.locator(".board .target")).not_to_have_count(0)
    page.screenshot(path=screenshots / "cruel-desktop.png")


def test_cards_and_targets_can_be_played_with_the_keyboard(open_page: PageFactory) -> None:
    page = open_page()
    start_deal(page, "cruel", 1)
    set_auto_move(page, False)
    movable(page).first.focus()
    page.keyboard.press("Enter")
    target = page.locator(".board .target").first
    expect(target).to_be_visible()
    target.focus()
    before = seq(page)
    page.keyboard.press("Enter")
    wait_past(page, before)
    assert moves_made(page) == 1


def test_perseverance_is_chosen_on_the_start_page_and_allows_two_redeals(
    open_page: PageFactory,
) -> None:
    page = open_page()
    start_deal(page, "cruel", 1, variant="perseverance")
    expect(page.locator(".toolbar h1")).to_have_text("Cruel · Perseverance")
    expect(page.locator(".board .redeals")).to_contain_text("Redeals left: 2")
    set_auto_move(page, False)
    play_first_by_click(page)
    before = seq(page)
    page.locator('.controls button[data-move="r"]').click()
    wait_past(page, before)
    expect(page.locator(".board .redeals")).to_contain_text("Redeals left: 1")


def test_a_double_tap_sends_a_card_to_its_foundation_on_a_phone(open_page: PageFactory) -> None:
    page = open_page(viewport=PHONE)
    start_deal(page, "cruel", 1)
    set_auto_move(page, False)
    home = page.locator(".board .foundation [data-card]")
    on_foundations = [home.nth(i).get_attribute("data-card") for i in range(4)]
    for i in range(movable(page).count()):
        top_card(movable(page).nth(i)).tap()
        found = page.locator(".board .foundation.target").count()
        page.keyboard.press("Escape")
        if found:
            break
    card = top_card(movable(page).nth(i))
    before = seq(page)
    card.tap()
    card.tap()
    wait_past(page, before)
    assert [home.nth(i).get_attribute("data-card") for i in range(4)] != on_foundations


def test_the_foundations_are_named_apart_from_the_redeal_count(open_page: PageFactory) -> None:
    """Issue 38, finding 11 (Cruel's side of "the waste looks like a fifth foundation"): Cruel
    has no waste, and its foundations carry the same name in words as Crazy Quilt's, on a
    phone too; the redeal count beside them is no pile."""
    page = open_page(viewport=PHONE, locale="de-DE")
    start_deal(page, "cruel", 1)
    label = page.locator(".board .foundations .foundations-label")
    expect(label).to_have_text("Zielstapel")
    assert_readable(page, label)
    expect(page.locator(".board .foundations .foundation")).to_have_count(4)
    expect(page.locator(".board .redeals")).to_have_text("Neu verteilt: 0")
