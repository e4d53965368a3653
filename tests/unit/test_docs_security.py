"""docs/security.md names, for every promise, the test that proves it: each named test exists
(a renamed or deleted test would leave a promise without its proof)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "security.md"
REFERENCE = re.compile(r"`((?:[\w/]+\.py)?)(?:::(\w+))?`")


def named_tests() -> list[tuple[Path, str]]:
    """Every ``file.py::test`` and ``::test`` (of the file named last) the page cites."""
    found: list[tuple[Path, str]] = []
    current: Path | None = None
    for file, name in REFERENCE.findall(PAGE.read_text(encoding="utf-8")):
        if file:
            path = ROOT / file if file.startswith("tests/") else ROOT / "tests" / "security" / file
            current = path
        if name:
            assert current is not None, f"::{name} follows no file"
            found.append((current, name))
    return found


def test_the_security_page_cites_tests_for_its_promises() -> None:
    assert len(named_tests()) >= 40


def test_every_test_the_security_page_cites_exists() -> None:
    missing = [
        f"{path.relative_to(ROOT)}::{name}"
        for path, name in named_tests()
        if not path.is_file() or f"def {name}(" not in path.read_text(encoding="utf-8")
    ]
    assert missing == []
