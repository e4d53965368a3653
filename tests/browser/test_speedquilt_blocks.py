"""Speedquilt block cards and block info (Karten-Info) in the browser: legible cards, words
instead of ids, and an info window that comes when she points at a block (issue 38, findings
9 and 11, and the seed's block info and sewing view).

The card tests draw every block of the catalogue with the page's own drawing code: no screen
shows all seventy at once, and a label that overflows on one card overflows wherever it lies.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import ViewportSize, expect

from .speedquilt_ui import (
    choose_start_row,
    open_table,
    wait_for_my_turn,
)
from .ui import DESKTOP, PHONE, PageFactory

pytestmark = pytest.mark.browser

PATIENCE_MS = 20_000
"""How long a step may wait: the computers play on while the shared machine may be busy."""

REST_MS = 1_000
"""Longer than the rest after which block info appears when she points at a block."""

BLOCK_ID = re.compile(r"\b[PK]\d{2}\b")
"""The catalogue's ids (P01…P45, K01…K25): for the code, never for her to read."""


@pytest.fixture(autouse=True)
def patient_expectations() -> Iterator[None]:
    expect.set_options(timeout=PATIENCE_MS)
    yield
    expect.set_options(timeout=5_000)


DRAW_CATALOGUE_JS = """async () => {
  // Every block of the catalogue drawn by the page's own code into a strip of cards; each
  // remnant finished with the dot of its chosen colour (the dot sits beside the scoring line).
  const blocks = await import('/static/js/speedquilt-blocks.js');
  await blocks.loadCatalogue();
  const catalogue = await (await fetch('/static/speedquilt-catalogue.json')).json();
  const strip = document.createElement('div');
  strip.className = 'catalogue-strip';
  strip.style.cssText = 'display:grid;grid-template-columns:repeat(5,1fr);width:100%';
  document.querySelector('#app').append(strip);
  for (const [id, def] of Object.entries(catalogue)) {
    const opts = def.colour ? {} : { finished: true, chosenColour: 'red' };
    strip.append(blocks.blockSvg(id, null, opts));
  }
  return Object.keys(catalogue).length;
}"""

LABELS_OUTSIDE_JS = """() => {
  // In the card's own units: the scoring line must lie inside the frame's inner edge, below the
  // patches (and their colour symbols) and clear of a remnant's colour dot.
  const inside = (inner, box) =>
    box.x >= inner.x && box.y >= inner.y &&
    box.x + box.width <= inner.x + inner.width && box.y + box.height <= inner.y + inner.height;
  const meets = (a, b) =>
    a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
  const out = [];
  for (const svg of document.querySelectorAll('.catalogue-strip svg')) {
    const line = svg.querySelector('.block-line');
    const frame = svg.querySelector('.frame');
    if (!line || !line.textContent) continue;
    const half = parseFloat(getComputedStyle(frame).strokeWidth) / 2;
    const f = frame.getBBox();
    const inner = { x: f.x + half, y: f.y + half, width: f.width - 2 * half,
                    height: f.height - 2 * half };
    const box = line.getBBox();
    const patches = svg.querySelector('.patches').getBBox();
    const dot = svg.querySelector('.chosen-dot')?.getBBox();
    const faults = [];
    const at = [box.x, box.y, box.x + box.width, box.y + box.height].map((v) => v.toFixed(1));
    if (!inside(inner, box)) faults.push(`outside the frame (${at})`);
    if (meets(patches, box)) faults.push('on the patches');
    if (dot && meets(dot, box)) faults.push('on the colour dot');
    if (faults.length) out.push(`${svg.dataset.block} "${line.textContent}": ${faults}`);
  }
  return out;
}"""


@pytest.mark.parametrize(
    ("locale", "viewport"),
    [("de-DE", DESKTOP), ("en-GB", DESKTOP), ("de-DE", PHONE), ("en-GB", PHONE)],
    ids=["de-desktop", "en-desktop", "de-phone", "en-phone"],
)
def test_every_block_cards_scoring_line_stays_inside_its_frame(
    open_page: PageFactory, locale: str, viewport: ViewportSize
) -> None:
    """Issue 38, finding 11: rule labels ran out of the block frames."""
    page = open_page(viewport=viewport, locale=locale)
    assert page.evaluate(DRAW_CATALOGUE_JS) == 70
    assert page.evaluate(LABELS_OUTSIDE_JS) == []


def test_no_block_card_shows_its_id_in_either_language(open_page: PageFactory) -> None:
    """Issue 38: cards printed "P09", "K19"; the ids stay in data attributes for the code."""
    for locale in ("de-DE", "en-GB"):
        page = open_page(locale=locale)
        page.evaluate(DRAW_CATALOGUE_JS)
        cards = page.locator(".catalogue-strip svg")
        texts = cards.evaluate_all("svgs => svgs.map(s => s.textContent)")
        labels = cards.evaluate_all("svgs => svgs.map(s => s.getAttribute('aria-label'))")
        ids = cards.evaluate_all("svgs => svgs.map(s => s.dataset.block)")
        assert len(ids) == 70 and all(BLOCK_ID.fullmatch(i) for i in ids)
        assert [t for t in texts if BLOCK_ID.search(t)] == []
        assert [a for a in labels if not a or BLOCK_ID.search(a)] == []


def test_the_block_info_names_a_block_in_words_not_by_its_id(open_page: PageFactory) -> None:
    page = open_page(locale="de-DE")
    open_table(page, computers=1)
    choose_start_row(page)
    wait_for_my_turn(page)
    block = page.locator(".shelf-pattern .shop-block").first
    block.click()
    info = page.locator(".sq-info")
    expect(info).to_be_visible()
    expect(info.locator("h3")).to_contain_text(re.compile(r"Karten-Info · (Block|Flickenrest)"))
    assert not BLOCK_ID.search(info.inner_text())
    assert not BLOCK_ID.search(page.locator(".sq-screen").inner_text())
