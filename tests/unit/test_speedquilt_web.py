"""The browser side of Speedquilt: its copy of the block catalogue, the messages it builds from
game data, and its rules pages."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spielcenter.games.speedquilt.catalogue import load_catalogue
from spielcenter.games.speedquilt.model import COLOURS, KIT_KINDS, Line
from spielcenter.web.i18n import LANGUAGES, catalog
from spielcenter.web.speedquilt_catalogue import TARGET, catalogue_json

STATIC = Path(__file__).resolve().parents[2] / "src" / "spielcenter" / "web" / "static"

HISTORY_KEYS = [
    "choose", "start", "roll", "keep", "reroll", "sew", "buy", "bin_dice", "bin_draw",
    "bin_place", "bin_return", "give", "pass", "thimble", "dye", "undo", "end", "remove", "over",
]  # fmt: skip
"""The history lines of docs/protocol.md ("Speedquilt tables")."""

COUNTED_LINES = [line for line in Line if line not in (Line.ALL_COLOURS, Line.FIXED)]


def test_the_browser_catalogue_file_is_written_from_the_catalogue() -> None:
    assert TARGET.read_text(encoding="utf-8") == catalogue_json(), (
        "run: uv run python -m spielcenter.web.speedquilt_catalogue"
    )


def test_the_browser_catalogue_holds_every_block_once() -> None:
    blocks = json.loads(TARGET.read_text(encoding="utf-8"))
    assert sorted(blocks) == sorted(block.id for block in load_catalogue())


def keys_built_from_game_data() -> set[str]:
    """The message keys the table composes from colours, kits, lines and history lines."""
    keys = {f"sq.colour.{colour}" for colour in COLOURS}
    keys |= {f"sq.kit.{kind}" for kind in KIT_KINDS} | {f"sq.ability.{kind}" for kind in KIT_KINDS}
    keys |= {f"sq.line.{line}" for line in Line} | {f"sq.scores.{line}" for line in Line}
    keys |= {f"sq.count.{line}.{n}" for line in COUNTED_LINES for n in ("one", "many")}
    keys |= {f"sq.rule.{rule}" for rule in ("none", "ascending", "equal", "sum")}
    keys |= {f"history.{key}" for key in HISTORY_KEYS}
    keys |= {f"history.{key}_hidden" for key in ("choose", "bin_draw", "bin_return")}
    keys |= {f"sq.deck.{deck}" for deck in ("pattern", "kit")}
    keys |= {f"sq.shelf.{deck}" for deck in ("pattern", "kit")}
    keys |= {f"sq.level.{level}" for level in ("easy", "normal", "strong")}
    keys |= {f"sq.tempo.{tempo}" for tempo in ("slow", "normal", "fast")}
    keys |= {f"sq.table_theme.{theme}" for theme in ("lamp", "linen")}
    keys |= {f"sq.tab.{tab}" for tab in ("neighbours", "history", "chat")}
    keys |= {f"sq.bin.draw_{deck}" for deck in ("pattern", "kit")}
    keys |= {f"sq.end.{column}" for column in ("rank", "player", "points", "empty", "leaderboard")}
    return keys | {"game.speedquilt", "blurb.speedquilt", "error.not_seated", "error.not_your_turn"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_the_table_builds_from_game_data_is_in_the_catalogue(lang: str) -> None:
    missing = keys_built_from_game_data() - set(catalog(lang))
    assert not missing, f"{lang} lacks {sorted(missing)}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_speedquilt_has_a_rules_page_in_each_language(lang: str) -> None:
    page = (STATIC / "rules" / f"speedquilt.{lang}.html").read_text(encoding="utf-8")
    assert f'<html lang="{lang}">' in page
    other = next(other for other in LANGUAGES if other != lang)
    assert f'href="speedquilt.{other}.html"' in page
