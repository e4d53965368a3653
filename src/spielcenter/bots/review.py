"""The game review: each of her decisions in a finished Speedquilt game, against the strong player.

:func:`review` replays a finished game's log, stops at every decision of one seat — the start
row, keeping or rerolling, what the dice sewed or bought or put in the bargain bin, the block
drawn blind, each die taken while giving (and in the solo giving turn), the shelf that loses a
block — and asks the strong player, from *her view at that moment only*, what it would have chosen
and what both choices are worth in expected points of its own valuation:

* keep or reroll: the exact expectimax over every basket (:func:`.expectimax.keep_values`, each
  reroll costing what it gives the others, as the strong player reckons it);
* sewing, buying, the bargain bin: the value of her actions against the best plan of disjoint
  actions for the same dice (:func:`.expectimax.best_plan`);
* giving, a drawn block, the start row, the shelf: the valuation the strong player decides by
  (:class:`.evaluation.Outlook`, :meth:`.player.Player.start_worth`).

These are the strong player's own numbers, so no rollouts are needed and a review is
deterministic. Its valuation is a model, though: where the normal player's valuation (what a
block counts *today*, no end-of-game outlook) disagrees about the same decision by as much as the
points at stake, the decision is marked ``unclear`` rather than called a mistake.

Only her decisions are reviewed, each from her own view (``view_for(state, seat)``), so nothing
another seat kept to itself reaches the review; a game still running is refused.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from spielcenter.games.base import JSON, Deal, GameError, Seat, Status
from spielcenter.games.speedquilt.model import COLOURS, Cell, Deck, Line, PlacedBlock
from spielcenter.games.speedquilt.moves import (
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
)
from spielcenter.games.speedquilt.rules import Speedquilt
from spielcenter.games.speedquilt.state import GameState, TurnKind, TurnState
from spielcenter.games.speedquilt.turn import BASE_ROLLS

from .evaluation import Outlook, free_cells, needs_dice_first, one_turn_chance
from .expectimax import FULL, best_plan, keep_values, mask_colours
from .player import FULL_QUILT, Player, dice_seen, live_masks, offered_dice, rerolls_left
from .position import rebuild, unseen_blocks
from .strong import Strong

__all__ = [
    "FINE_BELOW",
    "KINDS",
    "MISTAKE_FROM",
    "VERSION",
    "Decision",
    "Judgement",
    "Review",
    "ReviewError",
    "decisions",
    "judge",
    "review",
]

VERSION = 1
"""The review's rules: raise it with any change of what a review finds or how it is written, so
that reviews stored under older rules are computed again (services/review.py)."""
FINE_BELOW = 0.5
"""A choice that costs less than this (in expected points) is fine: it is the margin the strong
player itself asks before it spends a thimble or dye bath (a change "improves the plan by > 0.5
points"), and about what the bargain bin is worth when the dice do nothing else (0.4)."""
MISTAKE_FROM = 2.0
"""A choice that costs this much or more is a mistake: about a small pattern block's points, or
a whole die given away to each of five opponents (0.35 each) — more than one roll's luck hides."""
KINDS = ("start", "rerolls", "sewing", "buying", "bin", "giving", "shelf")
"""The kinds of decision, in the order the summary lists them (the issue's four — rerolls,
giving, buying, sewing — and the start row, the bargain bin and the solo shelf)."""
COSTLIEST = 3
"""How many of the costliest decisions the summary names."""


class ReviewError(GameError):
    """A game that cannot be reviewed (not over, no such seat, a log that does not replay)."""


@dataclass(frozen=True)
class Decision:
    """One decision of hers: where it was taken and what she chose, with her view then.

    ``seq`` is the log entry (from 1) that settled it, ``step`` the replay position she decided
    in (``steps[step]`` of the replay: the position after entry ``step``), ``moves`` her moves
    that make up the choice, ``memory`` her own kit uses of the turn (a bot's memory).
    """

    seq: int
    step: int
    round: int
    kind: str
    view: JSON
    moves: tuple[Move, ...]
    memory: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Judgement:
    """A decision judged: her expected points, the strong player's choice and its points."""

    decision: Decision
    kind: str
    points: float
    best_points: float
    best: tuple[str, ...]
    noise: float
    verdict: str
    own: float = 0.0
    """The expected points of her move alone (an action, a die given, a drawn block laid), as
    the strong player values it; the calibration in bench/review.py adds these up."""

    @property
    def loss(self) -> float:
        """Expected points her choice left on the table (never negative)."""
        return max(0.0, self.best_points - self.points)

    def to_json(self, game: Speedquilt, n: int = 0) -> JSON:
        """JSON-ready (``n``: its number in the review), with her moves and the better choice
        as move notation (a basket kept whole is "stop rolling")."""
        d = self.decision
        moves = [game.format_move(m) for m in d.moves]
        if d.kind == "roll" and d.moves == (Keep(COLOURS),):
            moves = ["stop rolling"]
        return {
            "n": n,
            "seq": d.seq,
            "step": d.step,
            "round": d.round,
            "kind": self.kind,
            "moves": moves,
            "points": round(self.points, 2),
            "best": list(self.best),
            "best_lines": [line for text in self.best if (line := best_line(text)) is not None],
            "best_points": round(self.best_points, 2),
            "loss": round(self.loss, 2),
            "noise": round(self.noise, 2),
            "verdict": self.verdict,
        }


@dataclass(frozen=True)
class Review:
    """Her whole game reviewed: every decision judged, and what it adds up to."""

    seat: int
    score: int
    judgements: list[Judgement]

    def left_by_kind(self) -> dict[str, float]:
        """Expected points left on the table per kind (unclear decisions not counted)."""
        left = dict.fromkeys(KINDS, 0.0)
        for j in self.judgements:
            if j.verdict != "unclear":
                left[j.kind] += j.loss
        return left

    def costliest(self) -> list[Judgement]:
        """The costliest marked decisions (inaccuracies and mistakes), costliest first."""
        marked = [j for j in self.judgements if j.verdict in ("inaccuracy", "mistake")]
        return sorted(marked, key=lambda j: (-j.loss, j.decision.seq))[:COSTLIEST]

    def to_json(self, game: Speedquilt) -> JSON:
        """The review for scripts and the browser."""
        verdicts = {v: 0 for v in ("fine", "unclear", "inaccuracy", "mistake")}
        for j in self.judgements:
            verdicts[j.verdict] += 1
        return {
            "seat": self.seat,
            "score": self.score,
            "thresholds": {"fine_below": FINE_BELOW, "mistake_from": MISTAKE_FROM},
            "summary": {
                "decisions": len(self.judgements),
                "verdicts": verdicts,
                "left": {k: round(v, 2) for k, v in self.left_by_kind().items()},
                "left_total": round(sum(self.left_by_kind().values()), 2),
                "costliest": [self.judgements.index(j) for j in self.costliest()],
            },
            "decisions": [j.to_json(game, n) for n, j in enumerate(self.judgements)],
        }


def best_line(text: str) -> JSON | None:
    """The strong player's choice as a line for people (an i18n key ``review.best.*`` with the
    parameters the history lines use: dice by colour, block ids, cells, decks), or ``None`` for a
    step that needs no words of its own (the reroll after a basket)."""
    words = text.split()
    line: JSON
    match words:
        case ["stop", "rolling"]:
            line = {"key": "review.best.stop"}
        case ["keep", *dice]:
            line = {"key": "review.best.keep", "dice": [] if dice == ["none"] else dice}
        case ["reroll"]:
            return None
        case ["sew", block, *_]:
            line = {"key": "review.best.sew", "block": block}
        case ["buy", block, "at", cell, *_]:
            line = {"key": "review.best.buy", "block": block, "cell": cell}
        case ["bin", "draw", deck]:
            line = {"key": "review.best.bin_draw", "deck": deck}
        case ["bin", "place", "at", cell]:
            line = {"key": "review.best.bin_place", "cell": cell}
        case ["bin", "return"]:
            line = {"key": "review.best.bin_return"}
        case ["bin", *rest]:
            placements = [
                {"die": rest[i], "block": rest[i + 2].split(":")[0], "patch": int(rest[i + 2][4:])}
                for i in range(0, len(rest), 3)
            ]
            line = {"key": "review.best.bin_dice", "placements": placements}
        case ["give", die, "to", patch]:
            block, number = patch.split(":")
            line = {"key": "review.best.give", "die": die, "block": block, "patch": int(number)}
        case ["pass"]:
            line = {"key": "review.best.pass"}
        case ["end", *_]:
            line = {"key": "review.best.end"}
        case ["remove", deck]:
            line = {"key": "review.best.remove", "deck": deck}
        case ["choose", a, b, c, "return", returned]:
            line = {"key": "review.best.choose", "row": [a, b, c], "returned": returned}
        case _:
            return None
    return {**line, "seat": 0}


# -- walking the log: her decisions ------------------------------------------------------------


_ACTING = (Sew, Buy, BinDice, BinDraw)
_UNDOABLE = (Sew, Buy, Thimble, Dye)


def decisions(
    game: Speedquilt, deal: Deal, log: Sequence[tuple[Seat, str]], seat: Seat
) -> list[Decision]:
    """Her decisions in the finished game of ``log`` (``(seat, move text)`` pairs from ``deal``).

    Raises :class:`ReviewError` for a seat that is not at the table, a log that does not replay,
    or a game that is not over (a running game is never reviewed).
    """
    return _walk(game, deal, log, seat)[0]


def _walk(
    game: Speedquilt, deal: Deal, log: Sequence[tuple[Seat, str]], seat: Seat
) -> tuple[list[Decision], GameState]:
    if not 0 <= seat < game.seats:
        raise ReviewError(f"there is no seat {seat} in this game")
    state = game.start(deal)
    walker = _Walker(game, seat)
    for seq, (who, text) in enumerate(log, start=1):
        try:
            move = game.parse_move(text)
            after = game.play(state, text, who)
        except GameError as fault:
            raise ReviewError(f"entry {seq} does not replay: {fault}") from None
        if who == seat:
            walker.see(seq, state, move, after)
        state = after
    if game.status(state) is Status.PLAYING:
        raise ReviewError("the game is not over: a review comes only after the end")
    return sorted(walker.found, key=lambda d: d.seq), state


class _Walker:
    """Collects her decisions while the log is replayed (each with her view only)."""

    def __init__(self, game: Speedquilt, seat: Seat) -> None:
        self.game, self.seat = game, seat
        self.found: list[Decision] = []
        self.memory: dict[str, Any] = {}
        self.undoable: list[Decision | None] = []
        """Her moves of this turn that undo can take back, with the decision each one was."""

    def _decision(self, seq: int, before: GameState, kind: str, moves: tuple[Move, ...]) -> None:
        view = self.game.view_for(before, self.seat)
        memory = {k: dict(v) for k, v in self.memory.items()}
        self.found.append(Decision(seq, seq - 1, before.round, kind, view, moves, memory))

    def see(self, seq: int, before: GameState, move: Move, after: GameState) -> None:
        """Her move ``move`` (entry ``seq``) took ``before`` to ``after``."""
        game = self.game
        view = game.view_for(before, self.seat)
        turn = before.turn
        mine = turn is not None and turn.kind is TurnKind.OWN and turn.seat == self.seat
        if isinstance(move, Choose):
            self._decision(seq, before, "start", (move,))
        elif isinstance(move, Remove):
            self._decision(seq, before, "shelf", (move,))
        elif isinstance(move, Give | Pass):
            self._decision(seq, before, "give", (move,))
        elif isinstance(move, BinPlace | BinReturn):
            self._decision(seq, before, "drawn", (move,))
        elif mine and isinstance(move, Reroll):
            assert turn is not None
            self._decision(seq, before, "roll", (Keep(tuple(turn.basket)), move))
        elif mine and isinstance(move, (*_ACTING, End)):
            assert turn is not None
            belief = rebuild(view, game.ctx.catalogue, self.memory)
            if not turn.rolling_over and rerolls_left(game, belief, self.seat):
                self._decision(seq, before, "roll", (Keep(COLOURS),))  # she stopped rolling
            if _may_act(turn):
                self._decision(seq, before, "act", (move,))
        if mine and isinstance(move, _UNDOABLE):
            acted = self.found[-1] if isinstance(move, Sew | Buy) else None
            self.undoable.append(acted)
        if mine and isinstance(move, Undo) and self.undoable:
            taken_back = self.undoable.pop()  # an undone action is no decision of the game
            if taken_back is not None:
                self.found.remove(taken_back)
        if isinstance(move, Thimble | Dye):
            Player._remember(view, move, self.memory)
        if isinstance(move, Roll | Reroll | BinDice | BinDraw | End):
            self.undoable = []


def _may_act(turn: TurnState) -> bool:
    """Whether the dice may still do something in this turn (else ending it is no decision)."""
    return not turn.bin_used and any(c not in turn.used for c in turn.dice)


# -- judging one decision ----------------------------------------------------------------------


class _TodaysValuation(Strong):
    """The strong player's dice and plans with the normal player's valuation (what a block
    counts today, no end-of-game outlook, no measured rate for blocks that need dice first):
    the second opinion that tells a real mistake from the valuation's noise."""

    prefill_finish: float | None = None
    final_counts: Mapping[Line, float] | None = None


@dataclass(frozen=True)
class _Verdict:
    kind: str
    points: float
    best_points: float
    best: tuple[str, ...]
    own: float = 0.0
    """What her move alone adds (an action or a die given; no plan for the rest, no basket)."""


def judge(
    game: Speedquilt,
    decision: Decision,
    seat: Seat,
    strong: Strong | None = None,
    second: Strong | None = None,
) -> Judgement:
    """Judge one decision of ``seat``: the strong player's view of it, with its noise."""
    strong = strong or Strong()
    mine = _evaluate(game, decision, seat, strong)
    loss = max(0.0, mine.best_points - mine.points)
    noise = 0.0
    if loss >= FINE_BELOW:
        other = _evaluate(game, decision, seat, second or _TodaysValuation())
        noise = abs(loss - max(0.0, other.best_points - other.points))
    if loss < FINE_BELOW:
        verdict = "fine"
    elif noise >= loss:
        verdict = "unclear"
    elif loss < MISTAKE_FROM:
        verdict = "inaccuracy"
    else:
        verdict = "mistake"
    return Judgement(
        decision,
        mine.kind,
        mine.points,
        max(mine.best_points, mine.points),
        mine.best,
        noise,
        verdict,
        mine.own,
    )


def review(
    game: Speedquilt,
    deal: Deal,
    log: Sequence[tuple[Seat, str]],
    seat: Seat,
    progress: Callable[[int, int], None] | None = None,
) -> Review:
    """Her finished game reviewed decision by decision (see the module docstring);
    ``progress(done, total)`` is told after each decision judged."""
    found, state = _walk(game, deal, log, seat)
    strong, second = Strong(), _TodaysValuation()
    judged = []
    for decision in found:
        judged.append(judge(game, decision, seat, strong, second))
        if progress is not None:
            progress(len(judged), len(found))
    return Review(seat, game.scores(state)[seat], judged)


def _evaluate(game: Speedquilt, d: Decision, seat: Seat, player: Strong) -> _Verdict:
    belief = rebuild(d.view, game.ctx.catalogue, d.memory)
    outlook = player.outlook(game, d.view, seat)
    match d.kind:
        case "start":
            return _start(game, d, belief, seat, player)
        case "roll":
            return _roll(game, d, belief, outlook, seat, player)
        case "act":
            return _act(game, d, belief, outlook, seat, player)
        case "give":
            return _give(game, d, belief, outlook, seat, player)
        case "drawn":
            return _drawn(d, belief, outlook, seat, player)
        case "shelf":
            return _shelf(d, belief, outlook)
    raise ReviewError(f"no judgement for a {d.kind!r} decision")


def _start(
    game: Speedquilt, d: Decision, belief: GameState, seat: Seat, player: Strong
) -> _Verdict:
    options = game.legal_moves(belief, seat)
    worth = {game.format_move(m): player.start_worth(game, m) for m in options}
    best = max(worth, key=lambda text: worth[text])
    return _Verdict("start", worth[game.format_move(d.moves[0])], worth[best], (best,))


def _roll(
    game: Speedquilt,
    d: Decision,
    belief: GameState,
    outlook: Outlook,
    seat: Seat,
    player: Strong,
) -> _Verdict:
    actions = player.actions(game, d.view, outlook, belief, seat)
    seen = dice_seen(belief, seat)
    values = [seen[c].value for c in COLOURS]
    rerolls = rerolls_left(game, belief, seat)
    worth = keep_values(
        player.final_table(actions), values, rerolls, player.reroll_cost(d.view, belief)
    )
    keep = d.moves[0]
    assert isinstance(keep, Keep)
    mask = sum(1 << COLOURS.index(c) for c in keep.colours)
    best = int(worth.argmax())
    return _Verdict("rerolls", float(worth[mask]), float(worth[best]), _basket_words(best))


def _basket_words(mask: int) -> tuple[str, ...]:
    if mask == FULL:
        return ("stop rolling",)
    kept = " ".join(COLOURS[d] for d in mask_colours(mask)) or "none"
    return (f"keep {kept}", "reroll")


def _act(
    game: Speedquilt,
    d: Decision,
    belief: GameState,
    outlook: Outlook,
    seat: Seat,
    player: Strong,
) -> _Verdict:
    """One action after rolling (or ending the turn): what it and the best plan for the rest of
    the free dice are worth, against the best plan of the strong player from the same position
    (it, too, does the first step of its best plan and then plans again)."""
    turn = belief.turn
    assert turn is not None
    actions = player.actions(game, d.view, outlook, belief, seat)
    seen = dice_seen(belief, seat)
    values = [seen[c].value for c in COLOURS]
    free = sum(1 << i for i, c in enumerate(COLOURS) if c not in turn.used)
    dyed = any(die.colour != colour for colour, die in seen.items())
    masks = live_masks(outlook, actions, seen) if dyed else None

    def plan_of(dice: int, besides: str = "") -> tuple[float, list[tuple[str, int]]]:
        """The best plan for the dice ``dice`` without the actions named ``besides…``."""
        kept = [i for i, a in enumerate(actions) if not (besides and a.name.startswith(besides))]
        chosen = [actions[i] for i in kept]
        plan = best_plan(chosen, values, dice, [masks[i] for i in kept] if masks else None)
        named = {a.name: a.value for a in chosen}
        return sum(named[name] for name, _ in plan), plan

    best_points, plan = plan_of(free)
    best = tuple(f"{name} with {' '.join(COLOURS[i] for i in mask_colours(m))}" for name, m in plan)
    bin_open = turn.rolls >= BASE_ROLLS and not turn.revealed and turn.actions == 0
    if not plan and bin_open:
        binned = _bin_best(game, d.view, belief, outlook, seat, player)
        if binned is not None:
            best_points, best = binned[0], (binned[1],)
    move = d.moves[0]
    named = {a.name: a.value for a in actions}
    points = alone = 0.0
    kind = "buying" if plan and plan[0][0].startswith("buy") else "sewing"
    match move:
        case Sew(block_id=block_id, dice=dice):
            used = free & ~sum(1 << COLOURS.index(c) for c, _ in dice)
            rest = plan_of(used, f"sew {block_id}")[0]
            alone = named.get(f"sew {block_id}", _sew_value(outlook, block_id))
            points, kind = alone + rest, "sewing"
        case Buy(block_id=block_id, cell=cell, dice=dice):
            used = free & ~sum(1 << COLOURS.index(c) for c in dice)
            alone = _buy_at(outlook, block_id, cell)
            points, kind = alone + plan_of(used, "buy")[0], "buying"
        case BinDice(placements=placements):
            kind = "bin"
            for p in placements:
                where = _cell_of(outlook, p.block_id)
                points += outlook.place_gain(where, p.patch, seen[p.colour].value)
            alone = points
        case BinDraw(deck=deck):
            points, kind = _draw_value(d.view, outlook, deck), "bin"
            alone = points
    return _Verdict(kind, points, best_points, best or ("end the turn",), alone)


def _sew_value(outlook: Outlook, block_id: str) -> float:
    return outlook.sew_value(_cell_of(outlook, block_id))


def _cell_of(outlook: Outlook, block_id: str) -> Cell:
    return next(c for c, p in outlook.quilt.items() if p.block_id == block_id)


def _buy_at(outlook: Outlook, block_id: str, cell: Cell) -> float:
    """What buying ``block_id`` into ``cell`` is worth (:meth:`Outlook.buy_value` for one cell)."""
    block = outlook.block(block_id)
    empty = (None,) * len(block.patches)
    chance = one_turn_chance(block, empty)
    tries = max(0.0, outlook.rounds_left * 0.5)
    finish = 1.0 - (1.0 - max(chance, 0.15)) ** tries if tries else 0.0
    prefilled = outlook.prefill_finish is not None and needs_dice_first(block)
    if prefilled and outlook.prefill_finish is not None:
        finish = outlook.prefill_finish
    grown = {**outlook.quilt, cell: PlacedBlock(block_id, empty)}
    gain = outlook.potential(grown) - outlook.potential(outlook.quilt)
    if outlook.final_counts is not None and not prefilled:
        gain += outlook.still_to_count(outlook.finished(grown, cell), cell)
    return finish * (gain + outlook.kit_value(block)) - 0.5 * (1.0 - finish)


def _draw_value(view: JSON, outlook: Outlook, deck: Deck) -> float:
    """A blind draw as the strong player reckons it: the mean worth of the unseen blocks."""
    unseen = unseen_blocks(view, outlook.catalogue, deck)
    if not unseen:
        return 0.0
    return max(0.0, sum(outlook.buy_value(b)[0] for b in unseen) / len(unseen))


def _bin_best(
    game: Speedquilt,
    view: JSON,
    belief: GameState,
    outlook: Outlook,
    seat: Seat,
    player: Strong,
) -> tuple[float, str] | None:
    """The bargain bin as the strong player uses it: the best one or two dice on patches that
    the rules allow, or — only if no die helps — a blind draw."""
    turn = belief.turn
    assert turn is not None
    free = [c for c in COLOURS if c not in turn.used]
    options = [p for p in player.placements(outlook, belief, seat, free) if p[0] > 0]
    best: tuple[float, str]

    def legal(text: str) -> bool:
        return game.reason(belief, game.parse_move(text), seat) is None

    for first in options:
        one = f"bin {first[1]} to {first[2]}:{first[3] + 1}"
        if not legal(one):
            continue
        best = (first[0], one)
        for second in options:
            if second[1] != first[1] and (second[2], second[3]) != (first[2], first[3]):
                two = f"{one} {second[1]} to {second[2]}:{second[3] + 1}"
                if legal(two) and first[0] + second[0] > best[0]:
                    best = (first[0] + second[0], two)
                    break
        return best
    # Like the strong player: a blind draw only when no die helps a patch.
    if len(outlook.quilt) < FULL_QUILT - 1 and outlook.rounds_left > 3:
        deck = Deck(player.draw_deck(view, outlook))
        return _draw_value(view, outlook, deck), f"bin draw {deck}"
    return None


def _give(
    game: Speedquilt,
    d: Decision,
    belief: GameState,
    outlook: Outlook,
    seat: Seat,
    player: Strong,
) -> _Verdict:
    offered = offered_dice(belief, seat)
    options = [
        option
        for option in player.placements(outlook, belief, seat, offered)
        if game.reason(belief, Give(Placement(option[1], option[2], option[3])), seat) is None
    ]
    gains = {(colour, block_id, patch): gain for gain, colour, block_id, patch in options}
    move = d.moves[0]
    points = 0.0
    if isinstance(move, Give):
        p = move.placement
        points = gains.get((p.colour, p.block_id, p.patch), 0.0)
    best_points, best = 0.0, ("pass",)
    if options and options[0][0] > 0:
        gain, colour, block_id, patch = options[0]
        best_points, best = gain, (f"give {colour} to {block_id}:{patch + 1}",)
    return _Verdict("giving", points, best_points, best, points)


def _drawn(
    d: Decision, belief: GameState, outlook: Outlook, seat: Seat, player: Strong
) -> _Verdict:
    turn = belief.turn
    assert turn is not None and turn.drawn is not None
    block_id = turn.drawn[1]
    move = d.moves[0]
    points = _buy_at(outlook, block_id, move.cell) if isinstance(move, BinPlace) else 0.0
    value, cell = outlook.buy_value(block_id)
    grow = player.may_grow(d.view, outlook, seat) and bool(free_cells(outlook.quilt))
    if grow and value > 0:
        return _Verdict("bin", points, value, (f"bin place at {cell[0]},{cell[1]}",), points)
    return _Verdict("bin", points, 0.0, ("bin return",), points)


def _shelf(d: Decision, belief: GameState, outlook: Outlook) -> _Verdict:
    """Solo: the block that leaves the shop is lost to her; its worth is what the choice costs."""
    cost: dict[Deck, float] = {}
    for deck in Deck:
        shelf = [b for b in belief.shelves[deck] if b is not None]
        if shelf:
            cost[deck] = max(0.0, outlook.buy_value(shelf[-1])[0])
    move = d.moves[0]
    assert isinstance(move, Remove)
    best = min(cost, key=lambda deck: cost[deck])
    return _Verdict("shelf", -cost[move.deck], -cost[best], (f"remove {best}",))
