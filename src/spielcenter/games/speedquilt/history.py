"""The Spielverlauf of a Speedquilt table: one readable line per decision, and who may read it.

A line is an i18n key with parameters (``{"key": "history.sew", "seat": 1, "block": "P03"}``);
the browser renders it in German or English. Lines are derived from the log: each entry is the
position before, the seat, the move and the position after. What is private to the deciding
seat (a start choice, a blind-drawn block, a thimble or dye-bath adjustment) appears only in her
own line; the line everyone else reads leaves it out, or is ``None`` when nothing is left.

It sits next to ``views.py`` because it is the same rule for a move that ``view_for`` is for a
position: what each seat may read. The table, the replays and the solo screen all ask it here;
the log these lines belong to is the one every game keeps (:mod:`spielcenter.games.log`).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial
from typing import TYPE_CHECKING, Any

from spielcenter.games.base import JSON, Deal, Seat
from spielcenter.games.log import MOVE, Entry, EntryLines, GameLog

from .model import Cell
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
    Remove,
    Reroll,
    Roll,
    Sew,
    Thimble,
    Undo,
)
from .state import GameState, Phase

if TYPE_CHECKING:
    from .rules import Speedquilt

__all__ = ["Entry", "EntryLines", "lines_of", "table_log"]


def table_log(game: Speedquilt, deal: Deal, log: Iterable[tuple[Seat, str]]) -> GameLog[Any, Any]:
    """A stored Speedquilt log of ``(seat, move text)`` as a :class:`GameLog` with its history
    lines (the moves were checked when they were written: they are applied, not checked)."""
    stored = ((MOVE, seat, text) for seat, text in log)
    return GameLog.replay(game, deal, stored, partial(lines_of, game), checked=False)


def _cell(cell: Cell) -> str:
    return f"{cell[0]},{cell[1]}"


def _line(key: str, seat: int | None, **params: Any) -> JSON:
    return {"key": f"history.{key}", "seat": seat, **params}


def lines_of(
    game: Speedquilt, before: GameState, after: GameState, seat: int, move: Move
) -> EntryLines:
    """The history lines of ``seat`` playing ``move`` from ``before`` to ``after``."""
    lines = _lines(game, before, after, seat, move)
    also = list(lines.also)
    if after.phase is Phase.OVER and before.phase is not Phase.OVER:
        also.append(_line("over", None, scores=game.scores(after), places=game.places(after)))
    return EntryLines(lines.own, lines.public, also, lines.private)


def _same(line: JSON) -> EntryLines:
    return EntryLines(line, line)


def _lines(
    game: Speedquilt, before: GameState, after: GameState, seat: int, move: Move
) -> EntryLines:
    match move:
        case Choose(row=row, returned=returned):
            own = _line("choose", seat, row=list(row), returned=returned)
            also = []
            if after.phase is not Phase.CHOOSING:
                also.append(_line("start", after.start_player, start_player=after.start_player))
            return EntryLines(own, _line("choose", seat), also, private=True)
        case Roll():
            assert after.turn is not None
            dice = {str(c): v for c, v in after.turn.dice.items()}
            return _same(_line("roll", seat, dice=dice))
        case Keep(colours=colours):
            return _same(_line("keep", seat, dice=[str(c) for c in colours]))
        case Reroll():
            assert before.turn is not None and after.turn is not None
            kept = set(before.turn.basket)
            dice = {str(c): v for c, v in after.turn.dice.items() if c not in kept}
            return _same(_line("reroll", seat, dice=dice))
        case Sew(block_id=block_id):
            return _same(_line("sew", seat, block=block_id))
        case Buy(block_id=block_id, cell=cell):
            return _same(_line("buy", seat, block=block_id, cell=_cell(cell)))
        case BinDice(placements=placements):
            placed = [
                {"die": str(p.colour), "block": p.block_id, "patch": p.patch + 1}
                for p in placements
            ]
            return _same(_line("bin_dice", seat, placements=placed))
        case BinDraw(deck=deck):
            assert after.turn is not None and after.turn.drawn is not None
            block = after.turn.drawn[1]
            own = _line("bin_draw", seat, deck=str(deck), block=block)
            return EntryLines(own, _line("bin_draw", seat, deck=str(deck)))
        case BinPlace(cell=cell):
            assert before.turn is not None and before.turn.drawn is not None
            block = before.turn.drawn[1]
            return _same(_line("bin_place", seat, block=block, cell=_cell(cell)))
        case BinReturn():
            assert before.turn is not None and before.turn.drawn is not None
            deck, block = before.turn.drawn
            own = _line("bin_return", seat, deck=str(deck), block=block)
            return EntryLines(own, _line("bin_return", seat, deck=str(deck)))
        case Give(placement=p):
            given = _line("give", seat, die=str(p.colour), block=p.block_id, patch=p.patch + 1)
            return _same(given)
        case Pass():
            return _same(_line("pass", seat))
        case Thimble(colour=colour, delta=delta):
            own = _line("thimble", seat, die=str(colour), by=f"{delta:+d}")
            return EntryLines(own, None, private=True)
        case Dye(colour=colour, to=to):
            return EntryLines(_line("dye", seat, die=str(colour), to=str(to)), None, private=True)
        case Undo():
            # An undo that only took back an adjustment changes nothing anyone else can see.
            if game.view_for(before, None) == game.view_for(after, None):
                return EntryLines(_line("undo", seat), None, private=True)
            return _same(_line("undo", seat))
        case End():
            following = after.turn.seat if after.turn is not None else None
            return _same(_line("end", seat, round=after.round, next=following))
        case Remove(deck=deck):
            shelf = [b for b in before.shelves[deck] if b is not None]
            return _same(_line("remove", seat, deck=str(deck), block=shelf[-1] if shelf else None))
    raise TypeError(f"no history line for {move!r}")
