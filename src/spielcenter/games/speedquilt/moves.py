"""Speedquilt's moves and their one canonical text notation.

Dice are always named by their own colour (the die's identity), even after a dye bath made one
count as another colour. Patches are numbered from 1, left to right, as a player counts them.
Cells are ``x,y`` (column, row; negative numbers allowed).

>>> fmt(parse("sew P03 blue:2 red:1"))
'sew P03 red:1 blue:2'
>>> fmt(parse("buy K07 at -1,0 with green red blue"))
'buy K07 at -1,0 with red blue green'
>>> fmt(parse("keep none"))
'keep none'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from spielcenter.games.base import MoveSyntaxError

from .model import COLOURS, Cell, Colour, Deck

__all__ = [
    "BinDice",
    "BinDraw",
    "BinPlace",
    "BinReturn",
    "Buy",
    "Choose",
    "Dye",
    "End",
    "Give",
    "Keep",
    "Move",
    "Pass",
    "Placement",
    "Remove",
    "Reroll",
    "Roll",
    "Sew",
    "Thimble",
    "Undo",
    "fmt",
    "parse",
]

_BLOCK_ID = re.compile(r"^[PK]\d\d$")
_CELL = re.compile(r"^(-?\d+),(-?\d+)$")


@dataclass(frozen=True)
class Placement:
    """One die on one patch: ``red to P03:2`` (``patch`` is 0-based inside, 1-based in text)."""

    colour: Colour
    block_id: str
    patch: int


@dataclass(frozen=True)
class Choose:
    """The start choice: the row of three (left to right) and the block put back."""

    row: tuple[str, str, str]
    returned: str


@dataclass(frozen=True)
class Roll:
    """The first roll of a turn: all five dice."""


@dataclass(frozen=True)
class Keep:
    """Set the basket to exactly these dice before the next reroll."""

    colours: tuple[Colour, ...]


@dataclass(frozen=True)
class Reroll:
    """Roll every die that is not in the basket."""


@dataclass(frozen=True)
class Sew:
    """Fill all empty patches of one own block at once: ``(colour, patch)`` pairs."""

    block_id: str
    dice: tuple[tuple[Colour, int], ...]


@dataclass(frozen=True)
class Buy:
    """Buy a block from the shop with equal dice and place it at ``cell``."""

    block_id: str
    cell: Cell
    dice: tuple[Colour, ...]


@dataclass(frozen=True)
class BinDice:
    """Bargain bin: one or two dice on patches, no completion needed."""

    placements: tuple[Placement, ...]


@dataclass(frozen=True)
class BinDraw:
    """Bargain bin: draw the top block of a deck blind."""

    deck: Deck


@dataclass(frozen=True)
class BinPlace:
    """Lay the blind-drawn block into the quilt at ``cell``."""

    cell: Cell


@dataclass(frozen=True)
class BinReturn:
    """Put the blind-drawn block back under its deck."""


@dataclass(frozen=True)
class Give:
    """Giving: take one offered die onto one own patch."""

    placement: Placement


@dataclass(frozen=True)
class Pass:
    """Close one's giving window (or the solo giving turn) without taking (more)."""


@dataclass(frozen=True)
class Thimble:
    """Change one die's value by +1 or −1 (private to the owner of the thimble)."""

    colour: Colour
    delta: int


@dataclass(frozen=True)
class Dye:
    """Let one die count as another colour (private to the owner of the dye bath)."""

    colour: Colour
    to: Colour


@dataclass(frozen=True)
class Undo:
    """Take back the active player's last sewing, buying or adjustment of this turn."""


@dataclass(frozen=True)
class End:
    """End the turn (always an explicit move)."""


@dataclass(frozen=True)
class Remove:
    """Solo: the rightmost block of this shelf leaves the shop, ending the round."""

    deck: Deck


Move = (
    Choose
    | Roll
    | Keep
    | Reroll
    | Sew
    | Buy
    | BinDice
    | BinDraw
    | BinPlace
    | BinReturn
    | Give
    | Pass
    | Thimble
    | Dye
    | Undo
    | End
    | Remove
)

_SIMPLE: dict[str, Move] = {
    "roll": Roll(),
    "reroll": Reroll(),
    "bin return": BinReturn(),
    "pass": Pass(),
    "undo": Undo(),
    "end": End(),
}
_SIMPLE_TEXT: dict[type, str] = {type(move): text for text, move in _SIMPLE.items()}
"""A simple move's text by its kind (a move without fields equals every move of its kind)."""


# -- formatting ---------------------------------------------------------------------------------


def _colour_order(colours: tuple[Colour, ...]) -> tuple[Colour, ...]:
    return tuple(sorted(colours, key=COLOURS.index))


def _fmt_cell(cell: Cell) -> str:
    return f"{cell[0]},{cell[1]}"


def _fmt_placement(p: Placement) -> str:
    return f"{p.colour} to {p.block_id}:{p.patch + 1}"


def fmt(move: Move) -> str:
    """The canonical notation of ``move``."""
    simple = _SIMPLE_TEXT.get(type(move))
    if simple is not None:
        return simple
    match move:
        case Choose(row, returned):
            return f"choose {' '.join(row)} return {returned}"
        case Keep(colours):
            return "keep " + (" ".join(_colour_order(colours)) or "none")
        case Sew(block_id, dice):
            pairs = sorted(dice, key=lambda d: d[1])
            return f"sew {block_id} " + " ".join(f"{c}:{i + 1}" for c, i in pairs)
        case Buy(block_id, cell, dice):
            paid = " ".join(_colour_order(dice))
            return f"buy {block_id} at {_fmt_cell(cell)} with {paid}"
        case BinDice(placements):
            return "bin " + " ".join(_fmt_placement(p) for p in placements)
        case BinDraw(deck):
            return f"bin draw {deck}"
        case BinPlace(cell):
            return f"bin place at {_fmt_cell(cell)}"
        case Give(placement):
            return "give " + _fmt_placement(placement)
        case Thimble(colour, delta):
            return f"thimble {colour} {'+1' if delta > 0 else '-1'}"
        case Dye(colour, to):
            return f"dye {colour}->{to}"
        case Remove(deck):
            return f"remove {deck}"
    raise TypeError(f"not a Speedquilt move: {move!r}")


# -- parsing ------------------------------------------------------------------------------------


def _syntax(text: str, why: str) -> MoveSyntaxError:
    return MoveSyntaxError(f"{text!r}: {why}")


def _colour(word: str, text: str) -> Colour:
    try:
        return Colour(word)
    except ValueError:
        names = ", ".join(COLOURS)
        raise _syntax(text, f"{word!r} is not a die colour ({names})") from None


def _block_id(word: str, text: str) -> str:
    if not _BLOCK_ID.match(word):
        raise _syntax(text, f"{word!r} is not a block id such as P03 or K12")
    return word


def _deck(word: str, text: str) -> Deck:
    try:
        return Deck(word)
    except ValueError:
        raise _syntax(text, f"{word!r} is not a deck (pattern or kit)") from None


def _cell(word: str, text: str) -> Cell:
    match = _CELL.match(word)
    if not match:
        raise _syntax(text, f"{word!r} is not a cell such as 1,0 or -1,2")
    return int(match.group(1)), int(match.group(2))


def _patch_ref(word: str, text: str) -> tuple[str, int]:
    block, sep, number = word.partition(":")
    if not sep or not number.isdigit() or int(number) < 1:
        raise _syntax(text, f"{word!r} is not a patch such as P03:2 (patches count from 1)")
    return _block_id(block, text), int(number) - 1


def _placements(words: list[str], text: str) -> tuple[Placement, ...]:
    """``red to P03:2 [blue to P05:1 …]``."""
    if not words or len(words) % 3:
        raise _syntax(text, "expected COLOUR to BLOCK:PATCH")
    out = []
    for i in range(0, len(words), 3):
        colour, to, ref = words[i : i + 3]
        if to != "to":
            raise _syntax(text, "expected COLOUR to BLOCK:PATCH")
        block_id, patch = _patch_ref(ref, text)
        out.append(Placement(_colour(colour, text), block_id, patch))
    return tuple(out)


def _distinct(colours: tuple[Colour, ...], text: str) -> tuple[Colour, ...]:
    if len(set(colours)) != len(colours):  # a die is used once per move
        raise _syntax(text, "a die is named twice")
    return colours


def _parse_choose(w: list[str], text: str) -> Move:
    if len(w) != 6 or w[4] != "return":
        raise _syntax(text, "expected: choose B1 B2 B3 return B4")
    ids = [_block_id(x, text) for x in (w[1], w[2], w[3], w[5])]
    if len(set(ids)) != 4:
        raise _syntax(text, "a block is named twice")
    return Choose((ids[0], ids[1], ids[2]), ids[3])


def _parse_keep(w: list[str], text: str) -> Move:
    if w[1:] == ["none"]:
        return Keep(())
    if len(w) < 2:
        raise _syntax(text, "expected: keep COLOUR … or keep none")
    colours = _distinct(tuple(_colour(x, text) for x in w[1:]), text)
    return Keep(_colour_order(colours))


def _parse_sew(w: list[str], text: str) -> Move:
    if len(w) < 3:
        raise _syntax(text, "expected: sew BLOCK COLOUR:PATCH …")
    pairs = []
    for word in w[2:]:
        colour, sep, number = word.partition(":")
        if not sep or not number.isdigit() or int(number) < 1:
            raise _syntax(text, f"{word!r} is not COLOUR:PATCH such as red:2")
        pairs.append((_colour(colour, text), int(number) - 1))
    _distinct(tuple(c for c, _ in pairs), text)
    if len({i for _, i in pairs}) != len(pairs):
        raise _syntax(text, "a patch is named twice")
    return Sew(_block_id(w[1], text), tuple(sorted(pairs, key=lambda d: d[1])))


def _parse_buy(w: list[str], text: str) -> Move:
    if len(w) < 6 or w[2] != "at" or w[4] != "with":
        raise _syntax(text, "expected: buy BLOCK at X,Y with COLOUR …")
    colours = _distinct(tuple(_colour(x, text) for x in w[5:]), text)
    return Buy(_block_id(w[1], text), _cell(w[3], text), _colour_order(colours))


def _parse_bin(w: list[str], text: str) -> Move:
    if len(w) == 3 and w[1] == "draw":
        return BinDraw(_deck(w[2], text))
    if len(w) == 4 and w[1:3] == ["place", "at"]:
        return BinPlace(_cell(w[3], text))
    placements = _placements(w[1:], text)
    if len(placements) > 2:
        raise _syntax(text, "the bargain bin takes one or two dice")
    _distinct(tuple(p.colour for p in placements), text)
    return BinDice(tuple(sorted(placements, key=lambda p: COLOURS.index(p.colour))))


def _parse_give(w: list[str], text: str) -> Move:
    placements = _placements(w[1:], text)
    if len(placements) != 1:
        raise _syntax(text, "expected: give COLOUR to BLOCK:PATCH")
    return Give(placements[0])


def _parse_thimble(w: list[str], text: str) -> Move:
    if len(w) != 3 or w[2] not in ("+1", "-1"):
        raise _syntax(text, "expected: thimble COLOUR +1 or thimble COLOUR -1")
    return Thimble(_colour(w[1], text), 1 if w[2] == "+1" else -1)


def _parse_dye(w: list[str], text: str) -> Move:
    source, sep, target = w[1].partition("->") if len(w) == 2 else ("", "", "")
    if not sep:
        raise _syntax(text, "expected: dye COLOUR->COLOUR")
    return Dye(_colour(source, text), _colour(target, text))


def _parse_remove(w: list[str], text: str) -> Move:
    if len(w) != 2:
        raise _syntax(text, "expected: remove pattern or remove kit")
    return Remove(_deck(w[1], text))


_PARSERS = {
    "choose": _parse_choose,
    "keep": _parse_keep,
    "sew": _parse_sew,
    "buy": _parse_buy,
    "bin": _parse_bin,
    "give": _parse_give,
    "thimble": _parse_thimble,
    "dye": _parse_dye,
    "remove": _parse_remove,
}


def parse(text: str) -> Move:
    """Read a move from its notation; raise :class:`MoveSyntaxError` if it is not one."""
    if not isinstance(text, str):
        raise MoveSyntaxError(f"a move is text, not {type(text).__name__}")
    words = text.split()
    normal = " ".join(words)
    if normal in _SIMPLE:
        return _SIMPLE[normal]
    if not words or words[0] not in _PARSERS:
        raise _syntax(text, "not a Speedquilt move (" + ", ".join([*_SIMPLE, *_PARSERS]) + ")")
    return _PARSERS[words[0]](words, text)
