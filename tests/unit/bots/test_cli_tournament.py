"""``spielcenter speedquilt tournament``: bots against each other from the command line."""

from __future__ import annotations

import json

import pytest

from spielcenter.cli import main


def test_the_tournament_prints_rates_scores_and_timings_per_player(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ["speedquilt", "tournament", "--players", "strong,easy", "--games", "2", "--seed", "9"]
    assert main([*args, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [e["level"] for e in report["entrants"]] == ["strong", "easy"]
    for entrant in report["entrants"]:
        assert entrant["games"] == 2
        low, high = entrant["win_rate_95"]
        assert low <= entrant["win_rate"] <= high
        assert entrant["decisions"] > 0
        assert (
            0 < entrant["time_ms"]["p50"] <= entrant["time_ms"]["p95"] <= entrant["time_ms"]["max"]
        )
    assert sum(e["wins"] for e in report["entrants"]) == pytest.approx(2)


def test_one_entrant_plays_solo_games(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["speedquilt", "tournament", "--players", "easy", "--games", "1"]) == 0
    out = capsys.readouterr().out
    assert "easy" in out and "mean score" in out and "wins" not in out


@pytest.mark.parametrize(
    ("players", "games", "message"),
    [
        ("strong,grandmaster", "2", "unknown computer player 'grandmaster'"),
        ("easy,easy,easy,easy,easy", "2", "1 to 4 players"),
        ("easy", "0", "--games must be at least 1"),
    ],
)
def test_bad_input_is_a_clear_error_with_status_2(
    capsys: pytest.CaptureFixture[str], players: str, games: str, message: str
) -> None:
    args = ["speedquilt", "tournament", "--players", players, "--games", games]
    assert main(args) == 2
    assert message in capsys.readouterr().err
