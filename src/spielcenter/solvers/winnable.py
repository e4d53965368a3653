"""The stored lists of deal numbers the solvers have proven winnable ("winnable deals only").

One file per game and variant, ``winnable/<game>-<variant>.txt`` next to this module: comment
lines start with ``#`` (the header says how the list was made), every other line is one deal
number, and the numbers rise strictly from line to line. ``spielcenter winnable grow`` adds to
them; every number in them was solved to a won game whose winning line replayed through the
engine.

Reading a list is the only I/O here; a malformed file fails with :class:`WinnableListError`
naming the file and the line.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable
from functools import cache
from pathlib import Path

from spielcenter.games.base import GameError, Status, canonical_name, get_game, variants_of
from spielcenter.games.shuffle import DealNumberError, check_deal

from .cruel import Verdict

DIRECTORY = Path(__file__).with_name("winnable")
"""Where the lists live (shipped with the package)."""


class WinnableListError(ValueError):
    """A list file that is not one rising deal number a line (the message names file and line)."""


class NoWinnableListError(LookupError):
    """No deal of this game and variant has been proven winnable yet (no list, or an empty one)."""


def list_path(game: str, variant: str, directory: Path | None = None) -> Path:
    """The file of ``game`` and ``variant``; raises ``ValueError`` for an unknown one."""
    try:
        name = canonical_name(game)
    except GameError as exc:
        raise ValueError(str(exc)) from None
    if variant not in variants_of(name):
        raise ValueError(
            f"{name} has no variant {variant!r}; its variants: {', '.join(variants_of(name))}"
        )
    return (directory or DIRECTORY) / f"{name}-{variant}.txt"


def read_list(path: Path) -> tuple[int, ...]:
    """The deal numbers in ``path`` (an empty tuple when the file does not exist).

    Raises :class:`WinnableListError` for a line that is not a deal number or does not rise
    above the one before it.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return ()
    deals: list[int] = []
    for number, line in enumerate(text.splitlines(), start=1):
        entry = line.strip()
        if entry.startswith("#"):
            continue
        deals.append(_deal_of(entry, path, number, deals[-1] if deals else 0))
    return tuple(deals)


def _deal_of(entry: str, path: Path, number: int, previous: int) -> int:
    where = f"{path}, line {number}"
    if not entry.isdigit() or not entry.isascii():
        raise WinnableListError(f"{where}: {entry!r} is not a deal number")
    try:
        deal = check_deal(int(entry))
    except DealNumberError as exc:
        raise WinnableListError(f"{where}: {exc}") from None
    if deal <= previous:
        raise WinnableListError(f"{where}: {deal} does not come after {previous} (keep it sorted)")
    return deal


@cache
def _cached(path: Path) -> tuple[int, ...]:
    return read_list(path)


def winnable_deals(game: str, variant: str) -> tuple[int, ...]:
    """The proven winnable deals of ``game`` in ``variant``, rising (read once, then cached).

    Raises :class:`NoWinnableListError` when there are none, ``ValueError`` for an unknown game
    or variant, and :class:`WinnableListError` for a malformed file.
    """
    path = list_path(game, variant)
    deals = _cached(path)
    if not deals:
        raise NoWinnableListError(
            f"no {canonical_name(game)} {variant} deal has been proven winnable yet"
        )
    return deals


def header(game: str, variant: str) -> str:
    """The comment that heads a list: what it holds and how it was made."""
    name = canonical_name(game)
    return (
        f"# {name} {variant}: deal numbers proven winnable, one a line, rising.\n"
        f"# Made by `spielcenter winnable grow {name} --variant {variant}` (or by a win-rate\n"
        "# bench with --add-winnable, which makes the same check): each deal was solved\n"
        "# by Spielcenter's solver to a winning line, and that line was replayed through the\n"
        "# game engine to a won game before the number was added.\n"
    )


def write_list(path: Path, game: str, variant: str, deals: Iterable[int]) -> None:
    """Write ``deals`` (sorted, without repeats) under the list's header, replacing the file
    at once so that a reader never sees half a list."""
    body = "".join(f"{deal}\n" for deal in sorted(set(deals)))
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(header(game, variant) + body)
        os.chmod(temporary, 0o644)  # mkstemp makes it private; the list is shipped data
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    _cached.cache_clear()


def solve_deal(
    game: str, variant: str, deal: int, node_budget: int, time_budget: float | None = None
) -> Verdict:
    """The solver's verdict on ``deal`` of ``game`` (Cruel or Crazy Quilt) in ``variant``."""
    name = canonical_name(game)
    if name == "cruel":
        from . import cruel

        return cruel.solve(deal, variant, node_budget=node_budget, time_budget=time_budget)
    if name == "crazy-quilt":
        from . import crazy_quilt

        return crazy_quilt.solve(deal, variant, node_budget=node_budget, time_budget=time_budget)
    raise ValueError(f"{name}: no solver, so no winnable deals (only cruel and crazy-quilt)")


def replays_to_won(game: str, variant: str, deal: int, moves: Iterable[str]) -> bool:
    """Whether ``moves``, played through the engine from the start of ``deal``, win it."""
    engine = get_game(game, variant)
    return engine.status(engine.replay(deal, moves)) is Status.WON


def proven_winnable(
    game: str, variant: str, deal: int, node_budget: int, time_budget: float | None = None
) -> bool:
    """Whether the solver finds a win for ``deal`` within its budget and the line replays to
    a won game (the test every number passes before it joins a list)."""
    verdict = solve_deal(game, variant, deal, node_budget, time_budget)
    return verdict.result == "won" and replays_to_won(game, variant, deal, verdict.moves)
