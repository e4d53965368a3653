"""The browser's copy of the scoring (speedquilt-score.js, for the block info during a game) is the
engine's scoring, block for block, on random quilts.

The end table shows the server's breakdown; during the game the block info says what a block
counts right now without asking the server. Seed 003's eight scoring lines must read the same in
both places, or the block info would promise points the end table does not give. So the copy is
held to the engine (src/spielcenter/games/speedquilt/scoring.py): the same quilts, scored by both,
must give the same total, the same count and points per pattern block, and the same colours for
finished remnants (ties between colours broken the same way).
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any

import pytest

from spielcenter.games.speedquilt.catalogue import load_catalogue
from spielcenter.games.speedquilt.feasibility import can_complete
from spielcenter.games.speedquilt.model import MAX_SIDE, PlacedBlock
from spielcenter.games.speedquilt.scoring import score_quilt

from .ui import PageFactory, client_module

pytestmark = pytest.mark.browser

CATALOGUE = load_catalogue()
QUILTS = 300


@cache
def completion(block_id: str) -> tuple[int, ...]:
    """Some dice that finish the block: patch by patch, keeping only values it can still be
    finished with (the engine's own feasibility check)."""
    block = CATALOGUE.block(block_id)
    filled: list[int | None] = [None] * len(block.patches)

    def fill(index: int) -> bool:
        if index == len(filled):
            return True
        for value in range(1, 7):
            if block.patches[index].value not in (None, value):
                continue
            filled[index] = value
            if can_complete(block, tuple(filled)) and fill(index + 1):
                return True
        filled[index] = None
        return False

    assert fill(0), f"{block_id} cannot be finished"
    return tuple(v for v in filled if v is not None)


SCORE_IN_THE_PAGE = """async ([quilts, blocksUrl, scoreUrl]) => {
  const blocks = await import(blocksUrl);
  await blocks.loadCatalogue();
  const { scoreQuilt } = await import(scoreUrl);
  return quilts.map((quilt) => scoreQuilt(quilt));
}"""


def random_quilt(rng: random.Random) -> dict[tuple[int, int], PlacedBlock]:
    """Up to nine distinct blocks of the catalogue in a 3 × 3 square, each finished or not; remnants
    and kits come often, since their colours and kinds are where two copies could differ."""
    every = [b.id for b in CATALOGUE.blocks]
    remnants = [b.id for b in CATALOGUE.blocks if b.is_remnant]
    cells = [(x, y) for x in range(MAX_SIDE) for y in range(MAX_SIDE)]
    chosen = rng.sample(cells, rng.randint(1, len(cells)))
    ids = rng.sample(remnants, min(len(remnants), len(chosen), rng.randint(0, 3)))
    ids += rng.sample([b for b in every if b not in ids], len(chosen) - len(ids))
    quilt = {}
    for cell, block_id in zip(chosen, ids, strict=True):
        patches = len(CATALOGUE.block(block_id).patches)
        if rng.random() < 0.7:
            quilt[cell] = PlacedBlock(block_id, completion(block_id))
        else:
            quilt[cell] = PlacedBlock(block_id, (None,) * patches)
    return quilt


def as_the_view_sends_it(quilt: dict[tuple[int, int], PlacedBlock]) -> list[dict[str, Any]]:
    """The quilt as games/speedquilt/views.py puts it into every view."""
    return [
        {"x": x, "y": y, "block": p.block_id, "filled": list(p.filled), "finished": p.finished}
        for (x, y), p in quilt.items()
    ]


def the_engines_breakdown(quilt: dict[tuple[int, int], PlacedBlock]) -> dict[str, Any]:
    score = score_quilt(quilt, CATALOGUE)
    return {
        "total": score.total,
        "blocks": sorted((entry.to_json() for entry in score.blocks), key=lambda e: e["cell"]),
    }


def the_copys_breakdown(scored: dict[str, Any]) -> dict[str, Any]:
    return {
        "total": scored["total"],
        "blocks": sorted(scored["blocks"], key=lambda e: e["cell"]),
    }


def where_they_differ(engine: dict[str, Any], copy: dict[str, Any]) -> list[Any]:
    """The totals and the breakdown lines that differ, engine's first."""
    lines = [
        (mine, theirs)
        for mine, theirs in zip(engine["blocks"], copy["blocks"], strict=False)
        if mine != theirs
    ]
    return [(engine["total"], copy["total"]), *lines]


def test_the_block_infos_scoring_counts_every_random_quilt_as_the_engine_does(
    open_page: PageFactory,
) -> None:
    rng = random.Random(3)
    quilts = [random_quilt(rng) for _ in range(QUILTS)]
    page = open_page()
    scored = page.evaluate(
        SCORE_IN_THE_PAGE,
        [
            [as_the_view_sends_it(q) for q in quilts],
            client_module("speedquilt-blocks.js"),
            client_module("speedquilt-score.js"),
        ],
    )
    differing = [
        (index, where_they_differ(the_engines_breakdown(quilt), the_copys_breakdown(copy)))
        for index, (quilt, copy) in enumerate(zip(quilts, scored, strict=True))
        if the_engines_breakdown(quilt) != the_copys_breakdown(copy)
    ]
    assert not differing, f"{len(differing)} of {QUILTS} quilts differ, first: {differing[0]}"
    assert any(e["points"] for q in scored for e in q["blocks"]), "some quilt scores points"
