"""The hint button: a good next move, from the player's point of view.

:func:`cruel_hint` and :func:`crazy_quilt_hint` answer with a :class:`Hint` (the server and the
command line ask :func:`spielcenter.solvers.registry.hint`, which picks the game's): the move (in
the game's notation), what is known about the position (``winnable``, ``lost`` or ``unknown``), an
i18n key for the text the player reads, and — when the position is lost and the caller passed the
moves played — how far to undo.

* **Cruel** has nothing hidden, so the hint asks the solver (with a small budget): its first move
  keeps a winnable game winnable. When the solver cannot decide in its budget, a heuristic move is
  given instead; when the game is lost, the hint finds the last position of the game that could
  still be won.
* **Crazy Quilt** hides the stock order, and a hint must not give it away: the hint is the honest
  player's choice (:mod:`spielcenter.solvers.crazy_quilt_honest`). It looks only at
  ``game.view_for(state, 0)`` (what the player sees) and, given the moves played, at the views
  along them: after a redeal the player knows the stock (the waste it turned over), and the
  solver looks for a winning line from what it knows. Before that, the honest player's rules of
  thumb (safe foundation moves, other foundation moves, building on the waste where that frees
  quilt cards, turning a stock card, the redeal), guarded by the relaxed game across the redeal
  on stock orders drawn from the unseen cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from spielcenter.games.base import JSON, Game, GameError, Status
from spielcenter.games.cards import Card
from spielcenter.games.crazy_quilt import CELL_INDEX, REDEAL, STOCK
from spielcenter.games.cruel import Cruel, CruelState

from .crazy_quilt_honest import cards_freed, guarded_move, known_position, rule_of_thumb
from .crazy_quilt_search import solve_position
from .cruel import solve

HintVerdict = Literal["winnable", "lost", "unknown"]

HINT_NODE_BUDGET = 20_000
"""Positions the solver may search for one hint (well under a second)."""

QUILT_HINT_NODE_BUDGET = 5_000
"""Positions the solver may search for one Crazy Quilt hint once the stock is known (a few
tenths of a second)."""


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


def crazy_quilt_hint(
    game: Game[Any, Any],
    state: Any,
    history: Sequence[str] | None = None,
    *,
    node_budget: int = QUILT_HINT_NODE_BUDGET,
) -> Hint:
    """The Crazy Quilt hint: the honest player's choice from what the player has seen.

    Only ``game.view_for(state, 0)`` is read of ``state``; with ``history`` (the moves played
    since the deal) the player also remembers the stock it turned over at its last redeal.
    Raises ``ValueError`` when ``history`` does not lead to ``state``.
    """
    view = game.view_for(state, 0)
    known = None if history is None else remembered_stock(game, view, history)
    return quilt_hint(view, known, node_budget=node_budget)


def remembered_stock(game: Game[Any, Any], view: JSON, history: Sequence[str]) -> list[Card] | None:
    """The stock order, top card first, that a player who made ``history`` knows by now.

    The history is replayed from the deal's start, looking only at the engine's views, as the
    player saw them: at a redeal the waste (bottom card first) turned over unshuffled becomes the
    stock, top card first; each turned card leaves it. ``None`` before the first redeal. Raises
    ``ValueError`` for a history that is not a game of this deal leading to ``view``.
    """
    position = game.start(int(view["deal"]))
    known: list[Card] | None = None
    for number, text in enumerate(history, start=1):
        try:
            move = game.format_move(game.parse_move(text))
            seen = game.view_for(position, 0) if move == REDEAL else None
            position = game.play(position, move)
        except GameError as exc:
            raise ValueError(f"move {number} of the history ({text!r}): {exc}") from None
        if seen is not None:
            known = [Card.parse(card) for card in seen["waste"]]
        elif move == STOCK and known:
            known.pop(0)
    if game.view_for(position, 0) != view:
        raise ValueError("the history does not lead to this position")
    return known


def quilt_hint(
    view: JSON,
    known_stock: Sequence[Card] | None = None,
    *,
    node_budget: int = QUILT_HINT_NODE_BUDGET,
) -> Hint:
    """The Crazy Quilt hint from the player's view (and the stock order it remembers, if any).

    With the stock known (after a redeal) the solver looks for a winning line from what the
    player knows: its first move keeps the game winnable. Otherwise, as the honest player does,
    :func:`~spielcenter.solvers.crazy_quilt_honest.guarded_move` chooses (a lone legal move needs
    no rule); ``lost`` when the solver proved that no winning line is left.
    """
    legal: list[str] = list(view.get("legal", []))
    if view.get("status") == Status.WON.value:
        return Hint(None, "winnable", "hint.won")
    if not legal:
        return Hint(None, "lost", "hint.none")
    lost = False
    if known_stock is not None:
        # What the player remembers is all the check across the last redeal reads.
        verdict = solve_position(
            known_position(view, known_stock), node_budget=node_budget, across_redeal=True
        )
        if verdict.result == "won" and verdict.moves and verdict.moves[0] in legal:
            return Hint(verdict.moves[0], "winnable", "hint.quilt.keeps_winnable")
        lost = verdict.result == "lost"
    move = legal[0] if len(legal) == 1 else guarded_move(view, known_stock)
    assert move is not None  # there is a legal move
    if lost:
        return Hint(move, "lost", "hint.quilt.no_winning_line")
    return Hint(move, "unknown", _quilt_reason(view, move))


def _quilt_reason(view: JSON, move: str) -> str:
    """The i18n key that says why the guarded rule of thumb chose ``move``."""
    if len(view["legal"]) > 1 and move != rule_of_thumb(view):
        # The guard overruled the rule: its move leaves the redeal open for more stock orders.
        return "hint.quilt.keeps_redeal_open"
    if move in (STOCK, REDEAL):
        return "hint.quilt.turn" if move == STOCK else "hint.quilt.redeal"
    if move[-1] in ("u", "d"):
        return "hint.quilt.foundation"
    quilt = [None if text is None else Card.parse(text) for row in view["quilt"] for text in row]
    if cards_freed(quilt, CELL_INDEX[move[:2]]):
        return "hint.quilt.waste_frees"
    return "hint.quilt.waste_only"  # no stock, no redeal, no founding: building is all there is
