"""The shared body of the three computer players: every kind of Speedquilt decision.

A :class:`Player` decides from the seat's view only (see :mod:`.position`). Each decision
proposes moves best first; the first one the engine accepts on the belief state is played, and if
none is, a :func:`fallback` picks a safe legal move — a computer player never stalls a table.
The three levels differ in a few hooks: how the basket is chosen, what a reroll costs, how kits
are liked, whether the thimble is used and whether a ninth block needs the lead.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping, MutableMapping
from typing import Any

from spielcenter.games.base import JSON, GameError, Seat
from spielcenter.games.speedquilt.feasibility import sewing_assignments
from spielcenter.games.speedquilt.kits import dice_seen_by, stand_ins
from spielcenter.games.speedquilt.model import (
    COLOURS,
    Cell,
    Colour,
    Deck,
    Die,
    KitKind,
    Line,
    PlacedBlock,
)
from spielcenter.games.speedquilt.moves import Choose, Move
from spielcenter.games.speedquilt.rules import Speedquilt
from spielcenter.games.speedquilt.state import GameState, Phase, TurnKind

from .evaluation import Outlook, needs_dice_first, one_turn_chance
from .expectimax import (
    FULL,
    PlanAction,
    Table,
    best_plan,
    buy_table,
    mask_colours,
    plan_values,
    sew_table,
)
from .position import quilt_of, rebuild, turn_key

__all__ = ["Memory", "Player", "fallback"]

Memory = MutableMapping[str, Any]
FULL_QUILT = 9
ACTION_MEMO = 256
"""How many recent positions' action lists a player keeps (a cache of its own reckoning)."""
FINAL_MEMO = 32
"""How many plan tables a player keeps (each is 7 776 numbers)."""
BIN_FLOOR = 0.4
"""What the bargain bin is worth when the dice do nothing else."""


class Player(ABC):
    """A computer player; subclasses set the personality (at least how they fill the basket)."""

    level = "base"
    kit_bias = 1.0
    uses_thimble = False
    uses_dye = False
    ninth_only_leading = False
    prefill_finish: float | None = None
    """How often this player reckons a block that needs pre-filled patches gets finished (None:
    like any hard block); see :class:`.evaluation.Outlook`."""
    final_counts: Mapping[Line, float] | None = None
    """What this player reckons each scoring line counts at the end (None: only what it counts
    now, and a fixed share of its points); see :class:`.evaluation.Outlook`."""

    def __init__(self) -> None:
        self._actions: dict[Any, list[PlanAction]] = {}
        self._finals: dict[int, tuple[list[PlanAction], Table]] = {}

    # -- the protocol ---------------------------------------------------------------------------

    def decide(self, game: Speedquilt, view: JSON, seat: Seat, memory: Memory) -> str:
        """The move (text) this player makes now, from ``view`` (its seat's view) alone."""
        belief = rebuild(view, game.ctx.catalogue, memory)
        try:
            for move in self.proposals(game, view, belief, seat, memory):
                if game.reason(belief, move, seat) is None:
                    self._remember(view, move, memory)
                    return game.format_move(move)
        except (GameError, ValueError, KeyError):
            pass  # an odd position never stops the table: the fallback moves instead
        return fallback(game, belief, seat)

    def proposals(
        self, game: Speedquilt, view: JSON, belief: GameState, seat: Seat, memory: Memory
    ) -> Iterator[Move]:
        """Moves to try, best first."""
        phase = belief.phase
        if phase is Phase.CHOOSING:
            yield from self.choose(game, belief, seat)
        elif phase is Phase.SHOP_REMOVE:
            yield from self.remove(game, view, belief, seat)
        elif belief.turn is not None and (
            belief.turn.seat != seat or belief.turn.kind is TurnKind.GIVING
        ):
            yield from self.give(game, view, belief, seat)
        else:
            yield from self.own_turn(game, view, belief, seat)

    # -- helpers ---------------------------------------------------------------------------------

    def outlook(self, game: Speedquilt, view: JSON, seat: Seat) -> Outlook:
        """The valuation context of this seat now."""
        quilt = quilt_of(view["seats"][seat])
        return Outlook(
            game.ctx.catalogue,
            quilt,
            rounds_left(view),
            self.kit_bias,
            self.prefill_finish,
            self.final_counts,
        )

    @staticmethod
    def _remember(view: JSON, move: Move, memory: Memory) -> None:
        """Count own kit uses of this turn (the view does not show them)."""
        kind = {"Thimble": KitKind.THIMBLE, "Dye": KitKind.DYE_BATH}.get(type(move).__name__)
        if kind is None:
            return
        key = turn_key(view)
        for old in [k for k in memory if k != key and "/" in k]:
            del memory[old]
        uses = memory.setdefault(key, {})
        uses[str(kind)] = uses.get(str(kind), 0) + 1

    # -- start choice ----------------------------------------------------------------------------

    def choose(self, game: Speedquilt, belief: GameState, seat: Seat) -> Iterator[Move]:
        """The start row: the order and put-back with the best prospects."""
        options = game.legal_moves(belief, seat)
        yield from sorted(options, key=lambda move: self.start_worth(game, move), reverse=True)

    def start_worth(self, game: Speedquilt, move: Move) -> float:
        """What a start choice promises: the row's potential score (a share of it), each
        block's chance to be sewn in one turn, and its kit's ability."""
        assert isinstance(move, Choose)
        catalogue = game.ctx.catalogue
        outlook = Outlook(catalogue, {}, 12.0, self.kit_bias, self.prefill_finish)

        def counts(block_id: str) -> bool:
            # A player who reckons with pre-filled patches counts no points from a block with
            # more patches than dice: it is the one to put back.
            return self.prefill_finish is None or not needs_dice_first(catalogue.block(block_id))

        quilt = {
            (x, 0): PlacedBlock(b, (None,) * len(catalogue.block(b).patches))
            for x, b in enumerate(move.row)
            if counts(b)
        }
        total = outlook.potential(quilt) * 0.6
        for b in move.row:
            block = catalogue.block(b)
            total += 3.0 * one_turn_chance(block, (None,) * len(block.patches))
            total += outlook.kit_value(block)
        return total

    # -- solo: which shelf loses a block ---------------------------------------------------------

    def remove(self, game: Speedquilt, view: JSON, belief: GameState, seat: Seat) -> Iterator[Move]:
        """The shelf whose rightmost block this player would miss least."""
        outlook = self.outlook(game, view, seat)
        scored = []
        for deck in Deck:
            shelf = [b for b in belief.shelves[deck] if b is not None]
            if shelf:
                scored.append((outlook.buy_value(shelf[-1])[0], str(deck)))
        for _, deck_name in sorted(scored):
            yield game.parse_move(f"remove {deck_name}")

    # -- giving ----------------------------------------------------------------------------------

    def give(self, game: Speedquilt, view: JSON, belief: GameState, seat: Seat) -> Iterator[Move]:
        """Take the offered die that helps most, or pass."""
        offered = offered_dice(belief, seat)
        outlook = self.outlook(game, view, seat)
        options = self.placements(outlook, belief, seat, offered)
        for gain, colour, block_id, patch in options:
            if gain > 0:
                yield game.parse_move(f"give {colour} to {block_id}:{patch + 1}")
        yield game.parse_move("pass")

    def placements(
        self, outlook: Outlook, belief: GameState, seat: Seat, colours: list[Colour]
    ) -> list[tuple[float, Colour, str, int]]:
        """Single dice on own patches, best first, with what each is worth."""
        turn = belief.turn
        assert turn is not None
        seen = dice_seen(belief, seat)
        out = []
        for cell, placed in outlook.quilt.items():
            block = outlook.block(placed.block_id)
            for i, v in enumerate(placed.filled):
                if v is not None:
                    continue
                for colour in colours:
                    die = seen[colour]
                    if not block.patches[i].accepts(die.value, die.colour):
                        continue
                    gain = outlook.place_gain(cell, i, die.value)
                    out.append((gain, colour, placed.block_id, i))
        out.sort(key=lambda item: -item[0])
        return out

    # -- the own turn ----------------------------------------------------------------------------

    def own_turn(
        self, game: Speedquilt, view: JSON, belief: GameState, seat: Seat
    ) -> Iterator[Move]:
        """Roll, choose the basket, act, use the bargain bin, end."""
        turn = belief.turn
        assert turn is not None
        if not turn.rolls:
            yield game.parse_move("roll")
            return
        outlook = self.outlook(game, view, seat)
        if turn.drawn is not None:
            yield from self.place_drawn(game, view, outlook, turn.drawn[1], seat)
            return
        actions = self.actions(game, view, outlook, belief, seat)
        seen = dice_seen(belief, seat)
        values = [seen[c].value for c in COLOURS]
        rerolls = rerolls_left(game, belief, seat)
        if not turn.rolling_over and rerolls > 0:
            keep = self.basket(view, outlook, actions, values, rerolls, belief)
            if keep != FULL:
                colours = [COLOURS[d] for d in mask_colours(keep)]
                if sorted(colours) != sorted(turn.basket):
                    yield game.parse_move("keep " + (" ".join(colours) or "none"))
                yield game.parse_move("reroll")
                return
        if self.uses_thimble and not turn.rolling_over:
            yield from self.thimble(game, actions, values, turn.used, belief, seat)
        if self.uses_dye and not turn.rolling_over and finished_kits(outlook, KitKind.DYE_BATH):
            yield from self.dye(game, outlook, actions, belief, seat)
        yield from self.act(game, outlook, actions, values, belief, seat)
        if not turn.rolling_over and turn.rolls >= 3:
            yield from self.bargain_bin(game, view, outlook, belief, seat)
        yield game.parse_move("end")

    def actions(
        self, game: Speedquilt, view: JSON, outlook: Outlook, belief: GameState, seat: Seat
    ) -> list[PlanAction]:
        """Everything dice can do now: sew each unfinished block, buy from either shelf.

        The same quilt, shop and round give the same list, so it is remembered for the turn.
        """
        key = (
            tuple(sorted((c, p.block_id, p.filled) for c, p in outlook.quilt.items())),
            tuple(tuple(shelf) for shelf in belief.shelves.values()),
            outlook.rounds_left,
            self.may_grow(view, outlook, seat),
        )
        if key not in self._actions:
            if len(self._actions) > ACTION_MEMO:
                self._actions.clear()
            self._actions[key] = self._all_actions(view, outlook, belief, seat)
        return self._actions[key]

    def _all_actions(
        self, view: JSON, outlook: Outlook, belief: GameState, seat: Seat
    ) -> list[PlanAction]:
        out = []
        for cell, placed in outlook.quilt.items():
            if not placed.finished:
                block = outlook.block(placed.block_id)
                value = outlook.sew_value(cell)
                out.append(
                    PlanAction(f"sew {placed.block_id}", value, sew_table(block, placed.filled))
                )
        if len(outlook.quilt) < FULL_QUILT and self.may_grow(view, outlook, seat):
            for deck, price in ((Deck.PATTERN, 4), (Deck.KIT, 3)):
                best = self.best_buy(outlook, belief.shelves[deck])
                if best is not None:
                    value, block_id, cell = best
                    name = f"buy {block_id} at {cell[0]},{cell[1]}"
                    table = buy_table(price, scissors(outlook))
                    out.append(PlanAction(name, value, table))
        return out

    def final_table(self, actions: list[PlanAction]) -> Table:
        """The value of the best plan in every outcome for this action list (kept for the turn:
        choosing the basket and then rerolling ask for the same table)."""
        hit = self._finals.get(id(actions))
        if hit is None or hit[0] is not actions:
            if len(self._finals) > FINAL_MEMO:
                self._finals.clear()
            hit = (actions, plan_values(actions, BIN_FLOOR))
            self._finals[id(actions)] = hit
        return hit[1]

    def may_grow(self, view: JSON, outlook: Outlook, seat: Seat) -> bool:
        """Whether a new block may enter the quilt (strong wants the lead for the ninth block,
        which ends the game; once the end is set, a ninth block only adds to the quilt)."""
        if not self.ninth_only_leading or len(outlook.quilt) < FULL_QUILT - 1:
            return True
        return view["end_round"] is not None or leading(view, outlook, seat)

    def best_buy(self, outlook: Outlook, shelf: list[str | None]) -> tuple[float, str, Cell] | None:
        """The most valuable block of a shelf, with its cell."""
        best = None
        for block_id in shelf:
            if block_id is None:
                continue
            value, cell = outlook.buy_value(block_id)
            if best is None or value > best[0]:
                best = (value, block_id, cell)
        return best

    @abstractmethod
    def basket(
        self,
        view: JSON,
        outlook: Outlook,
        actions: list[PlanAction],
        values: list[int],
        rerolls: int,
        belief: GameState,
    ) -> int:
        """The dice mask to keep (``FULL``: stop rolling and act)."""

    def thimble(
        self,
        game: Speedquilt,
        actions: list[PlanAction],
        values: list[int],
        used: list[Colour],
        belief: GameState,
        seat: Seat,
    ) -> Iterator[Move]:
        """A thimble change that makes the plan better (only for players who use it)."""
        free = _free_mask(used)
        now = _plan_value(actions, values, free)
        best: tuple[float, str] | None = None
        for d in mask_colours(free):
            for delta in (-1, 1):
                if 1 <= values[d] + delta <= 6:
                    changed = list(values)
                    changed[d] += delta
                    gain = _plan_value(actions, changed, free) - now
                    if gain > 0.5 and (best is None or gain > best[0]):
                        best = (gain, f"thimble {COLOURS[d]} {delta:+d}")
        if best is not None:
            yield game.parse_move(best[1])

    def dye(
        self,
        game: Speedquilt,
        outlook: Outlook,
        actions: list[PlanAction],
        belief: GameState,
        seat: Seat,
    ) -> Iterator[Move]:
        """A dye bath change of one die's colour that makes the plan better by > 0.5 points."""
        turn = belief.turn
        assert turn is not None
        free = _free_mask(turn.used)
        seen = dice_seen(belief, seat)
        now = _live_value(outlook, actions, seen, free)
        best: tuple[float, str] | None = None
        for d in mask_colours(free):
            die = seen[COLOURS[d]]
            for colour in COLOURS:
                if colour == die.colour:
                    continue
                changed = {**seen, COLOURS[d]: Die(colour, die.value)}
                gain = _live_value(outlook, actions, changed, free) - now
                if gain > 0.5 and (best is None or gain > best[0]):
                    best = (gain, f"dye {COLOURS[d]}->{colour}")
        if best is not None:
            yield game.parse_move(best[1])

    def act(
        self,
        game: Speedquilt,
        outlook: Outlook,
        actions: list[PlanAction],
        values: list[int],
        belief: GameState,
        seat: Seat,
    ) -> Iterator[Move]:
        """The first step of the best plan for the dice still free."""
        turn = belief.turn
        assert turn is not None
        free = _free_mask(turn.used)
        seen = dice_seen(belief, seat)
        dyed = any(die.colour != colour for colour, die in seen.items())
        # The tables know each die in its own colour; after a dye bath the dice are asked anew.
        masks = live_masks(outlook, actions, seen) if dyed else None
        for name, mask in best_plan(actions, values, free, masks):
            colours = [COLOURS[d] for d in mask_colours(mask)]
            if name.startswith("buy"):
                yield game.parse_move(f"{name} with {' '.join(colours)}")
            else:
                yield from _sewings(game, outlook, name.split()[1], colours, seen)

    def bargain_bin(
        self, game: Speedquilt, view: JSON, outlook: Outlook, belief: GameState, seat: Seat
    ) -> Iterator[Move]:
        """After the last roll with nothing done: one or two dice on patches, or a blind draw."""
        turn = belief.turn
        assert turn is not None
        free = [c for c in COLOURS if c not in turn.used]
        options = [p for p in self.placements(outlook, belief, seat, free) if p[0] > 0]
        if options:
            first = options[0]
            for second in options[1:]:
                if second[1] != first[1] and (second[2], second[3]) != (first[2], first[3]):
                    yield game.parse_move(
                        f"bin {first[1]} to {first[2]}:{first[3] + 1} "
                        f"{second[1]} to {second[2]}:{second[3] + 1}"
                    )
            yield game.parse_move(f"bin {first[1]} to {first[2]}:{first[3] + 1}")
        if len(outlook.quilt) < FULL_QUILT - 1 and outlook.rounds_left > 3:
            yield game.parse_move(f"bin draw {self.draw_deck(view, outlook)}")

    def draw_deck(self, view: JSON, outlook: Outlook) -> str:
        """Which deck to draw from blind."""
        return "kit"

    def place_drawn(
        self, game: Speedquilt, view: JSON, outlook: Outlook, block_id: str, seat: Seat
    ) -> Iterator[Move]:
        """Lay a blind-drawn block where it is worth most, if it is worth anything."""
        value, cell = outlook.buy_value(block_id)
        if value > 0 and self.may_grow(view, outlook, seat):
            yield game.parse_move(f"bin place at {cell[0]},{cell[1]}")
        yield game.parse_move("bin return")


# -- small shared pieces -----------------------------------------------------------------------


def rounds_left(view: JSON) -> float:
    """Rounds still to play, as this seat can reckon them from the view."""
    end = view["end_round"] if view["end_round"] is not None else view["max_rounds"]
    left = float(end - view["round"])
    if view["end_round"] is None and len(view["seats"]) > 1:
        # Somebody fills her quilt at about three blocks every four rounds.
        most = max(len(s["quilt"]) for s in view["seats"])
        left = min(left, (FULL_QUILT - most) * 1.3 + 1.0)
    return max(left, 0.0)


def leading(view: JSON, outlook: Outlook, seat: Seat) -> bool:
    """Whether this seat's quilt scores more than every other quilt now."""
    mine = outlook.points(outlook.quilt)
    others = [outlook.points(quilt_of(s)) for i, s in enumerate(view["seats"]) if i != seat]
    return all(mine > other for other in others)


def finished_kits(outlook: Outlook, kind: KitKind) -> int:
    """How many finished kits of ``kind`` the quilt holds."""
    return sum(
        1
        for placed in outlook.quilt.values()
        if placed.finished and outlook.block(placed.block_id).kit is kind
    )


def offered_dice(belief: GameState, seat: Seat) -> list[Colour]:
    """The dice ``seat`` may take now: the unused dice of a solo giving turn, else those offered
    in her giving window that she has not taken yet."""
    turn = belief.turn
    assert turn is not None
    if turn.kind is TurnKind.GIVING:
        return [c for c in turn.dice if c not in turn.used]
    window = turn.windows.get(seat)
    return [c for c in window.offered if c not in window.taken] if window else []


def scissors(outlook: Outlook) -> int:
    """Finished scissors in the quilt: dice of any value that may stand in when buying (a turn
    buys once at most, 4 + 3 dice being more than five, so each use is there to plan with)."""
    return finished_kits(outlook, KitKind.SCISSORS)


def live_masks(
    outlook: Outlook, actions: list[PlanAction], seen: dict[Colour, Die]
) -> list[list[int]]:
    """Per action, the sets of these very dice (as the seat sees them) that do it."""
    dice = [seen[c] for c in COLOURS]
    out = []
    for action in actions:
        word, block_id = action.name.split()[:2]
        block = outlook.block(block_id)
        if word == "sew":
            placed = next(p for p in outlook.quilt.values() if p.block_id == block_id)
            size = placed.filled.count(None)
            out.append(
                [
                    m
                    for m in range(1, FULL + 1)
                    if m.bit_count() == size
                    and sewing_assignments(block, placed.filled, [dice[d] for d in mask_colours(m)])
                ]
            )
        else:
            price = 4 if block.deck is Deck.PATTERN else 3
            out.append(
                [
                    m
                    for m in range(1, FULL + 1)
                    if m.bit_count() == price
                    and stand_ins([dice[d].value for d in mask_colours(m)]) <= scissors(outlook)
                ]
            )
    return out


def _live_value(
    outlook: Outlook, actions: list[PlanAction], seen: dict[Colour, Die], free: int
) -> float:
    names = {a.name: a.value for a in actions}
    values = [seen[c].value for c in COLOURS]
    plan = best_plan(actions, values, free, live_masks(outlook, actions, seen))
    return sum(names[name] for name, _ in plan)


def dice_seen(belief: GameState, seat: Seat) -> dict[Colour, Die]:
    """The rolled dice as ``seat`` sees them (with her own thimble and dye bath)."""
    turn = belief.turn
    assert turn is not None
    return dice_seen_by(turn, seat)


def _free_mask(used: list[Colour]) -> int:
    return sum(1 << d for d, c in enumerate(COLOURS) if c not in used)


def _plan_value(actions: list[PlanAction], values: list[int], free: int) -> float:
    names = {a.name: a.value for a in actions}
    return sum(names[name] for name, _ in best_plan(actions, values, free))


def rerolls_left(game: Speedquilt, belief: GameState, seat: Seat) -> int:
    """How many more times ``seat`` may roll in this turn."""
    from spielcenter.games.speedquilt.turn import max_rolls

    turn = belief.turn
    assert turn is not None
    return max(0, max_rolls(game.ctx, belief, seat) - turn.rolls)


def _sewings(
    game: Speedquilt,
    outlook: Outlook,
    block_id: str,
    colours: list[Colour],
    seen: dict[Colour, Die],
) -> Iterator[Move]:
    placed = next(p for p in outlook.quilt.values() if p.block_id == block_id)
    dice = [seen[c] for c in colours]
    for way in sewing_assignments(outlook.block(block_id), placed.filled, dice)[:3]:
        pairs = " ".join(f"{colours[d]}:{i + 1}" for i, d in way)
        yield game.parse_move(f"sew {block_id} {pairs}")


def fallback(game: Speedquilt, belief: GameState, seat: Seat) -> str:
    """A safe legal move: pass, end, roll, a start choice — never one that needs kit uses."""
    legal = game.legal_moves(belief, seat)
    texts = [game.format_move(m) for m in legal]
    for wanted in ("pass", "end", "roll", "reroll", "bin return", "remove pattern", "remove kit"):
        if wanted in texts:
            return wanted
    for text in texts:
        if not text.startswith(("thimble", "dye", "undo")):
            return text
    raise GameError(f"seat {seat} has no move now")
