"""Golden deals: the full layouts of Crazy Quilt deals 1, 2 and 1000 never change.

The files in tests/golden/crazy_quilt/ were written once from docs/shuffle.md ("Dealing each
game: Crazy Quilt") with an implementation of SplitMix64 and Fisher–Yates separate from the
engine, checked against ``shuffle.shuffled``, and are never regenerated from the engine.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from spielcenter.games import crazy_quilt as cq

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "crazy_quilt"
DEALS = [1, 2, 1000]


def golden(deal: int) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((GOLDEN / f"deal_{deal}.json").read_text("utf-8"))
    return data


@pytest.mark.parametrize("variant", cq.VARIANTS)
@pytest.mark.parametrize("deal", DEALS)
def test_the_quilt_of_a_golden_deal_is_laid_out_as_pinned(deal, variant):
    view = cq.make(variant).view_for(cq.make(variant).start(deal), 0)
    assert view["quilt"] == golden(deal)["quilt"]


@pytest.mark.parametrize("variant", cq.VARIANTS)
@pytest.mark.parametrize("deal", DEALS)
def test_the_stock_of_a_golden_deal_is_in_the_pinned_order_top_card_first(deal, variant):
    state = cq.make(variant).start(deal)
    assert [str(card) for card in cq.reveal(state)] == golden(deal)["stock_top_first"]


@pytest.mark.parametrize("deal", DEALS)
def test_the_foundations_of_a_golden_deal_start_with_the_aces_and_kings(deal):
    view = cq.make("classic").view_for(cq.make("classic").start(deal), 0)
    assert view["foundations"] == golden(deal)["foundations"]


@pytest.mark.parametrize("deal", DEALS)
def test_a_golden_file_holds_two_decks_less_the_eight_foundation_bases(deal):
    data = golden(deal)
    dealt = Counter([card for row in data["quilt"] for card in row] + data["stock_top_first"])
    bases = Counter(rank + suit for suit in "SHDC" for rank in "AK")
    two_decks = Counter(rank + suit for suit in "SHDC" for rank in "A23456789TJQK" for _ in "12")
    assert dealt + bases == two_decks


def test_the_golden_deals_differ_from_each_other():
    layouts = [golden(deal)["quilt"] for deal in DEALS]
    assert layouts[0] != layouts[1] != layouts[2] != layouts[0]
