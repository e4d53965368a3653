"""Winnable deals only: the stored lists of proven deal numbers and ``spielcenter winnable``.

Issue 9: "an option that deals only numbers the solver has proven winnable (a stored list of
proven deal numbers per game and variant, grown by a command)".
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from spielcenter.cli import EXIT_BAD_INPUT, main
from spielcenter.games.base import variants_of
from spielcenter.solvers import winnable
from spielcenter.solvers.winnable import (
    NoWinnableListError,
    WinnableListError,
    list_path,
    proven_winnable,
    read_list,
    solve_deal,
    winnable_deals,
    write_list,
)

LISTS = sorted(winnable.DIRECTORY.glob("*.txt"))
SAMPLE = 5
BUDGETS = {"cruel": 2_000_000, "crazy-quilt": 1_000_000}
"""Budgets within which the solver wins the stored deals: Cruel's lists were grown with it, and
Crazy Quilt's last growth (deals 1–1000) too. Their deals 1001–1600 were grown by earlier
versions of the solver, whose search orders differ; the current one wins those again at
1 000 000 positions, and every listed deal of 1–1000 (docs/winrates.md)."""


def game_and_variant(path: Path) -> tuple[str, str]:
    """``cruel-classic.txt`` → ``("cruel", "classic")`` (the game is the longest name that fits)."""
    stem = path.stem
    game = next(name for name in ("crazy-quilt", "cruel") if stem.startswith(name + "-"))
    return game, stem[len(game) + 1 :]


@pytest.fixture
def lists_in(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The lists live in an empty directory of the test's own."""
    monkeypatch.setattr(winnable, "DIRECTORY", tmp_path)
    return tmp_path


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


# -- the stored lists ------------------------------------------------------------------------


def test_there_is_a_stored_list_for_every_cruel_variant():
    assert {game_and_variant(p) for p in LISTS} >= {("cruel", v) for v in variants_of("cruel")}


@pytest.mark.parametrize("path", LISTS, ids=lambda p: p.stem)
def test_a_stored_list_is_named_after_a_game_and_one_of_its_variants(path: Path):
    game, variant = game_and_variant(path)
    assert list_path(game, variant) == path


@pytest.mark.parametrize("path", LISTS, ids=lambda p: p.stem)
def test_a_stored_list_has_a_header_saying_how_it_was_made_then_rising_deal_numbers(path: Path):
    lines = path.read_text(encoding="utf-8").splitlines()
    game, variant = game_and_variant(path)
    assert lines[0].startswith("#")
    assert f"spielcenter winnable grow {game} --variant {variant}" in "\n".join(lines)
    numbers = [int(line) for line in lines if not line.startswith("#")]
    assert numbers == sorted(set(numbers))
    assert read_list(path) == tuple(numbers)


@pytest.mark.parametrize(
    ("variant", "least"), [("classic", 300), ("stuck", 300), ("perseverance", 300)]
)
def test_each_cruel_list_holds_at_least_300_deals(variant: str, least: int):
    assert len(winnable_deals("cruel", variant)) >= least


@pytest.mark.parametrize("path", LISTS, ids=lambda p: p.stem)
def test_a_random_sample_of_a_stored_list_is_won_by_the_solver(path: Path):
    game, variant = game_and_variant(path)
    deals = read_list(path)
    for deal in random.Random(path.stem).sample(deals, min(SAMPLE, len(deals))):
        assert proven_winnable(game, variant, deal, BUDGETS[game]), (game, variant, deal)


# -- reading a list --------------------------------------------------------------------------


def test_comment_lines_are_skipped_and_the_numbers_read_in_order(tmp_path: Path):
    path = write(tmp_path / "cruel-classic.txt", "# made by hand\n3\n# more\n17\n200\n")
    assert read_list(path) == (3, 17, 200)


@pytest.mark.parametrize(
    ("text", "line", "reason"),
    [
        ("# head\n3\nseven\n", 3, "'seven' is not a deal number"),
        ("# head\n3\n-4\n", 3, "not a deal number"),
        ("# head\n\n", 2, "'' is not a deal number"),
        ("5\n0\n", 2, "deal"),
        ("5\n5\n", 2, "5 does not come after 5"),
        ("5\n9\n7\n", 3, "7 does not come after 9"),
        ("#\n1 2\n", 2, "'1 2' is not a deal number"),
    ],
)
def test_a_bad_list_fails_naming_the_file_and_the_line(
    tmp_path: Path, text: str, line: int, reason: str
):
    path = write(tmp_path / "cruel-classic.txt", text)
    with pytest.raises(WinnableListError) as raised:
        read_list(path)
    assert f"{path}, line {line}" in str(raised.value)
    assert reason in str(raised.value)


def test_a_missing_list_reads_as_empty(tmp_path: Path):
    assert read_list(tmp_path / "cruel-classic.txt") == ()


def test_a_variant_without_proven_deals_has_no_winnable_deals(lists_in: Path):
    with pytest.raises(NoWinnableListError, match="no cruel stuck deal has been proven winnable"):
        winnable_deals("cruel", "stuck")


def test_the_winnable_deals_are_the_numbers_of_the_list(lists_in: Path):
    write(lists_in / "crazy-quilt-second-redeal.txt", "# head\n4\n8\n")
    assert winnable_deals("crazy-quilt", "second-redeal") == (4, 8)


@pytest.mark.parametrize(("game", "variant"), [("cruel", "backwards"), ("chess", "classic")])
def test_an_unknown_game_or_variant_has_no_list(game: str, variant: str):
    with pytest.raises(ValueError):
        list_path(game, variant)


def test_a_written_list_is_sorted_without_repeats_under_its_header(tmp_path: Path):
    path = tmp_path / "cruel-stuck.txt"
    write_list(path, "cruel", "stuck", [9, 2, 9, 5])
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# cruel stuck:")
    assert text.endswith("2\n5\n9\n")
    assert read_list(path) == (2, 5, 9)


def test_a_written_list_can_be_read_by_everyone(tmp_path: Path):
    path = tmp_path / "cruel-stuck.txt"
    write_list(path, "cruel", "stuck", [1])
    assert path.stat().st_mode & 0o444 == 0o444


def test_only_games_with_a_solver_have_winnable_deals():
    with pytest.raises(ValueError, match="no solver"):
        solve_deal("speedquilt", "solo", 1, 100)


# -- spielcenter winnable grow / list --------------------------------------------------------


def solver_wins(game: str, variant: str, deals: range) -> list[int]:
    """The deals of ``deals`` the solver wins (asked here, not hard-coded)."""
    return [
        deal for deal in deals if solve_deal(game, variant, deal, BUDGETS[game]).result == "won"
    ]


def test_grow_adds_exactly_the_deals_the_solver_wins(lists_in: Path, capsys):
    assert main(["winnable", "grow", "cruel", "--variant", "stuck", "--count", "8"]) == 0
    assert read_list(lists_in / "cruel-stuck.txt") == tuple(
        solver_wins("cruel", "stuck", range(1, 9))
    )
    assert "tried 8 (deals 1..8)" in capsys.readouterr().out


def test_grow_goes_on_after_the_last_listed_deal(lists_in: Path):
    write_list(lists_in / "cruel-classic.txt", "cruel", "classic", [3])
    assert main(["winnable", "grow", "cruel", "--count", "4", "--quiet"]) == 0
    expected = (3, *solver_wins("cruel", "classic", range(4, 8)))
    assert read_list(lists_in / "cruel-classic.txt") == expected


def test_grow_skips_deals_already_listed(lists_in: Path, capsys):
    write_list(lists_in / "cruel-classic.txt", "cruel", "classic", [2, 3])
    argv = ["winnable", "grow", "cruel", "--count", "3", "--start", "1", "--quiet"]
    assert main(argv) == 0
    assert "tried 3 (deals 1..5)" in capsys.readouterr().out


def test_grow_adds_nothing_the_solver_cannot_prove_in_its_budget(lists_in: Path):
    argv = ["winnable", "grow", "cruel", "--count", "5", "--budget", "1", "--quiet"]
    assert main(argv) == 0
    assert read_list(lists_in / "cruel-classic.txt") == ()


@pytest.mark.parametrize(
    "argv",
    [
        ["grow", "chess", "--count", "3"],
        ["grow", "speedquilt", "--count", "3"],
        ["grow", "cruel", "--variant", "backwards", "--count", "3"],
        ["grow", "cruel", "--count", "0"],
        ["grow", "cruel", "--count", "3", "--start", "0"],
        ["grow", "cruel", "--count", "3", "--budget", "-5"],
        ["grow", "cruel", "--count", "3", "--minutes", "0"],
        ["list", "cruel", "--variant", "backwards"],
    ],
)
def test_bad_input_is_refused_with_exit_2_and_changes_nothing(lists_in: Path, argv, capsys):
    assert main(["winnable", *argv]) == EXIT_BAD_INPUT
    assert capsys.readouterr().err.startswith("spielcenter: ")
    assert list(lists_in.iterdir()) == []


def test_grow_refuses_a_malformed_list_and_leaves_it_alone(lists_in: Path, capsys):
    path = write(lists_in / "cruel-classic.txt", "# head\n4\n2\n")
    assert main(["winnable", "grow", "cruel", "--count", "2", "--quiet"]) == EXIT_BAD_INPUT
    assert "line 3" in capsys.readouterr().err
    assert path.read_text(encoding="utf-8") == "# head\n4\n2\n"


def test_list_prints_the_count_and_the_range(lists_in: Path, capsys):
    write_list(lists_in / "cruel-perseverance.txt", "cruel", "perseverance", [5, 12, 40])
    assert main(["winnable", "list", "cruel", "--variant", "perseverance"]) == 0
    assert capsys.readouterr().out == "cruel perseverance: 3 proven winnable deals, 5..40\n"


def test_list_says_so_when_there_are_none(lists_in: Path, capsys):
    assert main(["winnable", "list", "crazy-quilt", "--variant", "round-the-corner"]) == 0
    assert "no proven winnable deals yet" in capsys.readouterr().out
