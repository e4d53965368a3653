"""The records of Crazy Quilt's one-run tables (docs/winrates-crazy-quilt.md, *One run as a user
runs it*): one record a deal, as `spielcenter winrate crazy-quilt --records` writes them, kept
without the winning lines in ``docs/records/crazy-quilt-one-run/VARIANT-BUDGET[-BEAMS].jsonl``.

A table is only as good as its records: each must cover its deals from deal 1 without a gap,
hold only the solver's three answers, and every win it counts must be one a line proves. The
lines are not kept (10 000 of them would be megabytes), so the solver finds them again for a
sample of the recorded wins and the engine replays them to a won game."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from spielcenter.games import get_game
from spielcenter.games.base import Status
from spielcenter.games.crazy_quilt import VARIANTS
from spielcenter.solvers.crazy_quilt import WAITING_SHARE, solve

ONE_RUN = Path(__file__).parents[2] / "docs" / "records" / "crazy-quilt-one-run"
FILES = sorted(ONE_RUN.glob("*.jsonl"))

SAMPLE = 8
"""Recorded wins re-solved per file: the cheapest of each eighth of the file's deals."""


def records_of(path: Path) -> tuple[str, int, list[dict[str, Any]]]:
    """A file's variant, budget and records (``VARIANT-BUDGET[-BEAMS].jsonl``)."""
    variant = next(v for v in sorted(VARIANTS, key=len, reverse=True) if path.stem.startswith(v))
    budget = int(path.stem.removeprefix(variant + "-").split("-")[0])
    lines = path.read_text(encoding="utf-8").splitlines()
    return variant, budget, [json.loads(line) for line in lines]


def test_there_are_one_run_tables_of_both_second_redeal_variants_on_10_000_deals() -> None:
    """The issue's one run is `winrate` over deals 1..10000; the two variants with a second
    redeal have such a table."""
    tables = {records_of(path)[0]: len(records_of(path)[2]) for path in FILES}
    assert tables.get("second-redeal") == 10_000
    assert tables.get("second-redeal+round-the-corner") == 10_000


@pytest.mark.parametrize("path", FILES, ids=[path.stem for path in FILES])
def test_a_one_run_table_holds_each_deal_once_from_deal_1_with_the_solvers_answers(
    path: Path,
) -> None:
    _variant, budget, records = records_of(path)
    assert [record["deal"] for record in records] == list(range(1, len(records) + 1))
    assert {record["result"] for record in records} <= {"won", "lost", "unknown"}
    # An unknown deal spent its budget (the waiting game, last, may leave some of its share);
    # a decided one needed at most about that.
    for record in records:
        if record["result"] == "unknown":
            assert record["nodes"] >= (budget - budget // WAITING_SHARE) * 0.99, record
        assert record["nodes"] <= budget * 1.01, record


@pytest.mark.parametrize("path", FILES, ids=[path.stem for path in FILES])
def test_a_sample_of_a_one_run_tables_wins_are_won_again_with_lines_that_replay(
    path: Path,
) -> None:
    """Rule: a deal counts as won only with a line that replays through the engine to a won
    game. The cheapest recorded win of each eighth of the deals is solved again at the table's
    budget and its line replayed."""
    variant, budget, records = records_of(path)
    game = get_game("crazy-quilt", variant)
    size = len(records) // SAMPLE
    for part in range(SAMPLE):
        won = [r for r in records[part * size : (part + 1) * size] if r["result"] == "won"]
        cheapest = min(won, key=lambda record: record["nodes"])
        verdict = solve(cheapest["deal"], variant, node_budget=budget)
        assert verdict.result == "won", cheapest
        assert game.status(game.replay(cheapest["deal"], verdict.moves)) is Status.WON


def test_the_figures_lower_bound_counts_the_runs_wins_and_the_listed_deals_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Rule (the figure's black mark, *proven winnable*): a deal is proven winnable when the run
    won it (a line of ``solve``) or the stored list holds it (a line of any solver version), and
    counts once. The lists reach deal 1 594, so on deals beyond them only the run's wins count;
    a one-run file has no honest results, so the honest player's come from ``--honest``."""
    from bench.crazy_quilt_summary import main, proven_won

    records = [
        {"deal": 1, "result": "won", "nodes": 10, "seconds": 0.1},  # won and listed
        {"deal": 9, "result": "unknown", "nodes": 10, "seconds": 0.1},  # decided by no search
        {"deal": 113, "result": "unknown", "nodes": 10, "seconds": 0.1},  # a listed win missed
        {"deal": 20_000, "result": "won", "nodes": 10, "seconds": 0.1},  # beyond the lists
    ]
    assert proven_won("classic", records) == 3
    assert proven_won("classic", [{**records[3], "result": "unknown"}]) == 0
    run = tmp_path / "run.jsonl"
    run.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")
    honest = tmp_path / "honest.jsonl"
    honest.write_text(json.dumps({"deal": 1, "honest": "won", "honest_seconds": 0.2}) + "\n")
    assert main([f"classic={run}", "--honest", f"classic={honest}"]) == 0
    row = next(line for line in capsys.readouterr().out.splitlines() if "1–20000" in line)
    assert "| 2 — 50.0%" in row  # the run's wins
    assert "| 1 — 100.0%" in row  # the honest player's, from --honest
    assert "| 3 — 75.0%" in row  # proven won
