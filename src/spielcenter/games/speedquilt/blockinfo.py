"""Block info (Karten-Info): a block explained in whole sentences, in German and English.

:func:`block_info` gives the block's colour, its scoring or kit ability, its rule and each patch,
and — given a :class:`BlockContext` — what the block means for the player now: in the shop
whether her roll can buy it and how many blocks of its colour her quilt holds; in her quilt which
of her dice fit which patches now, and for a finished pattern block what it counts and why.
:func:`calculation` is the end table's line "2 fertige Nachbarn × 2 = 4".
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from spielcenter.games.speedquilt.catalogue import Catalogue
from spielcenter.games.speedquilt.feasibility import can_place
from spielcenter.games.speedquilt.model import (
    COLOURS,
    Block,
    Cell,
    Colour,
    Die,
    KitKind,
    Line,
    Patch,
    Quilt,
    Rule,
)
from spielcenter.games.speedquilt.scoring import BlockScore, score_quilt

__all__ = ["BUY_EQUAL_KIT", "BUY_EQUAL_PATTERN", "BlockContext", "block_info", "calculation"]

Lang = Literal["de", "en"]

BUY_EQUAL_KIT = 3
BUY_EQUAL_PATTERN = 4


@dataclass(frozen=True)
class BlockContext:
    """What the block info may know about the player: her dice, her quilt, where the block is.

    ``cell`` is the block's place in ``quilt``; ``None`` means the block lies in the shop.
    ``dice`` are the dice she can use now (her unused ones; while giving, the ones offered to
    her); ``scissors`` how many stand-ins her finished scissors still give in this turn.
    """

    catalogue: Catalogue
    dice: Sequence[Die] = ()
    quilt: Quilt | None = None
    cell: Cell | None = None
    scissors: int = 0


# -- words ---------------------------------------------------------------------------------------

_COLOUR_EN = {c: c.value for c in COLOURS}
# German adjective endings: masculine nominative singular (-er), plural (-e), neuter (-es).
_COLOUR_DE_STEM = {
    Colour.RED: "rot",
    Colour.BLUE: "blau",
    Colour.GREEN: "grün",
    Colour.YELLOW: "gelb",
    Colour.PURPLE: "lila",
}


def _de(colour: Colour, ending: str) -> str:
    stem = _COLOUR_DE_STEM[colour]
    return stem if colour is Colour.PURPLE else stem + ending  # "lila" does not decline


_KIT_NAME = {
    "de": {
        KitKind.THIMBLE: "Fingerhut",
        KitKind.DYE_BATH: "Färbebad",
        KitKind.SCISSORS: "Schere",
        KitKind.SEWING_MACHINE: "Nähmaschine",
        KitKind.PINS: "Stecknadeln",
    },
    "en": {
        KitKind.THIMBLE: "thimble",
        KitKind.DYE_BATH: "dye bath",
        KitKind.SCISSORS: "scissors",
        KitKind.SEWING_MACHINE: "sewing machine",
        KitKind.PINS: "pins",
    },
}

_KIT_ABILITY = {
    "de": {
        KitKind.THIMBLE: "Einmal pro Zug (auch im Zug der anderen) machst du einen Würfel um 1 "
        "größer oder kleiner (nicht über 6 oder unter 1).",
        KitKind.DYE_BATH: "Einmal pro Zug färbst du einen Würfel in eine beliebige Farbe um.",
        KitKind.SCISSORS: "Einmal pro Zug ersetzt beim Kaufen ein beliebiger Würfel einen der "
        "gleichen Würfel.",
        KitKind.SEWING_MACHINE: "In deinem Zug darfst du einmal mehr nachwürfeln.",
        KitKind.PINS: "Beim Garn abgeben nimmst du einmal pro Zug einen Würfel mehr.",
    },
    "en": {
        KitKind.THIMBLE: "once per turn (anyone's turn) you make one die 1 higher or lower "
        "(not above 6 or below 1).",
        KitKind.DYE_BATH: "once per turn you dye one die any colour.",
        KitKind.SCISSORS: "once per turn, when buying, any one die stands in for one of the "
        "equal dice.",
        KitKind.SEWING_MACHINE: "in your own turn you may reroll once more.",
        KitKind.PINS: "when giving, you take one more die, once per turn.",
    },
}

_RULE = {
    "de": {
        None: "Keine Regel.",
        Rule.ASCENDING: "Regel <: Von links nach rechts muss jede Zahl größer sein als die davor "
        "(Sprünge sind erlaubt).",
        Rule.EQUAL: "Regel =: Flicken mit demselben Buchstaben brauchen dieselbe Zahl.",
        Rule.SUM40: "Regel ≥ 40: Alle Flicken zusammen brauchen mindestens 40 Augen.",
    },
    "en": {
        None: "No rule.",
        Rule.ASCENDING: "Rule <: from left to right each number must be higher than the one "
        "before (gaps are allowed).",
        Rule.EQUAL: "Rule =: patches with the same letter need the same number.",
        Rule.SUM40: "Rule ≥ 40: all patches together need at least 40 pips.",
    },
}


def _counted(line: Line, colour: Colour | None, count: int, lang: Lang) -> str:
    """``count`` things a line counts, e.g. "2 fertige Nachbarn", "1 red block"."""
    one = count == 1
    if lang == "de":
        c1 = _de(colour, "er") if colour else ""
        cn = _de(colour, "e") if colour else ""
        nouns = {
            Line.FINISHED_NEIGHBOUR: ("fertiger Nachbar", "fertige Nachbarn"),
            Line.COLOUR_BLOCK: (f"{c1} Block", f"{cn} Blöcke"),
            Line.COLOUR_NEIGHBOUR: (f"{c1} Nachbar", f"{cn} Nachbarn"),
            Line.FINISHED_LINE: ("fertige Reihe", "fertige Reihen"),
            Line.MONO_LINE: ("einfarbige Reihe", "einfarbige Reihen"),
            Line.KIT_KIND: ("Nähzeug-Art", "Nähzeug-Arten"),
            Line.ALL_COLOURS: ("Farbe", "Farben"),
        }
    else:
        c = f"{_COLOUR_EN[colour]} " if colour else ""
        nouns = {
            Line.FINISHED_NEIGHBOUR: ("finished neighbour", "finished neighbours"),
            Line.COLOUR_BLOCK: (f"{c}block", f"{c}blocks"),
            Line.COLOUR_NEIGHBOUR: (f"{c}neighbour", f"{c}neighbours"),
            Line.FINISHED_LINE: ("finished line", "finished lines"),
            Line.MONO_LINE: ("single-coloured line", "single-coloured lines"),
            Line.KIT_KIND: ("kit kind", "kit kinds"),
            Line.ALL_COLOURS: ("colour", "colours"),
        }
    singular, plural = nouns[line]
    return f"{count} {singular if one else plural}"


def _points(n: int, lang: Lang) -> str:
    if lang == "de":
        return f"{n} Punkt" if n == 1 else f"{n} Punkte"
    return f"{n} point" if n == 1 else f"{n} points"


# -- the sentences -------------------------------------------------------------------------------


def block_info(block: Block, lang: Lang = "de", context: BlockContext | None = None) -> list[str]:
    """The block info of ``block`` as whole sentences in ``lang`` ("de" or "en")."""
    if lang not in ("de", "en"):
        raise ValueError(f"block info speaks 'de' and 'en', not {lang!r}")
    filled = _filled(block, context)
    sentences = [_colour_sentence(block, lang), _score_or_ability(block, lang)]
    sentences.append(_RULE[lang][block.rule])
    sentences += [_patch_sentence(i, p, filled[i], lang) for i, p in enumerate(block.patches)]
    if context is not None:
        sentences += _now(block, filled, context, lang)
    return sentences


def calculation(entry: BlockScore, lang: Lang = "de") -> str:
    """The end table's reckoning for one pattern block, e.g. "2 fertige Nachbarn × 2 = 4"."""
    if entry.line is Line.FIXED:
        return _points(entry.points, lang)
    if entry.line is Line.ALL_COLOURS:
        found = _counted(Line.ALL_COLOURS, None, entry.count, lang)
        return f"{found} → {entry.points}"
    found = _counted(entry.line, entry.line_colour, entry.count, lang)
    return f"{found} × {entry.factor} = {entry.points}"


def _colour_sentence(block: Block, lang: Lang) -> str:
    if block.is_remnant:
        if lang == "de":
            return (
                "Ein Flickenrest ohne Farbe; fertig bekommt er die Farbe, "
                "die dir die meisten Punkte bringt."
            )
        return "A remnant without colour; once finished it takes the colour worth most to you."
    assert block.colour is not None
    if block.is_kit:
        assert block.kit is not None
        if lang == "de":
            return f"Ein {_de(block.colour, 'es')} Nähzeug: {_KIT_NAME['de'][block.kit]}."
        return f"A {_COLOUR_EN[block.colour]} sewing kit: {_KIT_NAME['en'][block.kit]}."
    if lang == "de":
        return f"Ein {_de(block.colour, 'er')} Musterblock."
    return f"A {_COLOUR_EN[block.colour]} pattern block."


def _score_or_ability(block: Block, lang: Lang) -> str:
    if block.kit is not None:
        lead = "Fertig kann es:" if lang == "de" else "Once finished:"
        return f"{lead} {_KIT_ABILITY[lang][block.kit]}"
    assert block.scoring is not None
    line, points, colour = block.scoring.line, block.scoring.points, block.scoring.colour
    pts = _points(points, lang)
    if lang == "de":
        what = {
            Line.FINISHED_NEIGHBOUR: "je fertiger Nachbar (oben, unten, links, rechts)",
            Line.COLOUR_BLOCK: f"je {_de(colour, 'er') if colour else ''} Block im ganzen Quilt "
            "(auch unfertige, dieser mitgezählt)",
            Line.COLOUR_NEIGHBOUR: f"je {_de(colour, 'er') if colour else ''} Nachbar "
            "(oben, unten, links, rechts)",
            Line.FINISHED_LINE: "je fertige Reihe oder Spalte aus drei Blöcken",
            Line.ALL_COLOURS: ", wenn alle fünf Farben im Quilt vorkommen",
            Line.MONO_LINE: "je Reihe oder Spalte aus drei Blöcken derselben Farbe",
            Line.KIT_KIND: "je Art fertiger Nähzeuge",
            Line.FIXED: "",
        }[line]
        return f"Fertig zählt er {pts}{_space(what)}."
    c = _COLOUR_EN[colour] if colour else ""
    what = {
        Line.FINISHED_NEIGHBOUR: "per finished neighbour (above, below, left, right)",
        Line.COLOUR_BLOCK: f"per {c} block anywhere in the quilt (unfinished ones and this one "
        "included)",
        Line.COLOUR_NEIGHBOUR: f"per {c} neighbour (above, below, left, right)",
        Line.FINISHED_LINE: "per finished row or column of three blocks",
        Line.ALL_COLOURS: "if all five colours appear in the quilt",
        Line.MONO_LINE: "per row or column of three blocks of one colour",
        Line.KIT_KIND: "per kind of finished sewing kit",
        Line.FIXED: "",
    }[line]
    return f"Once finished, it scores {pts}{_space(what)}."


def _patch_sentence(index: int, patch: Patch, value: int | None, lang: Lang) -> str:
    n = index + 1
    if value is not None:
        return (
            f"Flicken {n}: belegt mit einer {value}."
            if lang == "de"
            else (f"Patch {n}: filled with a {value}.")
        )
    if lang == "de":
        if patch.colour and patch.value:
            need = f"nur der {_de(patch.colour, 'e')} Würfel mit genau einer {patch.value}"
        elif patch.colour:
            need = f"nur der {_de(patch.colour, 'e')} Würfel"
        elif patch.value:
            need = f"genau eine {patch.value}"
        else:
            need = "jeder Würfel"
        letter = f" (Buchstabe {patch.letter})" if patch.letter else ""
        return f"Flicken {n}: {need}{letter}."
    if patch.colour and patch.value:
        need = f"only the {_COLOUR_EN[patch.colour]} die showing exactly a {patch.value}"
    elif patch.colour:
        need = f"only the {_COLOUR_EN[patch.colour]} die"
    elif patch.value:
        need = f"exactly a {patch.value}"
    else:
        need = "any die"
    letter = f" (letter {patch.letter})" if patch.letter else ""
    return f"Patch {n}: {need}{letter}."


# -- what it means now ---------------------------------------------------------------------------


def _filled(block: Block, context: BlockContext | None) -> tuple[int | None, ...]:
    if context is not None and context.quilt is not None and context.cell is not None:
        placed = context.quilt.get(context.cell)
        if placed is not None and placed.block_id == block.id:
            return placed.filled
    return (None,) * len(block.patches)


def _now(
    block: Block, filled: tuple[int | None, ...], context: BlockContext, lang: Lang
) -> list[str]:
    if context.cell is None:
        return _in_shop(block, context, lang)
    if all(v is not None for v in filled):
        return _counts_now(block, context, lang)
    return _dice_that_fit(block, filled, context.dice, lang)


_NUMBER = {
    "de": {1: "ein", 2: "zwei", 3: "drei", 4: "vier"},
    "en": {1: "one", 2: "two", 3: "three", 4: "four"},
}


def _can_buy(need: int, value: int, most: int, stand_ins: int, lang: Lang) -> str:
    """Her roll buys it: ``most`` equal dice of ``value``, and scissors for the rest."""
    word = _NUMBER[lang]
    if stand_ins == 0:
        if lang == "de":
            return f"Mit deinem Wurf kannst du ihn kaufen ({word[need]} gleiche: {value})."
        return f"Your roll can buy it ({word[need]} equal dice: {value})."
    if lang == "de":
        rest = "ein beliebiger Würfel" if stand_ins == 1 else f"{word[stand_ins]} beliebige Würfel"
        return (
            f"Mit deinem Wurf und der Schere kannst du ihn kaufen: {word[most]} gleiche "
            f"({value}) und {rest}."
        )
    rest = "any one die" if stand_ins == 1 else f"any {word[stand_ins]} dice"
    return f"Your roll and your scissors can buy it: {word[most]} equal dice ({value}) and {rest}."


def _cannot_buy(need: int, scissors: int, lang: Lang) -> str:
    """Her roll does not buy it: what it takes, with her scissors if she has any left."""
    word = _NUMBER[lang]
    equal = max(1, need - scissors)
    free = need - equal
    if lang == "de":
        text = "Mit deinem Wurf kannst du ihn nicht kaufen: "
        text += f"dafür brauchst du {word[need]} gleiche Würfel"
        if free:
            rest = "einen beliebigen" if free == 1 else f"{word[free]} beliebige"
            text += f", mit der Schere {word[equal]} gleiche und {rest}"
        return text + "."
    text = f"Your roll cannot buy it: that takes {word[need]} equal dice"
    if free:
        text += f", or {word[equal]} equal and any {word[free]} with your scissors"
    return text + "."


def _in_shop(block: Block, context: BlockContext, lang: Lang) -> list[str]:
    sentences = []
    if context.dice:
        need = BUY_EQUAL_KIT if block.is_kit else BUY_EQUAL_PATTERN
        value, most = Counter(d.value for d in context.dice).most_common(1)[0]
        # Each use of a finished scissors lets one die of any value stand in (design: kits).
        stand_ins = max(0, need - most)
        if stand_ins <= context.scissors and len(context.dice) >= need:
            sentences.append(_can_buy(need, value, min(most, need), stand_ins, lang))
        else:
            sentences.append(_cannot_buy(need, context.scissors, lang))
    if context.quilt is not None and block.colour is not None:
        colour = block.colour
        have = sum(
            context.catalogue.block(p.block_id).colour == colour for p in context.quilt.values()
        )
        if lang == "de":
            sentences.append(
                f"In deinem Quilt liegt noch kein {_de(colour, 'er')} Block."
                if have == 0
                else f"In deinem Quilt {'liegt' if have == 1 else 'liegen'} schon "
                f"{_counted(Line.COLOUR_BLOCK, colour, have, 'de')}."
            )
        else:
            sentences.append(
                f"Your quilt holds no {_COLOUR_EN[colour]} block yet."
                if have == 0
                else f"Your quilt already holds {_counted(Line.COLOUR_BLOCK, colour, have, 'en')}."
            )
    return sentences


def _dice_that_fit(
    block: Block, filled: tuple[int | None, ...], dice: Sequence[Die], lang: Lang
) -> list[str]:
    sentences = []
    for die in dice:
        fits = [
            i + 1
            for i in range(len(block.patches))
            if can_place(block, filled, i, die.value, die.colour)
        ]
        if not fits:
            continue
        listed = _join([str(n) for n in fits], "und" if lang == "de" else "and")
        if lang == "de":
            sentences.append(
                f"Dein {_de(die.colour, 'er')} Würfel ({die.value}) passt auf Flicken {listed}."
            )
        else:
            sentences.append(
                f"Your {_COLOUR_EN[die.colour]} die ({die.value}) fits patch {listed}."
            )
    if dice and not sentences:
        sentences.append(
            "Keiner deiner Würfel passt jetzt auf diesen Block."
            if lang == "de"
            else "None of your dice fits this block now."
        )
    if block.scoring is not None:
        sentences.append(
            "Unfertig zählt er noch nichts."
            if lang == "de"
            else "Unfinished, it scores nothing yet."
        )
    return sentences


def _counts_now(block: Block, context: BlockContext, lang: Lang) -> list[str]:
    if block.scoring is None or context.quilt is None or context.cell is None:
        return []
    entry = score_quilt(context.quilt, context.catalogue).at(context.cell)
    if entry is None:
        return []
    sentences = [
        f"Er zählt jetzt {_points(entry.points, 'de')}: {calculation(entry, 'de')}."
        if lang == "de"
        else f"It scores {_points(entry.points, 'en')} now: {calculation(entry, 'en')}."
    ]
    if entry.chosen_colour and entry.colour is not None:
        sentences.append(
            f"Als Farbe wählt das Spiel {_COLOUR_DE_STEM[entry.colour]}, das bringt dir am meisten."
            if lang == "de"
            else f"The game chooses {_COLOUR_EN[entry.colour]} for it: that is worth most to you."
        )
    return sentences


def _space(what: str) -> str:
    """A leading space unless ``what`` is empty or starts with a comma."""
    return what if not what or what.startswith(",") else f" {what}"


def _join(items: list[str], conjunction: str) -> str:
    if len(items) == 1:
        return items[0]
    return f"{', '.join(items[:-1])} {conjunction} {items[-1]}"
