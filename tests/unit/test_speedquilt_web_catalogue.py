"""The browser's copy of the Speedquilt block catalogue is the catalogue itself."""

from __future__ import annotations

import json

from spielcenter.games.speedquilt.catalogue import load_catalogue
from spielcenter.web.speedquilt_catalogue import TARGET, catalogue_json


def test_the_browser_catalogue_file_is_written_from_the_catalogue() -> None:
    assert TARGET.read_text(encoding="utf-8") == catalogue_json(), (
        "run: uv run python -m spielcenter.web.speedquilt_catalogue"
    )


def test_the_browser_catalogue_holds_every_block_once() -> None:
    blocks = json.loads(TARGET.read_text(encoding="utf-8"))
    assert sorted(blocks) == sorted(block.id for block in load_catalogue())
