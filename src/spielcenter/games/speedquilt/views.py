"""What one seat may see of a Speedquilt game.

Left out for everyone: the deal number, the secret seed and the day key (from which unrolled
dice could be computed), the order of both decks (only their sizes are shown), and the undo
snapshots. Left out for everyone but the owner: the dealt four and the start choice before all
have chosen, a blind drawn block, and thimble and dye-bath adjustments (others see those dice as
rolled).

What each seat may read of a *move* (the history lines of the Spielverlauf) is the sibling rule
in ``history.py``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from spielcenter.games.base import JSON, Seat, Status

from .kits import dice_seen_by
from .model import Cell, Die, PlacedBlock
from .options import Context
from .state import GameState, Phase, TurnState

__all__ = ["view_for"]


class _Scoring(Protocol):
    def to_json(self) -> JSON: ...


class _Rules(Protocol):
    """What a view reads of the rules (``rules.Speedquilt``, which imports this module: a
    protocol instead of an import, so the two do not import each other)."""

    @property
    def name(self) -> str: ...
    @property
    def variant(self) -> str: ...
    @property
    def ctx(self) -> Context: ...

    def status(self, state: GameState) -> Status: ...
    def to_act(self, state: GameState) -> frozenset[Seat]: ...
    def scores(self, state: GameState) -> list[int]: ...
    def places(self, state: GameState) -> list[int]: ...
    def quilt_scores(self, state: GameState) -> Sequence[_Scoring]: ...


def _quilt(quilt: dict[Cell, PlacedBlock]) -> list[JSON]:
    return [
        {"x": x, "y": y, "block": p.block_id, "filled": list(p.filled), "finished": p.finished}
        for (x, y), p in sorted(quilt.items(), key=lambda item: (item[0][1], item[0][0]))
    ]


def _seat(state: GameState, index: int, viewer: Seat | None) -> JSON:
    me = state.seats[index]
    out: JSON = {"seat": index, "quilt": _quilt(me.quilt), "gifts": me.gifts}
    if state.phase is Phase.CHOOSING:
        out["chosen"] = me.chosen
        if index == viewer:
            out["hand"] = list(me.hand)
            out["row"] = list(me.row) if me.row is not None else None
            out["returned"] = me.returned
    return out


def _turn(turn: TurnState, viewer: Seat | None) -> JSON:
    seen = dice_seen_by(turn, viewer)
    out: JSON = {
        "seat": turn.seat,
        "kind": str(turn.kind),
        "rolls": turn.rolls,
        "dice": [
            {
                "die": str(c),
                "value": d.value,
                "colour": str(d.colour),
                "adjusted": d != Die(c, turn.dice[c]),
            }
            for c, d in seen.items()
        ],
        "basket": [str(c) for c in turn.basket],
        "used": [str(c) for c in turn.used],
        "acted": turn.rolling_over,
        "bin_used": turn.bin_used,
        "windows": {
            str(s): {"offered": [str(c) for c in w.offered], "taken": [str(c) for c in w.taken]}
            for s, w in turn.windows.items()
        },
        "can_undo": bool(turn.undo) and viewer == turn.seat,
        "allowance": turn.allowance,
        # Her own kit uses of this turn (her block info tells whether her scissors still help).
        "kit_uses": {str(kind): n for kind, n in turn.kit_uses.get(viewer, {}).items()}
        if viewer is not None
        else {},
    }
    if turn.drawn is not None:
        deck, block_id = turn.drawn
        out["drawn"] = {"deck": str(deck), "block": block_id if viewer == turn.seat else None}
    return out


def view_for(game: _Rules, state: GameState, seat: Seat | None) -> JSON:
    """The JSON ``seat`` (``None``: a spectator) may see."""
    options = game.ctx.options
    view: JSON = {
        "game": game.name,
        "variant": game.variant,
        "status": str(game.status(state)),
        "phase": str(state.phase),
        "you": seat,
        "round": state.round,
        "max_rounds": options.max_rounds,
        "start_player": state.start_player,
        "end_round": state.end_round,
        "to_act": sorted(game.to_act(state)),
        "decks": {str(d): len(pile) for d, pile in state.decks.items()},
        "shop": {str(d): list(shelf) for d, shelf in state.shelves.items()},
        "removed": list(state.removed),
        "seats": [_seat(state, i, seat) for i in range(len(state.seats))],
        "turn": _turn(state.turn, seat) if state.turn is not None else None,
    }
    if options.target is not None:
        view["target"] = options.target
    if state.phase is Phase.OVER:
        view["scores"] = game.scores(state)
        view["places"] = game.places(state)
        view["breakdown"] = [score.to_json() for score in game.quilt_scores(state)]
    return view
