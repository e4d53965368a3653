"""Crazy Quilt: the first pass searched out card by card, to see how far a loss proof is.

    uv run python bench/crazy_quilt_layers.py --deal 9 [--variant classic] [--cards 9]
    PYTHONPATH=. uv run python bench/crazy_quilt_layers.py --agree 150

A deal is lost when every line of its first pass ends in a position the relaxed game across
the redeal proves dead, or in a last pass the exact search loses. This search keeps *every*
position of the first pass (no width, unlike the beams of ``solvers/crazy_quilt_beam.py``):
at each stock card it gathers everything reachable without turning a card, drops what the
relaxed check (100 assignment nodes, benefit of the doubt after that) proves dead, and turns
the next card in each of the others; with the stock used up it hands each position to the exact
search of the last pass. So it answers ``lost`` only after an exhaustive search, ``won`` when it
met a won position (it keeps no lines), else ``unknown``.

Per card it prints the positions gathered and kept, and how many groups they form: of the same
waste and foundations (they differ only in the quilt), of the same quilt and foundations (only
in the order of the waste), and the foundation states and wastes that occur; a merge of
positions could at best shrink a step to those counts (docs/winrates-crazy-quilt.md, *Deal 9*).
``--cards N`` stops after the N-th card. ``--agree N`` instead compares the verdicts with the
depth-first search on the tests' positions constructed near the end (seeds 0..N-1).
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

from tqdm import tqdm

from spielcenter.solvers.crazy_quilt import (
    _FREES,
    _RANK,
    _WON_FND,
    Fnd,
    Position,
    _available,
    _founded,
    _OutOfBudget,
    _Search,
    position_of,
    solve_position,
    start_state,
)

ONE_REDEAL = ("classic", "round-the-corner")
"""The variants whose deals start with exactly one redeal left."""
CHECK_NODES = 100
LAST_PASS_NODES = 20_000


def key_of(gone: int, fnd: Fnd, waste: bytes) -> bytes:
    """A first-pass position at one stock card: quilt, foundations, waste."""
    return gone.to_bytes(8, "little") + bytes(fnd) + waste


class Layers:
    """The exhaustive first pass of one position (with exactly one redeal left)."""

    def __init__(self, position: Position) -> None:
        self.position = position
        self.search = _Search(
            position.cards, position.round_the_corner, 10**15, check_budget=CHECK_NODES
        )
        self.final = _Search(position.cards, position.round_the_corner, 0, across_redeal=True)
        self.undecided = 0
        self.won = False

    def gather(self, gone: int, waste: bytes, fnd: Fnd, found: set[bytes]) -> None:
        """Add to ``found`` every position reachable without turning a card.

        The moves are generated as the beam's ``_Beam.gather`` does, not by calling it: that one
        keeps each position's line and stops at the beam's cap of a step's positions (a constant
        compiled in), and this search must keep every position, without lines, to fit in memory.
        """
        search = self.search
        moves: list[str] = []
        todo = [(gone, _available(gone), waste, fnd)]
        while todo:
            gone, free, waste, fnd = search._force(*todo.pop(), moves)
            moves.clear()  # the safe moves' names: no lines are kept
            key = key_of(gone, fnd, waste)
            if key in found:
                continue
            found.add(key)
            if fnd == _WON_FND:
                self.won = True
                continue
            top = waste[-1] if waste else 0
            if top:
                suit, rank = top >> 4, top & _RANK
                for slot, want in ((suit, rank - 1), (4 + suit, rank + 1)):
                    if fnd[slot] == want:
                        todo.append((gone, free, waste[:-1], _founded(fnd, slot, rank)))
            rest = free
            while rest:
                low = rest & -rest
                rest ^= low
                cell = low.bit_length() - 1
                code = search.cards[cell]
                after = gone | low
                opened = (free | _FREES[cell]) & ~after
                suit, rank = code >> 4, code & _RANK
                for slot, want in ((suit, rank - 1), (4 + suit, rank + 1)):
                    if fnd[slot] == want:
                        todo.append((after, opened, waste, _founded(fnd, slot, rank)))
                if top and search._touch(code, top):
                    todo.append((after, opened, waste + bytes((code,)), fnd))

    def last_pass_wins(self, gone: int, stock: bytes, fnd: Fnd) -> bool:
        """The exact search of the last pass (an undecided one is counted)."""
        final = self.final
        final.budget = final.nodes + LAST_PASS_NODES
        try:
            return bool(final.search(gone, _available(gone), stock, b"", fnd, 0, False, []))
        except (_OutOfBudget, RecursionError):
            self.undecided += 1
            return False

    def step(self, layer: set[bytes], stock: bytes) -> tuple[set[bytes], set[bytes], set[bytes]]:
        """Gather from ``layer`` at ``stock``; the positions gathered, kept, and turned."""
        found: set[bytes] = set()
        for key in layer:
            self.gather(int.from_bytes(key[:8], "little"), key[16:], tuple(key[8:16]), found)
        self.search.across_known = {}  # its keys hold the stock: none recurs at a later card
        kept = {key for key in found if self._alive(key, stock)}
        turned: set[bytes] = set()
        for key in kept:
            if stock:
                turned.add(key + stock[:1])
            elif key[16:] and self.last_pass_wins(
                int.from_bytes(key[:8], "little"), key[16:], tuple(key[8:16])
            ):
                self.won = True
        return found, kept, turned

    def _alive(self, key: bytes, stock: bytes) -> bool:
        return bool(self.search._relaxed_clears(stock, key[16:], tuple(key[8:16]), 1))

    def run(self, cards: int | None = None, report: bool = False) -> str:
        """``won``, ``lost`` or ``unknown`` (also when stopped after ``cards`` cards)."""
        position = self.position
        if position.redeals_left != 1:
            raise ValueError("the layers search a first pass with exactly one redeal left")
        stock = position.stock
        layer = {key_of(position.gone, position.up + position.down, position.waste)}
        began = time.perf_counter()
        bar = tqdm(total=len(stock) + 1, unit="card", disable=not report)
        for card in range(len(stock) + 1):
            if cards is not None and card > cards:
                bar.close()
                return "unknown"
            found, kept, layer = self.step(layer, stock)
            bar.update(1)
            if report:
                tqdm.write(
                    f"card {card:2}: {groups(found, kept)}, {time.perf_counter() - began:.0f} s"
                )
            if self.won:
                bar.close()
                return "won"
            if not layer:
                break
            stock = stock[1:]
        bar.close()
        return "unknown" if self.undecided else "lost"


def groups(found: set[bytes], kept: set[bytes]) -> str:
    """The counts printed per card."""
    return (
        f"gathered {len(found)}, kept {len(kept)}; groups: same waste and foundations "
        f"{len({key[8:] for key in found})}, same quilt and foundations "
        f"{len({key[:16] for key in found})}; foundation states {len({key[8:16] for key in found})}"
        f", wastes {len({key[16:] for key in found})}"
    )


def agree(seeds: int) -> None:
    """Verdicts of the layers and of the depth-first search on constructed end positions."""
    from tests.unit.test_crazy_quilt_solver import constructed_end_position, crossing_end_position

    tally: Counter[tuple[str, str]] = Counter()
    for construct in (constructed_end_position, crossing_end_position):
        for seed in tqdm(range(seeds), desc=construct.__name__, unit="position"):
            state = construct(seed)
            if state.redeals_left != 1:
                continue
            position = position_of(state)
            layers = Layers(position).run()
            depth_first = solve_position(position, node_budget=10**6).result
            tally[(layers, depth_first)] += 1
    for (layers, depth_first), count in sorted(tally.items()):
        print(f"layers {layers}, depth-first {depth_first}: {count}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deal", type=int, default=9)
    parser.add_argument("--variant", choices=ONE_REDEAL, default="classic")
    parser.add_argument("--cards", type=int, help="stop after this stock card")
    parser.add_argument("--agree", type=int, help="compare on this many constructed positions")
    args = parser.parse_args()
    if args.agree:
        agree(args.agree)
        return
    verdict = Layers(position_of(start_state(args.deal, args.variant))).run(args.cards, True)
    print(f"crazy-quilt {args.variant} deal {args.deal}: {verdict}")


if __name__ == "__main__":
    main()
