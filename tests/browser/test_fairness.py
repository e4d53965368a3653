"""Provably fair dice in the browser (issue 37): the table shows the fingerprint of its secret
seed from the start; once the game is over the replay in Meine Partien says, in German and in
English, that the revealed seed matches it and that every roll and draw follows from it — the
server's own check of the steps the replay shows."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .solo_ui import api
from .speedquilt_ui import open_table, play_to_the_end
from .ui import PageFactory

pytestmark = pytest.mark.browser


def test_the_fingerprint_is_shown_at_the_table_and_the_replay_says_the_dice_were_fair(
    open_page: PageFactory,
) -> None:
    page = open_page(locale="en-GB")
    open_table(page, computers=1)
    table_id = re.sub(r"^.*#/table/", "", page.url)
    fairness = api(page, f"/api/tables/{table_id}")["fairness"]
    fingerprint = fairness["fingerprint"]
    assert fairness["seed"] is None and fairness["commitment"].startswith(fingerprint)
    expect(page.locator(".sq-fairness")).to_have_text(f"Dice fingerprint: {fingerprint}")
    play_to_the_end(page)

    verdict = api(page, f"/api/my-tables/{table_id}/replay")["table"]["fairness"]["verdict"]
    assert verdict["ok"]
    assert verdict["rolls"] > 1 and verdict["draws"] > 1  # a whole game: the plural sentences
    page.goto(page.url.split("#")[0] + f"#/progress/table/{table_id}")
    line = page.locator(".replay-fairness")
    expect(line).to_have_text(
        f"Fair dice: the seed revealed at the end matches the fingerprint {fingerprint} shown at "
        f"the start; all {verdict['rolls']} rolls and all {verdict['draws']} draws follow from it."
    )
    page.locator('select[name="lang"]').first.select_option("de")
    expect(line).to_have_text(
        f"Faire Würfel: Der am Ende enthüllte Schlüssel passt zum Fingerabdruck {fingerprint} vom "
        f"Anfang; alle {verdict['rolls']} Würfe und alle {verdict['draws']} gezogenen Blöcke "
        "folgen daraus."
    )
