"""The hint button: a good next move, from the player's point of view.

:func:`hint` answers with a :class:`Hint`: the move (in the game's notation), what is known about
the position (``winnable``, ``lost`` or ``unknown``), an i18n key for the text the player reads,
and — when the position is lost and the caller passed the moves played — how far to undo.

* **Cruel** has nothing hidden, so the hint asks the solver (with a small budget): its first move
  keeps a winnable game winnable. When the solver cannot decide in its budget, a heuristic move is
  given instead; when the game is lost, the hint finds the last position of the game that could
  still be won.
* **Crazy Quilt** hides the stock order, and a hint must not give it away: the hint looks only at
  ``game.view_for(state, 0)`` (what the player sees) and prefers foundation moves, then building
  on the waste where that frees quilt cards, then turning a stock card.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from spielcenter.games.base import JSON, Game, Status
from spielcenter.games.cards import Card
from spielcenter.games.crazy_quilt import CELL_INDEX, SHORT_ENDS, is_available
from spielcenter.games.cruel import Cruel, CruelState

from .cruel import solve

HintVerdict = Literal["winnable", "lost", "unknown"]

HINT_NODE_BUDGET = 20_000
"""Positions the solver may search for one hint (well under a second)."""

UNDO_NODE_BUDGET = 20_000
"""Positions the solver may search for each earlier position when looking for where to undo to."""


@dataclass(frozen=True)
class Hint:
    """A hint for the player."""

    move: str | None
    """The suggested move in the game's notation; ``None`` when there is none to suggest."""
    verdict: HintVerdict
    """``winnable``: the move keeps the game winnable; ``lost``: no winning line remains;
    ``unknown``: the move is a heuristic's choice."""
    text_key: str
    """The i18n key of the text shown with the hint (``hint.*``)."""
    undo_to: int | None = None
    """For a lost game with a known history: undo to this many moves to be winnable again."""


def hint(
    game: Game[Any, Any],
    state: Any,
    history: Sequence[str] | None = None,
    *,
    node_budget: int = HINT_NODE_BUDGET,
) -> Hint:
    """A hint for ``state`` of ``game``.

    ``history`` is the list of moves played from the deal's start (as a :class:`Record` keeps
    it); with it, a hint for a lost Cruel game says how far to undo. Raises ``ValueError`` for a
    game that has no hints.
    """
    if isinstance(game, Cruel):
        return cruel_hint(game, state, history, node_budget=node_budget)
    if game.name == "crazy-quilt":
        return quilt_hint(game.view_for(state, 0))
    raise ValueError(f"there are no hints for {game.name!r}; hints exist for Cruel and Crazy Quilt")


# -- Cruel -------------------------------------------------------------------------------------


def cruel_hint(
    game: Cruel,
    state: CruelState,
    history: Sequence[str] | None = None,
    *,
    node_budget: int = HINT_NODE_BUDGET,
) -> Hint:
    """The Cruel hint: the solver's first move when it finds a win, else a heuristic move."""
    status = game.status(state)
    if status is Status.WON:
        return Hint(None, "winnable", "hint.won")
    verdict = solve(state, node_budget=node_budget)
    if verdict.result == "won":
        return Hint(verdict.moves[0], "winnable", "hint.cruel.keeps_winnable")
    if status is Status.LOST:
        return Hint(None, "lost", "hint.cruel.no_winning_line", _undo_point(game, state, history))
    move = cruel_heuristic_move(game, state)
    if verdict.result == "lost":
        return Hint(move, "lost", "hint.cruel.no_winning_line", _undo_point(game, state, history))
    return Hint(move, "unknown", "hint.cruel.heuristic")


def cruel_heuristic_move(game: Cruel, state: CruelState) -> str | None:
    """A sensible move without search: a foundation move, else a building move that lets a
    card go up next, else any building move, else the redeal."""
    moves = game.legal_moves(state)
    if not moves:
        return None
    ups = [move for move in moves if move.is_to_foundation]
    if ups:
        return game.format_move(ups[0])
    builds = [move for move in moves if not move.is_redeal]
    for move in builds:
        after = game.apply(state, move)
        if any(m.is_to_foundation for m in game.card_moves(after)):
            return game.format_move(move)
    return game.format_move(builds[0] if builds else moves[0])


def _undo_point(game: Cruel, state: CruelState, history: Sequence[str] | None) -> int | None:
    """How many moves of ``history`` to keep so that the game can be won again, or ``None``.

    Winnability only falls along a game (a position after a lost one is lost too), so a binary
    search over the history finds the last winnable position; a position the solver cannot decide
    in its budget counts as not winnable.
    """
    if not history:
        return None
    low, high = -1, len(history)  # winnable after `low` moves (-1: not known); lost after `high`
    while high - low > 1:
        middle = (low + high) // 2
        position = game.replay(state.deal, history[:middle])
        if solve(position, node_budget=UNDO_NODE_BUDGET).result == "won":
            low = middle
        else:
            high = middle
    return low if low >= 0 else None


# -- Crazy Quilt -------------------------------------------------------------------------------

_QUILT_FOUNDATION_TARGETS = ("u", "d")


def quilt_hint(view: JSON) -> Hint:
    """The Crazy Quilt hint, from the player's view only (never the stock order).

    Foundation moves first (the one that frees most quilt cards), then a quilt card onto the
    waste that frees quilt cards, then turning a stock card, then the redeal, then any other move.
    """
    legal: list[str] = list(view.get("legal", []))
    if view.get("status") == Status.WON.value:
        return Hint(None, "winnable", "hint.won")
    if not legal:
        return Hint(None, "lost", "hint.none")
    quilt = _quilt_from_view(view)

    def freed(move: str) -> int:
        return _cards_freed(quilt, move[:2]) if move[:2] in CELL_INDEX else 0

    ups = [m for m in legal if m[-1] in _QUILT_FOUNDATION_TARGETS]
    if ups:
        return Hint(max(ups, key=freed), "unknown", "hint.quilt.foundation")
    freeing = [m for m in legal if m.endswith("w") and m[:2] in CELL_INDEX and freed(m) > 0]
    if freeing:
        return Hint(max(freeing, key=freed), "unknown", "hint.quilt.waste_frees")
    if "s" in legal:
        return Hint("s", "unknown", "hint.quilt.turn")
    if "r" in legal:
        return Hint("r", "unknown", "hint.quilt.redeal")
    return Hint(legal[0], "unknown", "hint.quilt.waste")


def _quilt_from_view(view: JSON) -> list[Card | None]:
    rows = view["quilt"]
    return [None if text is None else Card.parse(text) for row in rows for text in row]


def _cards_freed(quilt: list[Card | None], cell_name: str) -> int:
    """How many quilt cards become available when the card at ``cell_name`` leaves."""
    cell = CELL_INDEX[cell_name]
    after = list(quilt)
    after[cell] = None
    neighbours = {
        other for other, ends in enumerate(SHORT_ENDS) if cell in ends and quilt[other] is not None
    }
    return sum(
        1 for other in neighbours if not is_available(quilt, other) and is_available(after, other)
    )
