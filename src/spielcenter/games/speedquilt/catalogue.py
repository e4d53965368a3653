"""The Speedquilt block catalogue: 45 pattern blocks and 25 sewing kits, loaded from TOML.

The data lives in ``catalogue.toml`` next to this module. :func:`load_catalogue` reads and
validates it once; :func:`parse_catalogue` validates any text of the same format. Every fault is a
:class:`CatalogueError` whose message names the block and the fault, e.g.
``"P07: patch 3 has value 7; values are 1–6"``.

A patch is written as words separated by spaces: a value ``1``–``6``, a colour name, a letter
``A``–``Z`` (only on ``=`` blocks), or the single word ``any``.

>>> catalogue = load_catalogue()
>>> len(catalogue.pattern_ids), len(catalogue.kit_ids)
(45, 25)
>>> parse_patch("4 red")
Patch(value=4, colour=<Colour.RED: 'red'>, letter=None)
"""

from __future__ import annotations

import tomllib
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any, TypeVar

from spielcenter.games.speedquilt.feasibility import can_complete
from spielcenter.games.speedquilt.model import (
    COLOURS,
    DIE_VALUES,
    Block,
    Colour,
    Deck,
    KitKind,
    Line,
    Patch,
    Rule,
    Scoring,
)

__all__ = [
    "PATTERN_COUNT",
    "Catalogue",
    "CatalogueError",
    "load_catalogue",
    "parse_catalogue",
    "parse_patch",
]

PATTERN_COUNT = 45
KIT_COUNT = 25
PATTERNS_PER_COLOUR = 8
REMNANT_COUNT = 5
PATTERN_PATCHES = range(3, 7)
SUM40_PATCHES = range(7, 9)
SUM40_COUNT = 4
KIT_PATCHES = range(2, 4)
E = TypeVar("E", Colour, Rule, Line, KitKind)
COLOURED_LINES = frozenset({Line.COLOUR_BLOCK, Line.COLOUR_NEIGHBOUR})

_PATTERN_KEYS = frozenset({"id", "colour", "patches", "rule", "score", "score_colour", "points"})
_KIT_KEYS = frozenset({"id", "colour", "patches", "rule", "kind"})


class CatalogueError(ValueError):
    """A catalogue file that breaks the format or the catalogue's constraints."""


@dataclass(frozen=True)
class Catalogue:
    """All blocks of both decks, in id order."""

    blocks: tuple[Block, ...]
    _by_id: Mapping[str, Block] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_id", {block.id: block for block in self.blocks})

    def block(self, block_id: str) -> Block:
        """The block with id ``block_id``; raises :class:`CatalogueError` for an unknown id."""
        try:
            return self._by_id[block_id]
        except KeyError:
            raise CatalogueError(f"{block_id}: no such block in the catalogue") from None

    def __contains__(self, block_id: object) -> bool:
        return block_id in self._by_id

    def __iter__(self) -> Iterator[Block]:
        return iter(self.blocks)

    @property
    def patterns(self) -> tuple[Block, ...]:
        """The pattern deck in id order."""
        return tuple(b for b in self.blocks if b.deck is Deck.PATTERN)

    @property
    def kits(self) -> tuple[Block, ...]:
        """The kit deck in id order."""
        return tuple(b for b in self.blocks if b.deck is Deck.KIT)

    @property
    def pattern_ids(self) -> tuple[str, ...]:
        """``P01`` … ``P45``."""
        return tuple(b.id for b in self.patterns)

    @property
    def kit_ids(self) -> tuple[str, ...]:
        """``K01`` … ``K25``."""
        return tuple(b.id for b in self.kits)


@cache
def load_catalogue() -> Catalogue:
    """The game's catalogue, read from the package data and validated (once per process)."""
    text = (
        resources.files("spielcenter.games.speedquilt")
        .joinpath("catalogue.toml")
        .read_text(encoding="utf-8")
    )
    return parse_catalogue(text)


def parse_catalogue(text: str) -> Catalogue:
    """Read and validate a catalogue in the TOML format of ``catalogue.toml``."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise CatalogueError(f"catalogue is not valid TOML: {error}") from None
    unknown = set(data) - {"pattern", "kit"}
    if unknown:
        raise CatalogueError(f"catalogue: unknown sections {sorted(unknown)}")
    patterns = [_pattern(entry, n) for n, entry in enumerate(data.get("pattern", []), 1)]
    kits = [_kit(entry, n) for n, entry in enumerate(data.get("kit", []), 1)]
    _check_pattern_deck(patterns)
    _check_kit_deck(kits)
    return Catalogue(tuple(patterns + kits))


def parse_patch(text: str, where: str = "patch") -> Patch:
    """A patch from its words (``"4"``, ``"red"``, ``"A blue"``, ``"any"``)."""
    words = text.split()
    if words == ["any"]:
        return Patch()
    value: int | None = None
    colour: Colour | None = None
    letter: str | None = None
    for word in words:
        if word.isdigit():
            if value is not None:
                raise CatalogueError(f"{where} has two values")
            value = int(word)
            if value not in DIE_VALUES:
                raise CatalogueError(f"{where} has value {value}; values are 1–6")
        elif word in Colour.__members__.values():
            if colour is not None:
                raise CatalogueError(f"{where} has two colours")
            colour = Colour(word)
        elif len(word) == 1 and "A" <= word <= "Z":
            if letter is not None:
                raise CatalogueError(f"{where} has two letters")
            letter = word
        else:
            raise CatalogueError(
                f"{where}: {word!r} is not a value 1–6, a colour, a letter A–Z or 'any'"
            )
    if not words:
        raise CatalogueError(f"{where} is empty; write 'any' for a patch that takes any die")
    return Patch(value, colour, letter)


# -- one entry ----------------------------------------------------------------------------------


def _pattern(entry: Mapping[str, Any], n: int) -> Block:
    block_id = _block_id(entry, "P", n)
    _no_unknown_keys(block_id, entry, _PATTERN_KEYS)
    colour = _enum(block_id, entry, "colour", Colour, required=False)
    patches = _patches(block_id, entry)
    rule = _enum(block_id, entry, "rule", Rule, required=False)
    line = _enum(block_id, entry, "score", Line, required=True)
    assert line is not None
    score_colour = _enum(block_id, entry, "score_colour", Colour, required=False)
    if (line in COLOURED_LINES) != (score_colour is not None):
        need = "needs" if line in COLOURED_LINES else "takes no"
        raise CatalogueError(f"{block_id}: scoring line {line} {need} score_colour")
    points = entry.get("points")
    if not isinstance(points, int) or isinstance(points, bool) or points < 1:
        raise CatalogueError(f"{block_id}: points must be a whole number of at least 1")
    block = Block(
        block_id, Deck.PATTERN, colour, patches, rule, Scoring(line, points, score_colour)
    )
    _check_block(block)
    return block


def _kit(entry: Mapping[str, Any], n: int) -> Block:
    block_id = _block_id(entry, "K", n)
    _no_unknown_keys(block_id, entry, _KIT_KEYS)
    colour = _enum(block_id, entry, "colour", Colour, required=True)
    kind = _enum(block_id, entry, "kind", KitKind, required=True)
    block = Block(
        block_id,
        Deck.KIT,
        colour,
        _patches(block_id, entry),
        _enum(block_id, entry, "rule", Rule, required=False),
        kit=kind,
    )
    _check_block(block)
    return block


def _block_id(entry: Mapping[str, Any], prefix: str, n: int) -> str:
    expected = f"{prefix}{n:02d}"
    found = entry.get("id")
    if found != expected:
        raise CatalogueError(f"{expected}: entry number {n} has id {found!r}; ids run in order")
    return expected


def _no_unknown_keys(block_id: str, entry: Mapping[str, Any], known: frozenset[str]) -> None:
    unknown = set(entry) - known
    if unknown:
        raise CatalogueError(f"{block_id}: unknown fields {sorted(unknown)}")


def _enum(
    block_id: str, entry: Mapping[str, Any], key: str, kind: type[E], *, required: bool
) -> E | None:
    raw = entry.get(key)
    if raw is None:
        if required:
            raise CatalogueError(f"{block_id}: {key} is missing")
        return None
    try:
        return kind(raw)
    except ValueError:
        allowed = ", ".join(member.value for member in kind)
        raise CatalogueError(f"{block_id}: {key} {raw!r} is not one of {allowed}") from None


def _patches(block_id: str, entry: Mapping[str, Any]) -> tuple[Patch, ...]:
    raw = entry.get("patches")
    if not isinstance(raw, list) or not all(isinstance(p, str) for p in raw):
        raise CatalogueError(f"{block_id}: patches must be a list of strings")
    return tuple(parse_patch(p, f"{block_id}: patch {i}") for i, p in enumerate(raw, 1))


def _check_block(block: Block) -> None:
    """The constraints on a single block."""
    n = len(block.patches)
    if block.is_kit:
        allowed = KIT_PATCHES
    elif block.rule is Rule.SUM40:
        allowed = SUM40_PATCHES
    else:
        allowed = PATTERN_PATCHES
    if n not in allowed:
        what = "kit" if block.is_kit else f"{block.rule or 'pattern'} block"
        raise CatalogueError(
            f"{block.id}: has {n} patches; a {what} has {allowed.start}–{allowed.stop - 1}"
        )
    letters = Counter(p.letter for p in block.patches if p.letter is not None)
    if block.rule is not Rule.EQUAL and letters:
        raise CatalogueError(f"{block.id}: letters belong only on '=' blocks")
    if block.rule is Rule.EQUAL:
        lonely = sorted(letter for letter, count in letters.items() if count < 2)
        if not letters or lonely:
            raise CatalogueError(f"{block.id}: every letter of an '=' block needs two patches")
    if not can_complete(block, (None,) * n):
        raise CatalogueError(f"{block.id}: cannot be completed from empty")


# -- whole decks --------------------------------------------------------------------------------


def _check_pattern_deck(patterns: list[Block]) -> None:
    if len(patterns) != PATTERN_COUNT:
        raise CatalogueError(f"pattern deck: {len(patterns)} blocks; it has {PATTERN_COUNT}")
    colours = Counter(block.colour for block in patterns)
    for colour in COLOURS:
        if colours[colour] != PATTERNS_PER_COLOUR:
            raise CatalogueError(
                f"pattern deck: {colours[colour]} {colour} blocks; "
                f"it has {PATTERNS_PER_COLOUR} of each colour"
            )
    if colours[None] != REMNANT_COUNT:
        raise CatalogueError(f"pattern deck: {colours[None]} remnants; it has {REMNANT_COUNT}")
    sums = sum(block.rule is Rule.SUM40 for block in patterns)
    if sums != SUM40_COUNT:
        raise CatalogueError(f"pattern deck: {sums} '>=40' blocks; it has {SUM40_COUNT}")


def _check_kit_deck(kits: list[Block]) -> None:
    if len(kits) != KIT_COUNT:
        raise CatalogueError(f"kit deck: {len(kits)} kits; it has {KIT_COUNT}")
    pairs = Counter((block.kit, block.colour) for block in kits)
    for kind in KitKind:
        for colour in COLOURS:
            if pairs[kind, colour] != 1:
                raise CatalogueError(
                    f"kit deck: {pairs[kind, colour]} {colour} {kind} kits; it has one of each"
                )
