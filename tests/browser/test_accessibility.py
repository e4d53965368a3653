"""Every screen can be read and used by everyone, in German and English, on a laptop and a phone
(issue 38, "How the tests must catch this from now on").

`assert_accessible` (tests/browser/ui.py) runs axe-core's contrast, naming and ARIA rules, looks
for anything wider than a phone, for status lines below the fold, for engine notation in the
visible text and for English on German pages. The play-through tests call it at the screens they
reach (the giving window, the end tables, a table with others); the tour here visits the screens
in each language and size where no other test stands.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, ViewportSize, expect

from .axe import AXE_RULES, run_axe
from .solo_ui import start_solo
from .ui import (
    DESKTOP,
    PHONE,
    PageFactory,
    assert_accessible,
    english_in,
    play_first_by_click,
    play_to_the_end,
    raw_notation,
    set_auto_move,
    start_deal,
)

pytestmark = pytest.mark.browser

SHORT_DEAL = 158
"""A Cruel deal the "first highlighted move" policy ends within a few moves."""

BROKEN_PAGE = """<!doctype html><html lang="de"><head><title>kaputt</title></head>
<body style="background: #1b5e20">
  <p style="color: #102010">Hinweis: K19 an 1,-1 legen, dann 3>7.</p>
  <p>Rerolls left: 2</p>
  <button></button>
  <select><option>eins</option></select>
  <img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">
  <div style="width: 900px">breit</div>
</body></html>"""


def test_the_checks_fail_on_a_page_that_breaks_each_rule(open_page: PageFactory) -> None:
    """Each part of `assert_accessible` finds what it is for on a deliberately broken page (off
    the product, so its Content Security Policy does not strip the inline styles)."""
    page = open_page(viewport=PHONE)
    page.goto("about:blank")
    page.set_content(BROKEN_PAGE)
    found = {violation["id"] for violation in run_axe(page)}
    assert {"color-contrast", "button-name", "select-name", "image-alt"} <= found
    assert set(AXE_RULES) >= found
    text = page.evaluate("() => document.body.innerText")
    kinds = " ".join(raw_notation(text, "de"))
    assert "block id 'K19'" in kinds and "cell '1,-1'" in kinds and "move '3>7'" in kinds
    assert english_in(text) == ["Rerolls left"]
    with pytest.raises(AssertionError, match="axe-core"):
        assert_accessible(page)


def play_and_leave_a_stage(page: Page) -> None:
    """Start the campaign's stage from the start page, check its table, leave it (a miss)."""
    start_solo(page, ".solo-play-stage")
    page.wait_for_selector(".sq-screen .choice-block")
    assert_accessible(page)
    left = page.evaluate(
        """async () => {
          const me = await (await fetch('/api/me')).json();
          const headers = {'X-CSRF-Token': me.csrf, 'Content-Type': 'application/json'};
          return (await fetch('/api/campaign/leave', {method: 'POST', headers, body: '{}'})).status;
        }"""
    )
    assert left == 200


def open_a_table_with_a_computer(page: Page) -> None:
    """From the start page, a table against one computer at its start-row choice."""
    panel = page.locator(".speedquilt-panel")
    panel.locator('select[name="computers"]').select_option("1")
    panel.locator(".new-table").click()
    page.wait_for_selector(".sq-screen[data-seq] .choice-block")


def back_home(page: Page) -> None:
    """Back to the start page as its "← Spielcenter" link goes (the page is not loaded anew, so
    the checker stays loaded in it)."""
    page.goto("/#/")
    page.wait_for_selector(".game-panel")


@pytest.mark.parametrize("locale", ["de-DE", "en-GB"])
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_every_screen_is_legible_named_and_plain_spoken(
    open_page: PageFactory, locale: str, viewport: ViewportSize
) -> None:
    page = open_page(viewport=viewport, locale=locale)
    lang = locale[:2]
    expect(page.locator("html")).to_have_attribute("lang", lang)

    # The start page with its panels, and with the account panel opened.
    assert_accessible(page)
    page.locator(".account summary").click()
    assert_accessible(page)
    page.locator(".account summary").click()  # it lies over the page like a menu

    # Cruel with its hint said, then to its end screen; Crazy Quilt with its hint.
    start_deal(page, "cruel", SHORT_DEAL)
    set_auto_move(page, False)
    page.locator(".controls .hint-button").click()
    expect(page.locator(".game-screen .status-line")).not_to_be_empty()
    assert_accessible(page)
    play_to_the_end(page, play_first_by_click)
    assert_accessible(page)
    back_home(page)
    start_deal(page, "crazy-quilt", 1)
    page.locator(".controls .hint-button").click()
    expect(page.locator(".game-screen .status-line")).not_to_be_empty()
    assert_accessible(page)
    page.locator(".board .stock").click()
    page.wait_for_function("() => Number(document.querySelector('.game-screen')?.dataset.seq) > 0")

    # Speedquilt: a table against a computer and a campaign stage, each at its start choice.
    back_home(page)
    open_a_table_with_a_computer(page)
    assert_accessible(page)
    back_home(page)
    play_and_leave_a_stage(page)

    # My games, a replay of each kind, and the other tabs of the page.
    page.goto("/#/progress/games")
    page.wait_for_selector(".progress-screen .games-table")
    assert_accessible(page)
    for row in ('.game-row[data-game="cruel"]', '.game-row[data-game="crazy-quilt"]'):
        page.goto("/#/progress/games")
        page.locator(f"{row} .replay-link").click()
        page.wait_for_selector(".replay-board .board")
        page.keyboard.press("ArrowRight")
        assert_accessible(page)
    for row in ('.game-row[data-game="speedquilt"]', ".table-row"):
        page.goto("/#/progress/games")
        page.locator(f"{row} .replay-link").first.click()
        expect(page.locator(".progress-screen svg.sq-block").first).to_be_visible()
        assert_accessible(page)
    for tab in ("achievements", "boards", "campaign", "daily"):
        page.goto(f"/#/progress/{tab}")
        page.wait_for_selector(f".progress-screen[data-tab='{tab}'] .progress-body > *")
        assert_accessible(page)

    # The lobby of tables with people and the taler page.
    page.goto("/#/lobby")
    page.wait_for_selector(".lobby-form")
    assert_accessible(page)
    page.goto("/#/taler")
    page.wait_for_selector(".taler-panel")
    assert_accessible(page)

    # The rules pages of the three games, in the page's language.
    for game in ("cruel", "crazy-quilt", "speedquilt"):
        page.goto(f"/static/rules/{game}.{lang}.html")
        assert_accessible(page)
