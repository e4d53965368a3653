"""Check that a changed Cruel solver keeps the verdicts of an earlier one on a sample of deals.

    git show COMMIT:src/spielcenter/solvers/cruel.py > /tmp/old_cruel.py
    uv run python bench/cruel_recheck.py --old /tmp/old_cruel.py --variant perseverance \\
        --deals 1..10000 --sample 300 --time-limit 10

It draws ``--sample`` deal numbers at random (seeded, so the sample is the same every run) from
the range, solves each with the earlier solver and the current one (same budgets), and prints
how many the earlier one decided, how many of those keep their verdict, and every deal that
changed. A pruning rule that is sound can turn ``unknown`` into ``won`` or ``lost``, never
``won`` into ``lost`` or back. A tqdm progress bar runs on standard error.

``--old`` must be a solver that stands in one file: ``solvers/cruel.py`` of a commit before the
solver was split into ``cruel_rules``, ``cruel_dead``, ``cruel_start`` and ``cruel_search``
(those modules of a later file would be imported from the current source). To compare with a
later commit, run the same sample in a worktree of that commit and compare the outputs.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import sys
import time
from pathlib import Path
from types import ModuleType

from tqdm import tqdm

from spielcenter.cli.solve import parse_range
from spielcenter.solvers import cruel
from spielcenter.solvers.cruel_winrate import percentile


def load(path: Path) -> ModuleType:
    """Import the earlier solver from a file."""
    spec = importlib.util.spec_from_file_location("earlier_cruel_solver", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def main() -> int:
    """Run the comparison; exit status 1 when a decided verdict changed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", type=Path, required=True, help="the earlier solver's file")
    parser.add_argument("--variant", default="classic", choices=cruel.VARIANTS)
    parser.add_argument("--deals", default="1..10000", help="range A..B to sample from")
    parser.add_argument("--sample", type=int, default=300)
    parser.add_argument("--budget", type=int, default=cruel.DEFAULT_NODE_BUDGET)
    parser.add_argument("--time-limit", type=float, default=10.0)
    parser.add_argument("--seed", default="cruel-recheck")
    args = parser.parse_args()
    first, last = parse_range(args.deals)
    earlier = load(args.old)
    deals = sorted(random.Random(args.seed).sample(range(first, last + 1), args.sample))
    decided = kept = 0
    changed: list[str] = []
    seconds: dict[str, list[float]] = {"earlier": [], "current": []}
    for deal in tqdm(deals, desc=f"recheck {args.variant}", unit="deal"):
        budgets = {"node_budget": args.budget, "time_budget": args.time_limit}
        started = time.perf_counter()
        before = earlier.solve(deal, args.variant, **budgets).result
        seconds["earlier"].append(time.perf_counter() - started)
        started = time.perf_counter()
        after = cruel.solve(deal, args.variant, **budgets).result
        seconds["current"].append(time.perf_counter() - started)
        if before == "unknown":
            continue
        decided += 1
        if after == before:
            kept += 1
        else:
            changed.append(f"{deal}: {before} -> {after}")
    print(
        f"cruel {args.variant}: {len(deals)} deals drawn from {first}..{last}, "
        f"{decided} decided by the earlier solver, {kept} keep their verdict"
    )
    for solver, values in seconds.items():
        print(
            f"  {solver} solver: median {percentile(values, 0.5):.4f} s, "
            f"p99 {percentile(values, 0.99):.3f} s, max {max(values):.3f} s per deal"
        )
    for line in changed:
        print(f"  changed {line}")
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main())
