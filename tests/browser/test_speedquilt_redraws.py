"""How often the Speedquilt table screen draws itself (docs/architecture.md, the table screen):
messages that arrive back to back are drawn once, with the next frame, and a clock writes only
what it shows anew. Both are watched from outside the page, with a MutationObserver the test
puts on the screen (the page keeps no counter for tests).
"""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Page, expect

from .speedquilt_kits_ui import hold_messages, messages, record, release_held
from .speedquilt_ui import (
    choose_start_row,
    click_and_wait,
    open_table,
    wait_for_my_turn,
)
from .tables_ui import anna_and_bea_at_one_table, own_clock
from .ui import PageFactory

pytestmark = pytest.mark.browser

QUIET_S = 1.5
"""The computers are done (or wait for her window) once the server says nothing this long."""
HOLD_AT_MOST_S = 10.0
"""The longest the test holds the server's messages back."""

COUNT_REBUILDS = """() => {
  const root = document.querySelector('.sq-screen');
  window.rebuilds = 0;
  // A rebuild empties the root: its old toolbar leaves with everything else.
  new MutationObserver((records) => {
    for (const r of records)
      if ([...r.removedNodes].some((n) => n.matches?.('header.sq-toolbar'))) window.rebuilds += 1;
  }).observe(root, { childList: true });
}"""

COUNT_CLOCK_WRITES = """() => {
  const clocks = new Map();
  window.clockWrites = clocks;
  const text = (nodes) => [...nodes].map((n) => n.textContent).join('');
  new MutationObserver((records) => {
    for (const r of records) {
      if (!r.target.classList?.contains('sq-clock')) continue;
      const writes = clocks.get(r.target) ?? { text: 0, attributes: 0, idle: 0 };
      if (r.type === 'attributes') {
        writes.attributes += 1;
        // The records of one tick arrive together: the value now is the one this tick wrote.
        if (r.oldValue === r.target.getAttribute(r.attributeName)) writes.idle += 1;
      } else {
        writes.text += 1;
        if (text(r.removedNodes) === text(r.addedNodes)) writes.idle += 1;
      }
      clocks.set(r.target, writes);
    }
  }).observe(document.body, {
    childList: true, attributes: true, attributeOldValue: true, subtree: true,
  });
}"""


def test_messages_that_arrive_back_to_back_are_drawn_once(open_page: PageFactory) -> None:
    """The end of her turn and the computers' turns after it (until one of them rerolls and
    opens her giving window) reach the page all at once (the test holds the server's messages
    back, as a stalled network would, then hands them over together): the screen is rebuilt far
    fewer times than messages arrived, and then shows the last of them."""
    page = open_page(locale="en-GB")
    record(page)
    open_table(page, computers=3, level="easy")
    choose_start_row(page)
    wait_for_my_turn(page)
    click_and_wait(page, '.sq-actions [data-move="roll"]')
    before = recorded(page)
    hold_messages(page)
    page.locator('.sq-actions [data-move="end"]').click()
    wait_until_quiet(page)
    held = [h["message"] for h in messages(page)[before:]]
    events = [m for m in held if m.get("type") == "table.event"]
    assert len(events) >= 4, "her end and the next computer's turn make several entries"
    page.evaluate(COUNT_REBUILDS)
    release_held(page)
    last = events[-1]
    screen = page.locator(".sq-screen")
    expect(screen).to_have_attribute("data-seq", str(last["seq"]))
    turn = last["view"]["turn"]
    expect(screen).to_have_attribute("data-turn", str(turn["seat"]) if turn else "")
    expect(screen).to_have_attribute("data-phase", last["view"]["phase"])
    expect(page.locator(".sq-round")).to_contain_text(str(last["view"]["round"]))
    rebuilds = page.evaluate("() => window.rebuilds")
    # Drawn once for each message, the screen would be rebuilt len(events) times.
    assert 1 <= rebuilds <= max(2, len(events) // 4), (rebuilds, len(events))


def recorded(page: Page) -> int:
    """How many messages of the server the page has received (held back or not)."""
    count: int = page.evaluate("() => window.__sq.messages.length")
    return count


def wait_until_quiet(page: Page) -> None:
    """Let the held messages pile up until the server has said nothing for QUIET_S."""
    started = time.monotonic()
    count, since = recorded(page), time.monotonic()
    while time.monotonic() - started < HOLD_AT_MOST_S:
        page.wait_for_timeout(100)
        if recorded(page) != count:
            count, since = recorded(page), time.monotonic()
        elif time.monotonic() - since > QUIET_S:
            return


def test_a_clock_writes_only_when_what_it_shows_changes(open_page: PageFactory) -> None:
    """A clock ticks four times a second but shows whole seconds: over 3 s its text changes
    at most four times (once for each new second), and nothing is written that was there
    already. Its colour may change (the warning comes at 10 s left, which a slow machine can
    reach on the tests' short clocks), but no write leaves a clock as it was."""
    _, bea = anna_and_bea_at_one_table(open_page, think="60", giving="15")
    expect(own_clock(bea)).to_be_visible()
    # Both choose their start rows in peace: nothing redraws the screen meanwhile.
    bea.evaluate(COUNT_CLOCK_WRITES)
    bea.wait_for_timeout(3000)
    writes = bea.evaluate("() => [...window.clockWrites.values()]")
    assert writes, "the clocks count down"
    assert max(w["text"] for w in writes) >= 2, writes  # they tick while watched
    assert all(w["text"] <= 4 and w["idle"] == 0 for w in writes), writes
