"""``spielcenter speedquilt verify FILE``: a saved replay checked without a server (issue 37)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from spielcenter.bots.tournament import play_game
from spielcenter.cli import main
from spielcenter.games.seeds import SecretSeed, commitment
from spielcenter.services.history import speedquilt_steps

from .engine_helpers import game

SEED = SecretSeed(bytes.fromhex("c0ffee00" * 8))


@pytest.fixture(scope="module")
def replay() -> dict[str, Any]:
    """A finished two-seat game as ``/api/my-tables/{id}/replay`` sends it to seat 0."""
    log = play_game(["easy", "easy"], SEED).moves  # type: ignore[arg-type]
    fairness = {"commitment": commitment(SEED), "seed": SEED.hex()}
    steps = speedquilt_steps(game(2), SEED, log, 0)
    return {"table": {"id": "t1", "fairness": fairness}, "steps": steps}


def _run(tmp_path: Path, data: Any, *flags: str) -> int:
    path = tmp_path / "replay.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return main(["speedquilt", "verify", str(path), *flags])


def test_a_fair_replay_says_so_with_what_was_checked(
    tmp_path: Path, replay: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    assert _run(tmp_path, replay) == 0
    out = capsys.readouterr().out
    assert out.startswith(
        f"Fair: the seed revealed at the end matches the commitment {commitment(SEED)[:12]}"
    )
    assert " rolls (" in out and " draws as shown follow from it." in out


def test_an_unfair_replay_names_each_fault_and_exits_1(
    tmp_path: Path, replay: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    bad = json.loads(json.dumps(replay))
    bad["table"]["fairness"]["seed"] = SecretSeed(bytes(32)).hex()
    assert _run(tmp_path, bad) == 1
    out = capsys.readouterr().out
    assert out.startswith("NOT FAIR") and "does not match the commitment" in out


@pytest.mark.parametrize(
    ("fairness", "why"),
    [
        (None, "chosen deal number"),
        ({"commitment": "ab" * 32, "seed": None}, "seed stays secret until the end"),
        ({"commitment": "ab" * 32, "seed": "xyz"}, "not valid"),
    ],
)
def test_what_cannot_be_checked_is_refused_with_exit_2(
    tmp_path: Path,
    replay: dict[str, Any],
    capsys: pytest.CaptureFixture[str],
    fairness: dict[str, Any] | None,
    why: str,
) -> None:
    assert _run(tmp_path, {**replay, "table": {"id": "t1", "fairness": fairness}}) == 2
    assert why in capsys.readouterr().err


def test_a_file_that_is_not_a_replay_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _run(tmp_path, "{not json") == 2
    assert "not JSON" in capsys.readouterr().err
    assert _run(tmp_path, {"steps": "none"}) == 2
    assert main(["speedquilt", "verify"]) == 2
    assert "either a replay FILE or --table ID" in capsys.readouterr().err
