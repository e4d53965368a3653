"""What a player does in the browser, as small steps the tests are written in.

Everything goes through the page as a person would use it: clicks, drags, keys. Read besides
visible text are the page's address (which game it shows) and the ``data-seq`` the game screen
keeps (the last log entry it drew), so a step can wait until the server has answered.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable
from functools import cache

from playwright.sync_api import Locator, Page, ViewportSize, expect

from spielcenter.web.assets import load_assets
from spielcenter.web.i18n import catalog

from .axe import describe, run_axe

MAX_STEPS = 250
WATCH_MS = 100
"""How often a page checks what a test waits for (``wait_for_function(..., polling=WATCH_MS)``).
Playwright checks every animation frame by default; checking every 100 ms took 3-8 s of
Chromium's CPU off a whole game against three computers (6 Dec 2026, load 5-8), CPU the server
and the other test worker need."""
DESKTOP: ViewportSize = {"width": 1280, "height": 800}
PHONE: ViewportSize = {"width": 390, "height": 844}
PHONE_LAYOUT_WIDTH = 700
"""Narrower than this the pages take their phone layout (the CSS's max-width: 699px)."""


def client_module(name: str) -> str:
    """The address the page itself imports the client's module ``name`` by (its content's hash
    in the name, web/assets.py). The same file by its plain name would be a second copy with a
    state of its own: no language loaded, no block catalogue."""
    return load_assets().url(f"js/{name}")


PageFactory = Callable[..., Page]
"""``open_page(viewport=PHONE, locale="de-DE")``: the start page in a fresh browser context."""


def claim_account(page: Page) -> str:
    """On the start page, give the guest account a name of its own (only a claimed account has
    taler to stake and stands on the lists: docs/ledger.md); the name."""
    name = f"tester{uuid.uuid4().hex[:8]}"
    account = page.locator(".account")
    account.locator("summary").click()
    claim = account.locator("form.claim")
    claim.locator('input[name="name"]').fill(name)
    claim.locator('input[name="password"]').fill("a long secret phrase")
    claim.locator('button[type="submit"]').click()
    expect(page.locator(".account .who")).to_contain_text(name)
    return name


def start_deal(page: Page, game: str, deal: int, variant: str | None = None) -> None:
    """From the start page, play deal number ``deal`` of ``game`` and wait for the board."""
    panel = page.locator(f'.game-panel[data-game="{game}"]')
    if variant:
        panel.locator('select[name="variant"]').select_option(variant)
    panel.locator('input[name="deal"]').fill(str(deal))
    panel.locator(".play-deal").click()
    page.wait_for_selector(".game-screen[data-seq] .board")


def shown_id(page: Page) -> str:
    """The game or table the page shows, as its address says (``#/game/<id>``, ``#/table/<id>``,
    ``#/solo/<id>``)."""
    shown = str(page.evaluate("() => decodeURIComponent(location.hash.split('/')[2] ?? '')"))
    assert shown, f"the page shows no game or table: {page.url}"
    return shown


def seq(page: Page) -> int:
    """The last log entry the game screen has drawn (0 before the first move)."""
    return int(page.locator(".game-screen").get_attribute("data-seq") or "0")


def wait_past(page: Page, before: int) -> None:
    """Wait until the server's answer to an action has been drawn."""
    page.wait_for_function(
        "n => Number(document.querySelector('.game-screen')?.dataset.seq) > n",
        arg=before,
        polling=WATCH_MS,
    )


def wait_until_quiet(page: Page, ms: int = 400) -> None:
    """Wait until no new log entry has arrived for ``ms`` (auto-moves come one after another)."""
    last = -1
    while (now := seq(page)) != last:
        last = now
        page.wait_for_timeout(ms)


def moves_made(page: Page) -> int:
    """The move counter of the toolbar."""
    text = page.locator(".move-count").inner_text()
    match = re.search(r"\d+", text)
    assert match, text
    return int(match.group())


def set_auto_move(page: Page, on: bool) -> None:
    """Tick or untick the auto-move box of the game screen."""
    box = page.locator(".auto-move input")
    if box.is_checked() != on:
        box.click()


def movable(page: Page) -> Locator:
    """The places whose card may move now (the server listed a move from them)."""
    return page.locator(".board [data-src].movable")


def top_card(place: Locator) -> Locator:
    """The card a place shows on top (the last card of a pile)."""
    return place.locator(".card").last


def pick_target(page: Page) -> Locator:
    """The highlighted target to use: a foundation if one lights up, otherwise the first."""
    foundations = page.locator(".board .foundation.target")
    if foundations.count():
        return foundations.first
    return page.locator(".board .target").first


def play_first_by_click(page: Page) -> bool:
    """Click the first card that may move, then the target that lights up; False if none can."""
    sources = movable(page)
    if sources.count() == 0:
        return False
    before = seq(page)
    top_card(sources.first).click()
    target = pick_target(page)
    expect(target).to_be_visible()
    target.click()
    wait_past(page, before)
    return True


def play_first_by_drag(page: Page) -> bool:
    """Drag the first card that may move onto the first target that lights up while dragging."""
    sources = movable(page)
    if sources.count() == 0:
        return False
    before = seq(page)
    card = top_card(sources.first).bounding_box()
    assert card is not None
    x, y = card["x"] + card["width"] / 2, card["y"] + min(card["height"] / 2, 20)
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 12, y + 12, steps=3)
    box = top_card(pick_target(page)).bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, steps=6)
    page.mouse.up()
    wait_past(page, before)
    return True


def play_to_the_end(page: Page, step: Callable[[Page], bool]) -> str:
    """Play the first highlighted move (redeal when none) until the end screen; its status."""
    for _ in range(MAX_STEPS):
        if page.locator(".overlay").is_visible():
            break
        if not step(page):
            redeal = page.locator('.controls button[data-move="r"]')
            if not redeal.is_enabled():
                break
            before = seq(page)
            redeal.click()
            wait_past(page, before)
    expect(page.locator(".overlay .end-box")).to_be_visible()
    status = page.locator(".game-screen").get_attribute("data-status")
    assert status is not None
    return status


def board_cards(page: Page, selector: str = ".board .pile") -> list[list[str]]:
    """The cards of each place matched by ``selector``, bottom to top."""
    cards: list[list[str]] = page.eval_on_selector_all(
        selector,
        "places => places.map(p => [...p.querySelectorAll('[data-card]')]"
        ".map(c => c.dataset.card))",
    )
    return cards


MOVE_SPACING_MS = 0
"""A real server takes 20 messages a second from an account; the browser tests' own takes as
many as a line has (conftest.QUICK_LINES), so the moves follow one another at once."""

PLAY_LINE = """async ([gameId, moves, spacing]) => {
  const ws = new WebSocket(`ws://${location.host}/ws`);
  await new Promise((ok) => ws.addEventListener("open", ok));
  let status = "playing";
  for (const move of moves) {
    const answer = new Promise((ok) => {
      const take = (event) => {
        const message = JSON.parse(event.data);
        if (message.type !== "event" && message.type !== "error") return;
        ws.removeEventListener("message", take);
        ok(message);
      };
      ws.addEventListener("message", take);
    });
    ws.send(JSON.stringify({ type: "move", game_id: gameId, move }));
    const message = await answer;
    if (message.type === "error") throw new Error(message.code);
    status = message.view.status;
    await new Promise((ok) => setTimeout(ok, spacing));
  }
  ws.close();
  return status;
}"""


def play_line(page: Page, game_id: str, moves: list[str]) -> str:
    """Play ``moves`` in game ``game_id`` over a socket of the page's own session, as another
    window of hers would (quicker than clicking a long way to a position); the game's status."""
    status: str = page.evaluate(PLAY_LINE, [game_id, moves, MOVE_SPACING_MS])
    return status


CONTRAST_JS = """(node) => {
  // WCAG 2 contrast of the element's text colour against the first opaque background behind it.
  const rgb = (text) => (text.match(/[\\d.]+/g) || []).map(Number);
  const luminance = ([r, g, b]) => {
    const lin = (c) => {
      c /= 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  };
  let back = null;
  for (let el = node; el; el = el.parentElement) {
    const colour = rgb(getComputedStyle(el).backgroundColor);
    if (colour.length === 3 || (colour.length === 4 && colour[3] > 0.9)) { back = colour; break; }
  }
  back = back || [255, 255, 255];
  const [a, b] = [luminance(rgb(getComputedStyle(node).color)), luminance(back)];
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}"""
READABLE_CONTRAST = 4.5
"""WCAG 2 level AA for normal text."""


def assert_readable(page: Page, locator: Locator) -> None:
    """The text of ``locator`` can be read: contrast of at least 4.5 : 1 against what is behind
    it, and wholly inside the window without scrolling (a newcomer does not look below the fold)."""
    expect(locator).to_be_visible()
    contrast = locator.evaluate(CONTRAST_JS)
    assert contrast >= READABLE_CONTRAST, f"contrast {contrast:.2f} : 1 of {locator.inner_text()!r}"
    box = locator.bounding_box()
    size = page.viewport_size
    assert box is not None and size is not None
    assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"], (
        f"{locator.inner_text()!r} lies at {box['y']:.0f}–{box['y'] + box['height']:.0f} px,"
        f" outside a window {size['height']} px high"
    )
    assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"]


OVERFLOW_JS = """() => {
  // Visible elements that reach past the sides of the window, or whose content is cut off by a
  // box narrower than it (a page that hides its overflow shows no scroll bar to give it away).
  // What lies inside a box that scrolls sideways on purpose is that box's business.
  const width = document.documentElement.clientWidth;
  const style = (el) => getComputedStyle(el);
  const scrolls = (el) => ["auto", "scroll"].includes(style(el).overflowX);
  const inScroller = (el) => {
    for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
      if (scrolls(up)) return true;
    }
    return false;
  };
  const name = (el) => `${el.tagName.toLowerCase()}.${el.className}`;
  const out = [];
  for (const el of document.body.querySelectorAll("*")) {
    const box = el.getBoundingClientRect();
    if (!box.width || !box.height || style(el).visibility === "hidden" || inScroller(el)) continue;
    if (box.right > width + 1 || box.left < -1) {
      out.push(`${name(el)} ${Math.round(box.left)}..${Math.round(box.right)}`);
    } else if (style(el).overflowX === "hidden" && el.scrollWidth > el.clientWidth + 1) {
      out.push(`${name(el)} cut: ${el.scrollWidth} in ${el.clientWidth}`);
    }
  }
  return out;
}"""


def assert_fits_the_width(page: Page) -> None:
    """Nothing on the page reaches past the window's width or is cut off sideways."""
    wide = page.evaluate(OVERFLOW_JS)
    assert wide == [], f"wider than the window ({page.viewport_size}): {wide[:8]}"


RAW_NOTATION = {
    "a block id": re.compile(r"\b[A-Z]\d{2}(?::\d+)?\b"),
    "a patience move": re.compile(r"\b\d{1,2}(?:>\d{1,2}|f)\b|\b[a-h]\d[udw]\b"),
    "a card code": re.compile(r"\b[2-9TJQKA][SHDC]\b"),
    "a cell": re.compile(r"(?<![\w,.-])-?\d+,-\d+\b"),
}
"""What the engines write and a person should never read: "K19", "P45:1", "3>7", "e4u", "8S",
"1,-1". A cell with no minus sign ("1,0") looks like a German decimal; English pages catch it."""
ENGLISH_CELL = re.compile(r"(?<![\w,.-])-?\d{1,2},\d{1,2}(?![\w,.])")
"""A cell on an English page: English writes no decimal commas, and thousands have three digits."""


def raw_notation(text: str, lang: str) -> list[str]:
    """The pieces of ``text`` that are engine notation rather than words, each with its kind."""
    patterns = dict(RAW_NOTATION)
    if lang == "en":
        patterns["a cell"] = re.compile(f"{RAW_NOTATION['a cell'].pattern}|{ENGLISH_CELL.pattern}")
    return [
        f"{kind} {found.group()!r} in …{text[max(0, found.start() - 30) : found.end() + 30]!r}…"
        for kind, pattern in patterns.items()
        for found in pattern.finditer(text)
    ]


ICU_PLURAL = re.compile(r"\{\w+, plural,(?:\s*=?\w+\s*\{[^{}]*\})+\s*\}")


@cache
def english_phrases() -> tuple[str, ...]:
    """The English texts of the catalogue that German says otherwise, cut at their placeholders
    into phrases of two words or more ("Rerolls left: {n}" gives "Rerolls left")."""
    english, german = catalog("en"), catalog("de")
    phrases: set[str] = set()
    for key, text in english.items():
        if text == german.get(key) or text == key:
            continue
        for piece in re.split(r"\{[^{}]*\}|\n", ICU_PLURAL.sub("\n", text)):
            phrase = " ".join(piece.split()).strip(" .,:;·…—–-()\"'!?")
            if len(re.findall(r"[A-Za-z]{2,}", phrase)) >= 2:
                phrases.add(phrase)
    return tuple(sorted(phrases))


def english_in(text: str) -> list[str]:
    """The English phrases of the catalogue that ``text`` holds as whole words."""
    flat = " ".join(text.split())
    return [
        phrase
        for phrase in english_phrases()
        if re.search(rf"(?<!\w){re.escape(phrase)}(?!\w)", flat)
    ]


MUST_BE_READ = ".status-line"
"""The lines that tell her what happens or what to do next (the hint, the table's status)."""


def assert_accessible(page: Page) -> None:
    """The page as it is now can be used and read by everyone, in its language and at its size.

    - axe-core finds no violation of `AXE_RULES` (contrast, names of controls and pictures, ARIA);
    - at phone width nothing reaches past the window's sides (`assert_fits_the_width`);
    - every status or hint line that says something is readable without scrolling
      (`assert_readable`);
    - the visible text holds no engine notation (block ids, cells, moves, card codes);
    - a German page holds no English phrase of the catalogue.
    """
    violations = run_axe(page)
    assert violations == [], f"axe-core on {page.url}:\n{describe(violations)}"
    size = page.viewport_size
    if size is not None and size["width"] < PHONE_LAYOUT_WIDTH:
        assert_fits_the_width(page)
    for line in page.locator(MUST_BE_READ).all():
        if line.is_visible() and line.inner_text().strip():
            assert_readable(page, line)
    text = page.evaluate("() => document.body.innerText")
    lang = page.evaluate("() => document.documentElement.lang")
    notation = raw_notation(text, lang)
    assert notation == [], f"engine notation on {page.url}: {notation[:6]}"
    if lang == "de":
        english = english_in(text)
        assert english == [], f"English on a German page ({page.url}): {english[:8]}"
