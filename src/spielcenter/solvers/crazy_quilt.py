"""The Crazy Quilt solver: decides whether a Crazy Quilt position can be won, knowing the stock.

:func:`solve` decides a deal or an engine state, in all four variants. It returns a winning line
in the engine's move notation (``e4u``, ``wd``, ``s``, ``r`` …; every line replays through
:mod:`spielcenter.games.crazy_quilt`), proves that none exists (``lost`` is only answered once
the whole reachable space was searched, or a smaller game that every line maps onto was), or
gives up when its node budget is spent (``unknown``), as a
:class:`~spielcenter.solvers.verdict.Verdict`.

It runs, in this order, each within a share of one budget (each reduction is sound; the
reasoning is in ``docs/winrates-crazy-quilt.md``):

0. **Knots** (:mod:`~spielcenter.solvers.crazy_quilt_knots`), free of the budget: quilt cards
   that each wait for another of them to leave first never leave, so the position is ``lost``.
1. **The honest player** (:mod:`~spielcenter.solvers.crazy_quilt_honest`): any winning line
   proves ``won``, and its game often is one.
2. **Suits alone** (:mod:`~spielcenter.solvers.crazy_quilt_suits`): each suit's cards follow the
   rules, the other suits' quilt cards are *ghosts* that leave as soon as they are available.
   Every line of the deal is a line of that smaller game, so a smaller game searched to the end
   without a win proves the deal ``lost`` (classic deal 175: its diamonds cannot all be founded).
3. **Beams** over the passes before the last (:mod:`~spielcenter.solvers.crazy_quilt_beam`),
   15/16 of the budget: they revisit the early choices a depth-first search leaves for last
   (docs/winrates-crazy-quilt.md holds the measurement). By default the *eager restarts*: the
   narrow widening beams, then narrow and wide restarts, most of them founding the quilt's
   independent cards at once, with checks that give up sooner and no beam backing up, so that
   the budget runs many beams.
4. **The exhaustive search** (:mod:`~spielcenter.solvers.crazy_quilt_search`): a plain one gets a
   quarter of what is left, then the search with the check across the redeal the rest, skipping
   what the plain one searched to the end.
5. **The waiting game** (:mod:`~spielcenter.solvers.crazy_quilt_waiting`), only when all of the
   above left the position undecided, with the last 1/40 of the budget: one suit's cards (then
   two suits') follow the rules and the other suits' quilt cards wait until a foundation or a
   card one rank away could take them. Every line of the deal is a line of that smaller game,
   so a lost one proves the deal ``lost`` (classic deal 728: its diamonds, 4 275 positions;
   deal 9: its diamonds and clubs, 20 864; deal 348: its spades and clubs, 28 676). Asked last, it
   changes no answer the steps before give and costs only the deals they leave undecided.

The position it searches is the compact one of :mod:`~spielcenter.solvers.crazy_quilt_position`;
the dead ends it prunes are in :mod:`~spielcenter.solvers.crazy_quilt_last_pass` and
:mod:`~spielcenter.solvers.crazy_quilt_relaxed`.

Pure: no clock unless a ``time_budget`` is given, no I/O, no randomness.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Final

from spielcenter.games.base import Status
from spielcenter.games.crazy_quilt import VARIANTS, QuiltState, is_won, make
from spielcenter.games.shuffle import check_deal
from spielcenter.solvers.crazy_quilt_beam import BEAMS, run_beams
from spielcenter.solvers.crazy_quilt_honest import play_from
from spielcenter.solvers.crazy_quilt_knots import knot_proof
from spielcenter.solvers.crazy_quilt_position import position_of
from spielcenter.solvers.crazy_quilt_search import DEFAULT_NODE_BUDGET, decide
from spielcenter.solvers.crazy_quilt_suits import lost_alone
from spielcenter.solvers.crazy_quilt_waiting import lost_waiting_in_rounds
from spielcenter.solvers.verdict import OutOfBudget, Verdict

__all__ = ["BEAMS", "DEFAULT_NODE_BUDGET", "Verdict", "solve", "start_state"]


BEAM_SHARE: Final = 15
""":func:`solve` gives the beams (:mod:`spielcenter.solvers.crazy_quilt_beam`) 15/16 of its
budget, after the honest player's trial (3/4 until 2026-12-06: the depth-first searches after
them decided none of the 418 deals of that day's samples, and the beams with their share won
more; docs/winrates-crazy-quilt.md, *One run as a user runs it*)."""

BEAM_PARTS: Final = 16
"""The parts of the budget :data:`BEAM_SHARE` counts."""

SUITS_SHARE: Final = 20
""":func:`solve` gives the suits alone (:mod:`spielcenter.solvers.crazy_quilt_suits`) 1/20 of its
budget, shared by the four suits, after the honest player's trial."""

PLAIN_SHARE: Final = 4
""":func:`solve` gives a plain search (no check across the redeal) 1/4 of what the beams left."""

WAITING_SHARE: Final = 40
""":func:`solve` keeps 1/40 of its budget for the waiting game
(:mod:`spielcenter.solvers.crazy_quilt_waiting`), within the budget: the exhaustive searches
after the beams leave it, and it is asked only when every step before left the position
undecided. At the command line's 5 000 000 positions (``DEFAULT_BUDGETS``) that is 125 000:
classic deal 728's diamonds need 4 275 (lost), deal 9's diamonds and clubs 20 864 after the
single suits, which the rounds reach from a share of 44 000 on, deals 348's and 2655's spades and
clubs 28 676 and 54 982 in the pairs' whole games of the last round (docs/winrates-crazy-
quilt.md, *Exact loose games in the waiting search*, *Assignments first* and *Pairs in the one
run*). Until 2026-12-07 it was 1/6 on top of the budget, when the diamonds needed 377 879."""

CLOCK_EVERY: Final = 4096
"""Positions of the waiting game between two looks at the clock (when a time budget is given)."""


def solve(
    position: int | QuiltState,
    variant: str | None = None,
    *,
    node_budget: int = DEFAULT_NODE_BUDGET,
    time_budget: float | None = None,
    beams: str = BEAMS[0],
) -> Verdict:
    """Decide the Crazy Quilt ``position`` (a deal number or an engine state), stock known.

    ``variant`` defaults to the state's own variant, or ``classic`` for a deal number; it must
    match the state's. The search stops with ``unknown`` after ``node_budget`` positions (the
    last 1/40 of them kept for the waiting game, :data:`WAITING_SHARE`) or, if given,
    ``time_budget`` seconds (the only use of a clock, and only when asked). ``lost``
    means the whole reachable space was searched without finding a win, or a smaller game
    that every line maps onto was (``proof`` then says which: a knot, a suit alone or a suit's
    waiting game).

    ``beams`` names the beams' share of the search: ``eager-restarts``
    (:func:`~spielcenter.solvers.crazy_quilt_beam.eager_restarts`, the default: the thrifty
    beams' narrow widening beams, then their restarts founding the quilt's independent cards at
    once, a plain restart after every two), ``alone-restarts``
    (:func:`~spielcenter.solvers.crazy_quilt_beam.alone_restarts`: the eager restarts, each
    last pass refuted by a suit alone before the exact search where it can be), ``blind-restarts``
    (:func:`~spielcenter.solvers.crazy_quilt_beam.blind_restarts`: the eager restarts, each
    plain narrow restart ranking its first stock cards by its shake alone), ``thrifty``
    (:func:`~spielcenter.solvers.crazy_quilt_beam.thrifty_beams`, the default until 2026-12-07,
    session 11: the narrow widening beams, then six narrow restarts and a wide one in turn,
    every relaxed check of 2 nodes, no beam backing up), ``graded``
    (:func:`~spielcenter.solvers.crazy_quilt_beam.graded_beams`: the thrifty beams, each
    restart followed by its graded twin), ``mixed``
    (:func:`~spielcenter.solvers.crazy_quilt_beam.mixed_beams`, the default until 2026-12-07:
    the narrow widening beams, then wider ones and wide restarts in turn), ``widening``
    (:func:`~spielcenter.solvers.crazy_quilt_beam.widening_beams`, the default until
    2026-12-06), ``restarts`` (:func:`~spielcenter.solvers.crazy_quilt_beam.shaken_restarts`),
    ``wide-restarts`` (:func:`~spielcenter.solvers.crazy_quilt_beam.wide_restarts`, for deals
    the others gave up on), ``eager`` (:func:`~spielcenter.solvers.crazy_quilt_beam.eager_beams`:
    the thrifty beams, every step founding the quilt's independent cards at once) or
    ``eager-twins`` (:func:`~spielcenter.solvers.crazy_quilt_beam.eager_twins`: each thrifty beam
    followed by its eager twin). docs/winrates-crazy-quilt.md, *A schedule of widening beams and
    wide restarts*, *Eager founding*, *Eager restarts* and *Blind restarts*, compares them.
    """
    if beams not in BEAMS:  # checked before the honest trial spends anything
        raise ValueError(f"no beams {beams!r}; the beams are {', '.join(BEAMS)}")
    state = start_state(position, variant)
    if is_won(state):
        return Verdict("won", [], 0)
    # A knot (quilt cards that each wait for another of them) proves the position lost at
    # once; it costs a few milliseconds and spends no positions.
    compact = position_of(state)
    knotted = knot_proof(compact)
    if knotted is not None:
        return Verdict("lost", [], 0, proof=str(knotted))
    # Any winning line proves "won": the honest player's game (it ignores the stock until its
    # first redeal) often is one, and costs a fraction of the budget. It plays the bare rule
    # of thumb: the guarded player wins more, but its half a second a deal is better spent by
    # the search, and no time budget bounds it.
    trial = play_from(state, node_budget // 20, guarded=False)
    if trial.status is Status.WON:
        return Verdict("won", trial.moves, trial.nodes)
    # Then each suit alone, the other cards out of its way: if one suit cannot be founded even
    # so, no line founds every card (:mod:`spielcenter.solvers.crazy_quilt_suits`). Nearly
    # every suit alone is won within a few hundred positions, so this costs little.
    alone = lost_alone(compact, node_budget // SUITS_SHARE)
    if alone.suits:
        return Verdict("lost", [], trial.nodes + alone.nodes, proof=str(alone))
    # Then beams over the passes before the last, which reach far more wins than a depth-first
    # search of the same size (they revisit the early choices); on small positions a beam that
    # drops nothing is exhaustive and proves a loss.
    deadline = None if time_budget is None else time.monotonic() + time_budget
    beamed = run_beams(
        beams, compact, node_budget=node_budget * BEAM_SHARE // BEAM_PARTS, deadline=deadline
    )
    nodes = trial.nodes + alone.nodes + beamed.nodes
    if beamed.result != "unknown":
        return Verdict(beamed.result, beamed.moves, nodes)
    # Then a plain search: wins that lie early in its order cost it the fewest positions. Then
    # the same search with the check across the redeal, which pays in long searches; it skips
    # what the plain one searched to the end (those positions are lost whatever the pruning).
    lost: set[bytes] = set()
    for across_redeal in (False, True):
        rest = node_budget - node_budget // WAITING_SHARE - nodes
        budget = rest // PLAIN_SHARE if not across_redeal else rest
        verdict, lost = decide(compact, max(budget, 0), deadline, across_redeal, lost)
        nodes += verdict.nodes
        if verdict.result != "unknown" or (deadline is not None and time.monotonic() > deadline):
            break
    if verdict.result != "unknown" or (deadline is not None and time.monotonic() > deadline):
        return Verdict(verdict.result, verdict.moves, nodes)
    # Last, the waiting game of each suit: the other suits' cards wait as real ones must, so a
    # suit that cannot be founded even so proves the deal lost. Its searches are costly where
    # they prove nothing (a won one stops early), so only undecided positions pay for them.
    waiting = lost_waiting_in_rounds(
        compact, max(node_budget - nodes, 0), _stop_at(deadline), CLOCK_EVERY
    )
    nodes += waiting.nodes
    if waiting.suits:
        return Verdict("lost", [], nodes, proof=str(waiting))
    return Verdict("unknown", [], nodes)


def _stop_at(deadline: float | None) -> Callable[[int], None] | None:
    """A waiting search's ``progress`` that stops it (``unknown``) once ``deadline`` passed."""
    if deadline is None:
        return None

    def stop(_nodes: int) -> None:
        if time.monotonic() > deadline:
            raise OutOfBudget

    return stop


def start_state(position: int | QuiltState, variant: str | None = None) -> QuiltState:
    """The engine state for a deal number (in ``variant``) or a state (checked against it)."""
    if variant is not None and variant not in VARIANTS:
        raise ValueError(
            f"Crazy Quilt has no variant {variant!r}; its variants are {', '.join(VARIANTS)}"
        )
    if isinstance(position, QuiltState):
        if variant is not None and variant != position.variant:
            raise ValueError(f"the state is of variant {position.variant!r}, not {variant!r}")
        return position
    if isinstance(position, bool) or not isinstance(position, int):
        raise ValueError(f"a deal number or a Crazy Quilt state, not {position!r}")
    return make(variant or "classic").start(check_deal(position))
