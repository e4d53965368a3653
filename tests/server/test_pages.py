"""The pages of the browser client name only files the server has (issue 38, finding 11: the
favicon was a 404 on every page)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

STATIC = Path(__file__).resolve().parents[2] / "src" / "spielcenter" / "web" / "static"
PAGES = [STATIC / "index.html", *sorted((STATIC / "rules").glob("*.html"))]


def test_the_old_favicon_address_answers(client: TestClient) -> None:
    response = client.get("/favicon.ico")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("image/svg+xml")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_page_names_an_icon_and_every_file_it_names_is_served(
    client: TestClient, page: Path
) -> None:
    html = page.read_text(encoding="utf-8")
    assert re.search(r'<link rel="icon" href="[^"]+"', html), f"{page.name} names no icon"
    base = "/static/" + page.parent.relative_to(STATIC).as_posix() + "/"
    for href in re.findall(r'(?:href|src)="([^"#:]+)"', html):
        url = href if href.startswith("/") else _join(base, href)
        assert client.get(url).status_code == 200, f"{page.name} names {href} ({url})"


def _join(base: str, href: str) -> str:
    parts = [p for p in base.split("/") if p and p != "."]
    for part in href.split("/"):
        if part == "..":
            parts.pop()
        elif part not in ("", "."):
            parts.append(part)
    return "/" + "/".join(parts)
