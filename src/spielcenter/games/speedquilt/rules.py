"""The Speedquilt engine: base.py's :class:`Game` protocol for a whole game of 1–4 seats.

Every move has one reason function (why it is not allowed now) and one apply function; ``check``
raises the reason, ``legal_moves`` keeps the candidates without one, ``apply`` trusts its caller.
Several seats may act at once (the giving windows), so every method takes the seat.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from itertools import combinations, permutations
from typing import Any, NamedTuple, TypeVar

from spielcenter.games.base import JSON, Deal, Game, IllegalMoveError, Seat, Status

from . import codec, model, views
from .bargain_bin import (
    apply_bin_dice,
    apply_bin_draw,
    apply_bin_place,
    apply_bin_return,
    reason_bin_dice,
    reason_bin_draw,
    reason_bin_place,
    reason_bin_return,
)
from .giving import apply_give, apply_pass, may_take, reason_give, reason_pass
from .kits import (
    adjustable,
    apply_adjust,
    dice_seen_by,
    one_position,
    reason_adjust,
    stand_ins,
    uses_left,
)
from .model import COLOURS, Cell, Deck, KitKind
from .moves import (
    BinDice,
    BinDraw,
    BinPlace,
    BinReturn,
    Buy,
    Choose,
    Dye,
    End,
    Give,
    Keep,
    Move,
    Pass,
    Placement,
    Remove,
    Reroll,
    Roll,
    Sew,
    Thimble,
    Undo,
    fmt,
    parse,
)
from .options import Context
from .scoring import QuiltScore, rank_players, score_quilt
from .setup import apply_choose, reason_choose, start
from .solo import apply_remove, reason_remove, round_bonus
from .state import GameState, Phase
from .turn import (
    PRICE,
    apply_buy,
    apply_end,
    apply_keep,
    apply_reroll,
    apply_roll,
    apply_sew,
    apply_undo,
    available,
    may_reroll,
    reason_buy,
    reason_end,
    reason_keep,
    reason_reroll,
    reason_roll,
    reason_sew,
    reason_undo,
)

__all__ = ["MAX_DECISIONS_PER_TURN", "RULES", "MoveRule", "Speedquilt"]

MAX_DECISIONS_PER_TURN = 100
"""The active seat's decisions in one turn at most (a real turn takes a dozen or two). Sewing and
undoing again and again changes the position each time, so only a cap bounds the log; at the cap
only the moves that close the turn are left."""
_CLOSING = (End, BinPlace, BinReturn)
"""What the active seat may still do at the cap: end the turn (after placing or returning a
drawn block)."""

R = TypeVar("R")
Rule = Callable[[Context, GameState, Any, int], R]
"""A rule of one move kind: it reads the context, the state, the move and the seat."""


class MoveRule(NamedTuple):
    """How one kind of move is checked and applied, both with one signature (:data:`Rule`)."""

    reason: Rule[str | None]
    """Why the move is not allowed now, or ``None``."""
    apply: Rule[None]
    """Make the move on a copy of the state (the caller checked it)."""


# Each rule reads only what it needs; these say which, and give it the one signature.


def _state_seat(rule: Callable[[GameState, int], R]) -> Rule[R]:
    return lambda ctx, state, move, seat: rule(state, seat)


def _state_move(rule: Callable[[GameState, Any], R]) -> Rule[R]:
    return lambda ctx, state, move, seat: rule(state, move)


def _state_move_seat(rule: Callable[[GameState, Any, int], R]) -> Rule[R]:
    return lambda ctx, state, move, seat: rule(state, move, seat)


def _ctx_state_seat(rule: Callable[[Context, GameState, int], R]) -> Rule[R]:
    return lambda ctx, state, move, seat: rule(ctx, state, seat)


def _state(rule: Callable[[GameState], R]) -> Rule[R]:
    return lambda ctx, state, move, seat: rule(state)


RULES: dict[type, MoveRule] = {
    Choose: MoveRule(_state_move_seat(reason_choose), apply_choose),
    Roll: MoveRule(_state_seat(reason_roll), _ctx_state_seat(apply_roll)),
    Keep: MoveRule(reason_keep, _state_move(apply_keep)),
    Reroll: MoveRule(_ctx_state_seat(reason_reroll), _ctx_state_seat(apply_reroll)),
    Sew: MoveRule(reason_sew, apply_sew),
    Buy: MoveRule(reason_buy, apply_buy),
    BinDice: MoveRule(reason_bin_dice, apply_bin_dice),
    BinDraw: MoveRule(_state_move_seat(reason_bin_draw), _state_move(apply_bin_draw)),
    BinPlace: MoveRule(_state_move_seat(reason_bin_place), apply_bin_place),
    BinReturn: MoveRule(_state_seat(reason_bin_return), _state(apply_bin_return)),
    Give: MoveRule(reason_give, apply_give),
    Pass: MoveRule(_state_seat(reason_pass), _ctx_state_seat(apply_pass)),
    Thimble: MoveRule(reason_adjust, _state_move_seat(apply_adjust)),
    Dye: MoveRule(reason_adjust, _state_move_seat(apply_adjust)),
    Undo: MoveRule(_state_seat(reason_undo), _state_seat(apply_undo)),
    End: MoveRule(_state_seat(reason_end), _ctx_state_seat(apply_end)),
    Remove: MoveRule(_state_move(reason_remove), _state_move(apply_remove)),
}
"""Every kind of move with its rule: :meth:`Speedquilt.reason` and :meth:`Speedquilt.apply`
look the move's kind up here and nowhere else."""


class Speedquilt(Game[GameState, Move]):
    """Speedquilt for 1–4 seats; one seat plays the solo rules (giving turn, 12 rounds)."""

    name = "speedquilt"

    def __init__(self, ctx: Context, variant: str) -> None:
        self.ctx = ctx
        self.variant = variant
        self.seats = ctx.seats

    # -- start and moves ------------------------------------------------------------------------

    def start(self, deal: Deal) -> GameState:
        """The dealt position: shop on the shelves, four blocks in every seat's hand; ``deal``
        is a deal number or a :class:`~spielcenter.games.seeds.SecretSeed`."""
        return start(self.ctx, deal)

    def to_act(self, state: GameState) -> frozenset[Seat]:
        """Choosing: every seat still to choose. A turn: the active seat and every open window."""
        if state.phase is Phase.CHOOSING:
            return frozenset(i for i, seat in enumerate(state.seats) if not seat.chosen)
        if state.phase is Phase.OVER:
            return frozenset()
        if state.phase is Phase.SHOP_REMOVE:
            return frozenset({0})
        assert state.turn is not None
        return frozenset({state.turn.seat, *state.turn.windows})

    def parse_move(self, text: str) -> Move:
        """Read a move; :class:`MoveSyntaxError` if the text is not one."""
        return parse(text)

    def format_move(self, move: Move) -> str:
        """The canonical notation of ``move``."""
        return fmt(move)

    def reason(self, state: GameState, move: Move, seat: Seat) -> str | None:
        """Why ``seat`` may not make ``move`` now, or ``None`` if she may."""
        if not 0 <= seat < len(state.seats):
            return f"there is no seat {seat} at this table"
        if seat not in self.to_act(state):
            return f"it is not seat {seat}'s turn"
        if _at_cap(state, seat) and not isinstance(move, _CLOSING):
            return f"{MAX_DECISIONS_PER_TURN} decisions in one turn are the most: end the turn"
        return RULES[type(move)].reason(self.ctx, state, move, seat)

    def check(self, state: GameState, move: Move, seat: Seat = 0) -> None:
        """Raise :class:`IllegalMoveError` with the reason unless the move is legal now."""
        why = self.reason(state, move, seat)
        if why is not None:
            raise IllegalMoveError(f"{fmt(move)}: {why}")

    def apply(self, state: GameState, move: Move, seat: Seat = 0) -> GameState:
        """The position after ``move`` (a new state; the old one is untouched)."""
        after = state.copy()
        turn = after.turn
        RULES[type(move)].apply(self.ctx, after, move, seat)
        if turn is not None and after.turn is turn and turn.seat == seat:
            turn.decisions += 1
        return after

    def legal_moves(self, state: GameState, seat: Seat = 0) -> list[Move]:
        """Every move ``seat`` may make now, in a stable order: the candidates :meth:`reason`
        lets pass.

        What :meth:`reason` asks first of every move (the seat acts now; at the cap of decisions
        only a closing move) is asked once here, and the rules of each move see the seat's
        finished kits and dice worked out once (``kits.one_position``): a person's view lists
        her legal moves at every event of her table, about a hundred candidates each time
        (docs/performance.md, "A table event's CPU")."""
        if seat not in self.to_act(state):
            return []
        capped = _at_cap(state, seat)
        ctx = self.ctx
        with one_position(state):
            return [
                m
                for m in self._candidates(state, seat)
                if (not capped or isinstance(m, _CLOSING))
                and RULES[type(m)].reason(ctx, state, m, seat) is None
            ]

    def _candidates(self, state: GameState, seat: Seat) -> Iterator[Move]:
        if state.phase is Phase.CHOOSING:
            yield from _choices(state.seats[seat].hand)
            return
        if state.phase is Phase.SHOP_REMOVE:
            yield from (Remove(deck) for deck in Deck)
            return
        turn = state.turn
        assert turn is not None
        yield from (Roll(), Reroll(), End(), Undo(), Pass(), BinReturn())
        # Kinds of move the rules refuse outright now are not named (their first check).
        ctx = self.ctx
        if may_reroll(ctx, state, seat):
            yield from _keeps()
        thimble = uses_left(ctx, state, seat, KitKind.THIMBLE) > 0
        dye = uses_left(ctx, state, seat, KitKind.DYE_BATH) > 0
        if thimble or dye:
            yield from _adjustments(adjustable(state, seat), thimble, dye)
        if seat == turn.seat and turn.rolls and state.phase is Phase.TURN:
            yield from self._actions(state, seat)
        if may_take(turn, seat):
            yield from (Give(p) for p in self._singles(state, seat, list(turn.dice)))

    def _actions(self, state: GameState, seat: Seat) -> Iterator[Move]:
        turn = state.turn
        assert turn is not None
        free = available(turn)
        quilt = state.seats[seat].quilt
        seen = dice_seen_by(turn, seat)
        for placed in quilt.values():
            empty = [i for i, v in enumerate(placed.filled) if v is None]
            patches = self.ctx.block(placed.block_id).patches
            for dice in permutations(free, len(empty)) if empty else ():
                # A die its patch does not take is refused (``fill_reason``): not a candidate.
                if all(
                    patches[i].accepts(seen[c].value, seen[c].colour)
                    for c, i in zip(dice, empty, strict=True)
                ):
                    yield Sew(placed.block_id, tuple(zip(dice, empty, strict=True)))
        scissors = uses_left(self.ctx, state, seat, KitKind.SCISSORS)
        # Only dice that could pay (equal values, stand-ins within the scissors) are tried.
        payable = {
            n: [
                d
                for d in combinations(free, n)
                if stand_ins([seen[c].value for c in d]) <= scissors
            ]
            for n in set(PRICE.values())
        }
        yield from _buys(state, payable, _free_cells(quilt))
        if turn.drawn is not None:
            yield from (BinPlace(cell) for cell in _free_cells(quilt))
        if turn.actions == 0 and not turn.bin_used and turn.rolls >= 3:
            yield from (BinDraw(deck) for deck in Deck)
            # A pair is legal only if each die alone is: try pairs of legal singles only.
            singles = [
                p
                for p in self._singles(state, seat, free)
                if self.reason(state, BinDice((p,)), seat) is None
            ]
            yield from (BinDice((p,)) for p in singles)
            for a, b in combinations(singles, 2):
                if COLOURS.index(a.colour) < COLOURS.index(b.colour):
                    yield BinDice((a, b))

    def _singles(
        self, state: GameState, seat: Seat, colours: list[model.Colour]
    ) -> list[Placement]:
        """Each die of ``colours`` on each empty patch that takes it as ``seat`` sees it (on
        any other, giving it or taking it from the bin is refused: ``fill_reason``)."""
        quilt, turn = state.seats[seat].quilt, state.turn
        assert turn is not None
        seen = dice_seen_by(turn, seat)
        return [
            Placement(colour, placed.block_id, i)
            for colour in colours
            for placed in quilt.values()
            for i, v in enumerate(placed.filled)
            if v is None
            and self.ctx.block(placed.block_id)
            .patches[i]
            .accepts(seen[colour].value, seen[colour].colour)
        ]

    # -- the end ----------------------------------------------------------------------------------

    def status(self, state: GameState) -> Status:
        """``playing`` until the end; solo with a target ``won``/``lost``, else ``finished``."""
        if state.phase is not Phase.OVER:
            return Status.PLAYING
        target = self.ctx.options.target
        if target is None:
            return Status.FINISHED
        return Status.WON if self.scores(state)[0] >= target else Status.LOST

    def scores(self, state: GameState) -> list[int]:
        """Each seat's points now: finished pattern blocks, plus the solo round bonus."""
        totals = [score.total for score in self.quilt_scores(state)]
        if self.ctx.options.solo:
            totals[0] += round_bonus(self.ctx, state)
        return totals

    def quilt_scores(self, state: GameState) -> list[QuiltScore]:
        """Each seat's quilt score with its breakdown (engineer A's scoring)."""
        return [score_quilt(seat.quilt, self.ctx.catalogue) for seat in state.seats]

    def places(self, state: GameState) -> list[int]:
        """Each seat's place: most points; ties go to fewer empty patches, else shared."""
        scores = self.quilt_scores(state)
        totals = self.scores(state)
        adjusted = [
            replace(score, total=total) for score, total in zip(scores, totals, strict=True)
        ]
        return rank_players(adjusted)

    # -- codec and views ------------------------------------------------------------------------

    def encode(self, state: GameState) -> JSON:
        """The full state as JSON-ready data."""
        return codec.encode(state)

    def decode(self, data: JSON) -> GameState:
        """The state from :meth:`encode`'s output."""
        return codec.decode(self.ctx, data)

    def view_for(self, state: GameState, seat: Seat | None) -> JSON:
        """What ``seat`` may see: no deck order, no future dice, nobody else's secrets."""
        return views.view_for(self, state, seat)


def _at_cap(state: GameState, seat: Seat) -> bool:
    turn = state.turn
    return turn is not None and turn.seat == seat and turn.decisions >= MAX_DECISIONS_PER_TURN


def _choices(hand: list[str]) -> Iterator[Move]:
    for returned in hand:
        rest = [b for b in hand if b != returned]
        for row in permutations(rest):
            yield Choose((row[0], row[1], row[2]), returned)


def _keeps() -> Iterator[Move]:
    for size in range(len(COLOURS) + 1):
        yield from (Keep(colours) for colours in combinations(COLOURS, size))


def _adjustments(
    colours: list[model.Colour], thimble: bool = True, dye: bool = True
) -> Iterator[Move]:
    for colour in colours:
        if thimble:
            yield Thimble(colour, -1)
            yield Thimble(colour, +1)
        if dye:
            yield from (Dye(colour, to) for to in COLOURS if to != colour)


def _free_cells(quilt: model.Quilt) -> list[Cell]:
    """Every cell where a new block may go, in reading order."""
    if not quilt:
        return [(0, 0)]
    candidates = {t for cell in quilt for t in model.touching(cell)}
    fits = [c for c in candidates if model.can_place(quilt.keys(), c)]
    return sorted(fits, key=lambda c: (c[1], c[0]))


def _buys(
    state: GameState, payable: dict[int, list[tuple[model.Colour, ...]]], cells: list[Cell]
) -> Iterator[Move]:
    for deck, shelf in state.shelves.items():
        for block_id in shelf:
            if block_id is None:
                continue
            for dice in payable[PRICE[deck]]:
                yield from (Buy(block_id, cell, dice) for cell in cells)
