"""``spielcenter speedquilt …``: the Speedquilt catalogue and quilt scoring in the terminal.

* ``speedquilt blocks [--json | --markdown]`` lists all 70 blocks with their exact one-turn
  chance; ``--markdown`` prints the page ``docs/speedquilt-blocks.md`` (it is generated this way).
* ``speedquilt score FILE.json [--json] [--lang de|en]`` scores a quilt file (format in
  ``docs/speedquilt-blocks.md``); a bad file gets a clear error and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from spielcenter.games.speedquilt.blockinfo import calculation
from spielcenter.games.speedquilt.catalogue import Catalogue, load_catalogue
from spielcenter.games.speedquilt.difficulty import (
    difficulty,
    one_turn_chance,
    prefills_needed,
    spearman,
)
from spielcenter.games.speedquilt.model import Block, Cell, Patch, PlacedBlock
from spielcenter.games.speedquilt.scoring import (
    TYPICAL_COUNT,
    QuiltError,
    score_quilt,
    typical_points,
)

from . import EXIT_BAD_INPUT

SUBCOMMANDS: dict[str, argparse._SubParsersAction[argparse.ArgumentParser]] = {}
"""The ``speedquilt`` group's sub-parsers, so that other modules can add commands to it."""


def register(subparsers: Any) -> None:
    """Add the ``speedquilt`` group with ``blocks`` and ``score``."""
    group = subparsers.add_parser("speedquilt", help="Speedquilt: blocks and scoring")
    commands = group.add_subparsers(dest="speedquilt_command", required=True, metavar="COMMAND")
    SUBCOMMANDS["speedquilt"] = commands

    blocks = commands.add_parser("blocks", help="list the block catalogue with one-turn chances")
    form = blocks.add_mutually_exclusive_group()
    form.add_argument("--json", action="store_true", help="print JSON for scripts")
    form.add_argument("--markdown", action="store_true", help="print docs/speedquilt-blocks.md")
    blocks.set_defaults(func=cmd_blocks)

    score = commands.add_parser("score", help="score a finished quilt given as a JSON file")
    score.add_argument("file", help='quilt file: {"blocks": [{"id", "cell", "filled"}, …]}')
    score.add_argument("--json", action="store_true", help="print JSON for scripts")
    score.add_argument("--lang", choices=("en", "de"), default="en", help="language of the text")
    score.set_defaults(func=cmd_score)


# -- blocks --------------------------------------------------------------------------------------


def cmd_blocks(args: argparse.Namespace) -> int:
    """Print the catalogue (text, JSON or the Markdown page)."""
    catalogue = load_catalogue()
    if args.json:
        print(json.dumps([_block_json(b) for b in catalogue], indent=1))
    elif args.markdown:
        print(blocks_markdown(catalogue), end="")
    else:
        for block in catalogue:
            chance = f"{float(one_turn_chance(block)):7.2%}"
            print(f"{block.id}  {_colour(block):7}  {chance}  {_rule(block):4}  {_what(block)}")
            print(f"      patches: {' | '.join(patch_words(p) for p in block.patches)}")
    return 0


def patch_words(patch: Patch) -> str:
    """A patch in the catalogue's words: ``"4 red"``, ``"A"``, ``"any"``."""
    words = [str(patch.value) if patch.value else "", patch.colour or "", patch.letter or ""]
    return " ".join(w for w in words if w) or "any"


def _colour(block: Block) -> str:
    return block.colour.value if block.colour else "remnant"


def _rule(block: Block) -> str:
    return block.rule.value if block.rule else "-"


def _what(block: Block) -> str:
    if block.kit is not None:
        return f"kit: {block.kit.value}"
    assert block.scoring is not None
    colour = f":{block.scoring.colour.value}" if block.scoring.colour else ""
    return f"{block.scoring.line.value}{colour} × {block.scoring.points}"


def _block_json(block: Block) -> dict[str, Any]:
    chance = one_turn_chance(block)
    return {
        "id": block.id,
        "deck": block.deck.value,
        "colour": block.colour.value if block.colour else None,
        "patches": [patch_words(p) for p in block.patches],
        "rule": block.rule.value if block.rule else None,
        "score": block.scoring.line.value if block.scoring else None,
        "score_colour": (
            block.scoring.colour.value if block.scoring and block.scoring.colour else None
        ),
        "points": block.scoring.points if block.scoring else None,
        "kind": block.kit.value if block.kit else None,
        "one_turn_chance": float(chance),
        "one_turn_chance_exact": f"{chance.numerator}/{chance.denominator}",
        "prefills_needed": prefills_needed(block),
    }


# -- score ---------------------------------------------------------------------------------------


def cmd_score(args: argparse.Namespace) -> int:
    """Score a quilt file and print the breakdown."""
    catalogue = load_catalogue()
    try:
        quilt = read_quilt(Path(args.file))
        result = score_quilt(quilt, catalogue)
    except QuiltError as error:
        print(f"spielcenter speedquilt score: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.json:
        print(json.dumps(result.to_json(), indent=1))
        return 0
    for entry in result.blocks:
        dot = f" (colour chosen: {entry.colour})" if entry.chosen_colour else ""
        state = "" if entry.finished else " — unfinished, scores nothing"
        shown = calculation(entry, args.lang) if entry.finished else str(entry.points)
        print(f"{entry.block_id} at {entry.cell}: {entry.line.value}: {shown}{dot}{state}")
    print(f"total: {result.total} points; empty patches: {result.empty_patches}")
    return 0


def read_quilt(path: Path) -> dict[Cell, PlacedBlock]:
    """Read a quilt file; every fault is a :class:`QuiltError` naming the place."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise QuiltError(f"cannot read {path}: {error.strerror}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise QuiltError(f"{path} is not JSON: {error}") from None
    if not isinstance(data, Mapping) or not isinstance(data.get("blocks"), list):
        raise QuiltError(f'{path}: expected an object with a list "blocks"')
    quilt: dict[Cell, PlacedBlock] = {}
    for n, entry in enumerate(data["blocks"], 1):
        cell, placed = _read_entry(entry, f"{path}: block {n}")
        if cell in quilt:
            raise QuiltError(f"{path}: block {n} ({placed.block_id}): cell {list(cell)} is taken")
        quilt[cell] = placed
    return quilt


def _read_entry(entry: object, where: str) -> tuple[Cell, PlacedBlock]:
    if not isinstance(entry, Mapping) or set(entry) != {"id", "cell", "filled"}:
        raise QuiltError(f'{where}: expected exactly the fields "id", "cell" and "filled"')
    block_id, cell, filled = entry["id"], entry["cell"], entry["filled"]
    if not isinstance(block_id, str):
        raise QuiltError(f'{where}: id must be a string such as "P03"')
    if not (isinstance(cell, list) and len(cell) == 2 and all(_is_int(c) for c in cell)):
        raise QuiltError(f"{where} ({block_id}): cell must be two whole numbers [x, y]")
    if not (isinstance(filled, list) and all(v is None or _is_int(v) for v in filled)):
        raise QuiltError(f"{where} ({block_id}): filled must list die values 1–6 or null")
    return (cell[0], cell[1]), PlacedBlock(block_id, tuple(filled))


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# -- the generated documentation page ------------------------------------------------------------


def blocks_markdown(catalogue: Catalogue) -> str:
    """The page ``docs/speedquilt-blocks.md``, generated from the catalogue and the calculations."""
    patterns = catalogue.patterns
    rho = spearman([difficulty(b) for b in patterns], [typical_points(b) for b in patterns])
    lines = [_DOC_HEAD.strip(), "", _DOC_QUILT_FORMAT.strip(), "", "## Typical counts", ""]
    lines += ["| line | typical count |", "| --- | --- |"]
    lines += [f"| `{line.value}` | {count:g} |" for line, count in TYPICAL_COUNT.items()]
    lines += [
        "",
        f"Spearman rank correlation of difficulty and typical points over the pattern "
        f"deck: **{rho:.3f}** (a test demands at least 0.5).",
        "",
    ]
    lines += ["## Pattern blocks", ""]
    lines += [
        "| id | colour | patches | rule | scoring | one-turn chance | difficulty | typical |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for b in patterns:
        lines.append(
            f"| {b.id} | {_colour(b)} | {_patches_md(b)} | {_rule_md(b)} | {_what(b)} "
            f"| {_chance_md(b)} | {difficulty(b):.3f} | {typical_points(b):g} |"
        )
    lines += ["", "## Sewing kits", ""]
    lines += ["| id | colour | kind | patches | rule | one-turn chance |"]
    lines += ["| --- | --- | --- | --- | --- | --- |"]
    for b in catalogue.kits:
        assert b.kit is not None
        lines.append(
            f"| {b.id} | {_colour(b)} | {b.kit.value} | {_patches_md(b)} | {_rule_md(b)} "
            f"| {_chance_md(b)} |"
        )
    return "\n".join(lines) + "\n"


def _patches_md(block: Block) -> str:
    return " · ".join(f"`{patch_words(p)}`" for p in block.patches)


def _rule_md(block: Block) -> str:
    return f"`{block.rule.value}`" if block.rule else "–"


def _chance_md(block: Block) -> str:
    needed = prefills_needed(block)
    if needed:
        return f"0 (needs {needed} patch{'es' if needed > 1 else ''} filled first)"
    return f"{float(one_turn_chance(block)):.2%}"


_DOC_HEAD = """
# Speedquilt blocks

<!-- Generated by `uv run spielcenter speedquilt blocks --markdown > docs/speedquilt-blocks.md`
     from src/spielcenter/games/speedquilt/catalogue.toml. Do not edit by hand. -->

The catalogue of the 45 pattern blocks and 25 sewing kits (design: `speedquilt.md` §1). The data
lives in `src/spielcenter/games/speedquilt/catalogue.toml`; it is validated at load, and a bad
entry fails with a message naming the block and the fault.

## Patches

A patch is written as words: a value `1`–`6` (exactly that value), a colour (only the die of that
colour), a letter `A`–`Z` (only on `=` blocks: patches with the same letter need the same value;
different letters may show the same value), or `any`. Rules: `<` strictly ascending from left to
right, `=` equal letters, `>=40` all patches together at least 40.

## One-turn chance and difficulty

The **one-turn chance** is exact: the chance to sew the block from empty within one turn of three
rolls of the five coloured dice, keeping dice optimally for this block alone (expectimax over every
keep choice after the first and second roll; the block is sewn as soon as the dice on the table
fill all its patches). A block with more than five patches, or two patches naming the same colour,
can never be sewn in one turn (five dice of five colours); it needs *k* patches filled first
(bargain bin, giving).

The **difficulty** is `1 − chance` for a one-turn block and `1 + k` for a block that needs *k*
patches filled first, so such blocks count as harder than every one-turn block.

## Points follow difficulty

A pattern block's **typical points** are its points times what its line typically counts in a good
finished quilt (for the flat lines `all_colours` and `fixed`: how often it pays). The catalogue was
authored so that typical points grow with difficulty: about `1.5 + 6.5 × difficulty` for one-turn
blocks and `6 + difficulty` (8–10) for blocks needing filled patches, rounded to whole points per
count. Measured on 400 random quilts of 6 pattern blocks and 3 kits with 80 % of the blocks
finished (blocks not chosen to fit each other): median 24 points, 10 % below 12, 10 % above 47;
a planned quilt lands in the 25–40 the design asks for.
"""

_DOC_QUILT_FORMAT = """
## The quilt file of `spielcenter speedquilt score`

```json
{"blocks": [
  {"id": "P03", "cell": [0, 0], "filled": [4, 4, 2]},
  {"id": "K01", "cell": [1, 0], "filled": [6, null]}
]}
```

`cell` is `[x, y]` (column, row; any whole numbers, the quilt at most 3 × 3), `filled` the die
value on each patch from left to right, `null` for an empty patch. The command prints each pattern
block's reckoning and the total (`--json` for scripts, `--lang de` for German); a bad file gets a
clear message and exit status 2.
"""
