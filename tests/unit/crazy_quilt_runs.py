"""Searches of classic Crazy Quilt deals that tests of several modules assert on.

Classic deal 560 is the witness of the mixed beams and the wide restarts
(tests/unit/test_crazy_quilt_beam.py says why): each of its searches costs a few hundred thousand
positions, seconds on a busy host, and the beams', the solver's and the lists' tests ask the same
ones. Remembered here, a test process runs each once, whichever test asks first; the searches are
pure, so a remembered answer is the one a new search would give.
"""

from __future__ import annotations

from functools import cache

from spielcenter.solvers.crazy_quilt import Verdict, start_state
from spielcenter.solvers.crazy_quilt_beam import run_beams
from spielcenter.solvers.crazy_quilt_position import position_of


@cache
def beams_on(deal: int, name: str, node_budget: int) -> Verdict:
    """The beams named ``name`` (``mixed``, ``widening``, ``restarts``, ``wide-restarts``) from
    the start of classic ``deal`` with ``node_budget`` positions."""
    return run_beams(name, position_of(start_state(deal, "classic")), node_budget=node_budget)
