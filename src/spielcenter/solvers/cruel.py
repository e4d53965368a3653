"""The Cruel solver: decides whether a Cruel position can be won, in all three variants.

:func:`solve` runs an exhaustive depth-first search over the positions reachable from a deal or
an engine state. It returns a winning line in the engine's move notation (every line replays
through :mod:`spielcenter.games.cruel`), proves that none exists (``lost`` is only answered when a
search covered the whole reachable space), or gives up when its budget is spent (``unknown``).

What makes it exact and fast (each reduction is proven sound in ``docs/winrates.md``), each in
its own module:

* **A compact position** and its rules (:mod:`~spielcenter.solvers.cruel_rules`): piles of card
  codes, so the card a card may be built on is simply ``card + 1``; the safe moves made without
  branching.
* **Dead positions** (:mod:`~spielcenter.solvers.cruel_dead`): a card that can never move covers
  the cards beneath it for good; a frozen start of a freshly dealt packet does too.
* **The start of the packet as a game of its own** (:mod:`~spielcenter.solvers.cruel_start`), in
  classic, when the first trial cannot decide a position.
* **The searches** (:mod:`~spielcenter.solvers.cruel_search`): transpositions, forced moves, and
  the move orders. :func:`solve` runs short trials in three depth-first orders (foundation moves
  first; the redeal first; reversed), in classic with four short best-first trials between them,
  then one long search in the first order. Any search that runs to its end decides the position.
  In classic and Perseverance no position can come back, so each depth-first search starts from
  the positions the earlier ones searched to the end (they are lost); "stuck" has loops and
  starts afresh.

The search is pure: no clock unless a ``time_budget`` is given, no I/O, no randomness.
"""

from __future__ import annotations

import time
from typing import Final

from spielcenter.games.cruel import VARIANTS, CruelState, make
from spielcenter.games.shuffle import check_deal
from spielcenter.solvers.codes import encode_card
from spielcenter.solvers.cruel_rules import UNLIMITED
from spielcenter.solvers.cruel_search import (
    BEST_FIRST,
    FEWEST_CARDS,
    FEWEST_CARDS_NEWEST,
    LEAST_BLOCKED,
    MOST_BUILT,
    REDEAL_FIRST,
    REVERSED,
    UPS_FIRST,
    Search,
)
from spielcenter.solvers.cruel_start import start_never_clears
from spielcenter.solvers.verdict import OutOfBudget, Verdict

__all__ = ["DEFAULT_NODE_BUDGET", "Verdict", "deal_position", "solve"]

DEFAULT_NODE_BUDGET: Final = 2_000_000
"""Positions searched before :func:`solve` answers ``unknown`` (a few seconds to a minute)."""

TRIALS: Final = ((UPS_FIRST, 100), (REDEAL_FIRST, 5), (REVERSED, 4))
"""The short trials before the final search: (order, 1 / share of the node budget)."""
CLASSIC_TRIALS = (
    (UPS_FIRST, 100),
    (FEWEST_CARDS, 25),
    (MOST_BUILT, 25),
    (LEAST_BLOCKED, 50),
    (FEWEST_CARDS_NEWEST, 50),
    (REDEAL_FIRST, 5),
    (REVERSED, 3),
)
"""Classic's trials: the depth-first ones, and between them the best-first ones with a small share
of the budget (they find their wins within a few thousand positions or not at all). The reversed
trial gets a third: with the time limit it finds some wins only late in its share, while a larger
share for the final search (the one that proves the losses too big for a trial) found no classic
win that the trials miss. Shares and the deals behind them: docs/winrates.md, "How the solver
decides" ("Best-first trials") and "Classic with best-first trials"."""


def deal_position(deal: int, variant: str = "classic") -> CruelState:
    """The start of ``deal`` (the engine's own start position)."""
    check_deal(deal)
    return make(variant).start(deal)


def solve(
    position: int | CruelState,
    variant: str | None = None,
    *,
    node_budget: int = DEFAULT_NODE_BUDGET,
    time_budget: float | None = None,
) -> Verdict:
    """Decide the Cruel ``position`` (a deal number or an engine state).

    ``variant`` defaults to the state's own variant, or ``classic`` for a deal number; it must
    match the state's. The search stops with ``unknown`` after ``node_budget`` positions or,
    if given, ``time_budget`` seconds (the only use of a clock, and only when asked).
    ``lost`` means the whole reachable space was searched without finding a win.

    Both budgets are shared by the trials and the final search (see :data:`TRIALS` and
    :data:`CLASSIC_TRIALS`);
    ``nodes`` in the verdict counts the positions of all of them. With a time budget the call
    returns within it: the searches stop a small margin before its end (:data:`_TIME_MARGIN`),
    and every step between them checks the time.
    """
    clock = _Clock(time_budget) if time_budget is not None else None
    state = _start_state(position, variant)
    game = make(state.variant)
    piles = tuple(bytes(encode_card(card) for card in pile) for pile in state.piles)
    left = game.redeals_left(state)
    root = (piles, state.foundations, UNLIMITED if left is None else left, not state.moved)
    # A few short trials in different move orders (in classic also best-first ones) find most
    # hard wins; then one long search in the first order. Any search that runs to its end
    # decides: the pruning rules are properties of the positions, not of the order.
    budget = max(node_budget, 0)
    trials = CLASSIC_TRIALS if state.variant == "classic" else TRIALS
    schedule = [(order, budget // share) for order, share in trials if budget >= 4 * share]
    schedule.append((UPS_FIRST, -1))
    # In Perseverance and in classic no position can come back (docs/winrates.md, "Proofs carry
    # over"), so a position searched to the end without a win is lost, whatever the move order:
    # later searches start from what earlier ones proved. Not in "stuck", which has loops.
    proven: set[bytes] = set()
    nodes = 0
    for order, share in schedule:
        if clock is not None and clock.expired():
            break  # the work between the trials counts against the time too
        final = share < 0
        best_first = order in BEST_FIRST
        search = Search(
            # A depth-first search extends the proven positions in place (copying a million
            # of them takes time); a best-first one adds open positions, so it gets a copy.
            seen=set() if state.variant == "stuck" else set(proven) if best_first else proven,
            runs=game.moves_runs,
            stuck=state.variant == "stuck",
            budget=budget - nodes if final else share,
            coarse_prune=state.variant == "classic",
            order=order,
        )
        if clock is not None:
            search.clock = time.monotonic
            search.deadline = clock.deadline if final else clock.share(share / budget)
        try:
            line = search.best_first(*root) if best_first else search.run(*root)
        except OutOfBudget:
            nodes += search.nodes
            if final:
                break
            # A best-first search leaves no positions searched to the end, only open ones.
            if state.variant != "stuck" and not best_first:
                proven = search.finished()
            # A position the first trial cannot decide may have a start of the packet that can
            # never clear (tested here, not at the deal: most deals need no test at all).
            if (
                order == UPS_FIRST
                and state.variant == "classic"
                and start_never_clears(
                    piles, state.foundations, expired=clock.expired if clock else None
                )
            ):
                return Verdict("lost", [], nodes)
            continue
        nodes += search.nodes
        if line is None:
            return Verdict("lost", [], nodes)
        return Verdict("won", line, nodes)
    return Verdict("unknown", [], nodes)


_TIME_MARGIN = 0.02
"""The share of a time budget kept back from the search for what follows its end: letting go of
the positions it searched (up to a million, freed when :func:`solve` returns) takes a small part
of the time it took to search them, on a busy machine as on an idle one (measured in
docs/winrates.md, "Classic within its time limit")."""


class _Clock:
    """The time budget of one :func:`solve`: a deadline a margin inside it, and trial shares."""

    def __init__(self, time_budget: float) -> None:
        self.budget = max(time_budget, 0.0)
        self.deadline = time.monotonic() + self.budget * (1 - _TIME_MARGIN)

    def expired(self) -> bool:
        """Whether the deadline has passed."""
        return time.monotonic() >= self.deadline

    def share(self, part: float) -> float:
        """The deadline of a trial that may take ``part`` of the budget from now on (never
        later than the deadline of the whole)."""
        return min(self.deadline, time.monotonic() + self.budget * part)


def _start_state(position: int | CruelState, variant: str | None) -> CruelState:
    if variant is not None and variant not in VARIANTS:
        raise ValueError(
            f"Cruel has no variant {variant!r}; its variants are {', '.join(VARIANTS)}"
        )
    if isinstance(position, CruelState):
        if variant is not None and variant != position.variant:
            raise ValueError(f"the state is of variant {position.variant!r}, not {variant!r}")
        return position
    return deal_position(position, variant or "classic")
