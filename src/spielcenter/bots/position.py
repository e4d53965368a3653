"""What a computer player knows: the position rebuilt from its seat's view alone.

A bot never sees the engine's state. It gets ``view_for(state, seat)`` and rebuilds from it a
*belief* :class:`GameState` that agrees with the real one on everything the seat may see: quilts,
shop, dice as the seat sees them, basket, windows, rounds. What the view leaves out is filled in
from public reckoning only — the decks hold the blocks nobody has seen (in catalogue order, not
their real order), and the seat's own kit uses of this turn come from the bot's memory of its
own moves. The engine's ``reason`` and ``legal_moves`` then answer for the seat exactly as they
would on the real state.
"""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping
from typing import Any

from spielcenter.games.base import JSON
from spielcenter.games.speedquilt.catalogue import Catalogue
from spielcenter.games.speedquilt.model import Cell, Colour, Deck, Die, KitKind, PlacedBlock
from spielcenter.games.speedquilt.state import (
    GameState,
    Phase,
    SeatState,
    TurnKind,
    TurnState,
    Window,
)

__all__ = ["quilt_of", "rebuild", "turn_key", "unseen_blocks"]

Memory = MutableMapping[str, Any]


def quilt_of(seat_view: Mapping[str, Any]) -> dict[Cell, PlacedBlock]:
    """A seat's quilt from its part of the view."""
    return {
        (entry["x"], entry["y"]): PlacedBlock(entry["block"], tuple(entry["filled"]))
        for entry in seat_view["quilt"]
    }


def unseen_blocks(view: JSON, catalogue: Catalogue, deck: Deck) -> list[str]:
    """The blocks of ``deck`` this seat has not seen anywhere: what that deck may still hold."""
    seen: set[str] = set(view["removed"])
    seen.update(b for shelf in view["shop"].values() for b in shelf if b is not None)
    for seat in view["seats"]:
        seen.update(entry["block"] for entry in seat["quilt"])
        seen.update(seat.get("hand") or [])
    turn = view.get("turn")
    if turn and turn.get("drawn") and turn["drawn"].get("block"):
        seen.add(turn["drawn"]["block"])
    ids = catalogue.pattern_ids if deck is Deck.PATTERN else catalogue.kit_ids
    return [b for b in ids if b not in seen]


def turn_key(view: JSON) -> str:
    """Names the turn in progress, so that memory of kit uses lasts exactly one turn."""
    turn = view.get("turn") or {}
    return f"{view['round']}/{turn.get('seat')}/{turn.get('kind')}"


def rebuild(view: JSON, catalogue: Catalogue, memory: Memory) -> GameState:
    """The belief state of the viewing seat (see the module docstring)."""
    decks = {}
    for deck in Deck:
        unseen = unseen_blocks(view, catalogue, deck)
        decks[deck] = unseen[: view["decks"][str(deck)]]
    seats = [_seat(seat_view) for seat_view in view["seats"]]
    state = GameState(
        deal=1,
        day=None,
        phase=Phase(view["phase"]),
        decks=decks,
        shelves={Deck(d): list(shelf) for d, shelf in view["shop"].items()},
        seats=seats,
        start_player=view["start_player"],
        round=view["round"],
        end_round=view["end_round"],
        removed=list(view["removed"]),
    )
    if view.get("turn") is not None:
        state.turn = _turn(view["turn"], view["you"], memory.get(turn_key(view), {}))
    return state


def _seat(seat_view: Mapping[str, Any]) -> SeatState:
    seat = SeatState(quilt=quilt_of(seat_view))
    seat.hand = list(seat_view.get("hand") or [])
    if seat_view.get("chosen"):
        # Another seat's choice is private; a placeholder row marks only *that* she chose.
        seat.row = list(seat_view.get("row") or ["?", "?", "?"])
        seat.returned = seat_view.get("returned") or "?"
    return seat


def _turn(data: Mapping[str, Any], me: int, uses: Mapping[str, int]) -> TurnState:
    dice: dict[Colour, int] = {}
    mine: dict[Colour, Die] = {}
    for die in data["dice"]:
        colour = Colour(die["die"])
        dice[colour] = die["value"]
        if die["adjusted"]:
            mine[colour] = Die(Colour(die["colour"]), die["value"])
    acted = bool(data["acted"])
    own = data["seat"] == me and data["kind"] == str(TurnKind.OWN)
    turn = TurnState(
        seat=data["seat"],
        kind=TurnKind(data["kind"]),
        rolls=data["rolls"],
        dice=dice,
        basket=[Colour(c) for c in data["basket"]],
        used=[Colour(c) for c in data["used"]],
        rolling_over=acted,
        # The view tells only whether rolling is over; a bot never undoes, so in its own turn
        # "acted and no bargain bin" means an action stands.
        actions=1 if own and acted and not data["bin_used"] else 0,
        bin_used=bool(data["bin_used"]),
        windows={
            int(s): Window([Colour(c) for c in w["offered"]], [Colour(c) for c in w["taken"]])
            for s, w in data["windows"].items()
        },
        adjustments={me: mine} if mine else {},
        kit_uses={me: {KitKind(k): n for k, n in uses.items()}} if uses else {},
        allowance=data["allowance"],
    )
    drawn = data.get("drawn")
    if drawn and drawn.get("block"):
        turn.drawn = (Deck(drawn["deck"]), drawn["block"])
    return turn
