"""The game review in the browser (issue 42): from the end of a table to its replay, the review
asked for and computed in the background, and a marked decision shown at its position — in
English and German, on a desktop and a phone."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from .solo_ui import api
from .speedquilt_ui import open_table, play_to_the_end
from .ui import PHONE, PageFactory, assert_accessible

pytestmark = pytest.mark.browser


@pytest.mark.parametrize(("locale", "viewport"), [("en-GB", None), ("de-DE", PHONE)])
def test_the_review_of_a_finished_table_leads_to_a_marked_decision_in_the_replay(
    open_page: PageFactory, screenshots: Path, locale: str, viewport: object
) -> None:
    page = open_page(locale=locale) if viewport is None else open_page(PHONE, locale=locale)
    open_table(page, computers=1)
    table_id = re.sub(r"^.*#/table/", "", page.url)
    play_to_the_end(page)
    # From the end table to the replay, where her decisions are reviewed.
    name = "desktop" if viewport is None else "phone"
    page.screenshot(path=screenshots / f"review-end-{name}.png")
    page.locator(".sq-end .end-review").click()
    expect(page).to_have_url(re.compile(f"#/progress/table/{table_id}$"))
    ask = page.locator(".review-ask")
    expect(ask).to_have_text(
        "Review my decisions" if locale == "en-GB" else "Meine Entscheidungen auswerten"
    )
    ask.click()
    expect(page.locator(".review-left")).to_be_visible(timeout=60_000)
    review = api(page, f"/api/my-tables/{table_id}/review")["review"]
    # The scripted player sews what fits after the first roll and never rerolls or buys: the
    # strong player finds points she left, and names the costliest decisions.
    costliest = review["summary"]["costliest"]
    assert costliest
    jumps = page.locator(".review-jump")
    expect(jumps).to_have_count(len(costliest))
    first = review["decisions"][costliest[0]]
    jumps.first.click()
    expect(page.locator("[data-step]").first).to_have_attribute("data-step", str(first["step"]))
    here = page.locator(f".review-here.verdict-{first['verdict']}").first
    expect(here).to_be_visible()
    words = {
        ("en-GB", "mistake"): "was a mistake",
        ("en-GB", "inaccuracy"): "was an inaccuracy",
        ("de-DE", "mistake"): "war ein Fehler",
        ("de-DE", "inaccuracy"): "war eine Ungenauigkeit",
    }
    expect(here).to_contain_text(words[(locale, first["verdict"])])
    # What the strong player would have done, in words (no move notation).
    strong = here.locator(".review-best")
    who = "The strong computer" if locale == "en-GB" else "Der starke Computer"
    expect(strong).to_contain_text(who)
    assert not re.search(r"\b[PK]\d\d\b", strong.inner_text())
    assert_accessible(page)
    page.screenshot(path=screenshots / f"review-{name}.png", full_page=True)
