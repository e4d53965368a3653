"""The message catalogues of Spielcenter, German and English, shared by the browser and the server.

The messages live as Babel ``.po`` files under ``web/i18n/<lang>/LC_MESSAGES/``: ``messages.po``
and one file per room that brings many messages of its own (read in name order and merged; a key
belongs to one file). Each msgid is a key such as ``action.undo`` and each msgstr its text, with
``{name}`` placeholders.

>>> catalog("de")["action.undo"]
'Zurück'
>>> catalog("en")["rank.Q"]
'Q'
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from babel.messages.pofile import read_po

LANGUAGES = ("de", "en")
"""The languages Spielcenter speaks; the first is the default of German-speaking browsers."""

CATALOGUE_DIR = Path(__file__).parent / "i18n"


class UnknownLanguageError(LookupError):
    """A language that Spielcenter has no catalogue for."""


def catalogue_path(lang: str) -> Path:
    """Where the main ``.po`` file of ``lang`` lies."""
    return CATALOGUE_DIR / lang / "LC_MESSAGES" / "messages.po"


def catalogue_paths(lang: str) -> list[Path]:
    """Every ``.po`` file of ``lang``, in the order they are merged."""
    return sorted(catalogue_path(lang).parent.glob("*.po"))


@cache
def _load(lang: str) -> dict[str, str]:
    messages: dict[str, str] = {}
    for path in catalogue_paths(lang):
        with path.open("rb") as handle:
            po = read_po(handle, locale=lang)
        for message in po:
            if not message.id or not isinstance(message.id, str):
                continue  # the header entry, and plural forms we do not use
            text = message.string if isinstance(message.string, str) else ""
            # An untranslated entry shows its key, as t() does in the browser.
            messages[message.id] = text or message.id
    return messages


def catalog(lang: str) -> dict[str, str]:
    """Every message of ``lang`` as ``{key: text}`` (a fresh copy, safe to change).

    Raises :class:`UnknownLanguageError` for a language other than those in :data:`LANGUAGES`.
    """
    if lang not in LANGUAGES:
        raise UnknownLanguageError(
            f"no messages for language {lang!r}; Spielcenter speaks {', '.join(LANGUAGES)}"
        )
    return dict(_load(lang))


def catalogue_files() -> dict[str, bytes]:
    """Every language's catalogue as the browser fetches it, by its path under ``static/``:
    ``i18n/<lang>.json``, compact UTF-8 JSON (``web/assets.py`` names it by its content, so a
    browser keeps it until a message changes; docs/performance.md, "The first page")."""
    return {
        f"i18n/{lang}.json": json.dumps(
            _load(lang), ensure_ascii=False, separators=(",", ":"), sort_keys=True
        ).encode("utf-8")
        for lang in LANGUAGES
    }
