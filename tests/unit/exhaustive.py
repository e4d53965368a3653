"""The referees' own search: every legal move tried, positions remembered, nothing else.

The loss proofs' tests (`test_crazy_quilt_suits.py`, `test_crazy_quilt_waiting.py`) check the
solvers' pruned searches against referees that know only the rules of their smaller game; this
is the search both referees run, so that neither borrows anything from the solvers."""

from __future__ import annotations

import gc
from collections.abc import Callable, Hashable, Iterable
from typing import Any, TypeVar

Node = TypeVar("Node", bound=Hashable)


def some_line_wins(
    start: Node, won: Callable[[Node], bool], moves: Callable[[Node], Iterable[tuple[Any, Node]]]
) -> bool:
    """Whether any line of moves from ``start`` reaches a position ``won`` says is won."""
    seen: set[Node] = {start}
    todo = [start]
    # A million remembered nodes would make the cyclic garbage collector walk them all, again
    # and again, for cycles that plain tuples cannot form: it waits till the end.
    collecting = gc.isenabled()
    gc.disable()
    try:
        while todo:
            node = todo.pop()
            if won(node):
                return True
            for _, after in moves(node):
                if after not in seen:
                    seen.add(after)
                    todo.append(after)
        return False
    finally:
        if collecting:
            gc.enable()
