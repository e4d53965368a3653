"""The stored lists of deal numbers the solvers have proven winnable ("winnable deals only").

One file per game and variant, ``winnable/<game>-<variant>.txt`` next to this module: comment
lines start with ``#`` (the header says how the list was made); every other line is one deal
number followed by its proof, a winning line in the game's move notation (moves separated by
spaces), and the numbers rise strictly from line to line. ``spielcenter winnable grow`` adds to
them; every line in them was found by a solver and replayed through the engine to a won game
before it was written, and the tests replay them all again.

The proof is stored, not just the number, so that a deal stays proven whichever solver found it:
a later solver may search in another order and miss a deal an earlier one won (every Crazy Quilt
solver change did), and a list of numbers alone could then only be checked by solving again.

The I/O here is the lists' files: reading them (:func:`read_proofs`; a malformed file fails
with :class:`WinnableListError` naming the file and the line) and writing them
(:func:`write_list`, :func:`add_proof`: the whole file replaced at once, under a lock). Which
solver proves a deal comes from :mod:`spielcenter.solvers.registry`.
"""

from __future__ import annotations

import fcntl
import os
import tempfile
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from functools import cache
from pathlib import Path

from spielcenter.games.base import GameError, Status, canonical_name, get_game, variants_of
from spielcenter.games.shuffle import DealNumberError, check_deal

from .crazy_quilt import start_state
from .crazy_quilt_beam import run_beams
from .crazy_quilt_position import position_of
from .registry import solver_of
from .verdict import Verdict

DIRECTORY = Path(__file__).with_name("winnable")
"""Where the lists live (shipped with the package)."""


Proofs = dict[int, tuple[str, ...]]
"""A list's deals, rising, each with its winning line."""


class WinnableListError(ValueError):
    """A list file that is not one rising deal number and its winning line a line (the message
    names the file and the line)."""


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


def read_proofs(path: Path) -> Proofs:
    """The deals in ``path`` with their winning lines, rising (empty when there is no file).

    Raises :class:`WinnableListError` for a line that does not start with a deal number, has
    no moves after it, or does not rise above the one before it. The moves are not checked
    here (that is replaying them, which the tests and the commands that write lists do).
    """
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    proofs: Proofs = {}
    previous = 0
    for number, line in enumerate(text.splitlines(), start=1):
        entry = line.strip()
        if entry.startswith("#"):
            continue
        first, *moves = entry.split() or [""]
        previous = _deal_of(first, path, number, previous)
        if not moves:
            raise WinnableListError(f"{path}, line {number}: deal {previous} has no winning line")
        proofs[previous] = tuple(moves)
    return proofs


def read_list(path: Path) -> tuple[int, ...]:
    """The deal numbers in ``path``, rising (see :func:`read_proofs`)."""
    return tuple(read_proofs(path))


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
        f"# {name} {variant}: deals proven winnable, one a line, rising: the deal number,\n"
        "# then a winning line in the game's move notation (the proof).\n"
        f"# Made by `spielcenter winnable grow {name} --variant {variant}` (or by a win-rate\n"
        "# bench with --add-winnable, which makes the same check): each deal was solved\n"
        "# by one of Spielcenter's solvers to a winning line, and that line was replayed\n"
        "# through the game engine to a won game before it was added.\n"
    )


def write_list(path: Path, game: str, variant: str, proofs: Mapping[int, Sequence[str]]) -> None:
    """Write ``proofs`` (deal → winning line), sorted by deal, under the list's header,
    replacing the file at once so that a reader never sees half a list."""
    for deal, moves in proofs.items():
        if not moves or any(not move or move.split() != [move] for move in moves):
            raise ValueError(f"deal {deal}: a winning line is one or more moves without spaces")
    body = "".join(f"{deal} {' '.join(proofs[deal])}\n" for deal in sorted(proofs))
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


def add_proof(path: Path, game: str, variant: str, deal: int, moves: Sequence[str]) -> bool:
    """Add ``deal`` with its winning line to the list at ``path`` unless it is there already;
    whether it was added. The list is read again under a lock first, so that two runs growing
    the same list at once (one a core) both keep their wins: each would otherwise write back
    the list it read at its start, without the other's new deals."""
    with _locked(path.parent):
        proofs = read_proofs(path)
        if deal in proofs:
            return False
        write_list(path, game, variant, {**proofs, deal: tuple(moves)})
        return True


@contextmanager
def _locked(directory: Path) -> Iterator[None]:
    """Hold an exclusive lock on ``directory`` (the lists' own folder: a lock file beside the
    list would be swapped out by the list's own replacement, or left behind)."""
    directory.mkdir(parents=True, exist_ok=True)
    handle = os.open(directory, os.O_RDONLY)
    try:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield
    finally:
        os.close(handle)  # closing releases the lock


def solve_deal(
    game: str,
    variant: str,
    deal: int,
    node_budget: int,
    time_budget: float | None = None,
    *,
    beams: str | None = None,
) -> Verdict:
    """The solver's verdict on ``deal`` of ``game`` (Cruel or Crazy Quilt) in ``variant``; with
    ``beams`` (one of :data:`~spielcenter.solvers.crazy_quilt.BEAMS`, e.g. ``restarts``), the
    verdict of those Crazy Quilt beams alone
    (:func:`~spielcenter.solvers.crazy_quilt_beam.run_beams`) instead of the solver's."""
    name = canonical_name(game)
    if beams is not None and name != "crazy-quilt":
        raise ValueError(f"{name}: the beams ({beams}) are Crazy Quilt's (not {name}'s)")
    solver = solver_of(name)
    if solver is None:
        raise ValueError(f"{name}: no solver, so no winnable deals (only cruel and crazy-quilt)")
    if beams is not None:
        return _beams_alone(beams, deal, variant, node_budget, time_budget)
    return solver.solve(deal, variant, node_budget=node_budget, time_budget=time_budget)


def _beams_alone(
    beams: str, deal: int, variant: str, node_budget: int, time_budget: float | None
) -> Verdict:
    deadline = None if time_budget is None else time.monotonic() + time_budget
    position = position_of(start_state(deal, variant))
    return run_beams(beams, position, node_budget=node_budget, deadline=deadline)


def replays_to_won(game: str, variant: str, deal: int, moves: Iterable[str]) -> bool:
    """Whether ``moves``, played through the engine from the start of ``deal``, win it."""
    engine = get_game(game, variant)
    return engine.status(engine.replay(deal, moves)) is Status.WON


def proven_line(
    game: str,
    variant: str,
    deal: int,
    node_budget: int,
    time_budget: float | None = None,
    *,
    beams: str | None = None,
) -> tuple[str, ...] | None:
    """The solver's winning line for ``deal`` when it finds one within its budget and the line
    replays to a won game (the test every deal passes before it joins a list), else ``None``.
    ``beams``: search with those Crazy Quilt beams alone (see :func:`solve_deal`)."""
    verdict = solve_deal(game, variant, deal, node_budget, time_budget, beams=beams)
    if verdict.result == "won" and replays_to_won(game, variant, deal, verdict.moves):
        return tuple(verdict.moves)
    return None
