"""The Speedquilt block catalogue for the browser, as a static JSON file.

The table protocol sends block ids only; the browser draws the blocks and explains them in the
block info from this file. It is written from ``games/speedquilt/catalogue.toml`` (the one source)
by ``python -m spielcenter.web.speedquilt_catalogue``; a unit test keeps the two equal.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from spielcenter.games.speedquilt.catalogue import load_catalogue
from spielcenter.games.speedquilt.model import Block

TARGET = Path(__file__).parent / "static" / "speedquilt-catalogue.json"
"""Where the browser finds the catalogue (served as /static/speedquilt-catalogue.json)."""


def _block(block: Block) -> dict[str, Any]:
    return {
        "id": block.id,
        "deck": block.deck.value,
        "colour": block.colour.value if block.colour else None,
        "patches": [
            {
                "value": patch.value,
                "colour": patch.colour.value if patch.colour else None,
                "letter": patch.letter,
            }
            for patch in block.patches
        ],
        "rule": block.rule.value if block.rule else None,
        "scoring": (
            {
                "line": block.scoring.line.value,
                "points": block.scoring.points,
                "colour": block.scoring.colour.value if block.scoring.colour else None,
            }
            if block.scoring
            else None
        ),
        "kit": block.kit.value if block.kit else None,
    }


def catalogue_json() -> str:
    """The whole catalogue as the JSON text the browser loads: ``{id: block}``."""
    blocks = {block.id: _block(block) for block in load_catalogue()}
    return json.dumps(blocks, ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def main() -> None:
    """Write the catalogue file of the browser client."""
    TARGET.write_text(catalogue_json(), encoding="utf-8")
    print(f"wrote {TARGET}")


if __name__ == "__main__":
    main()
