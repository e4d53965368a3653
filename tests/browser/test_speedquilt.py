"""Speedquilt in the browser: the screens of seed 003 as a player meets them at the table.

Every test plays through the page against computer players on the real server; the computers
play at the "fast" tempo. Deal numbers are found with the engine where a rule needs a roll.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, ViewportSize, expect

from .solo_ui import api, wait_for_animations
from .speedquilt_kits_ui import drop_and_wait_for_state, record, table_id
from .speedquilt_ui import (
    answer_giving,
    choose_start_row,
    click_and_wait,
    deal_where,
    deal_with_a_sewing_first_roll,
    mine,
    open_table,
    play_to_the_end,
    wait_for_giving,
    wait_for_helpful_giving,
    wait_for_mine,
    wait_for_my_turn,
)
from .ui import PHONE, WATCH_MS, PageFactory, assert_accessible, client_module

SMALL_PHONE: ViewportSize = {"width": 375, "height": 667}
"""A small phone: the docked giving window covers the lower part of her quilt here."""

pytestmark = pytest.mark.browser

PATIENCE_MS = 20_000
"""How long a step may wait: the computers play on while the shared machine may be busy."""


@pytest.fixture(autouse=True)
def patient_expectations() -> Iterator[None]:
    """Assertions of these tests wait longer than the default 5 s (restored afterwards)."""
    expect.set_options(timeout=PATIENCE_MS)
    yield
    expect.set_options(timeout=5_000)


SYMBOLS = {"red": "▲", "blue": "●", "green": "■", "yellow": "★", "purple": "◆"}


def roll(page: Page) -> None:
    click_and_wait(page, '.sq-actions [data-move="roll"]')


def die_values(page: Page) -> dict[str, str]:
    """The value each die shows, read from its label ("Würfel rot: 4" / "red die: 4")."""
    labels = page.eval_on_selector_all(
        ".sq-dice-area .die-slot",
        "slots => slots.map(s => [s.dataset.die,"
        " s.querySelector('svg').getAttribute('aria-label')])",
    )
    return {die: re.findall(r"\d", label)[-1] for die, label in labels}


# -- Spielbeginn -------------------------------------------------------------------------------


def test_she_puts_one_dealt_block_back_and_lays_the_other_three_in_her_order(
    open_page: PageFactory, screenshots: Path
) -> None:
    page = open_page(locale="de-DE")
    open_table(page, computers=1)
    hand = page.locator(".choice-block")
    expect(hand).to_have_count(4)
    dealt = [hand.nth(i).get_attribute("data-block") for i in range(4)]
    hand.nth(0).click()  # put back
    for index in (3, 1, 2):  # the order she wants
        hand.nth(index).click()
    expect(page.locator(".choice-block.returned")).to_have_attribute("data-block", dealt[0])
    assert_accessible(page)
    page.screenshot(path=screenshots / "speedquilt-start-choice.png")
    click_and_wait(page, ".choice-confirm")
    wait_for_my_turn(page)
    row = page.eval_on_selector_all(
        ".sq-own .quilt-cell", "cells => cells.map(c => c.querySelector('svg').dataset.block)"
    )
    assert row == [dealt[3], dealt[1], dealt[2]]


# -- Dein Zug: würfeln, Nähkorb ----------------------------------------------------------------


def test_dice_in_the_basket_do_not_roll_again_and_two_rerolls_are_allowed(
    open_page: PageFactory, screenshots: Path
) -> None:
    page = open_page(locale="de-DE")
    open_table(page, computers=1)
    choose_start_row(page)
    wait_for_my_turn(page)
    roll(page)
    expect(page.locator(".rerolls-left")).to_have_text("Nachwürfe übrig: 2")
    before = die_values(page)
    click_and_wait(page, '.die-slot[data-die="red"] .basket-button')
    expect(page.locator('.die-slot[data-die="red"]')).to_have_class(re.compile("in-basket"))
    page.mouse.move(0, 0)  # the pointer of the clicks above hovers no block
    assert_accessible(page)
    page.screenshot(path=screenshots / "speedquilt-dice.png")
    click_and_wait(page, '.sq-actions [data-move="reroll"]')
    assert die_values(page)["red"] == before["red"]
    expect(page.locator(".rerolls-left")).to_have_text("Nachwürfe übrig: 1")
    click_and_wait(page, '.sq-actions [data-move="reroll"]')
    expect(page.locator(".rerolls-left")).to_have_text("Nachwürfe übrig: 0")
    expect(page.locator('.sq-actions [data-move="reroll"]')).to_have_count(0)
    expect(page.locator(".sq-history")).to_contain_text("würfelt nach")


def test_without_finished_kits_there_are_no_thimble_or_dye_buttons(open_page: PageFactory) -> None:
    page = open_page()
    open_table(page, computers=1)
    choose_start_row(page)
    wait_for_my_turn(page)
    roll(page)
    page.locator(".die-slot .die-face").first.click()
    expect(page.locator(".die-slot.selected")).to_have_count(1)
    expect(page.locator(".kit-buttons button")).to_have_count(0)


# -- Block nähen -------------------------------------------------------------------------------


ENDLESS_ANIMATIONS = """() => document.getAnimations()
  .filter((animation) => animation.effect?.getComputedTiming().endTime === Infinity).length"""


def lit_patches_glow_unless_she_asks_for_less_motion(page: Page) -> None:
    """The patches a tapped die lights glow without end; under ``prefers-reduced-motion``
    (WCAG 2.3.3) nothing on the page moves without end (the page asks for it: conftest's
    `REDUCED_MOTION`)."""
    assert page.evaluate(ENDLESS_ANIMATIONS) == 0
    page.emulate_media(reduced_motion="no-preference")
    page.wait_for_function(f"() => ({ENDLESS_ANIMATIONS})() > 0", polling=WATCH_MS)
    page.emulate_media(reduced_motion="reduce")
    page.wait_for_function(f"() => ({ENDLESS_ANIMATIONS})() === 0", polling=WATCH_MS)


def test_a_tapped_die_lights_the_patches_it_may_go_and_a_full_plan_sews_the_block(
    open_page: PageFactory, screenshots: Path
) -> None:
    deal, block, pairs = deal_with_a_sewing_first_roll()
    page = open_page(locale="de-DE")
    open_table(page, computers=1, deal=deal)
    choose_start_row(page)
    wait_for_my_turn(page)
    roll(page)
    own = page.locator(f'.sq-own .quilt-cell:has(svg[data-block="{block}"])')
    for index, (die, patch) in enumerate(pairs):
        page.locator(f'.die-slot[data-die="{die}"] .die-face').click()
        expect(page.locator(".sq-own .patch.target")).not_to_have_count(0)
        if index == 0:
            lit_patches_glow_unless_she_asks_for_less_motion(page)
        target = own.locator(f'.patch[data-patch="{patch}"]')
        expect(target).to_have_class(re.compile("target"))
        target.click()
        expect(page.locator(f'.die-slot[data-die="{die}"]')).to_have_class(re.compile("used"))
    sew = own.locator(".sew-button")
    expect(sew).to_have_text("Block nähen")
    expect(own.locator(".patch.planned")).to_have_count(len(pairs))
    page.mouse.move(5, 5)  # no block info over the plan
    assert_accessible(page)
    page.screenshot(path=screenshots / "speedquilt-sewing.png")
    click_and_wait(page, ".sq-own .sew-button")
    finished = page.locator(f'.sq-own .quilt-cell:has(svg[data-block="{block}"])')
    expect(finished).to_have_class(re.compile("finished"))
    # The history names the block in words (issue 38, finding 8), never by its id.
    name = page.evaluate(
        "async ([url, id]) => (await import(url)).blockName(id)",
        [client_module("speedquilt-blocks.js"), block],
    )
    expect(page.locator(".sq-history")).to_contain_text(f"näht {name}.")
    expect(page.locator(".sq-history")).not_to_contain_text(block)
    # Undo inside the action phase takes the sewing back.
    click_and_wait(page, '.sq-actions [data-move="undo"]')
    expect(finished).not_to_have_class(re.compile("finished"))


# -- Kaufen ------------------------------------------------------------------------------------


def test_three_equal_dice_buy_a_kit_placed_on_a_lit_cell(
    open_page: PageFactory, screenshots: Path
) -> None:
    deal, _ = deal_where(lambda values, legal: Counter(values).most_common(1)[0][1] >= 3)
    page = open_page(locale="de-DE")
    open_table(page, computers=1, deal=deal)
    choose_start_row(page)
    wait_for_my_turn(page)
    roll(page)
    values = die_values(page)
    value, _ = Counter(values.values()).most_common(1)[0]
    equal = [die for die, v in values.items() if v == value][:3]
    for die in equal:
        page.locator(f'.die-slot[data-die="{die}"] .die-face').click()
    expect(page.locator(".shelf-kit .shop-block.buyable")).not_to_have_count(0)
    expect(page.locator(".shelf-pattern .shop-block.buyable")).to_have_count(0)
    kit = page.locator(".shelf-kit .shop-block.buyable").first
    bought = kit.get_attribute("data-block")
    kit.click()
    slots = page.locator(".sq-own .quilt-slot")
    expect(slots).not_to_have_count(0)
    page.mouse.move(5, 5)
    assert_accessible(page)
    page.screenshot(path=screenshots / "speedquilt-buying.png")
    cell = slots.first.get_attribute("data-cell")
    click_and_wait(page, ".sq-own .quilt-slot")
    expect(page.locator(f'.sq-own .quilt-cell[data-cell="{cell}"] svg')).to_have_attribute(
        "data-block", str(bought)
    )
    expect(page.locator(f'.shelf-kit .shop-block[data-block="{bought}"]')).to_have_count(0)
    expect(page.locator(".shelf-kit")).to_have_class(re.compile("slide"))
    for die in equal:
        expect(page.locator(f'.die-slot[data-die="{die}"]')).to_have_class(re.compile("used"))


# -- Wühlkorb ----------------------------------------------------------------------------------


def test_after_the_last_roll_with_nothing_done_the_bargain_bin_draws_blind(
    open_page: PageFactory, screenshots: Path
) -> None:
    page = open_page(locale="de-DE")
    open_table(page, computers=1)
    choose_start_row(page)
    wait_for_my_turn(page)
    roll(page)
    expect(page.locator(".bin-label")).to_have_count(0)
    click_and_wait(page, '.sq-actions [data-move="reroll"]')
    click_and_wait(page, '.sq-actions [data-move="reroll"]')
    expect(page.locator(".bin-label")).to_have_text("Wühlkorb:")
    click_and_wait(page, ".bin-draw-pattern")
    drawn = page.locator(".bin-drawn svg")
    expect(drawn).to_have_count(1)
    expect(page.locator(".sq-own .quilt-slot")).not_to_have_count(0)
    page.mouse.move(0, 0)  # the pointer of the clicks above hovers no block
    assert_accessible(page)
    page.screenshot(path=screenshots / "speedquilt-bargain-bin.png")
    click_and_wait(page, ".bin-return")
    expect(page.locator(".bin-drawn")).to_have_count(0)
    expect(page.locator(".sq-history")).to_contain_text("unter die Musterblöcke")


# -- Garn abgeben ------------------------------------------------------------------------------


def test_after_a_computer_reroll_the_giving_window_counts_the_dice_that_help(
    open_page: PageFactory, screenshots: Path
) -> None:
    page = open_page(locale="de-DE")
    open_table(page, computers=3, level="normal")
    choose_start_row(page)
    wait_for_giving(page)
    window = page.locator(".sq-giving")
    helpful = window.locator(".die-slot.helpful").count()
    count = window.locator(".giving-count")
    expect(count).to_have_attribute("data-helpful", str(helpful))
    expect(window.locator(".die-slot:not(.not-offered)")).not_to_have_count(0)
    if helpful:
        expect(count).to_contain_text(f"{helpful} von")
        expect(window.locator(".giving-pass")).to_have_text("Verzichten")
    else:
        expect(count).to_have_text("Keiner der neuen Würfel passt bei dir.")
        expect(window.locator(".giving-pass")).to_have_text("Weiter")
    wait_for_animations(page)
    assert_accessible(page)
    page.screenshot(path=screenshots / "speedquilt-giving.png")
    click_and_wait(page, ".sq-giving .giving-pass")
    expect(page.locator('.sq-history li[data-seat="0"]').last).to_contain_text("verzichtet")


def test_a_giving_window_is_answered_with_one_key_and_offers_its_switch(
    open_page: PageFactory,
) -> None:
    """Issue 38, finding 4: a game against three computers opens some sixty giving windows;
    each is one keystroke (Enter or Space) as it is one tap, and the auto-continue switch is in
    the window itself — off until she turns it on (seed 003)."""
    page = open_page(locale="de-DE")
    open_table(page, computers=3, level="normal")
    choose_start_row(page)
    wait_for_giving(page)
    window = page.locator(".sq-giving")
    expect(window.locator('input[name="auto_continue"]')).not_to_be_checked()
    roll = window.get_attribute("data-roll")
    page.evaluate("() => document.activeElement?.blur()")
    page.keyboard.press("Enter")
    expect(page.locator(f'.sq-giving[data-roll="{roll}"]')).to_have_count(0)
    expect(page.locator('.sq-history li[data-seat="0"]').last).to_contain_text("verzichtet")
    wait_for_giving(page)
    page.locator('.sq-giving input[name="auto_continue"]').check()
    saved = "async () => (await (await fetch('/api/me')).json()).settings.auto_continue === true"
    page.wait_for_function(saved)


WAITING_RECORDER = """() => {
  // Every text the screen's "waiting for" note says, as it is drawn (the screen is drawn anew
  // for every message): what she could read there, however briefly the computers took.
  window.__waiting = [];
  new MutationObserver(() => {
    const note = document.querySelector(".sq-actions .waiting-for");
    if (note) window.__waiting.push(note.textContent);
  }).observe(document.body, { childList: true, subtree: true, characterData: true });
}"""


@pytest.mark.real_pauses
def test_while_the_others_answer_her_reroll_she_reads_whom_she_waits_for(
    open_page: PageFactory,
) -> None:
    """Issue 38, finding 4: while the others answered her reroll, her Reroll and End buttons
    vanished and "Rerolls left: 2" stayed; after she acted it still said "Rerolls left: 1"."""
    # A deal where she starts: two computers' whole turns before hers would wait for many pauses.
    deal, _ = deal_where(lambda values, legal: True, computers=2)
    page = open_page(locale="de-DE")
    # The computers take their pause (0.6 s each at the normal tempo) before they answer; what
    # the screen says meanwhile is recorded as it is drawn, so a busy machine cannot miss it.
    open_table(page, computers=2, level="normal", tempo="normal", deal=deal)
    choose_start_row(page)
    wait_for_my_turn(page)
    click_and_wait(page, '.sq-actions [data-move="roll"]')
    page.evaluate(WAITING_RECORDER)
    click_and_wait(page, '.sq-actions [data-move="reroll"]')
    page.wait_for_function(
        "() => window.__waiting.some((text) => text.includes('Warten auf Hilde'))"
    )
    expect(page.locator('.sq-actions [data-move="reroll"]')).to_be_visible()  # they answered
    expect(page.locator(".sq-actions .waiting-for")).to_have_count(0)
    click_and_wait(page, '.sq-actions [data-move="reroll"]')
    draw = page.locator(".sq-actions .bin-draw-kit")
    expect(draw).to_be_visible()
    click_and_wait(page, ".sq-actions .bin-draw-kit")
    expect(page.locator(".rerolls-left")).to_have_text("Würfeln ist für diesen Zug vorbei")


SOUNDS = """async () => {
  // A stand-in for the Web Audio API that counts the tones asked for.
  let tones = 0;
  class Counting {
    constructor() { this.state = "running"; this.currentTime = 0; this.destination = {}; }
    createOscillator() {
      tones += 1;
      const param = { setValueAtTime() {}, exponentialRampToValueAtTime() {} };
      return { type: "", frequency: param, connect: (n) => n, start() {}, stop() {} };
    }
    createGain() {
      const param = { setValueAtTime() {}, exponentialRampToValueAtTime() {} };
      return { gain: param, connect: (n) => n };
    }
  }
  window.AudioContext = Counting;
  const sounds = await import("/static/js/speedquilt-sounds.js");
  const { tableSettings } = await import("/static/js/speedquilt-settings.js");
  const counted = (play) => { const before = tones; play(); return tones - before; };
  sounds.setSounds(false);
  sounds.setClockBeep(tableSettings({}).clock_beep);
  const quietRoom = [counted(sounds.playBell), counted(sounds.playClockWarning)];
  sounds.setClockBeep(false);
  sounds.setSounds(true);
  const noBeep = [counted(sounds.playBell), counted(sounds.playClockWarning)];
  return { quietRoom, noBeep, defaults: tableSettings({}) };
}"""


def test_the_clock_warning_beeps_even_with_the_living_room_sounds_off(
    open_page: PageFactory,
) -> None:
    """Seed 003: "warnt dich das Spiel mit einem Piepton". The beep was a living-room sound and
    stayed silent when those were off; it has its own switch now, on by default."""
    page = open_page()
    heard = page.evaluate(SOUNDS)
    assert heard["defaults"]["clock_beep"] is True
    assert heard["quietRoom"][0] == 0 and heard["quietRoom"][1] > 0
    assert heard["noBeep"][0] > 0 and heard["noBeep"][1] == 0


def test_each_computer_is_given_its_own_strength_on_the_start_page(
    open_page: PageFactory,
) -> None:
    """Seed 003: "1 bis 3 Computer in drei Stärken"; the start page set one strength for all."""
    page = open_page(locale="de-DE")
    panel = page.locator(".speedquilt-panel")
    panel.locator('select[name="computers"]').select_option("2")
    expect(panel.locator('select[name="level3"]')).to_be_hidden()
    panel.locator('select[name="level1"]').select_option("strong")
    panel.locator('select[name="level2"]').select_option("easy")
    expect(panel.locator(".computer-levels")).to_contain_text("Hilde")
    panel.locator(".new-table").click()
    page.wait_for_selector(".sq-screen[data-seq]")
    table_id = page.evaluate("() => decodeURIComponent(location.hash.split('/')[2])")
    seats = page.evaluate(
        "async (id) => (await (await fetch(`/api/tables/${id}`)).json()).seats", table_id
    )
    assert [(s["kind"], s.get("level")) for s in seats] == [
        ("human", None),
        ("computer", "strong"),
        ("computer", "easy"),
    ]
    expect(page.locator(".sq-screen")).to_contain_text("Hilde (stark)")


def test_with_auto_continue_a_window_where_nothing_fits_passes_by_itself(
    open_page: PageFactory,
) -> None:
    page = open_page()
    open_table(page, computers=3, level="normal")
    page.locator(".gear").click()
    page.locator('.sq-settings input[name="auto_continue"]').check()
    page.locator(".settings-close").click()
    choose_start_row(page)
    for _ in range(40):
        wait_for_giving(page)
        window = page.locator(".sq-giving")
        if window.locator(".giving-count").get_attribute("data-helpful") == "0":
            expect(window.locator(".giving-auto")).to_be_visible()
            # Nobody taps: the pass is hers all the same, within the 2 s (and some slack).
            wait_for_mine(page, mine(page), timeout=5_000)
            expect(page.locator('.sq-history li[data-seat="0"]').last).to_contain_text("passes")
            return
        # Taking a die each time fills her patches, until a window comes where none fits.
        answer_giving(page)
    pytest.fail("no giving window without a fitting die came up")


# -- Karten-Info -------------------------------------------------------------------------------


def test_block_info_opens_on_hover_and_click_and_tells_what_the_block_means_now(
    open_page: PageFactory, screenshots: Path
) -> None:
    page = open_page(locale="de-DE")
    open_table(page, computers=1)
    choose_start_row(page)
    wait_for_my_turn(page)
    roll(page)
    shop_block = page.locator(".shelf-pattern .shop-block").first
    shop_block.hover()
    info = page.locator(".sq-info")
    expect(info).to_be_visible()
    expect(info).to_contain_text("Karten-Info")
    expect(info).to_contain_text("Flicken 1:")
    expect(info).to_contain_text(re.compile("Mit deinem Wurf kannst du ihn (nicht )?kaufen"))
    assert_accessible(page)  # the block info names the block in words, not by its id
    page.screenshot(path=screenshots / "speedquilt-block-info.png")
    own = page.locator(".sq-own .quilt-cell").first
    own.hover()
    expect(info).to_contain_text(re.compile("passt auf Flicken|Keiner deiner Würfel|zählt"))
    page.mouse.move(5, 5)
    expect(info).to_be_hidden()
    shop_block.click()
    expect(info).to_be_visible()
    expect(info).to_have_class(re.compile("pinned"))


def test_tapping_a_neighbour_shows_her_quilt_large_with_block_info(
    open_page: PageFactory, screenshots: Path
) -> None:
    page = open_page(locale="de-DE")
    open_table(page, computers=2)
    choose_start_row(page)
    wait_for_my_turn(page)
    page.locator(".sq-neighbours .neighbour").first.click()
    large = page.locator(".sq-neighbour-large")
    expect(large).to_be_visible()
    expect(large.locator("h2")).to_contain_text("Quilt von")
    large.locator(".quilt-cell").first.hover()
    info = page.locator(".sq-info")
    expect(info.locator("h4")).to_have_text("Für sie jetzt")
    expect(info).to_contain_text(re.compile("Ihr fehlen noch|bringt ihr|wirkt für sie"))
    assert_accessible(page)
    wait_for_animations(page)
    page.screenshot(path=screenshots / "speedquilt-neighbour.png")
    large.locator(".close-large").click()
    expect(large).to_have_count(0)


# -- Ansicht (Zahnrad) ----------------------------------------------------------------------------


def test_the_view_settings_switch_theme_and_are_kept_for_the_account(
    open_page: PageFactory, screenshots: Path
) -> None:
    page = open_page(locale="de-DE")
    open_table(page, computers=1)
    expect(page.locator("body")).to_have_class(re.compile("theme-lamp"))
    page.locator(".gear").click()
    settings = page.locator(".sq-settings")
    expect(settings).to_contain_text("Lampenlicht")
    expect(settings).to_contain_text("Wenn kein Würfel passt: automatisch weiter")
    expect(settings.locator('input[name="auto_continue"]')).not_to_be_checked()
    wait_for_animations(page)
    assert_accessible(page)
    page.screenshot(path=screenshots / "speedquilt-settings.png")
    settings.locator('input[value="linen"]').check()
    settings.locator('input[name="sounds"]').uncheck()
    expect(page.locator("body")).to_have_class(re.compile("theme-linen"))
    page.locator(".settings-close").click()
    choose_start_row(page)
    wait_for_my_turn(page)
    roll(page)
    page.mouse.move(0, 0)  # the pointer of the clicks above hovers no block
    assert_accessible(page)
    page.screenshot(path=screenshots / "speedquilt-linen.png")
    page.reload()
    page.wait_for_selector(".sq-screen[data-seq]")
    expect(page.locator("body")).to_have_class(re.compile("theme-linen"))
    page.locator(".gear").click()
    expect(page.locator('.sq-settings input[name="sounds"]')).not_to_be_checked()


# -- Farbenblind -------------------------------------------------------------------------------


def test_every_die_and_every_colour_border_also_carries_a_symbol(open_page: PageFactory) -> None:
    page = open_page()
    open_table(page, computers=1)
    choose_start_row(page)
    wait_for_my_turn(page)
    roll(page)
    for colour, symbol in SYMBOLS.items():
        expect(page.locator(f".sq-die.c-{colour} .die-symbol")).to_have_text(symbol)
    # Read the patches once they are drawn: a redraw after the roll may still be under way
    # (the suite once read none on a loaded host while the dice were already shown).
    expect(page.locator(".patch-box.border").first).to_be_attached()
    borders = page.eval_on_selector_all(
        ".patch-box.border",
        "boxes => boxes.map(b => [b.getAttribute('class'),"
        " b.parentNode.querySelector('.patch-symbol')?.textContent])",
    )
    assert borders, "the shop and quilts show coloured patches"
    for classes, symbol in borders:
        colour = re.search(r"c-(\w+)", classes)
        assert colour and symbol == SYMBOLS[colour.group(1)]


# -- Handy hochkant ----------------------------------------------------------------------------


def test_on_a_phone_tabs_switch_and_the_shop_is_a_line_until_opened(
    open_page: PageFactory, screenshots: Path
) -> None:
    page = open_page(viewport=PHONE, locale="de-DE")
    open_table(page, computers=3)
    choose_start_row(page)
    wait_for_my_turn(page)
    roll(page)
    tabs = page.locator(".sq-tabs .tab")
    expect(tabs).to_have_text(["Nachbarinnen", "Spielverlauf", "Chat"])
    expect(page.locator(".sq-neighbours")).to_be_visible()
    expect(page.locator(".sq-history")).to_be_hidden()
    expect(page.locator(".shelf-kit")).to_be_hidden()
    page.mouse.move(0, 0)  # the pointer of the clicks above hovers no block
    assert_accessible(page)
    page.screenshot(path=screenshots / "speedquilt-phone.png")
    page.locator(".sq-tabs .tab-history").tap()
    expect(page.locator(".sq-history")).to_be_visible()
    expect(page.locator(".sq-neighbours")).to_be_hidden()
    page.mouse.move(0, 0)  # the pointer of the clicks above hovers no block
    assert_accessible(page)
    page.screenshot(path=screenshots / "speedquilt-phone-history.png")
    page.locator(".sq-tabs .tab-chat").tap()
    expect(page.locator(".chat-empty")).to_be_visible()
    page.locator(".shop-toggle").tap()
    expect(page.locator(".shelf-kit")).to_be_visible()
    page.mouse.move(0, 0)  # the pointer of the clicks above hovers no block
    assert_accessible(page)
    page.screenshot(path=screenshots / "speedquilt-phone-shop.png")


def test_on_a_phone_the_shop_opens_by_itself_once_three_equal_dice_are_chosen(
    open_page: PageFactory,
) -> None:
    deal, _ = deal_where(lambda values, legal: Counter(values).most_common(1)[0][1] >= 3)
    page = open_page(viewport=PHONE, locale="de-DE")
    open_table(page, computers=1, deal=deal)
    choose_start_row(page)
    wait_for_my_turn(page)
    roll(page)
    expect(page.locator(".sq-shop")).not_to_have_class(re.compile("open"))
    values = die_values(page)
    value, _ = Counter(values.values()).most_common(1)[0]
    equal = [die for die, v in values.items() if v == value][:3]
    for die in equal[:2]:
        page.locator(f'.die-slot[data-die="{die}"] .die-face').tap()
    expect(page.locator(".sq-shop")).not_to_have_class(re.compile("open"))
    page.locator(f'.die-slot[data-die="{equal[2]}"] .die-face').tap()
    expect(page.locator(".sq-shop")).to_have_class(re.compile("open"))
    expect(page.locator(".shelf-kit")).to_be_visible()
    expect(page.locator(".shelf-kit .shop-block.buyable")).not_to_have_count(0)


def test_on_a_phone_a_long_press_on_a_shop_block_opens_its_block_info(
    open_page: PageFactory,
) -> None:
    page = open_page(viewport=PHONE, locale="en-GB")
    open_table(page, computers=1)
    choose_start_row(page)
    wait_for_my_turn(page)
    block = page.locator(".shelf-pattern .shop-block").first
    touch = {"pointerType": "touch", "isPrimary": True, "bubbles": True}
    block.dispatch_event("pointerdown", touch)
    page.wait_for_timeout(700)
    block.dispatch_event("pointerup", touch)
    info = page.locator(".sq-info")
    expect(info).to_be_visible()
    expect(info).to_have_class(re.compile("pinned"))
    expect(info).to_contain_text("Block info")
    expect(info).to_contain_text("Patch 1:")
    assert_accessible(page)
    x, y = page.evaluate(A_QUIET_SPOT_OUTSIDE_THE_INFO)
    page.touchscreen.tap(x, y)  # a tap elsewhere closes it
    expect(info).to_be_hidden()


A_QUIET_SPOT_OUTSIDE_THE_INFO = """async () => {
  // On a phone the pinned info may lie over any part of the screen (it keeps clear of the dice):
  // find a point outside it on something that does nothing when tapped. The table is drawn anew
  // whenever the computer moves, and a pinned info waits, hidden, for the next frame to open
  // again at its place: so look after that frame, when it is shown, and take the quiet point
  // farthest from it (a redraw before the tap puts it back at the same place, or near it).
  const shown = () => document.querySelector(".sq-info.pinned:not([hidden])");
  for (let frames = 0; frames < 60 && !shown(); frames += 1)
    await new Promise((frame) => requestAnimationFrame(frame));
  const box = shown();
  if (!box) throw new Error("the pinned info is not shown");
  const info = box.getBoundingClientRect();
  const active = "button, a, input, select, label, summary, .die-slot, .shop-block, .quilt-cell";
  let best = null;
  for (let y = 10; y < innerHeight; y += 20) {
    for (let x = 10; x < innerWidth; x += 20) {
      const there = document.elementFromPoint(x, y);
      if (!there || there.closest(".sq-info") || there.closest(active)) continue;
      const away = Math.max(info.top - y, y - info.bottom, info.left - x, x - info.right);
      if (!best || away > best.away) best = { x, y, away };
    }
  }
  if (!best) throw new Error("no quiet spot outside the block info");
  return [best.x, best.y];
}"""


def test_on_a_phone_tapping_her_block_opens_the_sewing_view(
    open_page: PageFactory, screenshots: Path
) -> None:
    page = open_page(viewport=PHONE, locale="de-DE")
    open_table(page, computers=1)
    choose_start_row(page)
    wait_for_my_turn(page)
    roll(page)
    page.locator(".sq-own .quilt-cell:not(.finished)").first.tap()
    sewing = page.locator(".sq-sewing")
    expect(sewing).to_be_visible()
    expect(sewing.locator(".die-slot")).to_have_count(5)
    expect(sewing.locator("h2")).to_contain_text("Nähen:")
    wait_for_animations(page)
    assert_accessible(page)
    page.screenshot(path=screenshots / "speedquilt-phone-sewing.png")
    sewing.locator(".close-sewing").tap()
    expect(sewing).to_have_count(0)


A_QUICK_TAP_ON_A_BUSY_PAGE = """(selector) => new Promise((resolve) => {
  // Where a finger on the middle of the block lands (the events bubble up from there).
  const box = document.querySelector(selector).getBoundingClientRect();
  const cell = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
  const touch = { pointerType: 'touch', isPrimary: true, bubbles: true };
  cell.dispatchEvent(new PointerEvent('pointerdown', touch));
  const lifted = new PointerEvent('pointerup', touch);  // her finger is up at once (its time)
  const busyUntil = performance.now() + 700;  // but the page is busy for 0.7 s: the long-press
  while (performance.now() < busyUntil);  // timer, due by now, runs before the lifting is heard
  setTimeout(() => {  // (50 ms: after the overdue timer, whatever order the browser keeps)
    cell.dispatchEvent(lifted);
    cell.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    resolve();
  }, 50);
})"""


def test_on_a_busy_phone_a_quick_tap_on_her_block_stays_a_tap(open_page: PageFactory) -> None:
    """A long-press (0.45 s held) opens a block's info; a tap on her own block opens the sewing
    view. When the page is busy as her finger lifts, the long-press timer can run before the
    lifting is handled: the events' own times still say it was a tap, so the sewing view opens
    and no block info stays over it."""
    page = open_page(viewport=PHONE, locale="en-GB")
    open_table(page, computers=1)
    choose_start_row(page)
    wait_for_my_turn(page)
    roll(page)
    page.evaluate(A_QUICK_TAP_ON_A_BUSY_PAGE, ".sq-own .quilt-cell:not(.finished)")
    expect(page.locator(".sq-sewing")).to_be_visible()
    expect(page.locator(".sq-info")).to_be_hidden()


LIT_UNDER_DOCK_JS = """() => {
  const edge = document.querySelector('.sq-overlay.docked > section').getBoundingClientRect().top;
  return [...document.querySelectorAll('.sq-own .patch.target')]
    .map((patch) => patch.getBoundingClientRect())
    .map((box) => ({ visible: box.top >= 0 && box.bottom <= edge, under: box.bottom > edge }));
}"""


def test_on_a_small_phone_the_docked_giving_window_never_hides_the_lit_patches(
    open_page: PageFactory, screenshots: Path
) -> None:
    """The giving window docks at the foot of the screen so her quilt stays tappable: a die
    taken from it lights patches she can reach, and scrolled down every lit patch is above it."""
    page = open_page(viewport=SMALL_PHONE, locale="en-GB")
    open_table(page, computers=3, level="normal")
    choose_start_row(page)
    wait_for_helpful_giving(page)
    page.locator(".sq-giving .die-slot.helpful .die-face").first.tap()
    expect(page.locator(".sq-own .patch.target")).not_to_have_count(0)
    lit = page.evaluate(LIT_UNDER_DOCK_JS)
    assert any(patch["visible"] for patch in lit), "no lit patch can be tapped"
    assert_accessible(page)
    page.screenshot(path=screenshots / "speedquilt-small-phone-giving.png")
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    lit = page.evaluate(LIT_UNDER_DOCK_JS)
    assert not any(patch["under"] for patch in lit), "a lit patch stays under the window"
    before = mine(page)
    page.locator(".sq-own .patch.target").last.tap()
    wait_for_mine(page, before)
    expect(page.locator('.sq-history li[data-seat="0"]').last).to_contain_text(" takes ")


# -- Ende und Wertung: whole games -------------------------------------------------------------


def check_end_table(page: Page, points_word: str, calc: str) -> None:
    """The end table: four rows by place, leaderboard points from points and place; the first
    row opened shows that player's quilt with one block lit and, one line after another, the
    reckoning of every block of hers (and the round bonus, if any) — all of them, in words of
    the page's language."""
    end = page.locator(".sq-end")
    expect(end).to_be_visible()
    rows = end.locator(".end-row")
    expect(rows).to_have_count(4)
    places = [int(rows.nth(i).locator("td").first.inner_text().rstrip(".")) for i in range(4)]
    assert places == sorted(places) and places[0] == 1
    for i in range(4):
        points = int(rows.nth(i).locator(".end-points").inner_text())
        board = int(rows.nth(i).locator(".end-leaderboard").inner_text())
        bonus = {1: 50, 2: 25, 3: 10}.get(places[i], 0)
        assert board == 5 * points + bonus
    rows.first.click()
    expect(rows.first).to_have_class(re.compile("open"))
    expect(end.locator(".breakdown-total")).to_contain_text(points_word)
    expect(end.locator(".breakdown-lines li").first).to_be_visible(timeout=5_000)
    expect(end.locator(".end-detail .quilt-cell.lit")).to_have_count(1)
    # The lines come one by one (at the table's tempo): wait for the last of them.
    seat = int(rows.first.get_attribute("data-seat") or "-1")
    result = api(page, f"/api/tables/{table_id(page)}")["result"]
    score = result["breakdown"][seat]
    lines = end.locator(".breakdown-lines li")
    expect(lines).to_have_count(len(score["blocks"]) + (result["scores"][seat] > score["total"]))
    texts = lines.all_inner_texts()
    assert texts and all(re.search(rf"{calc}|→|=|\d", text) for text in texts)


def test_a_whole_game_on_the_desktop_in_german_and_her_phone_in_english_with_fair_dice(
    open_page: PageFactory, screenshots: Path
) -> None:
    """One whole game against three computers, played to its end on the desktop in German; the
    same player follows it on her phone in English (a second device of her account, the table
    open there from the start): every screen the game passes through is drawn on the phone's
    layout too, without an error, and both end tables hold the result in their own language.

    Provably fair dice (issue 37): the table shows the fingerprint of its secret seed from the
    start, on both devices; once the game is over the replay in Meine Partien says, in German and
    in English, that the revealed seed matches it and that every roll and draw follows from it —
    the server's own check of the steps the replay shows. (One game for both: a whole game is
    the longest thing a browser test does.)"""
    page = open_page(locale="de-DE")
    record(page)
    open_table(page, computers=3)
    fairness = api(page, f"/api/tables/{table_id(page)}")["fairness"]
    fingerprint = fairness["fingerprint"]
    assert fairness["seed"] is None and fairness["commitment"].startswith(fingerprint)
    expect(page.locator(".sq-fairness")).to_have_text(f"Würfel-Fingerabdruck: {fingerprint}")

    phone = open_page(viewport=PHONE, locale="en-GB")
    phone.context.add_cookies(page.context.cookies())  # her session: the same account
    phone.reload()  # the page starts anew with her session (not the guest it opened with)
    phone.wait_for_selector(".game-panel")
    # Her account speaks German (the language of the desktop where it was made): on the phone
    # she switches to English; the desktop keeps the German it was opened with.
    phone.locator('select[name="lang"]').first.select_option("en")
    expect(phone.locator("html")).to_have_attribute("lang", "en")
    phone.goto(page.url)
    phone.wait_for_selector(".sq-screen[data-seq]")
    expect(phone.locator(".sq-tabs .tab")).to_have_text(["Neighbours", "History", "Chat"])
    expect(phone.locator(".sq-fairness")).to_have_text(f"Dice fingerprint: {fingerprint}")

    play_to_the_end(page)
    check_end_table(page, "Punkte", "×")
    # The screen draws itself again whenever something arrives (the payout, her achievements, a
    # chat line; here the state after a lost connection): the row she opened stays open.
    shown = page.locator(".sq-end .breakdown-lines li").count()
    drop_and_wait_for_state(page)
    expect(page.locator(".sq-end .end-row").first).to_have_class(re.compile("open"))
    assert page.locator(".sq-end .breakdown-lines li").count() >= shown > 0
    assert_accessible(page)
    page.screenshot(path=screenshots / "speedquilt-end.png")
    expect(page.locator(".sq-history li").last).to_contain_text("Ende der Partie")

    check_end_table(phone, "points", "×")
    assert_accessible(phone)
    phone.screenshot(path=screenshots / "speedquilt-phone-end.png")

    check_the_replay_says_the_dice_were_fair(page, fingerprint)


def check_the_replay_says_the_dice_were_fair(page: Page, fingerprint: str) -> None:
    """The replay of her finished table in Meine Partien: the server's verdict on its dice, in
    German and (switched) in English."""
    table = table_id(page)
    verdict = api(page, f"/api/my-tables/{table}/replay")["table"]["fairness"]["verdict"]
    assert verdict["ok"]
    assert verdict["rolls"] > 1 and verdict["draws"] > 1  # a whole game: the plural sentences
    page.goto(page.url.split("#")[0] + f"#/progress/table/{table}")
    line = page.locator(".replay-fairness")
    expect(line).to_have_text(
        f"Faire Würfel: Der am Ende enthüllte Schlüssel passt zum Fingerabdruck {fingerprint} vom "
        f"Anfang; alle {verdict['rolls']} Würfe und alle {verdict['draws']} gezogenen Blöcke "
        "folgen daraus."
    )
    page.locator('select[name="lang"]').first.select_option("en")
    expect(line).to_have_text(
        f"Fair dice: the seed revealed at the end matches the fingerprint {fingerprint} shown at "
        f"the start; all {verdict['rolls']} rolls and all {verdict['draws']} draws follow from it."
    )
