"""The message catalogues (German and English) and the rules pages of the browser client."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from spielcenter.games.base import variants_of
from spielcenter.web.i18n import LANGUAGES, UnknownLanguageError, catalog

WEB = Path(__file__).resolve().parents[2] / "src" / "spielcenter" / "web"
STATIC = WEB / "static"
SOURCE = WEB.parent
REFUSAL = re.compile(
    r'(?:ServiceError|BadMessage)\(\s*"([a-z_]+)"'
    r'|ApiError\(\s*\d+,\s*"([a-z_]+)"'
    r'|"code": "([a-z_]+)"'
)


def server_error_codes() -> set[str]:
    """Every error code the server can send, read from its source: each ``ServiceError``,
    ``ApiError`` and protocol error it raises (a hand-kept list once missed the account's)."""
    codes: set[str] = set()
    for module in SOURCE.rglob("*.py"):
        for found in REFUSAL.findall(module.read_text(encoding="utf-8")):
            codes |= {code for code in found if code}
    return codes


ERROR_CODES = sorted(server_error_codes())
PATIENCE_GAMES = ("cruel", "crazy-quilt")


def client_keys() -> set[str]:
    """Every literal key the client passes to t(), plus the keys it builds from game data."""
    keys: set[str] = set()
    for script in (STATIC / "js").glob("*.js"):
        keys |= set(re.findall(r'\bt\("([a-z_.+-]+)"', script.read_text(encoding="utf-8")))
        keys |= set(re.findall(r'label: "([a-z_.]+)"', script.read_text(encoding="utf-8")))
    for game in PATIENCE_GAMES:
        keys |= {f"game.{game}", f"blurb.{game}"}
        keys |= {f"variant.{game}.{variant}" for variant in variants_of(game)}
    keys |= {f"error.{code}" for code in ERROR_CODES}
    keys |= {f"rank.{rank}" for rank in "A23456789JQK"}
    keys |= {f"language.{lang}" for lang in LANGUAGES}
    keys |= {f"end.{status}" for status in ("won", "lost")}
    keys |= {f"place.{place}" for place in "fudw"}
    keys |= {f"quilt.foundation.{direction}" for direction in ("up", "down")}
    keys |= {
        f"stats.{column}"
        for column in ("variant", "played", "in_progress", "won", "rate", "streak")
    }
    return keys


def placeholders(text: str) -> set[str]:
    """The names a text fills in: {name}, and {name, plural, …} (ICU's plural form)."""
    return set(re.findall(r"\{(\w+)(?:\}|, plural,)", text))


def test_the_error_codes_are_read_from_the_whole_server() -> None:
    codes = server_error_codes()
    # Codes of every layer: the engine's edge, accounts, the lobby, the ledger, the doors.
    assert {"illegal_move", "bad_login", "name_taken", "invite_required", "rate_limited"} <= codes
    assert {"claim_required", "deal_not_allowed", "mixed_scripts", "bad_variant"} <= codes


def test_german_and_english_have_the_same_messages() -> None:
    assert set(catalog("de")) == set(catalog("en"))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_text_the_client_shows_is_in_the_catalogue(lang: str) -> None:
    missing = client_keys() - set(catalog(lang))
    assert not missing, f"{lang} lacks {sorted(missing)}"


def test_a_message_has_the_same_placeholders_in_both_languages() -> None:
    german, english = catalog("de"), catalog("en")
    for key, text in english.items():
        assert placeholders(german[key]) == placeholders(text), key


def test_german_shows_jack_queen_king_as_b_d_k() -> None:
    german = catalog("de")
    assert [german[f"rank.{rank}"] for rank in "JQK"] == ["B", "D", "K"]


def test_english_shows_jack_queen_king_as_j_q_k() -> None:
    english = catalog("en")
    assert [english[f"rank.{rank}"] for rank in "JQK"] == ["J", "Q", "K"]


def test_crazy_quilts_redeal_has_one_german_name_on_its_board_in_its_rules_and_its_hints() -> None:
    # Crazy Quilt turns its waste over, "Neu geben" (its rules page, its counter, its hints);
    # Cruel's "Neu verteilen" gathers and deals the piles anew. The button and the hint
    # "Tipp: {move}. {why}" name the move the player presses with the same words.
    german = catalog("de")
    rules = (STATIC / "rules" / "crazy-quilt.de.html").read_text(encoding="utf-8").lower()
    button = german["quilt.redeal"].lower()
    assert button in rules
    assert button in german["hint.quilt.redeal"].lower()
    assert "verteil" not in german["hint.quilt.redeal"] + german["hint.quilt.keeps_redeal_open"]


def test_every_message_is_translated() -> None:
    for lang in LANGUAGES:
        untranslated = [key for key, text in catalog(lang).items() if text == key]
        assert untranslated == [], f"{lang}: {untranslated}"


def test_a_language_without_a_catalogue_is_refused() -> None:
    with pytest.raises(UnknownLanguageError, match="speaks de, en"):
        catalog("fr")


def test_the_catalogue_is_a_copy_that_callers_may_change() -> None:
    catalog("en")["action.undo"] = "changed"
    assert catalog("en")["action.undo"] == "Undo"


@pytest.mark.parametrize("game", PATIENCE_GAMES)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_game_has_a_rules_page_in_each_language(game: str, lang: str) -> None:
    page = (STATIC / "rules" / f"{game}.{lang}.html").read_text(encoding="utf-8")
    assert f'<html lang="{lang}">' in page
    other = next(other for other in LANGUAGES if other != lang)
    assert f'href="{game}.{other}.html"' in page
