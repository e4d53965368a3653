"""``spielcenter speedquilt blocks`` and ``spielcenter speedquilt score``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spielcenter.cli import main
from spielcenter.cli.speedquilt import blocks_markdown
from spielcenter.games.speedquilt.catalogue import load_catalogue

DOCS = Path(__file__).resolve().parents[3] / "docs" / "speedquilt-blocks.md"


def write(tmp_path: Path, data: object) -> str:
    path = tmp_path / "quilt.json"
    path.write_text(json.dumps(data) if not isinstance(data, str) else data, encoding="utf-8")
    return str(path)


def test_blocks_lists_every_block_with_its_one_turn_chance(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["speedquilt", "blocks", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [b["id"] for b in listed] == [*load_catalogue().pattern_ids, *load_catalogue().kit_ids]
    assert all(0 <= b["one_turn_chance"] <= 1 for b in listed)
    needy = [b for b in listed if b["prefills_needed"]]
    assert needy and all(b["one_turn_chance"] == 0 for b in needy)


def test_blocks_as_text_shows_id_colour_and_chance(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["speedquilt", "blocks"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith("P01  red") and "%" in first


def test_the_docs_table_is_generated_from_the_catalogue() -> None:
    assert DOCS.read_text(encoding="utf-8") == blocks_markdown(load_catalogue())


def test_score_prints_each_blocks_reckoning_and_the_total(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # P01 (6 any any, per finished neighbour) beside P05 (1 1 any, fixed points).
    catalogue = load_catalogue()
    p01, p05 = catalogue.block("P01").scoring, catalogue.block("P05").scoring
    assert p01 is not None and p05 is not None
    quilt = {
        "blocks": [
            {"id": "P01", "cell": [0, 0], "filled": [6, 2, 3]},
            {"id": "P05", "cell": [1, 0], "filled": [1, 1, 5]},
        ]
    }
    assert main(["speedquilt", "score", write(tmp_path, quilt)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [
        f"P01 at (0, 0): finished_neighbour: 1 finished neighbour × {p01.points} = {p01.points}",
        f"P05 at (1, 0): fixed: {p05.points} points",
        f"total: {p01.points + p05.points} points; empty patches: 0",
    ]


def test_score_json_carries_the_breakdown(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    quilt = {"blocks": [{"id": "P01", "cell": [0, 0], "filled": [6, None, 3]}]}
    assert main(["speedquilt", "score", "--json", write(tmp_path, quilt)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["total"] == 0 and result["empty_patches"] == 1
    assert result["blocks"][0]["finished"] is False


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "is not JSON"),
        ({"quilt": []}, 'expected an object with a list "blocks"'),
        ({"blocks": [{"id": "P01", "cell": [0], "filled": [6, 1, 1]}]}, "cell must be two"),
        ({"blocks": [{"id": "P99", "cell": [0, 0], "filled": [1, 1, 1]}]}, "P99"),
        ({"blocks": [{"id": "P01", "cell": [0, 0], "filled": [5, 1, 1]}]}, "break its patches"),
        (
            {
                "blocks": [
                    {"id": "P01", "cell": [0, 0], "filled": [6, 1, 1]},
                    {"id": "P05", "cell": [0, 0], "filled": [1, 1, 1]},
                ]
            },
            "cell [0, 0] is taken",
        ),
    ],
)
def test_a_bad_quilt_file_gets_a_clear_error_and_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: object, message: str
) -> None:
    assert main(["speedquilt", "score", write(tmp_path, content)]) == 2
    captured = capsys.readouterr()
    assert message in captured.err and captured.out == ""


def test_a_missing_quilt_file_gets_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["speedquilt", "score", str(tmp_path / "nope.json")]) == 2
    assert "cannot read" in capsys.readouterr().err
