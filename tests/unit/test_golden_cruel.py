"""Golden deals of Cruel: deals 1, 2 and 1000 must lay out exactly as pinned, in every variant.

The files in ``tests/golden/cruel/`` were written once from the dealing rule of docs/shuffle.md
(pile 1 of each was checked against a separate hand computation of SplitMix64 + Fisher–Yates).
They must never be regenerated: a difference here means deal numbers changed their meaning.
"""

import json
from pathlib import Path

import pytest

from spielcenter.games.cruel import VARIANTS, make

GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "cruel"


def golden(deal: int) -> dict:
    return json.loads((GOLDEN / f"deal_{deal}.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("deal", [1, 2, 1000])
def test_the_start_layout_of_a_deal_never_changes(deal, variant):
    game = make(variant)
    view = game.view_for(game.start(deal), 0)
    pinned = golden(deal)
    assert pinned["deal"] == deal
    assert view["piles"] == pinned["piles"]
    assert view["foundations"] == pinned["foundations"]


def test_the_golden_deals_are_different_layouts():
    assert len({json.dumps(golden(deal)["piles"]) for deal in (1, 2, 1000)}) == 3
