"""How much faster the solvers run compiled (mypyc, :mod:`spielcenter.native`) than as Python.

    uv run python bench/compiled_solvers.py [--game crazy-quilt] [--variant classic]
        [--deals 1 5 9] [--budget 300000]

Solves the same deals at the same budget (positions, no clock, so the verdicts must agree) in two
child processes: one with the compiled modules, one with ``SPIELCENTER_PURE_PYTHON=1``. Prints
per deal the verdict, the positions searched and the seconds of each, then positions per second
and the speed-up, and a JSON line with the same figures. A progress bar runs in each child.
The build must be current (``make install``), else both children run plain Python and the bench
says so.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

from tqdm import tqdm


def child(game: str, variant: str, deals: list[int], budget: int) -> None:
    """Solve ``deals`` in this process; one JSON line per deal on stdout."""
    from spielcenter import native
    from spielcenter.solvers import crazy_quilt, cruel

    solve = crazy_quilt.solve if game == "crazy-quilt" else cruel.solve
    for deal in tqdm(deals, desc="compiled" if native.active() else "python", unit="deal"):
        start = time.perf_counter()
        verdict = solve(deal, variant, node_budget=budget)
        seconds = time.perf_counter() - start
        record = {
            "deal": deal,
            "result": verdict.result,
            "nodes": verdict.nodes,
            "moves": len(verdict.moves),
            "seconds": seconds,
            "compiled": native.active(),
        }
        print(json.dumps(record), flush=True)


def run_child(args: argparse.Namespace, pure: bool) -> list[dict[str, object]]:
    environment = dict(os.environ)
    environment.pop("SPIELCENTER_PURE_PYTHON", None)
    if pure:
        environment["SPIELCENTER_PURE_PYTHON"] = "1"
    command = [sys.executable, __file__, "--child", "--game", args.game, "--variant"]
    command += [args.variant, "--budget", str(args.budget), "--deals", *map(str, args.deals)]
    output = subprocess.run(
        command, env=environment, check=True, stdout=subprocess.PIPE, text=True
    ).stdout
    return [json.loads(line) for line in output.splitlines()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="crazy-quilt", choices=("crazy-quilt", "cruel"))
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--deals", type=int, nargs="+", default=[1, 5, 9])
    parser.add_argument("--budget", type=int, default=300_000, help="positions per deal")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.game, args.variant, args.deals, args.budget)
        return
    compiled = run_child(args, pure=False)
    pure = run_child(args, pure=True)
    if not compiled[0]["compiled"]:
        print("the build is missing or stale (make install): both runs were plain Python")
    agree = True
    for fast, slow in zip(compiled, pure, strict=True):
        same = all(fast[key] == slow[key] for key in ("result", "nodes", "moves"))
        agree &= same
        print(
            f"deal {fast['deal']}: {fast['result']} {fast['nodes']} positions, "
            f"{fast['seconds']:.2f} s compiled, {slow['seconds']:.2f} s Python"
            + ("" if same else f"  DIFFERENT: {slow['result']} {slow['nodes']}")
        )
    nodes = sum(int(str(r["nodes"])) for r in compiled)
    fast_s = sum(float(str(r["seconds"])) for r in compiled)
    slow_s = sum(float(str(r["seconds"])) for r in pure)
    summary = {
        "game": args.game,
        "variant": args.variant,
        "deals": args.deals,
        "budget": args.budget,
        "positions": nodes,
        "compiled_positions_per_second": round(nodes / fast_s),
        "python_positions_per_second": round(nodes / slow_s),
        "speed_up": round(slow_s / fast_s, 2),
        "same_verdicts_and_positions": agree,
    }
    print(
        f"{summary['compiled_positions_per_second']} positions/s compiled, "
        f"{summary['python_positions_per_second']} as Python: {summary['speed_up']} times; "
        f"verdicts and positions {'the same' if agree else 'DIFFER'}"
    )
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
