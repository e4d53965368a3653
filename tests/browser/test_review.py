"""The game review in the browser (issue 42): from the end of a table to its replay, the review
asked for and computed in the background, and a marked decision shown at its position with what
the strong player would have done, in words — in English on a desktop, then in German on a phone
(one game for both), legible and named."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, Route, expect

from spielcenter.services.review import TOO_MANY

from .solo_ui import api
from .speedquilt_ui import open_table
from .table_socket import play_table_by_socket
from .ui import PHONE, PageFactory, assert_accessible

pytestmark = pytest.mark.browser

WORDS = {
    ("en", "mistake"): "was a mistake",
    ("en", "inaccuracy"): "was an inaccuracy",
    ("de", "mistake"): "war ein Fehler",
    ("de", "inaccuracy"): "war eine Ungenauigkeit",
}
STRONG = {"en": "The strong computer", "de": "Der starke Computer"}


def _marked_decision_shown(page: Page, decision: dict[str, Any], lang: str) -> None:
    """The replay stands at the decision's position and says how it went, in words."""
    expect(page.locator("[data-step]").first).to_have_attribute("data-step", str(decision["step"]))
    here = page.locator(f".review-here.verdict-{decision['verdict']}").first
    expect(here).to_contain_text(WORDS[(lang, decision["verdict"])])
    strong = here.locator(".review-best")
    expect(strong).to_contain_text(STRONG[lang])
    assert not re.search(r"\b[PK]\d\d\b", strong.inner_text())  # no block ids, no notation


def _refused_once_in_plain_words(page: Page, url: str) -> None:
    """The server's refusal of one more review (429 ``too_many_reviews``, tested on the server
    in tests/server/test_review_limits.py) is said in plain words, and she may ask again."""
    refusal = {"error": {"code": "too_many_reviews", "message": TOO_MANY}}

    def refuse(route: Route) -> None:
        if route.request.method == "POST":
            route.fulfill(status=429, json=refusal)
        else:
            route.continue_()

    page.route(f"**{url}", refuse)
    page.locator(".review-ask").click()
    expect(page.locator(".review-refused")).to_have_text(
        "Your other reviews are still being made. Ask again when one of them is finished."
    )
    page.unroute(f"**{url}", refuse)


def test_the_review_of_a_finished_table_leads_to_a_marked_decision_in_the_replay(
    open_page: PageFactory, screenshots: Path
) -> None:
    page = open_page(locale="en-GB")
    open_table(page, computers=1)
    table_id = re.sub(r"^.*#/table/", "", page.url)
    # Her moves go over the socket (the play is not what this test is about; test_speedquilt.py
    # plays whole tables in the browser), and she comes back to the table when it is over.
    play_table_by_socket(page, table_id)
    page.reload()
    expect(page.locator(".sq-end")).to_be_visible()
    page.screenshot(path=screenshots / "review-end-desktop.png")
    # From the end table to the replay, where her decisions are reviewed.
    page.locator(".sq-end .end-review").click()
    expect(page).to_have_url(re.compile(f"#/progress/table/{table_id}$"))
    ask = page.locator(".review-ask")
    expect(ask).to_have_text("Review my decisions")
    _refused_once_in_plain_words(page, f"/api/my-tables/{table_id}/review")
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
    _marked_decision_shown(page, first, "en")
    assert_accessible(page)
    page.screenshot(path=screenshots / "review-desktop.png", full_page=True)

    # The same review in German on a phone: kept by the server, shown at once.
    page.set_viewport_size(PHONE)
    page.locator('select[name="lang"]').first.select_option("de")
    expect(page.locator(".review-left")).to_contain_text("erwartete Punkte liegen lassen")
    last = review["decisions"][costliest[-1]]
    page.locator(".review-jump").last.click()
    _marked_decision_shown(page, last, "de")
    assert_accessible(page)
    page.screenshot(path=screenshots / "review-phone.png", full_page=True)
