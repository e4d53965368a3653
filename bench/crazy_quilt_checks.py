"""How long the Crazy Quilt solver's relaxed check takes, against the positions of its search.

    uv run python bench/crazy_quilt_checks.py [--deals 1 2 3 4] [--repeat 3]

The check (:func:`spielcenter.solvers.crazy_quilt_relaxed.clearable`) answers whether the stock
and the waste can still be cleared across the remaining redeals with the quilt's geometry
relaxed away; the beams and the depth-first search ask it at nearly every position with a redeal
left. This bench records the questions they really ask on classic deals (a beam of width 150 on
300 000 positions and a depth-first search with the check on 100 000, per deal), then times
answering all of them again, and a plain depth-first search (no check) on the same deals.

It prints the microseconds per question and per assignment node, the microseconds per position
of the plain search, and their ratio: what one assignment node costs in search positions, which
:data:`spielcenter.solvers.crazy_quilt.ASSIGNMENT_WEIGHT` stands for in the solvers' budgets.
"""

from __future__ import annotations

import argparse
import json
import time

from tqdm import tqdm

from spielcenter.solvers.crazy_quilt import _decide, position_of, start_state
from spielcenter.solvers.crazy_quilt_beam import BEAM_CHECK_BUDGET, beam_search
from spielcenter.solvers.crazy_quilt_relaxed import ASSIGNMENT_BUDGET, clearable

Question = tuple[bytes, bytes, tuple[int, ...], int, int]


def _question(key: bytes, budget: int) -> Question:
    """The question behind a key of the searches' answers (``_Search._relaxed_clears``)."""
    fnd, left, in_stock = tuple(key[:8]), key[8], key[9]
    stock, waste = key[10 : 10 + in_stock], key[10 + in_stock :]
    return (waste, stock, fnd, left, budget)


def questions_asked(deals: list[int]) -> list[Question]:
    """Every question the beam and the depth-first search ask on the classic ``deals`` (read
    from their answers, which they keep by question; the compiled solver cannot be wrapped)."""
    asked: list[Question] = []
    for deal in tqdm(deals, desc="recording", unit="deal"):
        position = position_of(start_state(deal, "classic"))
        beam_checks: dict[bytes, bool] = {}
        beam_search(position, width=150, node_budget=300_000, checks=beam_checks)
        asked += [_question(key, BEAM_CHECK_BUDGET) for key in beam_checks]
        search_checks: dict[bytes, bool] = {}
        _decide(position, 100_000, None, True, set(), search_checks)
        asked += [_question(key, ASSIGNMENT_BUDGET) for key in search_checks]
    return asked


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, nargs="+", default=[1, 2, 3, 4])
    parser.add_argument("--repeat", type=int, default=3, help="timings taken, the best kept")
    args = parser.parse_args()
    asked = questions_asked(args.deals)
    best = float("inf")
    for _ in tqdm(range(args.repeat), desc="answering", unit="round"):
        start = time.perf_counter()
        answers = [clearable(*question) for question in asked]
        best = min(best, time.perf_counter() - start)
    nodes = sum(n for _, n in answers)
    searched, seconds = 0, 0.0
    for deal in tqdm(args.deals, desc="plain search", unit="deal"):
        position = position_of(start_state(deal, "classic"))
        start = time.perf_counter()
        verdict, _ = _decide(position, 100_000, None, False, set())
        seconds += time.perf_counter() - start
        searched += verdict.nodes
    per_node = best / nodes * 1e6
    per_position = seconds / searched * 1e6
    result = {
        "deals": args.deals,
        "questions": len(asked),
        "dead": sum(not clears for clears, _ in answers),
        "assignment_nodes": nodes,
        "us_per_question": round(best / len(asked) * 1e6, 1),
        "us_per_assignment_node": round(per_node, 1),
        "us_per_plain_position": round(per_position, 2),
        "positions_per_assignment_node": round(per_node / per_position, 1),
    }
    print(
        f"{len(asked)} questions ({result['dead']} answered dead), {nodes} assignment nodes: "
        f"{result['us_per_question']} µs a question, {per_node:.1f} µs a node; plain search "
        f"{per_position:.2f} µs a position, so a node costs "
        f"{result['positions_per_assignment_node']} positions"
    )
    print(json.dumps(result))


if __name__ == "__main__":
    main()
