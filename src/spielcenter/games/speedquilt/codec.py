"""The JSON codec of a full Speedquilt state (nothing hidden: this is for storage and replay).

Cells are written ``"x,y"``; dice as ``{"colour": value}``; adjustments per seat as
``{"seat": {"colour": [colour, value]}}``; a game dealt from a secret seed has ``"deal": null``
and the seed as ``"seed": "<hex>"`` (this is the full state: never send it to a player).
:func:`decode` checks the shape and every block id and raises :class:`StateFormatError` naming
the fault.
"""

from __future__ import annotations

from typing import Any

from spielcenter.games.base import JSON, Deal, StateFormatError
from spielcenter.games.seeds import SecretSeed, SeedError

from .model import Cell, Colour, Deck, Die, KitKind, PlacedBlock
from .options import Context
from .state import GameState, Phase, SeatState, Snapshot, TurnKind, TurnState, Window

__all__ = ["decode", "encode"]

FORMAT = "speedquilt/1"


def _cell(cell: Cell) -> str:
    return f"{cell[0]},{cell[1]}"


def _quilt(quilt: dict[Cell, PlacedBlock]) -> JSON:
    return {_cell(c): {"block": p.block_id, "filled": list(p.filled)} for c, p in quilt.items()}


def _adjusted(adjusted: dict[Colour, Die]) -> JSON:
    return {str(c): [str(d.colour), d.value] for c, d in adjusted.items()}


def _snapshot(s: Snapshot) -> JSON:
    return {
        "quilt": _quilt(s.quilt),
        "shelves": {str(d): list(v) for d, v in s.shelves.items()},
        "decks": {str(d): list(v) for d, v in s.decks.items()},
        "used": [str(c) for c in s.used],
        "kit_uses": {str(k): n for k, n in s.kit_uses.items()},
        "adjustments": _adjusted(s.adjustments),
        "actions": s.actions,
    }


def _turn(t: TurnState) -> JSON:
    return {
        "seat": t.seat,
        "kind": str(t.kind),
        "rolls": t.rolls,
        "dice": {str(c): v for c, v in t.dice.items()},
        "basket": [str(c) for c in t.basket],
        "used": [str(c) for c in t.used],
        "rolling_over": t.rolling_over,
        "actions": t.actions,
        "bin_used": t.bin_used,
        "revealed": t.revealed,
        "decisions": t.decisions,
        "drawn": [str(t.drawn[0]), t.drawn[1]] if t.drawn else None,
        "windows": {
            str(s): {"offered": [str(c) for c in w.offered], "taken": [str(c) for c in w.taken]}
            for s, w in t.windows.items()
        },
        "adjustments": {str(s): _adjusted(a) for s, a in t.adjustments.items()},
        "kit_uses": {str(s): {str(k): n for k, n in u.items()} for s, u in t.kit_uses.items()},
        "undo": [_snapshot(s) for s in t.undo],
        "allowance": t.allowance,
        "own_rerolls": t.own_rerolls,
    }


def encode(state: GameState) -> JSON:
    """The full state as JSON-ready data."""
    return {
        "format": FORMAT,
        **_deal(state.deal),
        "day": state.day,
        "phase": str(state.phase),
        "decks": {str(d): list(v) for d, v in state.decks.items()},
        "shelves": {str(d): list(v) for d, v in state.shelves.items()},
        "seats": [
            {
                "hand": list(s.hand),
                "row": list(s.row) if s.row is not None else None,
                "returned": s.returned,
                "quilt": _quilt(s.quilt),
                "gifts": s.gifts,
            }
            for s in state.seats
        ],
        "start_player": state.start_player,
        "round": state.round,
        "turn": _turn(state.turn) if state.turn is not None else None,
        "end_round": state.end_round,
        "removed": list(state.removed),
        "final_round": state.final_round,
    }


def _deal(deal: Deal) -> JSON:
    if isinstance(deal, SecretSeed):
        return {"deal": None, "seed": deal.hex()}
    return {"deal": deal}


# -- decoding -----------------------------------------------------------------------------------


class _Reader:
    """Decoding helpers that turn every fault into a :class:`StateFormatError`."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    def block_id(self, value: Any) -> str:
        if not isinstance(value, str):
            raise StateFormatError(f"a block id must be text, not {value!r}")
        try:
            self.ctx.block(value)
        except (KeyError, LookupError, ValueError):
            raise StateFormatError(f"unknown block id {value!r}") from None
        return value

    def cell(self, text: Any) -> Cell:
        try:
            x, y = str(text).split(",")
            return int(x), int(y)
        except ValueError:
            raise StateFormatError(f"{text!r} is not a cell x,y") from None

    def quilt(self, data: Any) -> dict[Cell, PlacedBlock]:
        out = {}
        for key, placed in dict(data).items():
            block_id = self.block_id(placed["block"])
            filled = tuple(None if v is None else int(v) for v in placed["filled"])
            if len(filled) != len(self.ctx.block(block_id).patches):
                raise StateFormatError(f"{block_id}: wrong number of patches in the state")
            out[self.cell(key)] = PlacedBlock(block_id, filled)
        return out

    def adjusted(self, data: Any) -> dict[Colour, Die]:
        return {Colour(c): Die(Colour(d[0]), int(d[1])) for c, d in dict(data).items()}

    def decks(self, data: Any) -> dict[Deck, list[str]]:
        return {Deck(d): [self.block_id(b) for b in v] for d, v in dict(data).items()}

    def shelves(self, data: Any) -> dict[Deck, list[str | None]]:
        return {
            Deck(d): [None if b is None else self.block_id(b) for b in v]
            for d, v in dict(data).items()
        }

    def snapshot(self, d: Any) -> Snapshot:
        return Snapshot(
            quilt=self.quilt(d["quilt"]),
            shelves=self.shelves(d["shelves"]),
            decks=self.decks(d["decks"]),
            used=[Colour(c) for c in d["used"]],
            kit_uses={KitKind(k): int(n) for k, n in d["kit_uses"].items()},
            adjustments=self.adjusted(d["adjustments"]),
            actions=int(d["actions"]),
        )

    def turn(self, d: Any) -> TurnState:
        drawn = d["drawn"]
        return TurnState(
            seat=int(d["seat"]),
            kind=TurnKind(d["kind"]),
            rolls=int(d["rolls"]),
            dice={Colour(c): int(v) for c, v in d["dice"].items()},
            basket=[Colour(c) for c in d["basket"]],
            used=[Colour(c) for c in d["used"]],
            rolling_over=bool(d["rolling_over"]),
            actions=int(d["actions"]),
            bin_used=bool(d["bin_used"]),
            # Both absent in positions encoded before they existed.
            revealed=bool(d.get("revealed", False)),
            decisions=int(d.get("decisions", 0)),
            drawn=(Deck(drawn[0]), self.block_id(drawn[1])) if drawn else None,
            windows={
                int(s): Window([Colour(c) for c in w["offered"]], [Colour(c) for c in w["taken"]])
                for s, w in d["windows"].items()
            },
            adjustments={int(s): self.adjusted(a) for s, a in d["adjustments"].items()},
            kit_uses={
                int(s): {KitKind(k): int(n) for k, n in u.items()} for s, u in d["kit_uses"].items()
            },
            undo=[self.snapshot(s) for s in d["undo"]],
            allowance=int(d["allowance"]),
            own_rerolls=int(d["own_rerolls"]),
        )

    def deal(self, d: Any) -> Deal:
        if d.get("seed") is None:
            return int(d["deal"])
        try:
            return SecretSeed.from_hex(d["seed"])
        except SeedError as fault:
            raise StateFormatError(f"bad seed in the state: {fault}") from None

    def seat(self, d: Any) -> SeatState:
        row = d["row"]
        returned = d["returned"]
        return SeatState(
            hand=[self.block_id(b) for b in d["hand"]],
            row=[self.block_id(b) for b in row] if row is not None else None,
            returned=self.block_id(returned) if returned is not None else None,
            quilt=self.quilt(d["quilt"]),
            gifts=int(d["gifts"]),
        )

    def state(self, d: Any) -> GameState:
        if d.get("format") != FORMAT:
            raise StateFormatError(f"not a Speedquilt state (format {d.get('format')!r})")
        seats = [self.seat(s) for s in d["seats"]]
        if len(seats) != self.ctx.seats:
            raise StateFormatError(f"the state has {len(seats)} seats, the game {self.ctx.seats}")
        return GameState(
            deal=self.deal(d),
            day=d["day"],
            phase=Phase(d["phase"]),
            decks=self.decks(d["decks"]),
            shelves=self.shelves(d["shelves"]),
            seats=seats,
            start_player=int(d["start_player"]),
            round=int(d["round"]),
            turn=self.turn(d["turn"]) if d["turn"] is not None else None,
            end_round=None if d["end_round"] is None else int(d["end_round"]),
            removed=[self.block_id(b) for b in d["removed"]],
            final_round=None if d["final_round"] is None else int(d["final_round"]),
        )


def decode(ctx: Context, data: JSON) -> GameState:
    """The state from :func:`encode`'s output; :class:`StateFormatError` if it is malformed."""
    if not isinstance(data, dict):
        raise StateFormatError("a Speedquilt state is a JSON object")
    try:
        return _Reader(ctx).state(data)
    except StateFormatError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as fault:
        raise StateFormatError(f"malformed Speedquilt state: {fault!r}") from None
