"""How fast is the placement check? The UI asks it for every patch and die on every hover.

    uv run python bench/speedquilt_feasibility.py [--queries 50000] [--runs 7] [--chance-runs 3]

(``--chance-runs 0`` skips the chances: the tests' smoke run.) Prints the median calls per second
of several runs, for warm calls (the same positions again: the per-(block, filled) cache answers)
and for cold calls (the cache cleared before each run), and the time for all 70 one-turn chances.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from spielcenter.games.speedquilt import feasibility
from spielcenter.games.speedquilt.catalogue import load_catalogue
from spielcenter.games.speedquilt.difficulty import _chance, one_turn_chance
from spielcenter.games.speedquilt.model import COLOURS, Block, Colour

RUNS = 7
Query = tuple[Block, tuple[int | None, ...], int, int, Colour]


def queries(count: int, seed: int = 1) -> list[Query]:
    """Random hover questions on random partly filled blocks of the catalogue."""
    rng = random.Random(seed)
    blocks = list(load_catalogue())
    result: list[Query] = []
    while len(result) < count:
        block = rng.choice(blocks)
        filled: list[int | None] = [None] * len(block.patches)
        for i in range(len(filled)):
            value = rng.randint(1, 6)
            if rng.random() < 0.4 and feasibility.can_place(
                block, tuple(filled), i, value, rng.choice(COLOURS)
            ):
                filled[i] = value
        patch = rng.randrange(len(block.patches))
        result.append((block, tuple(filled), patch, rng.randint(1, 6), rng.choice(COLOURS)))
    return result


def rate(batch: list[Query], clear: bool) -> float:
    if clear:
        feasibility._can_complete.cache_clear()
    start = time.perf_counter()
    for block, filled, patch, value, colour in batch:
        feasibility.can_place(block, filled, patch, value, colour)
    return len(batch) / (time.perf_counter() - start)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--queries", type=int, default=50_000, help="hover questions per run")
    parser.add_argument("--runs", type=int, default=RUNS, help="runs (median taken)")
    parser.add_argument("--chance-runs", type=int, default=3, help="0: skip the chances")
    args = parser.parse_args(argv)
    batch = queries(args.queries)
    cold = statistics.median(rate(batch, clear=True) for _ in range(args.runs))
    warm = statistics.median(rate(batch, clear=False) for _ in range(args.runs))
    print(f"can_place, cold cache: {cold:,.0f} calls/s (median of {args.runs} runs)")
    print(f"can_place, warm cache: {warm:,.0f} calls/s (median of {args.runs} runs)")
    if args.chance_runs > 0:
        print_chances(args.chance_runs)


def print_chances(runs: int) -> None:
    times = []
    for _ in range(runs):
        _chance.cache_clear()
        start = time.perf_counter()
        for block in load_catalogue():
            one_turn_chance(block)
        times.append(time.perf_counter() - start)
    print(f"one-turn chance of all 70 blocks: {statistics.median(times):.2f} s (median of {runs})")


if __name__ == "__main__":
    main()
