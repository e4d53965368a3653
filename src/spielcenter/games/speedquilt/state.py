"""The state of a Speedquilt game: plain data, copied (never shared) by every move.

Shelves list their slots left to right (``None`` is a gap); decks list their blocks top first, so
"under the deck" is the end of the list. A turn is either a seat's own turn or, solo, the giving
turn; its dice are stored as rolled, and each seat's private adjustments (thimble, dye bath) lie
beside them, visible only to that seat.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from enum import StrEnum

from spielcenter.games.base import Deal

from .model import Cell, Colour, Deck, Die, KitKind, PlacedBlock

__all__ = [
    "FULL_QUILT",
    "GameState",
    "Phase",
    "SeatState",
    "Snapshot",
    "TurnKind",
    "TurnState",
    "Window",
    "snapshot",
]

FULL_QUILT = 9
"""Placing the ninth block triggers the end."""


class Phase(StrEnum):
    """Where the game stands."""

    CHOOSING = "choosing"
    """Every seat chooses her start row and the block she puts back."""
    TURN = "turn"
    """A seat's own turn (with giving windows of the others)."""
    GIVING_TURN = "giving_turn"
    """Solo: the dice are rolled once and she places some of them."""
    SHOP_REMOVE = "shop_remove"
    """Solo: she picks the shelf whose rightmost block leaves the shop."""
    OVER = "over"


class TurnKind(StrEnum):
    """An own turn or the solo giving turn."""

    OWN = "own"
    GIVING = "giving"


@dataclass
class SeatState:
    """One seat: her dealt blocks (until the start choice), her pending choice, her quilt."""

    hand: list[str] = field(default_factory=list)
    row: list[str] | None = None
    returned: str | None = None
    quilt: dict[Cell, PlacedBlock] = field(default_factory=dict)
    gifts: int = 0
    """Dice she has taken while giving, over the whole game."""

    @property
    def chosen(self) -> bool:
        """Whether she has made her start choice."""
        return self.row is not None


@dataclass
class Window:
    """A passive seat's giving window after a reroll: the newly rolled dice and what she took."""

    offered: list[Colour]
    taken: list[Colour] = field(default_factory=list)


@dataclass
class Snapshot:
    """What undo restores: everything the active seat's own actions can change."""

    quilt: dict[Cell, PlacedBlock]
    shelves: dict[Deck, list[str | None]]
    decks: dict[Deck, list[str]]
    used: list[Colour]
    kit_uses: dict[KitKind, int]
    adjustments: dict[Colour, Die]
    actions: int


@dataclass
class TurnState:
    """The turn in progress."""

    seat: int
    kind: TurnKind = TurnKind.OWN
    rolls: int = 0
    dice: dict[Colour, int] = field(default_factory=dict)
    """The dice as rolled (public once rolled)."""
    basket: list[Colour] = field(default_factory=list)
    used: list[Colour] = field(default_factory=list)
    rolling_over: bool = False
    """The first action ends rolling (undo does not bring it back)."""
    actions: int = 0
    """Actions standing (sewing, buying); undo takes them back."""
    bin_used: bool = False
    decisions: int = 0
    """The active seat's decisions in this turn (undo does not take them back): a turn is capped
    at ``rules.MAX_DECISIONS_PER_TURN`` so that a log cannot grow without end."""
    revealed: bool = False
    """A buy this turn brought a block from a deck onto a shelf for everyone to see. Undo puts it
    back on top of its deck but cannot unsee it, so the bargain bin stays closed for the turn:
    its draw would no longer be blind (seed 003, "ziehst blind")."""
    drawn: tuple[Deck, str] | None = None
    """A blind-drawn block waiting to be placed or returned (seen only by the active seat)."""
    windows: dict[int, Window] = field(default_factory=dict)
    adjustments: dict[int, dict[Colour, Die]] = field(default_factory=dict)
    """Per seat: the dice as she has adjusted them (private)."""
    kit_uses: dict[int, dict[KitKind, int]] = field(default_factory=dict)
    undo: list[Snapshot] = field(default_factory=list)
    allowance: int = 0
    """Solo giving turn: how many dice she may still place."""
    own_rerolls: int = 0
    """Solo giving turn: how many rerolls the own turn before it used."""


@dataclass
class GameState:
    """A whole game of Speedquilt."""

    deal: Deal
    """A deal number, or the secret seed of a ranked or staked game (never in a view)."""
    day: str | None
    phase: Phase
    decks: dict[Deck, list[str]]
    shelves: dict[Deck, list[str | None]]
    seats: list[SeatState]
    start_player: int
    round: int = 1
    turn: TurnState | None = None
    end_round: int | None = None
    """The last round to be played once the end has been triggered."""
    removed: list[str] = field(default_factory=list)
    """Solo: blocks that left the shop."""
    final_round: int | None = None
    """The round in which the game ended."""

    def copy(self) -> GameState:
        """An independent copy (moves never share data between states).

        Written out rather than ``copy.deepcopy``: every move of a table copies the state, and
        the generic walk was most of a move's cost on the server (docs/performance.md). Dice,
        placed blocks, drawn blocks and the deal are immutable and shared; every list and dict
        is new (``tests/unit/speedquilt/test_state_copy.py`` holds this to ``deepcopy``).
        """
        turn = self.turn
        return GameState(
            deal=self.deal,
            day=self.day,
            phase=self.phase,
            decks={deck: list(blocks) for deck, blocks in self.decks.items()},
            shelves={deck: list(slots) for deck, slots in self.shelves.items()},
            seats=[_seat_copy(seat) for seat in self.seats],
            start_player=self.start_player,
            round=self.round,
            turn=None if turn is None else _turn_copy(turn),
            end_round=self.end_round,
            removed=list(self.removed),
            final_round=self.final_round,
        )

    def finish(self) -> None:
        """The game is over after the current round."""
        self.phase = Phase.OVER
        self.final_round = self.round
        self.turn = None

    def full_quilt_exists(self) -> bool:
        """Whether some seat has nine blocks in her quilt (the end trigger)."""
        return any(len(seat.quilt) >= FULL_QUILT for seat in self.seats)

    @property
    def active(self) -> int | None:
        """The seat whose turn it is (``None`` while choosing or after the end)."""
        return self.turn.seat if self.turn is not None else None


def _seat_copy(seat: SeatState) -> SeatState:
    return SeatState(
        hand=list(seat.hand),
        row=None if seat.row is None else list(seat.row),
        returned=seat.returned,
        quilt=dict(seat.quilt),
        gifts=seat.gifts,
    )


def _turn_copy(turn: TurnState) -> TurnState:
    return TurnState(
        seat=turn.seat,
        kind=turn.kind,
        rolls=turn.rolls,
        dice=dict(turn.dice),
        basket=list(turn.basket),
        used=list(turn.used),
        rolling_over=turn.rolling_over,
        actions=turn.actions,
        bin_used=turn.bin_used,
        decisions=turn.decisions,
        revealed=turn.revealed,
        drawn=turn.drawn,
        windows={
            seat: Window(list(window.offered), list(window.taken))
            for seat, window in turn.windows.items()
        },
        adjustments={seat: dict(dice) for seat, dice in turn.adjustments.items()},
        kit_uses={seat: dict(uses) for seat, uses in turn.kit_uses.items()},
        undo=[_snapshot_copy(kept) for kept in turn.undo],
        allowance=turn.allowance,
        own_rerolls=turn.own_rerolls,
    )


def _snapshot_copy(kept: Snapshot) -> Snapshot:
    return Snapshot(
        quilt=dict(kept.quilt),
        shelves={deck: list(slots) for deck, slots in kept.shelves.items()},
        decks={deck: list(blocks) for deck, blocks in kept.decks.items()},
        used=list(kept.used),
        kit_uses=dict(kept.kit_uses),
        adjustments=dict(kept.adjustments),
        actions=kept.actions,
    )


def snapshot(state: GameState, turn: TurnState) -> Snapshot:
    """What undo will restore of the active seat's own doings."""
    seat = turn.seat
    return Snapshot(
        quilt=dict(state.seats[seat].quilt),
        shelves=copy.deepcopy(state.shelves),
        decks=copy.deepcopy(state.decks),
        used=list(turn.used),
        kit_uses=dict(turn.kit_uses.get(seat, {})),
        adjustments=dict(turn.adjustments.get(seat, {})),
        actions=turn.actions,
    )
