"""Speedquilt engine speed: random full games per second for 1, 2 and 4 seats, and feasibility.

    uv run python bench/speedquilt.py [--games 20] [--runs 3]

A random game deals a seed and lets uniformly random players (every seat in ``to_act`` may be
chosen; a move is drawn by kind first, then within its kind, so that cheap moves such as "pass" do
not drown the rest) play until the game is over. The median of several runs is printed, with
the moves per second; then the placement check of bench/speedquilt_feasibility.py.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import defaultdict
from typing import Any

from tqdm import tqdm

from spielcenter.games import Status, get_game

SEATS = (1, 2, 4)
MOVE_LIMIT = 4000


def random_game(game: Any, deal: int, rng: random.Random) -> int:
    """Play one random game to its end; the number of moves made."""
    state = game.start(deal)
    moves = 0
    while game.status(state) is Status.PLAYING and moves < MOVE_LIMIT:
        choices = {s: game.legal_moves(state, s) for s in sorted(game.to_act(state))}
        choices = {s: m for s, m in choices.items() if m}
        seat = rng.choice(sorted(choices))
        by_kind: dict[str, list[Any]] = defaultdict(list)
        for move in choices[seat]:
            by_kind[type(move).__name__].append(move)
        state = game.apply(state, rng.choice(by_kind[rng.choice(sorted(by_kind))]), seat)
        moves += 1
    return moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=20, help="games per run")
    parser.add_argument("--runs", type=int, default=3, help="runs per seat count (median taken)")
    parser.add_argument(
        "--no-feasibility",
        dest="feasibility",
        action="store_false",
        help="skip the placement check (the tests' smoke run times it on its own)",
    )
    args = parser.parse_args()
    rows = []
    with tqdm(total=len(SEATS) * args.runs * args.games, desc="games", unit="game") as bar:
        for seats in SEATS:
            game = get_game("speedquilt", "table" if seats > 1 else "solo", players=seats)
            rng = random.Random(seats)
            per_run = []
            for _ in range(args.runs):
                start, moves = time.perf_counter(), 0
                for _ in range(args.games):
                    moves += random_game(game, rng.randrange(1, 2**31), rng)
                    bar.update()
                elapsed = time.perf_counter() - start
                per_run.append((args.games / elapsed, moves / elapsed))
            rows.append(
                (
                    seats,
                    statistics.median(r[0] for r in per_run),
                    statistics.median(r[1] for r in per_run),
                )
            )
    print(f"{'seats':>5} {'games/s':>9} {'moves/s':>9}")
    for seats, games, moves in rows:
        print(f"{seats:>5} {games:>9.2f} {moves:>9.0f}")
    if args.feasibility:
        import speedquilt_feasibility

        speedquilt_feasibility.main([])


if __name__ == "__main__":
    main()
