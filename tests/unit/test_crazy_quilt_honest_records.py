"""The honest player's longer measurement (docs/winrates-crazy-quilt.md, *The honest player on
more deals*): its records in ``docs/records/crazy-quilt-honest/VARIANT.jsonl``, one a deal, with
the guarded player's result and, where measured, the old rules' (``bare``) on the same deal.

The figure and the table are drawn from these records, so they must be the player's: they start
at deal 1 without a gap, agree with the published 1 000-deal records where both hold a deal, and
a sample of the deals past those, played again, ends as recorded under both rules.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from spielcenter.games.base import variants_of
from spielcenter.games.crazy_quilt import make
from spielcenter.solvers.crazy_quilt_honest import play_from, play_honestly

RECORDS = Path(__file__).resolve().parents[2] / "docs" / "records"
HONEST = sorted((RECORDS / "crazy-quilt-honest").glob("*.jsonl"))
BUDGET = 10_000
"""Positions a search of the measured player (bench/crazy_quilt_winrate.py --honest-budget)."""


def read_lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def read(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in read_lines(path)]


PAST_THE_PUBLISHED = [path for path in HONEST if len(read_lines(path)) > 1000]
"""The variants measured past the published deals 1–1 000 (all four since 2026-12-07:
docs/winrates-crazy-quilt.md, *The honest player on more deals* and the section after it)."""


def test_every_variant_is_measured_on_the_issues_deals_1_to_10_000() -> None:
    # Issue 41: the classic and second-redeal aims are judged on the same 10 000 deals.
    # Round the corner and both rules together, without an aim of their own, on the same deals.
    covered = {path.stem: len(read_lines(path)) for path in PAST_THE_PUBLISHED}
    assert covered == dict.fromkeys(variants_of("crazy-quilt"), 10_000)


def test_every_variant_has_the_honest_players_records() -> None:
    assert {path.stem for path in HONEST} == set(variants_of("crazy-quilt"))


@pytest.mark.parametrize("path", HONEST, ids=lambda p: p.stem)
def test_the_records_run_from_deal_1_without_a_gap_and_agree_with_the_published_ones(path: Path):
    records = read(path)
    assert [r["deal"] for r in records] == list(range(1, len(records) + 1))
    assert len(records) >= 1000
    assert {r["honest"] for r in records} <= {"won", "lost"}
    assert {r.get("bare", "lost") for r in records} <= {"won", "lost"}
    published = read(RECORDS / f"crazy-quilt-{path.stem}.jsonl")
    assert [r["honest"] for r in records[:1000]] == [r["honest"] for r in published]


@pytest.mark.parametrize("path", PAST_THE_PUBLISHED, ids=lambda p: p.stem)
def test_a_sample_past_the_published_deals_ends_as_recorded_under_both_rules(path: Path):
    # The first two wins and the first loss past deal 1 000 (past the published records, which
    # test_winnable.py samples), the guarded player; the first two deals with an old rules' result
    # there, the bare rules of thumb (some 50 times quicker).
    variant = path.stem
    later = [r for r in read(path) if r["deal"] > 1000]
    won = [r for r in later if r["honest"] == "won"][:2]
    lost = [r for r in later if r["honest"] == "lost"][:1]
    played = {r["deal"]: play_honestly(r["deal"], variant, BUDGET).status.value for r in won + lost}
    assert played == {r["deal"]: r["honest"] for r in won + lost}
    bare = [r for r in later if "bare" in r][:2]
    game = make(variant)
    old = {r["deal"]: play_from(game.start(r["deal"]), BUDGET, guarded=False) for r in bare}
    assert {deal: result.status.value for deal, result in old.items()} == {
        r["deal"]: r["bare"] for r in bare
    }
