"""What a player does in a solo Speedquilt game (a campaign stage, the daily quilt), as steps.

The solo screen is the table screen on a stored game, so the table's steps serve here too
(speedquilt_ui); these add the solo phases: the giving turn after each own turn and the shelf
whose rightmost block leaves the shop. Besides visible text a step reads only the ``data-*``
attributes the screen keeps (last seq drawn, phase, whose turn).
"""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import Page, expect

from tests.protocol import apply_changes

from .speedquilt_ui import (
    MAX_STEPS,
    SEWABLE,
    STEP_TIMEOUT_MS,
    answer_giving,
    choose_start_row,
    click_and_wait,
    hurry_to_the_last_round,
    my_turn,
    sew_what_fits,
)


def start_solo(page: Page, button: str) -> None:
    """From the start page, press a solo button (``.solo-play-daily`` or ``.solo-play-stage``)
    and wait for the game's first view."""
    page.set_default_timeout(STEP_TIMEOUT_MS)
    page.locator(f".solo-start {button}").click()
    # A refused start says so under the buttons: report it rather than wait for a screen.
    page.wait_for_selector(".sq-screen.solo[data-seq], .solo-start .solo-error:not([hidden])")
    refusal = page.locator(".solo-start .solo-error:not([hidden])")
    assert not refusal.count(), f"the solo start was refused: {refusal.inner_text()}"


def choose_fast_tempo(page: Page) -> None:
    """On the solo screen, choose the tempo "fast" under the gear, as a player may (kept for her
    account, docs/protocol.md): its windows pop up and its shelves slide in 120 ms instead of
    450 ms, and a tap waits for what it taps to stand still. The tempo's own animations are
    tested in test_speedquilt.py."""
    page.locator(".sq-toolbar .gear").click()
    page.locator('.sq-settings input[name="tempo"][value="fast"]').check()
    page.locator(".sq-settings .settings-close").click()
    expect(page.locator(".sq-settings")).to_have_count(0)


def phase(page: Page) -> str:
    """The phase the screen shows (``choosing``, ``turn``, ``giving_turn``, ``shop_remove``…)."""
    return page.locator(".sq-screen").get_attribute("data-phase") or ""


def remove_a_block(page: Page) -> None:
    """After the giving turn: the rightmost block of the first shelf offered leaves the shop."""
    click_and_wait(page, ".solo-remove .remove-shelf")


def play_own_solo_turn(page: Page, planned: bool) -> bool:
    """Roll, sew what fits once, and end the turn, as speedquilt_ui's ``play_own_turn``; but
    with ``planned`` (an earlier turn of this game sewed nothing and tapped its dice for a plan
    to clear, see ``sew_what_fits``) a turn whose dice sew nothing does not tap them all once
    more: some ten taps a turn that tell nothing new. Returns ``planned`` for the next turn."""
    if page.locator('.sq-actions [data-move="roll"]').count():
        click_and_wait(page, '.sq-actions [data-move="roll"]')
    if not planned or page.evaluate(SEWABLE) is not None:
        planned = not sew_what_fits(page) or planned
    if page.locator('.sq-actions [data-move="end"]').count():
        click_and_wait(page, '.sq-actions [data-move="end"]')
    return planned


def play_solo_to_the_end(page: Page) -> None:
    """Play her part until the end table shows: start row, own turns (roll, sew what fits,
    end), giving turns (place a helpful die, else pass) and shelf removals; the rounds before
    the last inside the page (speedquilt_ui's `hurry_to_the_last_round`)."""
    assert hurry_to_the_last_round(page) != ["end"], "the last round is played by clicks"
    planned = False
    for _ in range(MAX_STEPS):
        if page.locator(".sq-end").count():
            return
        now = phase(page)
        if now == "choosing" and page.locator(".choice-block").count():
            choose_start_row(page)
        elif now == "giving_turn" and page.locator(".solo-giving").count():
            answer_giving(page)
        elif now == "shop_remove" and page.locator(".solo-remove").count():
            remove_a_block(page)
        elif my_turn(page) and int(page.locator(".sq-screen").get_attribute("data-legal") or "0"):
            planned = play_own_solo_turn(page, planned)
        else:
            page.wait_for_timeout(100)
    expect(page.locator(".sq-end")).to_be_visible()


def play_until(page: Page, wanted: str) -> None:
    """Play on (as play_solo_to_the_end does) until the screen shows phase ``wanted``."""
    for _ in range(MAX_STEPS):
        now = phase(page)
        if now == wanted:
            return
        if now == "choosing" and page.locator(".choice-block").count():
            choose_start_row(page)
        elif now == "giving_turn" and page.locator(".solo-giving").count():
            answer_giving(page)
        elif now == "shop_remove" and page.locator(".solo-remove").count():
            remove_a_block(page)
        elif my_turn(page) and int(page.locator(".sq-screen").get_attribute("data-legal") or "0"):
            if page.locator('.sq-actions [data-move="roll"]').count():
                click_and_wait(page, '.sq-actions [data-move="roll"]')
            click_and_wait(page, '.sq-actions [data-move="end"]')
        else:
            page.wait_for_timeout(100)
    raise AssertionError(f"the phase {wanted!r} never came")


def record_frames(page: Page) -> list[dict[str, Any]]:
    """Every JSON message the page's sockets receive from now on (filled as they arrive); an
    event that carries what changed (docs/protocol.md, "What changed") gets the ``view`` it
    leaves the page with, as the page's socket works it out."""
    frames: list[dict[str, Any]] = []

    def watch(socket: Any) -> None:
        last: dict[str, Any] = {}

        def received(payload: str) -> None:
            frame = json.loads(payload)
            if frame.get("type") == "event" and "changes" in frame and "view" in last:
                frame["view"] = apply_changes(last["view"], frame["changes"])
            if frame.get("type") in ("state", "event") and "view" in frame:
                last["view"] = frame["view"]
            frames.append(frame)

        socket.on("framereceived", received)

    page.on("websocket", watch)
    return frames


ANIMATIONS_DONE = """() => Promise.all(
  document.getAnimations()
    .filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity)
    .map((animation) => animation.finished.catch(() => null)),
).then(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))))"""
"""Resolves when every animation that ends (windows popping up, shelves sliding, dice moving) has
ended and the page has been drawn since; the endless ones (a glowing target) do not count."""


def wait_for_animations(page: Page) -> None:
    """Wait until the page's animations that end have ended (`ANIMATIONS_DONE`): a window
    read by axe-core is drawn whole, not half faded in."""
    page.evaluate(ANIMATIONS_DONE)


def settle(page: Page) -> None:
    """Before a screenshot: the pointer off the blocks (no block info) and windows popped up
    (waits for the page's own animations to end, not for a fixed time)."""
    page.mouse.move(1, 1)
    wait_for_animations(page)


def api(page: Page, path: str) -> Any:
    """GET ``path`` with the page's own session."""
    return page.evaluate("path => fetch(path).then(r => r.json())", path)


def replay_step(page: Page) -> int:
    """The step the replay viewer of Meine Partien shows (0 is the deal)."""
    return int(page.locator(".progress-body").get_attribute("data-step") or "-1")
