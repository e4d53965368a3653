"""Account names: text only, unique in their folded form, written in one script.

A name is kept as typed (in NFC): 3–24 letters, digits, ``_``, ``-`` and inner spaces. Two
names are the same name when their **keys** are equal: NFKC, case-folded, NFKC again (Unicode's
NFKC_Casefold, near enough). So "ANNA", a fullwidth "Ａnna", a mathematical "𝐀nna" and "Anna"
are one name, and whoever has it first keeps it.

NFKC does not fold one alphabet into another: a Cyrillic "А" stays Cyrillic. So a name may not
mix scripts (the rule of Unicode's "highly restrictive" level, UTS #39): one script, or Latin
with the scripts written together in Japanese (Han, Hiragana, Katakana), Chinese (Han, Bopomofo)
or Korean (Han, Hangul). Python has no Unicode script property; a letter's script is the first
word of its Unicode name ("CYRILLIC CAPITAL LETTER A"), which is what that property says for
every letter a name may hold.

Names registered before these rules (migration 0005) keep their accounts: where two of them
fold to one key, the older one holds the key and the younger keeps its old key behind
:data:`LEGACY_MARK`, under which a login still finds it (:func:`legacy_key`).
"""

from __future__ import annotations

import unicodedata

from .common import ServiceError

NAME_MIN, NAME_MAX = 3, 24
LEGACY_MARK = "~"
"""Begins the key of a name from before the rules (no name holds "~", so no key does)."""

SCRIPT_OF_WORD = {"CJK": "Han", "IDEOGRAPHIC": "Han"}
"""Unicode-name words that are not the script's own name."""
USUAL_MIXES = (
    frozenset({"Latin", "Han", "Hiragana", "Katakana"}),
    frozenset({"Latin", "Han", "Bopomofo"}),
    frozenset({"Latin", "Han", "Hangul"}),
)


def normalise_name(raw: str) -> str:
    """The account name ``raw`` in NFC; :class:`ServiceError` ``bad_name`` or ``mixed_scripts``
    saying why not."""
    name = unicodedata.normalize("NFC", raw)
    _check_length(name)
    if name != name.strip(" "):
        raise ServiceError("bad_name", "a name may not begin or end with a space")
    for char in name:
        if not (char.isalpha() or unicodedata.category(char) == "Nd" or char in "_- "):
            raise ServiceError(
                "bad_name", f"a name may hold letters, digits, _, - and spaces, not {char!r}"
            )
    # Written out, one character may become many (U+FDFA becomes 18): the key must fit too.
    folded = unicodedata.normalize("NFKC", name)
    _check_length(folded)
    _check_scripts(folded)
    return name


def _check_length(name: str) -> None:
    if not NAME_MIN <= len(name) <= NAME_MAX:
        raise ServiceError("bad_name", f"a name has {NAME_MIN} to {NAME_MAX} characters")


def _check_scripts(name: str) -> None:
    scripts = {script for script in map(script_of, name) if script is not None}
    if len(scripts) > 1 and not any(scripts <= mix for mix in USUAL_MIXES):
        listed = " and ".join(sorted(scripts))
        raise ServiceError(
            "mixed_scripts", f"a name is written in one alphabet, not in {listed} at once"
        )


def script_of(char: str) -> str | None:
    """The script of a character of a name, or ``None`` for those of every script (ASCII
    digits, ``_``, ``-``, space).

    >>> script_of("A"), script_of("\\u0410"), script_of("渡"), script_of("7")
    ('Latin', 'Cyrillic', 'Han', None)
    """
    if char.isascii() and not char.isalpha():
        return None
    word = unicodedata.name(char, "UNKNOWN").split(" ")[0].split("-")[0]
    return SCRIPT_OF_WORD.get(word, word.title())


def name_key(name: str) -> str:
    """The form under which names are unique: NFKC, case-folded, NFKC.

    >>> name_key("\\uff21NNA") == name_key("anna") == "anna"
    True
    """
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def legacy_key(name: str) -> str:
    """The key a name from before migration 0005 keeps when an older look-alike holds its
    :func:`name_key`: the case-folded NFC of those days, behind :data:`LEGACY_MARK`."""
    nfc = unicodedata.normalize("NFC", name)
    return LEGACY_MARK + unicodedata.normalize("NFC", nfc.casefold())
