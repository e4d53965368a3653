"""The first page is light (issue 40, "First page"): a fresh browser, its cache empty, fetches at
most 150 KB of script and style over the wire for the start page; a screen's modules come when
it is first opened; the message catalogue is a static file named by content, gzipped; a second
visit fetches no script, style or catalogue again.

Bytes over the wire are Chromium's own count (the DevTools protocol's ``encodedDataLength``:
headers and the body as sent, gzipped or not), not the files' sizes.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from .conftest import is_policy_refusal
from .ui import DESKTOP

pytestmark = pytest.mark.browser

FIRST_PAGE_BUDGET = 150 * 1024
"""Script and style of the start page over the wire, compressed (issue 40)."""
CODE = ("Script", "Stylesheet")
"""The DevTools protocol's resource types of script and style."""


@dataclass
class Fetched:
    """One request as Chromium saw it."""

    url: str
    kind: str
    status: int = 0
    wire: int = 0
    """Bytes over the wire: headers and body as sent (0 when it came from the cache)."""
    from_cache: bool = False
    encoding: str = ""
    cache_control: str = ""


@dataclass
class Wire:
    """What one page fetched, request by request, read from the DevTools protocol."""

    fetched: dict[str, Fetched] = field(default_factory=dict)

    def listen(self, context: BrowserContext, page: Page) -> None:
        cdp = context.new_cdp_session(page)
        cdp.on("Network.requestWillBeSent", self._sent)
        cdp.on("Network.responseReceived", self._answered)
        cdp.on("Network.requestServedFromCache", self._cached)
        cdp.on("Network.loadingFinished", self._finished)
        cdp.send("Network.enable")

    def _sent(self, event: dict[str, Any]) -> None:
        url, kind = event["request"]["url"], event.get("type", "")
        self.fetched[event["requestId"]] = Fetched(url, kind)

    def _answered(self, event: dict[str, Any]) -> None:
        fetched = self.fetched.setdefault(event["requestId"], Fetched("", event["type"]))
        response = event["response"]
        fetched.kind = event["type"]
        fetched.status = response["status"]
        fetched.from_cache |= bool(response.get("fromDiskCache") or response.get("fromMemoryCache"))
        headers = {name.lower(): value for name, value in response.get("headers", {}).items()}
        fetched.encoding = headers.get("content-encoding", "")
        fetched.cache_control = headers.get("cache-control", "")

    def _cached(self, event: dict[str, Any]) -> None:
        if event["requestId"] in self.fetched:
            self.fetched[event["requestId"]].from_cache = True

    def _finished(self, event: dict[str, Any]) -> None:
        if event["requestId"] in self.fetched:
            self.fetched[event["requestId"]].wire = int(event["encodedDataLength"])

    def code(self) -> list[Fetched]:
        """The scripts and stylesheets fetched so far."""
        return [f for f in self.fetched.values() if f.kind in CODE]

    def catalogues(self) -> list[Fetched]:
        """The message catalogues fetched so far (static files named by content)."""
        return [f for f in self.fetched.values() if "/static/i18n/" in f.url]

    def modules(self) -> set[str]:
        """The names of the client's modules fetched so far, without their hashes."""
        names = (re.search(r"/js/([\w-]+)(?:\.[0-9a-f]{10})?\.js$", f.url) for f in self.code())
        return {name[1] for name in names if name}

    def sheets(self) -> set[str]:
        """The names of the stylesheets fetched so far, without their hashes."""
        code = self.code()
        names = (re.search(r"/static/([\w-]+)(?:\.[0-9a-f]{10})?\.css$", f.url) for f in code)
        return {name[1] for name in names if name}


@dataclass
class Visit:
    context: BrowserContext
    page: Page
    wire: Wire
    problems: list[str]


@pytest.fixture
def fresh(browser: Browser, server_url: str) -> Iterator[Visit]:
    """A browser with an empty cache, its DevTools listening before the first request."""
    context = browser.new_context(viewport=DESKTOP, locale="en-GB", base_url=server_url)
    context.set_default_timeout(10_000)
    visit = Visit(context, context.new_page(), Wire(), [])
    visit.wire.listen(context, visit.page)
    visit.page.on("pageerror", lambda error: visit.problems.append(str(error)))
    visit.page.on(
        "console",
        lambda message: (
            visit.problems.append(message.text) if is_policy_refusal(message.text) else None
        ),
    )
    yield visit
    context.close()
    assert visit.problems == [], f"the page broke: {visit.problems}"


def open_start(page: Page) -> None:
    page.goto("/")
    page.wait_for_selector(".game-panel")
    page.wait_for_load_state("networkidle")


def test_the_start_page_fetches_at_most_150_kb_of_script_and_style(fresh: Visit) -> None:
    open_start(fresh.page)
    code = fresh.wire.code()
    sent = sum(f.wire for f in code)
    assert 0 < sent <= FIRST_PAGE_BUDGET, f"{sent} bytes of script and style over the wire"
    assert all(f.status == 200 and not f.from_cache for f in code)  # really fetched, cache empty
    main = next(f for f in code if "/js/main." in f.url)
    assert main.encoding == "gzip"
    # Named by content, so kept without asking again (not by the browser's own guess).
    assert all("immutable" in f.cache_control for f in code), [f.url for f in code]
    # The messages too: one catalogue, her language's, gzipped and kept.
    (catalogue,) = fresh.wire.catalogues()
    assert re.search(r"/static/i18n/en\.[0-9a-f]{10}\.json$", catalogue.url), catalogue.url
    assert catalogue.encoding == "gzip" and "immutable" in catalogue.cache_control


def test_a_game_screens_modules_come_when_the_game_is_first_opened(fresh: Visit) -> None:
    open_start(fresh.page)
    on_the_start_page = fresh.wire.modules()
    assert "start" in on_the_start_page
    screens = {"game", "cruel", "crazy-quilt", "speedquilt-table", "progress", "speedquilt-lobby"}
    assert not on_the_start_page & screens, "a screen came with the start page"
    panel = fresh.page.locator('.game-panel[data-game="cruel"]')
    panel.locator(".new-game").click()
    fresh.page.wait_for_selector(".game-screen[data-seq] .board")
    assert {"game", "cruel"} <= fresh.wire.modules() - on_the_start_page


def test_a_screens_stylesheets_come_when_it_is_first_opened_in_the_pages_one_order(
    fresh: Visit,
) -> None:
    """The start page and the patience games need app.css alone; the other rooms bring their
    sheets, inserted in one order whatever the order of the visits (the cascade stays one)."""
    open_start(fresh.page)
    assert fresh.wire.sheets() == {"app"}
    fresh.page.locator('.game-panel[data-game="cruel"] .new-game').click()
    fresh.page.wait_for_selector(".game-screen[data-seq] .board")
    assert fresh.wire.sheets() == {"app"}
    go = "hash => { location.hash = hash; }"  # within the page: the sheets it holds stay
    fresh.page.evaluate(go, "#/lobby")
    fresh.page.wait_for_selector(".lobby-screen")
    assert fresh.wire.sheets() == {"app", "tables"}
    fresh.page.evaluate(go, "#/progress/games")
    fresh.page.wait_for_selector(".progress-screen")
    assert fresh.wire.sheets() == {"app", "speedquilt", "tables", "solo", "progress"}
    order = fresh.page.eval_on_selector_all(
        "link[rel=stylesheet]", "links => links.map(l => l.dataset.sheet || 'app')"
    )
    assert order == ["app", "speedquilt", "tables", "solo", "progress"]


def test_a_second_visit_fetches_no_script_style_or_catalogue_again(fresh: Visit) -> None:
    open_start(fresh.page)
    first = {f.url for f in fresh.wire.code()}
    again = Wire()
    page = fresh.context.new_page()
    again.listen(fresh.context, page)
    open_start(page)
    code = again.code()
    assert {f.url for f in code} == first  # the same files, by the same (hashed) names
    over_the_wire = [f.url for f in code if not f.from_cache]
    assert over_the_wire == [], "fetched again (not even a 304 is needed for a hashed name)"
    assert sum(f.wire for f in code) == 0
    (catalogue,) = again.catalogues()
    assert catalogue.from_cache and catalogue.wire == 0
    page.close()
