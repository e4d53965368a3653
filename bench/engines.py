"""Random playouts per second for each patience game and variant (median of several runs).

    uv run python bench/engines.py [--seconds 2] [--runs 5]

A playout starts a deal and plays uniformly random legal moves until the game ends (or 3 000
moves). The figure counts whole playouts; moves per second are printed too.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from tqdm import tqdm

from spielcenter.games import Status, get_game, variants_of

GAMES = ("cruel", "crazy-quilt")
MOVE_LIMIT = 3000


def playouts_for(
    name: str, variant: str, seconds: float, rng: random.Random
) -> tuple[float, float]:
    """Playouts and moves per second over ``seconds`` of wall-clock time."""
    game = get_game(name, variant)
    playouts = moves = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.start(rng.randrange(1, 2**63))
        for _ in range(MOVE_LIMIT):
            if game.status(state) is not Status.PLAYING:
                break
            state = game.apply(state, rng.choice(game.legal_moves(state)))
            moves += 1
        playouts += 1
    elapsed = time.perf_counter() - start
    return playouts / elapsed, moves / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=2.0, help="length of one run")
    parser.add_argument("--runs", type=int, default=5, help="runs per variant (median taken)")
    args = parser.parse_args()
    jobs = [(name, variant) for name in GAMES for variant in variants_of(name)]
    rows = []
    with tqdm(total=len(jobs) * args.runs, desc="playouts", unit="run") as bar:
        for name, variant in jobs:
            rng = random.Random(f"{name}/{variant}")
            results = []
            for _ in range(args.runs):
                results.append(playouts_for(name, variant, args.seconds, rng))
                bar.update()
            rows.append(
                (
                    name,
                    variant,
                    statistics.median(r[0] for r in results),
                    statistics.median(r[1] for r in results),
                )
            )
    print(f"{'game':<12} {'variant':<32} {'playouts/s':>11} {'moves/s':>10}")
    for name, variant, per_second, moves in rows:
        print(f"{name:<12} {variant:<32} {per_second:>11.1f} {moves:>10.0f}")


if __name__ == "__main__":
    main()
