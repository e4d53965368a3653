"""``spielcenter speedquilt review --moves FILE`` (issue 42): a finished game's decisions judged,
as text for people and JSON for scripts; what cannot be reviewed is refused with status 2."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from typing import Any

import pytest

from spielcenter.bots.tournament import play_game
from spielcenter.cli import main

DEAL = 10


@pytest.fixture(scope="module")
def solo_game() -> dict[str, Any]:
    """A finished solo game of the easy player (a quick one), as a moves file holds it."""
    played = play_game(["easy"], DEAL, variant="solo")
    return {"variant": "solo", "deal": DEAL, "moves": [list(m) for m in played.moves]}


def _saved(tmp_path: Path, data: Any) -> str:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def _review(*args: str) -> tuple[str, int]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(["speedquilt", "review", *args])
    return out.getvalue(), status


def test_json_for_scripts_lists_every_decision_of_hers_with_the_summary(
    solo_game: dict[str, Any], tmp_path: Path
) -> None:
    text, status = _review("--moves", _saved(tmp_path, solo_game), "--json")
    assert status == 0
    reviewed = json.loads(text)
    assert reviewed["seat"] == 0 and reviewed["decisions"]
    assert set(reviewed["summary"]["left"]) >= {"rerolls", "giving", "buying", "sewing"}
    for n in reviewed["summary"]["costliest"]:
        assert reviewed["decisions"][n]["verdict"] in ("inaccuracy", "mistake")


def test_text_for_people_names_the_score_and_the_points_left(
    solo_game: dict[str, Any], tmp_path: Path
) -> None:
    text, status = _review("--moves", _saved(tmp_path, solo_game))
    assert status == 0
    first, second = text.splitlines()[:2]
    assert first.startswith("Seat 0: ") and "decisions" in first
    assert second.startswith("Expected points left on the table")


def test_the_lines_bench_bots_writes_are_read_as_well(
    solo_game: dict[str, Any], tmp_path: Path
) -> None:
    line = {"seed": DEAL, "variant": "solo", "levels": ["easy"], "moves": solo_game["moves"]}
    assert _review("--moves", _saved(tmp_path, line), "--json")[1] == 0


def test_what_cannot_be_reviewed_is_refused_with_a_clear_error(
    solo_game: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    running = {**solo_game, "moves": solo_game["moves"][:-1]}
    assert _review("--moves", _saved(tmp_path, running))[1] == 2
    assert "not over" in capsys.readouterr().err
    assert _review("--moves", _saved(tmp_path, solo_game), "--seat", "1")[1] == 2
    assert "no seat 1" in capsys.readouterr().err
    assert _review("--moves", _saved(tmp_path, {"deal": DEAL}))[1] == 2
    assert 'list "moves"' in capsys.readouterr().err
    bad = {**solo_game, "moves": [[0, "sew nothing"], *solo_game["moves"]]}
    assert _review("--moves", _saved(tmp_path, bad))[1] == 2
    assert "entry 1 does not replay" in capsys.readouterr().err
    assert _review("--moves", str(tmp_path / "missing.json"))[1] == 2
