"""Speedquilt in the browser: the sewing kits, the neighbours' counts, sounds, tempo, reconnect.

Every test plays through the page against computer players on the real server. A deal where her
start row holds the wanted kit and her first roll sews it is found with the engine (see
speedquilt_kits_ui.py); she then finishes the kit by tapping dice and patches as a person would.
A second browser context — a spectator, another account — shows what the other seats see.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from itertools import accumulate, pairwise
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from spielcenter.games import get_game

from .solo_ui import wait_for_animations
from .speedquilt_kits_ui import (
    audio_states,
    bursts_heard,
    choose_row,
    die_seen,
    drop_and_wait_for_state,
    helpful_for,
    hold_messages,
    hurry_to_the_end,
    kit_deal,
    message_at,
    messages,
    notes,
    record,
    release_held,
    sent,
    sew,
    table_id,
)
from .speedquilt_ui import (
    choose_start_row,
    click_and_wait,
    deal_where,
    mine,
    open_table,
    wait_for_giving,
    wait_for_mine,
    wait_for_my_turn,
)
from .ui import PHONE, WATCH_MS, PageFactory, assert_accessible, client_module

pytestmark = pytest.mark.browser

PATIENCE_MS = 20_000
"""How long a step may wait: the computers play on while the shared machine may be busy."""


@pytest.fixture(autouse=True)
def patient_expectations() -> Iterator[None]:
    """Assertions of these tests wait longer than the default 5 s (restored afterwards)."""
    expect.set_options(timeout=PATIENCE_MS)
    yield
    expect.set_options(timeout=5_000)


def first_roll_with_kit(
    page: Page, kind: str, scissors_buy: bool = False, level: str = "easy"
) -> tuple[str, str]:
    """Open the table of a deal where her first roll sews a ``kind`` kit, sew it through the
    page; the table's id and the kit's block id."""
    found = kit_deal(kind, scissors_buy=scissors_buy)
    open_table(page, computers=1, level=level, deal=found.deal)
    choose_row(page, found.row, found.returned)
    wait_for_my_turn(page)
    click_and_wait(page, '.sq-actions [data-move="roll"]')
    sew(page, found.sew)
    kit = found.row[0]
    expect(page.locator(f'.sq-own .quilt-cell:has(svg[data-block="{kit}"])')).to_have_class(
        re.compile("finished")
    )
    return table_id(page), kit


def unused_dice(page: Page) -> list[str]:
    """The dice of her turn she has not used yet."""
    names: list[str] = page.eval_on_selector_all(
        ".sq-dice-area .die-slot:not(.used)", "slots => slots.map(s => s.dataset.die)"
    )
    return names


def spectator(open_page: PageFactory, table: str) -> Page:
    """Another account watching the same table (it has no seat: the public view), in German."""
    page = open_page(locale="de-DE")
    page.goto(f"/#/table/{table}")
    page.wait_for_selector(".sq-screen[data-seq] .sq-dice-area .die-slot")
    return page


# -- Fingerhut ---------------------------------------------------------------------------------


def test_a_finished_thimble_shows_plus_and_minus_under_a_tapped_die(
    open_page: PageFactory,
) -> None:
    page = open_page(locale="de-DE")
    first_roll_with_kit(page, "thimble")
    die = unused_dice(page)[0]
    page.locator(f'.sq-dice-area .die-slot[data-die="{die}"] .die-face').click()
    buttons = page.locator(f'.sq-dice-area .die-slot[data-die="{die}"] .kit-buttons')
    value = int(die_seen(page, die)["pips"])
    expected = [label for label, ok in (("−1", value > 1), ("+1", value < 6)) if ok]
    expect(buttons.locator("button.thimble")).to_have_text(expected)
    expect(buttons.locator("button.thimble").first).to_have_attribute("title", "Fingerhut")
    expect(buttons.locator("button.dye")).to_have_count(0)


def test_an_unfinished_thimble_in_her_quilt_gives_no_buttons(open_page: PageFactory) -> None:
    found = kit_deal("thimble")
    page = open_page(locale="de-DE")
    open_table(page, computers=1, deal=found.deal)
    choose_row(page, found.row, found.returned)
    wait_for_my_turn(page)
    click_and_wait(page, '.sq-actions [data-move="roll"]')
    expect(
        page.locator(f'.sq-own .quilt-cell:has(svg[data-block="{found.row[0]}"])')
    ).not_to_have_class(re.compile("finished"))
    page.locator(".sq-dice-area .die-slot .die-face").first.click()
    expect(page.locator(".sq-dice-area .die-slot.selected")).to_have_count(1)
    expect(page.locator(".kit-buttons button")).to_have_count(0)


def test_the_thimble_changes_the_die_by_one_only_in_her_own_view(
    open_page: PageFactory, screenshots: Path
) -> None:
    page = open_page(locale="de-DE")
    record(page)
    table, _ = first_roll_with_kit(page, "thimble")
    die = unused_dice(page)[0]
    rolled = die_seen(page, die)
    delta = +1 if int(rolled["pips"]) < 6 else -1
    page.locator(f'.sq-dice-area .die-slot[data-die="{die}"] .die-face').click()
    page.mouse.move(0, 0)
    assert_accessible(page)
    page.screenshot(path=screenshots / "speedquilt-thimble.png")
    sign = "plus" if delta > 0 else "minus"
    click_and_wait(page, f'.sq-dice-area .die-slot[data-die="{die}"] .thimble.{sign}')
    changed = die_seen(page, die)
    assert int(changed["pips"]) == int(rolled["pips"]) + delta
    assert changed["colour"] == rolled["colour"]
    expect(page.locator(f'.sq-dice-area .die-slot[data-die="{die}"]')).to_have_class(
        re.compile("adjusted")
    )
    expect(page.locator(".sq-history li").last).to_contain_text("mit dem Fingerhut um")
    # One finished thimble is one use in this turn: no die offers it any more.
    expect(page.locator(f'.sq-dice-area .die-slot[data-die="{die}"]')).to_have_class(
        re.compile("selected")
    )
    expect(page.locator(".kit-buttons button")).to_have_count(0)
    page.locator(f'.sq-dice-area .die-slot[data-die="{die}"] .die-face').click()
    for other in unused_dice(page):
        page.locator(f'.sq-dice-area .die-slot[data-die="{other}"] .die-face').click()
        expect(page.locator(f'.sq-dice-area .die-slot[data-die="{other}"]')).to_have_class(
            re.compile("selected")
        )
        expect(page.locator(".kit-buttons button")).to_have_count(0)
        page.locator(f'.sq-dice-area .die-slot[data-die="{other}"] .die-face').click()
    watcher = spectator(open_page, table)
    assert die_seen(watcher, die) == rolled
    expect(watcher.locator(".sq-dice-area .die-slot.adjusted")).to_have_count(0)
    # Her thimble is private: the spectator's history has no line of its use.
    expect(watcher.locator(".sq-history")).not_to_contain_text("mit dem Fingerhut")


def test_in_a_giving_window_the_thimble_changes_an_offered_die_for_her(
    open_page: PageFactory,
) -> None:
    page = open_page(locale="de-DE")
    first_roll_with_kit(page, "thimble", level="normal")
    click_and_wait(page, '.sq-actions [data-move="end"]')
    wait_for_giving(page)
    window = page.locator(".sq-giving")
    die = window.locator(".die-slot:not(.not-offered)").first.get_attribute("data-die")
    rolled = die_seen(page, str(die), ".sq-giving")
    window.locator(f'.die-slot[data-die="{die}"] .die-face').click()
    sign, delta = ("plus", 1) if int(rolled["pips"]) < 6 else ("minus", -1)
    click_and_wait(page, f'.sq-giving .die-slot[data-die="{die}"] .thimble.{sign}')
    changed = die_seen(page, str(die), ".sq-giving")
    assert int(changed["pips"]) == int(rolled["pips"]) + delta
    # One thimble is one use in this turn: the die stays chosen, its buttons are gone.
    expect(window.locator(f'.die-slot[data-die="{die}"]')).to_have_class(re.compile("selected"))
    expect(window.locator(".kit-buttons button")).to_have_count(0)


# -- Färbebad ----------------------------------------------------------------------------------


SYMBOLS = {"red": "▲", "blue": "●", "green": "■", "yellow": "★", "purple": "◆"}


def test_a_finished_dye_bath_offers_every_other_colour_under_a_tapped_die(
    open_page: PageFactory,
) -> None:
    page = open_page(locale="en-GB")
    first_roll_with_kit(page, "dye_bath")
    die = unused_dice(page)[0]
    own = die_seen(page, die)["colour"]
    page.locator(f'.sq-dice-area .die-slot[data-die="{die}"] .die-face').click()
    dyes = page.locator(f'.sq-dice-area .die-slot[data-die="{die}"] .kit-buttons button.dye')
    others = [c for c in SYMBOLS if c != own]
    expect(dyes).to_have_text([SYMBOLS[c] for c in others])
    expect(dyes.first).to_have_attribute("title", f"Dye bath: {others[0]}")
    expect(page.locator(".kit-buttons button.thimble")).to_have_count(0)
    # Another die tapped instead: the buttons move under that one.
    other = unused_dice(page)[1]
    page.locator(f'.sq-dice-area .die-slot[data-die="{other}"] .die-face').click()
    page.locator(f'.sq-dice-area .die-slot[data-die="{die}"] .die-face').click()
    expect(page.locator(".kit-buttons")).to_have_count(1)


def test_the_dye_bath_recolours_the_die_only_in_her_own_view(
    open_page: PageFactory, screenshots: Path
) -> None:
    page = open_page(locale="de-DE")
    table, _ = first_roll_with_kit(page, "dye_bath")
    die = unused_dice(page)[0]
    rolled = die_seen(page, die)
    page.locator(f'.sq-dice-area .die-slot[data-die="{die}"] .die-face').click()
    page.mouse.move(0, 0)
    assert_accessible(page)
    page.screenshot(path=screenshots / "speedquilt-dye-bath.png")
    to = next(c for c in SYMBOLS if c != rolled["colour"])
    click_and_wait(page, f'.sq-dice-area .die-slot[data-die="{die}"] .dye[data-colour="{to}"]')
    changed = die_seen(page, die)
    assert (changed["colour"], changed["symbol"], changed["pips"]) == (
        to,
        SYMBOLS[to],
        rolled["pips"],
    )
    expect(page.locator(".sq-history li").last).to_contain_text("färbt")
    watcher = spectator(open_page, table)
    assert die_seen(watcher, die) == rolled
    expect(watcher.locator(".sq-history")).not_to_contain_text("färbt")


def test_on_a_phone_the_thimble_and_dye_buttons_sit_under_the_tapped_die(
    open_page: PageFactory, screenshots: Path
) -> None:
    page = open_page(viewport=PHONE, locale="de-DE")
    first_roll_with_kit(page, "dye_bath")
    die = unused_dice(page)[0]
    page.locator(f'.sq-dice-area .die-slot[data-die="{die}"] .die-face').tap()
    slot = page.locator(f'.sq-dice-area .die-slot[data-die="{die}"]')
    buttons = slot.locator(".kit-buttons button")
    expect(buttons).to_have_count(4)
    face = slot.locator(".die-face").bounding_box()
    assert face is not None
    for index in range(4):
        box = buttons.nth(index).bounding_box()
        assert box is not None and box["y"] >= face["y"] + face["height"] - 1
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    wait_for_animations(page)
    assert_accessible(page)
    page.screenshot(path=screenshots / "speedquilt-phone-dye-bath.png")


# -- Schere ------------------------------------------------------------------------------------


def die_values(page: Page) -> dict[str, int]:
    """The value each die of her turn shows."""
    return {
        name: int(die_seen(page, name)["pips"])
        for name in page.eval_on_selector_all(
            ".sq-dice-area .die-slot", "slots => slots.map(s => s.dataset.die)"
        )
    }


def scissors_dice(page: Page) -> list[str]:
    """Three unused dice, two of equal value and one of another (scissors stand in for it)."""
    values = die_values(page)
    free = unused_dice(page)
    for a in free:
        for b in free:
            if a < b and values[a] == values[b]:
                odd = next(c for c in free if values[c] != values[a])
                return [a, b, odd]
    raise AssertionError(f"no pair among the unused dice {values}")


def test_with_finished_scissors_a_die_of_any_value_stands_in_when_buying(
    open_page: PageFactory, screenshots: Path
) -> None:
    page = open_page(locale="de-DE")
    first_roll_with_kit(page, "scissors", scissors_buy=True)
    chosen = scissors_dice(page)
    for die in chosen:
        page.locator(f'.sq-dice-area .die-slot[data-die="{die}"] .die-face').click()
    kits = page.locator(".shelf-kit .shop-block.buyable")
    expect(kits).not_to_have_count(0)
    expect(page.locator(".shelf-pattern .shop-block.buyable")).to_have_count(0)
    bought = kits.first.get_attribute("data-block")
    kits.first.click()
    slots = page.locator(".sq-own .quilt-slot")
    expect(slots).not_to_have_count(0)
    page.mouse.move(0, 0)
    assert_accessible(page)
    page.screenshot(path=screenshots / "speedquilt-scissors.png")
    cell = slots.first.get_attribute("data-cell")
    click_and_wait(page, ".sq-own .quilt-slot")
    expect(page.locator(f'.sq-own .quilt-cell[data-cell="{cell}"] svg')).to_have_attribute(
        "data-block", str(bought)
    )
    for die in chosen:
        expect(page.locator(f'.sq-dice-area .die-slot[data-die="{die}"]')).to_have_class(
            re.compile("used")
        )
    name = page.evaluate(
        "async ([url, id]) => (await import(url)).blockName(id)",
        [client_module("speedquilt-blocks.js"), bought],
    )
    expect(page.locator(".sq-history")).to_contain_text(f"kauft {name} und legt ihn")


def test_without_scissors_two_equal_dice_and_another_buy_nothing(
    open_page: PageFactory,
) -> None:
    page = open_page(locale="de-DE")
    found = kit_deal("scissors", scissors_buy=True)
    open_table(page, computers=1, deal=found.deal)
    # The same deal, but the scissors go back under the deck: the same dice buy nothing.
    row = [b for b in found.row if b != found.row[0]] + [found.returned]
    choose_row(page, row, found.row[0])
    wait_for_my_turn(page)
    click_and_wait(page, '.sq-actions [data-move="roll"]')
    for die in found.buy.split(" with ")[1].split() if found.buy else []:
        page.locator(f'.sq-dice-area .die-slot[data-die="{die}"] .die-face').click()
    expect(page.locator(".sq-dice-area .die-slot.selected")).to_have_count(3)
    expect(page.locator(".sq-shop .shop-block.buyable")).to_have_count(0)


def test_on_a_phone_the_scissors_purchase_opens_the_shop(
    open_page: PageFactory, screenshots: Path
) -> None:
    page = open_page(viewport=PHONE, locale="de-DE")
    first_roll_with_kit(page, "scissors", scissors_buy=True)
    expect(page.locator(".sq-shop")).not_to_have_class(re.compile("open"))
    for die in scissors_dice(page):
        page.locator(f'.sq-dice-area .die-slot[data-die="{die}"] .die-face').tap()
    expect(page.locator(".sq-shop")).to_have_class(re.compile("open"))
    kits = page.locator(".shelf-kit .shop-block.buyable")
    expect(kits).not_to_have_count(0)
    kits.first.tap()
    expect(page.locator(".sq-own .quilt-slot")).not_to_have_count(0)
    wait_for_animations(page)
    assert_accessible(page)
    page.screenshot(path=screenshots / "speedquilt-phone-scissors.png")


# -- Nachbarinnen und Garn abgeben -------------------------------------------------------------


def test_a_giving_window_counts_the_new_dice_that_fit_her_quilt(open_page: PageFactory) -> None:
    page = open_page(locale="en-GB")
    record(page)
    open_table(page, computers=3, level="normal")
    choose_start_row(page)
    wait_for_giving(page)
    window = page.locator(".sq-giving")
    seq = int(page.locator(".sq-screen").get_attribute("data-seq") or "0")
    message = message_at(page, seq)
    offered = message["view"]["turn"]["windows"]["0"]["offered"]
    # The dice the server lets her take onto some patch: the ones that help her.
    fitting = {m.split()[1] for m in message["legal"] if m.startswith("give ")}
    helpful = window.locator(".die-slot.helpful")
    expect(helpful).to_have_count(len(fitting))
    assert {helpful.nth(i).get_attribute("data-die") for i in range(len(fitting))} == fitting
    count = window.locator(".giving-count")
    if len(fitting) == 1:
        expect(count).to_have_text(f"1 of the {len(offered)} new dice helps you.")
    elif fitting:
        expect(count).to_have_text(f"{len(fitting)} of the {len(offered)} new dice help you.")
    else:
        expect(count).to_have_text("None of the new dice fits your quilt.")
    not_offered = window.locator(".die-slot.not-offered")
    expect(not_offered).to_have_count(5 - len(offered))


# -- Wohnzimmer-Geräusche ----------------------------------------------------------------------


ROLL_NOTES = 6
"""A roll rattles: six short knocks."""
BLOCK_NOTES = 1
"""A block sewn, bought or placed: one soft thud."""
BELL_NOTES = 2
"""The end of the game: a little bell of two tones."""


def notes_for(message: dict[str, Any]) -> int:
    """The notes the living-room sounds play for one message of the table."""
    if message["type"] == "table.end":
        return BELL_NOTES
    move = (message.get("entry") or {}).get("move") or ""
    if move.split(" ")[0] in ("roll", "reroll"):
        return ROLL_NOTES
    if move.startswith(("sew ", "buy ", "bin place")):
        return BLOCK_NOTES
    return 0


def test_with_sounds_on_rolls_sewn_blocks_and_the_end_play_through_web_audio(
    open_page: PageFactory,
) -> None:
    """Each roll, block and the end sounds as it arrives, and messages that arrive together (a
    connection that stalled and delivers its backlog, computers that do not pause) play each
    kind of sound once: her second tab on the table, whose connection held the whole game
    back, rattles, thuds and rings once when it gets it all at once."""
    found = kit_deal("thimble")
    page = open_page(locale="de-DE")
    record(page)
    open_table(page, computers=1, deal=found.deal)
    # Her second tab on the table (the recorder comes with every page of her browser); the
    # first comes to the front again: a tab behind another draws no frames.
    second = page.context.new_page()
    second.goto(page.url)
    second.wait_for_selector(".sq-screen[data-seq]")
    page.bring_to_front()
    backlog = second.evaluate("() => window.__sq.messages.length")
    hold_messages(second)
    choose_row(page, found.row, found.returned)
    wait_for_my_turn(page)
    before = notes(page)
    click_and_wait(page, '.sq-actions [data-move="roll"]')
    assert notes(page) - before == ROLL_NOTES
    before = notes(page)
    sew(page, found.sew)
    assert notes(page) - before == BLOCK_NOTES
    hurry_to_the_end(page)
    heard = bursts_heard(page)
    assert_each_sound_once_per_burst(heard)
    kinds = {notes_for(m) for m, _, _ in heard}
    assert {ROLL_NOTES, BLOCK_NOTES, BELL_NOTES} <= kinds
    assert set(audio_states(page)) == {"running"}, "every note was heard"

    second.wait_for_function(
        "() => window.__sq.messages.some(h => h.message.type === 'table.end')", polling=WATCH_MS
    )
    held = [m for m, _, _ in bursts_heard(second, backlog)]
    assert sum(notes_for(m) == ROLL_NOTES for m in held) > 1, "rolls came in one burst"
    assert release_held(second) == ROLL_NOTES + BLOCK_NOTES + BELL_NOTES
    expect(second.locator(".sq-end")).to_be_visible()


def assert_each_sound_once_per_burst(heard: list[tuple[dict[str, Any], int, int]]) -> None:
    """Each message plays its own sound whole (`notes_for`), or nothing when the same sound was
    heard in its burst already (the messages before the same frame); a message without a sound
    plays nothing."""
    sounded: set[tuple[int, int]] = set()
    for message, played, frame in heard:
        kind = notes_for(message)
        if played:
            assert played == kind, f"{played} notes for {message.get('entry') or message}"
            sounded.add((frame, kind))
        else:
            assert not kind or (frame, kind) in sounded, f"silent: {message.get('entry')}"


def test_with_sounds_off_nothing_plays(open_page: PageFactory) -> None:
    found = kit_deal("thimble")
    page = open_page(locale="de-DE")
    record(page)
    open_table(page, computers=1, deal=found.deal)
    page.locator(".gear").click()
    page.locator('.sq-settings input[name="sounds"]').uncheck()
    page.locator(".settings-close").click()
    choose_row(page, found.row, found.returned)
    wait_for_my_turn(page)
    click_and_wait(page, '.sq-actions [data-move="roll"]')
    sew(page, found.sew)
    click_and_wait(page, '.sq-actions [data-move="end"]')
    wait_for_my_turn(page)  # the computer's whole turn has been heard meanwhile
    heard = bursts_heard(page)
    assert sum(notes_for(m) for m, _, _ in heard) > 2 * ROLL_NOTES, "there was something to hear"
    assert notes(page) == 0


# -- Tempo -------------------------------------------------------------------------------------


PAUSES_S = {"slow": 1.2, "fast": 0.15}
"""The computers' pause before each move, by tempo (docs/protocol.md)."""


def her_reroll(page: Page, basket: tuple[str, ...] = ()) -> None:
    """Choose, roll, put ``basket`` into the basket and reroll, at a table where she starts."""
    choose_start_row(page)
    wait_for_my_turn(page)
    click_and_wait(page, '.sq-actions [data-move="roll"]')
    for die in basket:
        click_and_wait(page, f'.die-slot[data-die="{die}"] .basket-button')
    click_and_wait(page, '.sq-actions [data-move="reroll"]')


def window_answer_gaps(page: Page) -> list[float]:
    """After her reroll at a table of three computers: the seconds from her reroll, as the page
    sent it, to the first computer's answer to its window as the page heard it, and between the
    answers heard after that.

    The server cannot start the first pause before her reroll reaches it, so timing from the
    sending (not from the reroll's event coming back) keeps a late echo of her own move from
    making the first pause look short."""
    page.wait_for_function(
        """() => {
          const heard = window.__sq.messages.map(h => h.message);
          const reroll = heard.findLastIndex(m => m.entry?.move === 'reroll');
          return heard.slice(reroll + 1).some(m => m.view?.turn
            && !Object.keys(m.view.turn.windows).length);
        }"""
    )
    heard = [h for h in messages(page) if h["message"]["type"] == "table.event"]
    reroll = max(i for i, h in enumerate(heard) if h["message"]["entry"]["move"] == "reroll")
    answers = heard[reroll : reroll + 4]
    assert [h["message"]["entry"]["seat"] for h in answers] == [0, 1, 2, 3]
    sent_at = [
        s["at"]
        for s in sent(page)
        if (s["message"]["type"], s["message"].get("move")) == ("table.move", "reroll")
    ][-1]
    times = [sent_at] + [h["at"] for h in answers[1:]]
    return [(b - a) / 1000 for a, b in pairwise(times)]


def assert_paced(gaps: list[float], tempo: str) -> None:
    """Each answer waits the tempo's pause after the one before, and not much more on average.

    Timed from her reroll as sent and the answers as heard, so the k-th answer must come at
    least k pauses after her reroll: a message that reaches a busy browser late makes its own
    gap longer and the next one shorter, but never moves a later answer earlier."""
    pause = PAUSES_S[tempo]
    since_reroll = list(accumulate(gaps))
    assert all(t >= k * pause - 0.05 for k, t in enumerate(since_reroll, start=1)), gaps
    assert sum(gaps) / len(gaps) < pause + 0.5, gaps


def assert_animated(page: Page, animation: str) -> None:
    """A window that opens pops up in the tempo's time."""
    page.locator(".gear").click()
    settings = page.locator(".sq-overlay.appear > .sq-settings")
    expect(settings).to_have_css("animation-duration", animation)


def helpful_words(count: int) -> str:
    """The neighbour's badge in German: one die "hilft", more "helfen"."""
    return "1 hilft" if count == 1 else f"{count} helfen"


def assert_neighbours_count_her_new_dice(page: Page, screenshots: Path) -> None:
    """Right after her reroll each neighbour still answering shows how many of the rerolled
    dice help her (the engine's own placement rule on the view the page was sent)."""
    shown = page.evaluate(
        """() => ({
          seq: Number(document.querySelector('.sq-screen').dataset.seq),
          badges: [...document.querySelectorAll('.sq-neighbours .neighbour')].map(n => [
            Number(n.dataset.seat),
            n.querySelector('.badge.helpful')?.dataset.count ?? null,
            n.querySelector('.badge.helpful')?.textContent ?? null,
          ]),
        })"""
    )
    page.screenshot(path=screenshots / "speedquilt-neighbour-counts.png")
    view = message_at(page, shown["seq"])["view"]
    windows = view["turn"]["windows"]
    assert windows, "her reroll opened the others' windows"
    assert all(w["offered"] == ["green", "yellow", "purple"] for w in windows.values())
    for seat, count, text in shown["badges"]:
        window = windows.get(str(seat))
        if window is None:  # this neighbour has answered already: no count any more
            assert count is None
            continue
        expected = helpful_for(view, seat, window["offered"])
        assert (count, text) == (str(expected), helpful_words(expected))


@pytest.mark.real_pauses
def test_the_fast_tempo_paces_the_computers_moves_and_the_animations(
    open_page: PageFactory,
) -> None:
    deal, _ = deal_where(lambda values, legal: True, computers=3)
    page = open_page(locale="de-DE")
    record(page)
    open_table(page, computers=3, tempo="fast", deal=deal)
    # Her reroll opens the three computers' windows: they answer one after another, each
    # after the tempo's pause.
    her_reroll(page)
    assert_paced(window_answer_gaps(page), "fast")
    assert_animated(page, "0.12s")


@pytest.mark.real_pauses
def test_the_slow_tempo_of_her_view_settings_paces_her_next_table_and_its_neighbours_count(
    open_page: PageFactory, screenshots: Path
) -> None:
    """The tempo chosen in the view settings is the new table's; at the slow tempo the computers
    answer the windows of her reroll 1.2 s apart, and the animations take 0.9 s. Meanwhile (the
    slow tempo leaves time to read all three) each neighbour shows how many of her new dice
    help her."""
    deal, _ = deal_where(lambda values, legal: True, computers=3)
    page = open_page(locale="de-DE")
    record(page)
    open_table(page, computers=1, tempo="fast")
    page.locator(".gear").click()
    page.locator('.sq-settings input[name="tempo"][value="slow"]').check()
    page.locator(".settings-close").click()
    page.locator(".sq-toolbar .back").click()
    # The new table's form starts at her tempo; she sets only the deal and three computers.
    panel = page.locator(".speedquilt-panel")
    expect(panel.locator('select[name="tempo"]')).to_have_value("slow")
    panel.locator('input[name="deal"]').fill(str(deal))
    panel.locator('select[name="computers"]').select_option("3")
    panel.locator(".new-table").click()
    page.wait_for_selector(".sq-screen[data-seq]")
    # Two dice into the basket: only the three rerolled ones are offered to the others.
    her_reroll(page, basket=("red", "blue"))
    assert_neighbours_count_her_new_dice(page, screenshots)
    assert_paced(window_answer_gaps(page), "slow")
    assert_animated(page, "0.9s")


# -- Verbindung weg und wieder da ----------------------------------------------------------------


def reconnect(page: Page, how: str) -> None:
    """Lose the connection (``drop``: the socket closes; ``reload``: the page loads anew) and
    wait until the table has been drawn again from the server's answer."""
    if how == "drop":
        drop_and_wait_for_state(page)
    else:
        page.reload()
    page.wait_for_selector(".sq-screen[data-seq]:not(.offline) .sq-dice-area .die-slot")
    # Connected again: the note that the connection was lost has gone.
    expect(page.locator(".sq-screen > .status-line")).not_to_contain_text("Verbindung")


def dice_shown(page: Page, scope: str) -> dict[str, dict[str, str]]:
    """Every die in ``scope`` as the screen shows it, with the classes of its slot."""
    names = page.eval_on_selector_all(f"{scope} .die-slot", "s => s.map(x => x.dataset.die)")
    shown = {}
    for name in names:
        slot = page.locator(f'{scope} .die-slot[data-die="{name}"]')
        classes = set((slot.get_attribute("class") or "").split()) - {"selected"}
        shown[name] = {**die_seen(page, name, scope), "classes": " ".join(sorted(classes))}
    return shown


@pytest.mark.parametrize("how", ["drop", "reload"])
def test_after_a_lost_connection_her_turn_shows_the_same_dice_and_basket(
    open_page: PageFactory, how: str
) -> None:
    deal, _ = deal_where(lambda values, legal: True)
    page = open_page(locale="de-DE")
    record(page)
    open_table(page, computers=1, deal=deal)
    choose_start_row(page)
    wait_for_my_turn(page)
    click_and_wait(page, '.sq-actions [data-move="roll"]')
    for die in ("green", "purple"):
        click_and_wait(page, f'.die-slot[data-die="{die}"] .basket-button')
    before = dice_shown(page, ".sq-dice-area")
    rerolls = page.locator(".rerolls-left").inner_text()
    history = page.locator(".sq-history li").all_inner_texts()
    reconnect(page, how)
    assert dice_shown(page, ".sq-dice-area") == before
    expect(page.locator(".sq-dice-area .die-slot.in-basket")).to_have_count(2)
    expect(page.locator(".rerolls-left")).to_have_text(rerolls)
    expect(page.locator(".sq-history li")).to_have_text(history)
    # The table goes on from there: the reroll keeps the basket's dice.
    click_and_wait(page, '.sq-actions [data-move="reroll"]')
    for die in ("green", "purple"):
        assert die_seen(page, die)["pips"] == before[die]["pips"]


@pytest.mark.parametrize("how", ["drop", "reload"])
def test_after_a_lost_connection_her_open_giving_window_shows_again(
    open_page: PageFactory, how: str
) -> None:
    page = open_page(locale="de-DE")
    record(page)
    open_table(page, computers=1, level="normal")
    choose_start_row(page)
    wait_for_giving(page)
    window = page.locator(".sq-giving")
    before = dice_shown(page, ".sq-giving")
    count = window.locator(".giving-count").inner_text()
    reconnect(page, how)
    expect(window).to_be_visible()
    assert dice_shown(page, ".sq-giving") == before
    expect(window.locator(".giving-count")).to_have_text(count)
    # Her answer after the reconnect is taken: the window of that roll closes (a normal
    # computer may reroll again at once and open a new one).
    before_mine = mine(page)
    roll = window.get_attribute("data-roll")
    assert roll, "the window says which roll it answers"
    window.locator(".giving-pass").click()
    wait_for_mine(page, before_mine)
    expect(page.locator(f'.sq-giving[data-roll="{roll}"]')).to_have_count(0)


MAX_LOOKS = 20
"""More than the computer's turn has moves to wait through."""
NEXT_NOTE_OR_HER_PART = """n => window.__sq.notes > n || !!document.querySelector('.sq-giving')
  || !!document.querySelector('.sq-screen.my-turn .sq-actions [data-move="roll"]')"""
"""A note after the ``n`` heard, or a window for her to answer, or her turn to roll."""


@pytest.mark.real_pauses
def test_after_a_reload_the_sounds_are_heard_again_once_she_taps(open_page: PageFactory) -> None:
    game = get_game("speedquilt", "table", players=2)
    deal = next(d for d in range(1, 100) if game.view_for(game.start(d), None)["start_player"])
    page = open_page(locale="de-DE")
    record(page)
    open_table(page, computers=1, tempo="slow", deal=deal)
    choose_start_row(page)
    # Reloaded during the computer's turn: its rolls come before her first tap on this page.
    page.reload()
    page.wait_for_function("() => window.__sq.notes > 0")
    assert set(audio_states(page)) == {"suspended"}, "no sound before a tap (autoplay policy)"
    heard = len(audio_states(page))
    # Her first tap on this page (on the table's title, which does nothing): from now on the
    # sounds are heard. The next comes from the computer's turn, or from her own roll if its
    # turn has nothing more to hear (she passes its windows meanwhile).
    page.locator(".sq-toolbar h1").click()
    for _ in range(MAX_LOOKS):
        page.wait_for_function(NEXT_NOTE_OR_HER_PART, arg=heard)
        if notes(page) > heard:
            break
        if page.locator(".sq-giving").count():
            click_and_wait(page, ".sq-giving .giving-pass")
        else:
            click_and_wait(page, '.sq-actions [data-move="roll"]')
    states = audio_states(page)[heard:]
    assert states and states == ["running"] * len(states), states
