"""The compiled solvers (mypyc, :mod:`spielcenter.native`): used when current, never when stale,
and answering exactly as the plain Python source does."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from spielcenter import native
from spielcenter.games.crazy_quilt import make
from spielcenter.solvers import crazy_quilt, cruel
from spielcenter.solvers.crazy_quilt_position import position_of
from spielcenter.solvers.crazy_quilt_waiting import decide_waiting

NOT_BUILT = (
    "compiled solvers not built: run `make install` or `uv run python -m spielcenter.native build`"
)
needs_build = pytest.mark.skipif(not (native.BUILD / "manifest.json").is_file(), reason=NOT_BUILT)
"""A fresh clone has no build yet: these tests skip and say so. A build that exists but is stale
(a solver edited since) still fails them: it would otherwise run instead of the source."""


@needs_build
def test_the_tests_run_the_compiled_solvers_that_production_runs() -> None:
    # make install compiles the search modules; a build of other sources would be ignored and
    # these tests would check plain Python instead of what the server runs.
    assert native.up_to_date(), "the compiled solvers are missing or stale: run make install"
    assert native.active()
    assert crazy_quilt.__file__ is not None and crazy_quilt.__file__.startswith(str(native.BUILD))


@pytest.fixture
def build_copy(tmp_path: Path) -> Path:
    if not (native.BUILD / "manifest.json").is_file():
        pytest.skip(NOT_BUILT)
    assert native.up_to_date(), "the compiled solvers are missing or stale: run make install"
    copy = tmp_path / "native"
    shutil.copytree(native.BUILD, copy)
    return copy


def test_a_current_build_goes_first_on_the_package_path(build_copy: Path) -> None:
    path = ["src/spielcenter/solvers"]
    assert native.activate(path, build_copy)
    assert path == [str(build_copy / "spielcenter" / "solvers"), "src/spielcenter/solvers"]


def test_a_build_of_an_edited_source_is_never_used(build_copy: Path) -> None:
    # A solver edited since the build must run as the new source, not as its old compiled form.
    manifest = json.loads((build_copy / "manifest.json").read_text())
    manifest["sources"]["solvers/crazy_quilt.py"] = "0" * 64
    (build_copy / "manifest.json").write_text(json.dumps(manifest))
    path = ["src/spielcenter/solvers"]
    assert not native.activate(path, build_copy)
    assert path == ["src/spielcenter/solvers"]


def test_a_build_without_its_manifest_is_never_used(build_copy: Path) -> None:
    (build_copy / "manifest.json").unlink()
    assert not native.up_to_date(build_copy)
    assert not native.activate([], build_copy)


def test_the_pure_switch_turns_the_build_off(
    build_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(native.PURE_SWITCH, "1")
    path: list[str] = []
    assert not native.activate(path, build_copy)
    assert path == []


SOLVED = (
    ("crazy-quilt", "classic", 6, 40_000),  # a win the beams find
    ("crazy-quilt", "second-redeal", 3, 20_000),
    ("crazy-quilt", "round-the-corner", 2, 20_000),  # out of budget
    ("cruel", "classic", 5, 50_000),
    ("cruel", "perseverance", 1, 20_000),
)
WAITING = (
    ("classic", 2, "H", 20_000),  # won
    ("round-the-corner", 9, "SD", 20_000),
    ("classic", 862, "D", 20_000),  # out of budget
)
"""Waiting games (:mod:`spielcenter.solvers.crazy_quilt_waiting`, compiled since issue 41)."""


def _in_plain_python(answers: str) -> object:
    """What this module's function ``answers`` returns in a new interpreter told to ignore the
    build (``SPIELCENTER_PURE_PYTHON=1``): the same source run as plain Python."""
    script = (
        "import json, sys; sys.path.insert(0, 'tests/unit'); import test_native as t; "
        "from spielcenter import native; assert not native.active(); "
        f"print(json.dumps(t.{answers}()))"
    )
    environment = {**os.environ, native.PURE_SWITCH: "1"}
    output = subprocess.run(
        [sys.executable, "-c", script],
        env=environment,
        check=True,
        capture_output=True,
        text=True,
        cwd=native.ROOT,
    ).stdout
    return json.loads(output)


def _solved_in_this_process() -> list[list[object]]:
    answers: list[list[object]] = []
    for game, variant, deal, budget in SOLVED:
        solve = crazy_quilt.solve if game == "crazy-quilt" else cruel.solve
        verdict = solve(deal, variant, node_budget=budget)
        answers.append([verdict.result, verdict.nodes, verdict.moves])
    for variant, deal, suits, budget in WAITING:
        verdict = decide_waiting(position_of(make(variant).start(deal)), suits, budget)
        answers.append([verdict.result, verdict.nodes, verdict.moves])
    return answers


@needs_build
def test_compiled_and_plain_python_solvers_answer_alike() -> None:
    # The budgets count positions, not seconds, so the same source must give the same verdicts,
    # positions and lines whichever way it runs.
    assert native.active(), "the compiled solvers are missing or stale: run make install"
    assert _in_plain_python("_solved_in_this_process") == _solved_in_this_process()


def _relaxed_games_in_this_process() -> list[list[object]]:
    """The last pass's relaxed game (its answer and positions), the waste check ``buried`` and
    the assignment search (its answer and nodes) on random positions: their compiled form
    computes in 64-bit machine integers (``i64``)."""
    import random

    from spielcenter.games.cards import ACE, KING
    from spielcenter.solvers.crazy_quilt_last_pass import (
        WON_PACKED,
        _head,
        buried,
        relaxed_possible,
    )
    from spielcenter.solvers.crazy_quilt_relaxed import clearable

    rng = random.Random(41)
    answers: list[list[object]] = []
    for _ in range(80):
        # One to three suits open at a rank (both foundations waiting for it), every other suit
        # founded; their cards left split between the quilt, the waste and the stock.
        up, down, loose = [KING] * 4, [ACE] * 4, []
        for suit in rng.sample(range(4), rng.randint(1, 3)):
            rank = rng.randint(ACE + 2, KING - 2)
            up[suit], down[suit] = rank - 1, rank + 1
            loose += [suit * 16 + r for r in (*range(rank, KING + 1), *range(ACE, rank + 1))]
        rng.shuffle(loose)
        fnd = (*up, *down)
        quilt, pile = bytes(loose[:8]), loose[8:]
        turned = rng.randint(0, len(pile))
        waste, stock = bytes(pile[:turned]), bytes(pile[turned:])
        left = rng.randint(0, 1)
        possible, positions = relaxed_possible(waste, stock, quilt, fnd, left, 300)
        answers.append([possible, positions, *clearable(waste, stock, fnd, left, 50)])
        answers.append([buried(code, waste, fnd) for code in stock])
    # The relaxed game's positions are told apart by one number for redeals left, cards turned
    # and packed foundations (32 bits): it must be a different one for each of them.
    answers.append(
        [
            _head(left, pushed, fnd)
            for left in (0, 1, 2)
            for pushed in (0, 1, 103, 104)
            for fnd in (0, 1, WON_PACKED, 2**31, 2**32 - 1)
        ]
    )
    return answers


@needs_build
def test_compiled_and_plain_python_relaxed_games_answer_alike() -> None:
    # The relaxed games keep foundations and masks of card codes in i64 numbers when compiled (a
    # shift written with a literal 1 on its left once computed in 32 bits there): every answer
    # and count must be the plain Python one, on positions of every suit and rank.
    assert native.active(), "the compiled solvers are missing or stale: run make install"
    compiled = _relaxed_games_in_this_process()
    assert _in_plain_python("_relaxed_games_in_this_process") == compiled
    heads = compiled[-1]
    assert len(set(heads)) == len(heads) == 60
    games = compiled[:-1:2]
    assert {game[0] for game in games} == {True, False} == {game[2] for game in games}


def _no_compiler(*_args: object, **_kwargs: object) -> None:
    raise SystemExit("mypyc was asked to compile")


def test_a_fresh_checkout_copies_the_machines_build_of_the_same_sources(
    build_copy: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A fresh clone of code this machine has built before (CI's clone of main) takes the build
    # from the cache instead of a minute of gcc; mypyc is not even asked.
    import mypyc.build

    monkeypatch.setattr(mypyc.build, "mypycify", _no_compiler)
    cache = tmp_path / "cache"
    native._copy_build(build_copy, native._cached(native._fingerprint(), cache))
    fresh = tmp_path / "fresh"
    assert native.build(fresh, quiet=True, cache=cache) is False
    assert native.up_to_date(fresh)
    modules = sorted(p.name for p in (build_copy / "spielcenter" / "solvers").iterdir())
    assert sorted(p.name for p in (fresh / "spielcenter" / "solvers").iterdir()) == modules
    path: list[str] = []
    assert native.activate(path, fresh)


def test_the_cache_never_gives_a_build_of_other_sources_or_without_its_manifest(
    build_copy: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import mypyc.build

    monkeypatch.setattr(mypyc.build, "mypycify", _no_compiler)
    cache = tmp_path / "cache"
    kept = native._cached(native._fingerprint(), cache)
    native._copy_build(build_copy, kept)
    (kept / "manifest.json").unlink()  # a copy that was cut short
    with pytest.raises(RuntimeError, match="asked to compile"):
        native.build(tmp_path / "fresh", quiet=True, cache=cache)
    manifest = json.loads((build_copy / "manifest.json").read_text())
    manifest["sources"]["solvers/crazy_quilt.py"] = "0" * 64  # a build of an older solver
    (build_copy / "manifest.json").write_text(json.dumps(manifest))
    shutil.rmtree(kept)
    native._copy_build(build_copy, kept)
    with pytest.raises(RuntimeError, match="asked to compile"):
        native.build(tmp_path / "fresh", quiet=True, cache=cache)
    assert not native.up_to_date(tmp_path / "fresh")
