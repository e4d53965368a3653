"""The computer players' caches live as long as the server process: each keeps a bounded number
of answers, the least recently used going first, so a long-running server stays small
(docs/performance.md, "Soak")."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from spielcenter.bots import evaluation
from spielcenter.bots.evaluation import Outlook
from spielcenter.bots.expectimax import sew_table
from spielcenter.bots.memo import block_cache
from spielcenter.games.speedquilt.catalogue import load_catalogue
from spielcenter.games.speedquilt.model import Block, PlacedBlock

SEW_TABLES_MB = 16.5
"""What the sew tables may hold at most, in MiB (docs/performance.md)."""


def fillings() -> Iterator[tuple[Block, tuple[int | None, ...]]]:
    """Every catalogue block with one patch filled, each value in turn: many different keys."""
    for block in load_catalogue():
        for patch in range(len(block.patches)):
            for value in range(1, 7):
                filled: list[int | None] = [None] * len(block.patches)
                filled[patch] = value
                yield block, tuple(filled)


def test_a_block_cache_never_holds_more_than_its_size() -> None:
    @block_cache(maxsize=5)
    def patches(block: Block, filled: tuple[int | None, ...]) -> int:
        return len(block.patches)

    for block, filled in list(fillings())[:40]:
        patches(block, filled)
        assert len(patches) <= 5
    assert len(patches) == 5


def test_a_block_cache_lets_the_least_recently_used_answer_go_first() -> None:
    asked: list[tuple[int | None, ...]] = []

    @block_cache(maxsize=2)
    def patches(block: Block, filled: tuple[int | None, ...]) -> int:
        asked.append(filled)
        return len(block.patches)

    (a, first), (_, second), (_, third) = list(fillings())[:3]
    patches(a, first)
    patches(a, second)
    patches(a, first)  # used again: now the second is the oldest
    patches(a, third)
    patches(a, first)
    assert asked == [first, second, third]
    patches(a, second)
    assert asked == [first, second, third, second]


def test_a_block_cache_refuses_a_size_below_one() -> None:
    with pytest.raises(ValueError, match="at least one"):
        block_cache(maxsize=0)(lambda block, filled: 0)


def test_the_sew_tables_of_the_computer_players_never_take_more_than_16_mb() -> None:
    try:
        for block, filled in list(fillings())[: sew_table.maxsize + 100]:
            sew_table(block, filled)
        held = sum(table.nbytes for table in sew_table.values())
        assert len(sew_table) == sew_table.maxsize
        assert held <= SEW_TABLES_MB * 2**20
    finally:
        sew_table.clear()  # the other tests start from an empty cache, as a process does


def test_the_remembered_quilt_scores_never_exceed_their_bound_and_the_oldest_goes_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(evaluation, "POINTS_MEMO", 3)
    catalogue = load_catalogue()
    outlook = Outlook(catalogue, {}, rounds_left=5.0)
    evaluation._known_points(catalogue).clear()  # start as a process does, whatever ran before
    quilts = [{(0, 0): PlacedBlock(b.id, (None,) * len(b.patches))} for b in catalogue.blocks[:5]]
    for quilt in quilts:
        outlook.points(quilt)
    known = evaluation._known_points(catalogue)
    assert len(known) == 3
    kept = [{cell: PlacedBlock(b, f) for cell, b, f in key} for key in known]
    assert kept == quilts[2:]
