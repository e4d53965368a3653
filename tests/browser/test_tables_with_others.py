"""Speedquilt with others in the browser (seed 003 "Mit anderen", speedquilt.md §4 and §7): the
lobby, an invitation link, seats, clocks with their grace, giving at once, leaving and coming
back, a reconnect, chat, and the taler stake paid out.

Two browser contexts are two people (two guest accounts, named for the staked game: guests play
for nothing); a third seat is a normal computer (it rerolls whenever it may, so both people get
giving windows at once; easy rerolls seldom). The shared server's clocks are short
(``SHORT_CLOCKS`` in conftest.py, a quarter of their length): a think time of 2 min lasts 30 s
here, a giving clock of 30 s lasts 7.5 s, and the grace 2.5 s. (Much shorter and a clock could
run out by itself while a busy machine serves the other page.)
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from .speedquilt_ui import (
    STEP_TIMEOUT_MS,
    choose_start_row,
    hurry_to_the_last_round,
    mine,
    wait_for_mine,
)
from .tables_ui import (
    anna_and_bea_at_one_table,
    answer_the_windows,
    api,
    balance,
    can_roll,
    chat,
    chat_lines,
    create_table,
    invite_code,
    leave_table,
    open_lobby,
    own_clock,
    play_a_short_turn,
    seconds,
    seconds_shown,
    seq,
    wait_for_news,
    wait_for_table,
    what_waits,
)
from .ui import PHONE, PageFactory, assert_accessible, claim_account

pytestmark = pytest.mark.browser

GIVING_MS = 30_000
"""Long enough for the scaled giving clock (7.5 s) and its grace (2.5 s) to run out."""
STAKE = 100
WINDOW_MOMENT_MS = 1500
"""How long the second page may take to show a giving window the first already shows."""
MAX_ROUNDS_OF_STEPS = 3000
"""Far more passes over both pages than a whole game needs."""
EVERY_MOMENT = {"at once", "runs out", "reconnect"}
"""The moments of the staked game: both answer one window at once, Bea's giving clock runs out,
Bea reloads and leaves and comes back."""


def both_choose_while_the_other_waits(anna: Page, bea: Page) -> None:
    """A computer's reroll opens a window for both at once: both answer before either answer
    has come back, and both answers are taken: the window of that roll closes for both. (The
    computer may reroll again at once and open a new window, told apart by its roll.)"""
    before = {page: mine(page) for page in (anna, bea)}
    roll = {page: page.locator(".sq-giving").get_attribute("data-roll") for page in (anna, bea)}
    assert roll[anna] and roll[anna] == roll[bea], "one reroll opens the same window for both"
    for page in (anna, bea):
        page.locator(".sq-giving .giving-pass").click()
    for page in (anna, bea):
        wait_for_mine(page, before[page])
        expect(page.locator(f'.sq-giving[data-roll="{roll[page]}"]')).to_have_count(0)


def both_windows_open(anna: Page, bea: Page) -> bool:
    """Whether both have a giving window open. A computer's reroll opens both at once, but each
    page hears of it a moment apart: when one is open, give the other a moment before a step
    answers the first (else a game could end without the two ever being seen open together)."""
    opened = [page for page in (anna, bea) if page.locator(".sq-giving").count()]
    if len(opened) != 1:
        return len(opened) == 2
    other = bea if opened[0] is anna else anna
    try:
        other.wait_for_selector(".sq-giving", timeout=WINDOW_MOMENT_MS)
    except PlaywrightTimeoutError:
        return False  # her own reroll: only the other has a window
    return bool(opened[0].locator(".sq-giving").count())


def anna_rerolls_and_beas_giving_clock_runs_out(anna: Page, bea: Page, shots: Path) -> None:
    """Anna's reroll opens Bea's window; Anna sees Bea still choosing, with her clock; Bea lets
    it run out: the warning colour, the grace, then she gets nothing and the window closes."""
    before = mine(anna)
    anna.locator('.sq-actions [data-move="roll"]').click()
    wait_for_mine(anna, before)
    before = mine(anna)
    anna.locator('.sq-actions [data-move="reroll"]').click()
    wait_for_mine(anna, before)
    expect(bea.locator(".sq-giving")).to_be_visible()
    waiting = anna.locator('.sq-waiting-for .waiting-seat[data-seat="1"]')
    expect(waiting).to_be_visible()
    expect(waiting.locator(".sq-clock")).to_be_visible()
    expect(anna.locator('.sq-actions [data-move="end"]')).to_have_count(0)  # her end waits
    # The scaled giving clock starts at 7.5 s, inside the warning colour's last 10 s; the
    # grace (2.5 s) follows it. Both screens are read while her window is open.
    expect(own_clock(bea)).to_have_class(re.compile("warn"), timeout=GIVING_MS)
    assert_accessible(anna)
    assert_accessible(bea)
    anna.screenshot(path=str(shots / "tables-running-clock.png"))
    expect(own_clock(bea)).to_have_class(re.compile("grace"), timeout=GIVING_MS)
    bea.screenshot(path=str(shots / "tables-grace.png"))
    expect(bea.locator(".sq-giving")).to_have_count(0, timeout=GIVING_MS)
    expect(bea.locator(".sq-screen > .status-line")).to_contain_text("nothing from this roll")
    expect(waiting).to_have_count(0)


def bea_reloads_and_finds_her_turn_as_it_was(bea: Page) -> None:
    """A reload in the middle: the same seat, position and clock (an absolute deadline)."""
    deadline = own_clock(bea).get_attribute("data-deadline")
    at = seq(bea)
    bea.reload()
    wait_for_table(bea)
    expect(own_clock(bea)).to_have_attribute("data-deadline", deadline or "")
    assert seq(bea) == at
    assert can_roll(bea)


def bea_leaves_and_takes_her_seat_back(anna: Page, bea: Page, table_url: str, shots: Path) -> None:
    """She leaves: a computer plays her seat (Anna sees it); she comes back and takes it."""
    leave_table(bea)
    away = anna.locator('.neighbour[data-seat="1"] .badge.away')
    expect(away).to_be_visible()
    anna.screenshot(path=str(shots / "tables-away.png"))
    bea.goto(table_url)
    wait_for_table(bea)
    banner = bea.locator(".sq-away-banner")
    expect(banner).to_be_visible()
    bea.locator(".sq-away-banner .take-back").click()
    expect(banner).to_have_count(0)
    expect(away).to_have_count(0)


def test_two_people_and_a_computer_play_a_staked_game_to_the_end(
    open_page: PageFactory, screenshots: Path
) -> None:
    anna = open_page(locale="de-DE")
    bea = open_page(locale="en-GB")
    for person in (anna, bea):
        claim_account(person)  # guests play for nothing
    before = balance(anna) + balance(bea)
    open_lobby(bea)
    open_lobby(anna)
    expect(anna.locator(".lobby-create")).to_contain_text("1.000 Taler")
    link = create_table(anna, ["person", "normal"], think="120", giving="30", stake=STAKE)
    assert_accessible(anna)  # her waiting room, with the stake and the clocks
    # Bea's list of open tables refreshes by itself and shows Anna's table.
    expect(bea.locator(f'.lobby-table[data-invite="{invite_code(link)}"]')).to_be_visible()
    assert_accessible(bea)
    bea.screenshot(path=str(screenshots / "tables-lobby.png"))
    bea.goto(link)  # the invitation (`assert_accessible` reads it in English on a phone below)
    bea.locator(".lobby-waiting .join-table").click()
    table_id = wait_for_table(bea)
    assert wait_for_table(anna) == table_id
    table_url = f"/#/table/{table_id}"

    first = {page: own_clock(page).inner_text() for page in (anna, bea)}
    for page in (anna, bea):
        expect(page.locator(".sq-pot .pot")).to_contain_text(str(3 * STAKE))
        expect(own_clock(page)).not_to_have_text(first[page])  # it is redrawn within a second
        assert seconds_shown(page, own_clock(page)) < seconds(first[page])  # her clock counts down
    expect(anna.locator('.neighbour[data-seat="1"] .sq-clock')).to_be_visible()

    hello = "<img src=x onerror=alert(1)> Hallo & <b>Bea</b>"
    chat(anna, hello)
    expect(bea.locator(".sq-chat .chat-lines li")).to_have_count(1)
    assert chat_lines(bea)[0].endswith(hello)
    assert bea.locator(".sq-chat .chat-lines img, .sq-chat .chat-lines b").count() == 0
    chat(bea, "Hi Anna!")
    expect(anna.locator(".sq-chat .chat-lines li").last).to_contain_text("Hi Anna!")
    choose_start_row(anna)
    choose_start_row(bea)

    done: set[str] = set()
    hurried = False
    for _ in range(MAX_ROUNDS_OF_STEPS):
        now = {page: what_waits(page) for page in (anna, bea)}
        if now[anna].over and now[bea].over:
            break
        giving = now[anna].giving or now[bea].giving
        if done == EVERY_MOMENT and not hurried:
            # The rest of the game as the steps below play it, inside both pages at once;
            # the last round by the steps themselves.
            hurry_to_the_last_round(anna, bea)
            hurried = True
        elif "at once" not in done and giving and both_windows_open(anna, bea):
            both_choose_while_the_other_waits(anna, bea)
            done.add("at once")
        elif "runs out" not in done and now[anna].turn and now[anna].roll:
            anna_rerolls_and_beas_giving_clock_runs_out(anna, bea, screenshots)
            done.add("runs out")
        elif "runs out" in done and "reconnect" not in done and now[bea].turn and now[bea].roll:
            bea_reloads_and_finds_her_turn_as_it_was(bea)
            bea_leaves_and_takes_her_seat_back(anna, bea, table_url, screenshots)
            done.add("reconnect")
        elif giving:
            answer_the_windows(now)
        elif now[anna].turn or now[bea].turn:
            play_a_short_turn(anna if now[anna].turn else bea)
        else:
            wait_for_news(now)
    expect(anna.locator(".sq-end")).to_be_visible()
    expect(bea.locator(".sq-end")).to_be_visible()
    assert done == EVERY_MOMENT

    # The pot is paid out, and not one taler was made or lost: the people's balances, the
    # house's part of this table's movements and the (now empty) pot sum to what they were.
    expect(anna.locator(".sq-payout")).to_be_visible(timeout=STEP_TIMEOUT_MS)
    assert_accessible(anna)
    assert_accessible(bea)
    anna.screenshot(path=str(screenshots / "tables-end.png"))
    pot = api(anna, f"/api/ledger/tables/{table_id}")
    stake, payout = pot["movements"]
    house = sum(
        leg["amount"] for m in (stake, payout) for leg in m["legs"] if leg["who"] == "house"
    )
    after = balance(anna) + balance(bea)
    assert pot["pot"] == 0
    assert after + house + pot["pot"] == before
    places = api(anna, f"/api/tables/{table_id}")["result"]["places"]
    winners = places.count(1)
    paid = {leg["seat"]: leg["amount"] for leg in payout["legs"] if leg["who"] == "seat"}
    assert paid == {seat: 3 * STAKE // winners for seat in (0, 1) if places[seat] == 1}

    # Her taler page shows the balance and every movement, newest first.
    anna.goto("/#/taler")
    kinds = anna.locator(".taler-history tr.movement")
    expect(kinds.last).to_have_attribute("data-kind", "opening")
    assert [k.get_attribute("data-kind") for k in kinds.all()] == (
        ["payout", "stake", "opening"] if paid.get(0) else ["stake", "opening"]
    )
    expect(anna.locator(".taler-balance")).to_contain_text(f"{balance(anna):,}".replace(",", "."))
    assert_accessible(anna)
    anna.screenshot(path=str(screenshots / "tables-taler.png"))


def test_a_person_may_leave_a_table_before_it_starts(open_page: PageFactory) -> None:
    anna = open_page(locale="de-DE")
    open_lobby(anna)
    link = create_table(anna, ["person"])
    anna.locator(".lobby-waiting .leave-table").click()
    anna.wait_for_selector(".lobby-form")
    expect(anna.locator(f'.lobby-table[data-invite="{invite_code(link)}"]')).to_have_count(0)
    anna.goto(link)
    expect(anna.locator(".lobby-waiting")).to_have_attribute("data-status", "cancelled")
    expect(anna.locator(".lobby-waiting .join-table")).to_have_count(0)


def test_a_private_table_is_listed_only_for_its_own_players(open_page: PageFactory) -> None:
    anna = open_page(locale="de-DE")
    bea = open_page(locale="en-GB")
    open_lobby(anna)
    link = create_table(anna, ["person"], private=True)
    open_lobby(bea)
    anna.goto("/#/lobby")
    mine = anna.locator(f'.lobby-table[data-invite="{invite_code(link)}"]')
    expect(mine.locator(".open-waiting")).to_be_visible()
    expect(bea.locator(f'.lobby-table[data-invite="{invite_code(link)}"]')).to_have_count(0)
    mine.locator(".open-waiting").click()
    expect(anna.locator(".lobby-waiting .invite-link")).to_have_value(link)


def test_a_private_table_is_watched_by_whoever_follows_its_link(open_page: PageFactory) -> None:
    """A private table is watched only with its invitation (issue 37, attack 15): the link
    carries it, so a friend who follows the link after the start still watches."""
    anna = open_page(locale="de-DE")
    bea = open_page(locale="en-GB")
    cleo = open_page(locale="en-GB")
    open_lobby(anna)
    link = create_table(anna, ["person"], private=True, think="null", giving="null")
    bea.goto(link)
    bea.locator(".lobby-waiting .join-table").click()
    wait_for_table(bea)
    cleo.goto(link)
    cleo.locator(".lobby-waiting .watch-table").click()
    wait_for_table(cleo)
    expect(cleo.locator(".sq-screen .status-line.error")).to_have_count(0)


def test_when_her_waiting_table_fills_up_the_lobby_takes_her_to_the_game(
    open_page: PageFactory,
) -> None:
    anna = open_page(locale="de-DE")
    bea = open_page(locale="en-GB")
    open_lobby(anna)
    link = create_table(anna, ["person"], think="null", giving="null")
    anna.goto("/#/lobby")
    open_lobby(bea)
    bea.locator(f'.lobby-table[data-invite="{invite_code(link)}"] .join-table').click()
    assert wait_for_table(anna) == wait_for_table(bea)


def test_the_lobby_fits_a_phone(open_page: PageFactory, screenshots: Path) -> None:
    anna = open_page(viewport=PHONE, locale="de-DE")
    open_lobby(anna)
    expect(anna.locator(".lobby-form .create-table")).to_be_visible()
    width = anna.evaluate("() => document.scrollingElement.scrollWidth")
    assert width <= PHONE["width"]
    anna.screenshot(path=str(screenshots / "tables-lobby-phone.png"), full_page=True)


def test_what_she_types_into_the_chat_survives_a_line_arriving(open_page: PageFactory) -> None:
    """The chat panel is redrawn when a line arrives. She is typing when Anna's line arrives:
    the cursor stays in the chat field, so the rest of what she types (and her Enter) goes into
    the chat. And what she typed at that moment into the field being replaced is what she
    sends, not an empty line (a CI failure of 6 December)."""
    anna, bea = anna_and_bea_at_one_table(open_page)  # without clocks
    bea.locator(".chat-form input[name=chat]").click()
    bea.keyboard.type("Hi ")
    chat(anna, "Hallo Bea")
    expect(bea.locator(".sq-chat .chat-lines li")).to_have_count(1)
    bea.keyboard.type("Anna!")
    bea.keyboard.press("Enter")
    expect(anna.locator(".sq-chat .chat-lines li")).to_have_count(2)
    assert chat_lines(anna)[-1].endswith("Hi Anna!")

    field = bea.locator(".chat-form input[name=chat]").element_handle()
    chat(anna, "Wie geht's?")
    expect(bea.locator(".sq-chat .chat-lines li")).to_have_count(3)
    # She typed into the field the redraw has just replaced.
    field.evaluate(
        """(input) => {
            input.value = "Fine, thanks!";
            input.dispatchEvent(new Event("input", { bubbles: true }));
        }"""
    )
    bea.locator(".chat-form .chat-send").click()
    expect(anna.locator(".sq-chat .chat-lines li")).to_have_count(4)
    assert chat_lines(anna)[-1].endswith("Fine, thanks!")


def test_a_table_with_others_reads_well_on_a_phone_in_both_languages(
    open_page: PageFactory,
) -> None:
    """Her waiting room, his invitation and the table the two share, each checked by
    `assert_accessible` on a phone: Anna in German, Bea in English."""
    anna = open_page(viewport=PHONE, locale="de-DE")
    bea = open_page(viewport=PHONE, locale="en-GB")
    open_lobby(anna)
    link = create_table(anna, ["person"], think="null", giving="null")
    assert_accessible(anna)
    bea.goto(link)
    expect(bea.locator(".lobby-waiting .join-table")).to_be_visible()
    assert_accessible(bea)
    bea.locator(".lobby-waiting .join-table").click()
    assert wait_for_table(bea) == wait_for_table(anna)
    for page in (anna, bea):
        page.locator(".sq-tabs .tab-chat").tap()  # on a phone the chat is a tab
    chat(anna, "Hallo Bea")
    chat(bea, "Hi Anna!")
    expect(anna.locator(".sq-chat .chat-lines li")).to_have_count(2)
    for page in (anna, bea):
        assert_accessible(page)
