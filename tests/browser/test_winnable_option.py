"""The start page's "only winnable deals" option deals a number the solver has proven winnable."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Locator, Page, expect

from spielcenter.solvers.winnable import winnable_deals

from .ui import PageFactory

pytestmark = pytest.mark.browser


@pytest.mark.parametrize(
    ("game", "variant"), [("cruel", "classic"), ("crazy-quilt", "second-redeal")]
)
def test_only_winnable_deals_gives_a_proven_deal_number(
    open_page: PageFactory, game: str, variant: str
) -> None:
    page = open_page()
    panel = page.locator(f'.game-panel[data-game="{game}"]')
    panel.locator('select[name="variant"]').select_option(variant)
    box = panel.locator('input[name="winnable_only"]')
    expect(box).to_be_visible()
    box.check()
    panel.locator(".new-game").click()
    expect(page).to_have_url(re.compile(r"#/game/"))
    header = page.locator("header")
    expect(header).to_contain_text(re.compile(r"#\d+"))
    deal = int(re.search(r"#(\d+)", header.inner_text()).group(1))
    assert deal in winnable_deals(game, variant)


def check_and_wait_for_the_save(page: Page, box: Locator) -> None:
    """Tick ``box`` and wait until the server has answered the setting's save."""
    with page.expect_response(
        lambda answer: answer.url.endswith("/api/settings") and answer.request.method == "PUT"
    ) as saved:
        box.check()
    assert saved.value.ok, saved.value.status


def test_the_option_is_kept_with_the_account(open_page: PageFactory) -> None:
    page = open_page()
    box = page.locator('.game-panel[data-game="cruel"] input[name="winnable_only"]')
    check_and_wait_for_the_save(page, box)
    page.reload()
    expect(
        page.locator('.game-panel[data-game="cruel"] input[name="winnable_only"]')
    ).to_be_checked()


def test_each_patience_keeps_its_own_option(open_page: PageFactory) -> None:
    """Issue 38, finding 10: one "only winnable deals" switch was shared by both patiences."""
    page = open_page()
    cruel = page.locator('.game-panel[data-game="cruel"] input[name="winnable_only"]')
    quilt = page.locator('.game-panel[data-game="crazy-quilt"] input[name="winnable_only"]')
    check_and_wait_for_the_save(page, cruel)
    page.reload()
    expect(
        page.locator('.game-panel[data-game="cruel"] input[name="winnable_only"]')
    ).to_be_checked()
    expect(quilt).not_to_be_checked()
