"""Where a Crazy Quilt deal's beam gets to at the redeal, and beams through those last passes.

    uv run python bench/crazy_quilt_last_passes.py --only 83,95,862 [--seed 1001] \\
        [--beam 1,-1,16,1001 --beam 1,1,64,7 ...] [--first 144] [--jsonl FILE]

For each deal it runs one wide restart (:func:`spielcenter.solvers.crazy_quilt_beam.beam_search`,
diverse, width and score of ``wide_restart_plan(--seed)``) and records every position the beam
hands to its last pass: how many there are, and how far each got in the first pass (quilt cards
left, stock cards for the last pass, cards founded). A deal none of whose positions reaches the
redeal died in its first pass; one whose positions reach it with most of the quilt still laid
out has its last pass to win.

Each ``--beam FOUNDED,GONE,WIDTH,SEED`` then runs a beam through the last pass
(:func:`~spielcenter.solvers.crazy_quilt_beam.last_pass_beam`: score ``(FOUNDED, GONE)``, that
width, shaken by that seed, diverse) from each of the first ``--first`` recorded positions, with
at most ``--budget`` positions each, and counts the wins; every won line is replayed through
the engine (a line that does not replay fails the run). ``--jsonl`` appends a record per deal.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from tqdm import tqdm

from spielcenter.games.cards import ACE, KING
from spielcenter.games.crazy_quilt import VARIANTS
from spielcenter.games.shuffle import check_deal
from spielcenter.solvers import winnable
from spielcenter.solvers.crazy_quilt import position_of, start_state
from spielcenter.solvers.crazy_quilt_beam import (
    LastPass,
    Weights,
    beam_search,
    last_pass_beam,
    wide_restart_plan,
)

GAME = "crazy-quilt"

BeamSpec = tuple[Weights, int, int]
"""A beam through the last pass: its score, width and seed."""


def parse_beam(text: str) -> BeamSpec:
    """``FOUNDED,GONE,WIDTH,SEED`` as a beam; ``ValueError`` names what is wrong."""
    parts = text.split(",")
    if len(parts) != 4:
        raise ValueError(f"--beam {text!r}: want FOUNDED,GONE,WIDTH,SEED (four whole numbers)")
    try:
        founded, gone, width, seed = (int(part) for part in parts)
    except ValueError:
        raise ValueError(f"--beam {text!r}: want four whole numbers") from None
    if width < 1:
        raise ValueError(f"--beam {text!r}: the width is at least 1")
    return (founded, gone), width, seed


def handed(deal: int, variant: str, seed: int, budget: int) -> list[LastPass]:
    """The positions the wide restart with ``seed`` hands to its last pass on ``deal``."""
    width, weights = wide_restart_plan(seed)
    recorded: list[LastPass] = []
    beam_search(
        position_of(start_state(deal, variant)),
        width=width,
        node_budget=budget,
        weights=weights,
        seed=seed,
        diverse=True,
        handed=recorded,
    )
    return recorded


def founded(last: LastPass) -> int:
    """The cards on the foundations besides the eight they start with."""
    position = last.position
    return sum(up - ACE for up in position.up) + sum(KING - down for down in position.down)


def spread(values: list[int]) -> str:
    return f"{min(values)}..{max(values)}, median {statistics.median(values):g}"


def where(passes: list[LastPass]) -> dict[str, Any]:
    """How far the recorded positions got in the first pass."""
    if not passes:
        return {"handed": 0}
    return {
        "handed": len(passes),
        "quilt_left": spread([64 - last.position.gone.bit_count() for last in passes]),
        "stock": spread([len(last.position.stock) for last in passes]),
        "founded": spread([founded(last) for last in passes]),
    }


def through(
    deal: int, variant: str, passes: list[LastPass], spec: BeamSpec, budget: int
) -> dict[str, Any]:
    """One beam through each of ``passes``: the wins (by index) and the positions spent."""
    weights, width, seed = spec
    wins, nodes, began = [], 0, time.perf_counter()
    for index, last in enumerate(passes):
        verdict = last_pass_beam(last, node_budget=budget, width=width, weights=weights, seed=seed)
        nodes += verdict.nodes
        if verdict.result == "won":
            if not winnable.replays_to_won(GAME, variant, deal, verdict.moves):
                raise SystemExit(f"deal {deal}: a claimed win that does not replay ({spec})")
            wins.append(index)
    return {
        "beam": {"weights": list(weights), "width": width, "seed": seed},
        "wins": wins,
        "nodes": nodes,
        "seconds": round(time.perf_counter() - began, 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", choices=VARIANTS, default="classic")
    parser.add_argument("--only", required=True, help="comma-separated deal numbers")
    parser.add_argument("--seed", type=int, default=1001, help="the wide restart's seed")
    parser.add_argument("--record-budget", type=int, default=20_000_000)
    parser.add_argument("--beam", action="append", default=[], help="FOUNDED,GONE,WIDTH,SEED")
    parser.add_argument("--first", type=int, default=144, help="last passes per deal")
    parser.add_argument("--budget", type=int, default=5_000_000, help="positions a last pass")
    parser.add_argument("--jsonl", type=Path, help="append one JSON record per deal here")
    args = parser.parse_args(argv)
    try:
        deals = [check_deal(int(deal)) for deal in args.only.split(",")]
        specs = [parse_beam(text) for text in args.beam]
    except ValueError as exc:
        parser.error(str(exc))
    if min(args.first, args.budget, args.record_budget) < 1:
        parser.error("--first, --budget and --record-budget are positive")
    for deal in tqdm(deals, desc=f"{args.variant} last passes", unit="deal", file=sys.stderr):
        passes = handed(deal, args.variant, args.seed, args.record_budget)
        record = {"deal": deal, "variant": args.variant, "seed": args.seed, **where(passes)}
        record["beams"] = [
            through(deal, args.variant, passes[: args.first], spec, args.budget) for spec in specs
        ]
        print(json.dumps(record), flush=True)
        if args.jsonl is not None:
            with args.jsonl.open("a", encoding="utf-8") as out:
                out.write(json.dumps(record) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
