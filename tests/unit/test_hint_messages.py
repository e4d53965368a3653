"""Every text a hint can carry exists in German and in English."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from spielcenter.games import get_game
from spielcenter.solvers import hints, registry
from spielcenter.web.i18n import catalog

HINT_KEYS = sorted(set(re.findall(r'"(hint\.[a-z_.]+)"', Path(hints.__file__).read_text())))


def test_the_hint_module_names_its_texts():
    assert "hint.cruel.keeps_winnable" in HINT_KEYS and "hint.quilt.turn" in HINT_KEYS


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("key", HINT_KEYS)
def test_every_hint_text_is_in_the_catalogue(lang: str, key: str):
    messages = catalog(lang)
    assert key in messages and messages[key] != key


@pytest.mark.parametrize(("game", "variant"), [("cruel", "classic"), ("crazy-quilt", "classic")])
def test_a_hint_at_the_start_names_a_text_of_the_catalogue(game: str, variant: str):
    engine = get_game(game, variant)
    found = registry.hint(engine, engine.start(7))
    assert found.text_key in catalog("de") and found.text_key in catalog("en")


def test_the_only_winnable_deals_option_is_named_in_both_languages():
    assert catalog("de")["start.winnable_only"] == "Nur lösbare Spiele"
    assert catalog("en")["start.winnable_only"] == "Only winnable deals"
