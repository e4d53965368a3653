"""Security headers on every response (issue 37): a page of another site cannot frame ours or
run script in it; the browser neither guesses content types nor tells other sites where the
player was. The browser client itself runs under the policy (tests/browser: any "Refused to"
on a page's console fails the test)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from spielcenter.server.security_headers import CONTENT_SECURITY_POLICY

STATIC = Path(__file__).parents[2] / "src" / "spielcenter" / "web" / "static"
EXPECTED = {
    "content-security-policy": CONTENT_SECURITY_POLICY,
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "same-origin",
}


@pytest.fixture
def any_client(make_app: Callable[..., FastAPI]) -> Iterator[TestClient]:
    """A client whose server also has a route that fails (a 500 answered by Starlette)."""
    app = make_app()

    async def fail() -> None:
        raise RuntimeError("a fault of the server")

    app.add_api_route("/fails", fail)
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client


@pytest.mark.parametrize(
    ("method", "path", "status"),
    [
        ("GET", "/", 200),  # the HTML page
        ("GET", "/api/me", 200),  # JSON
        ("GET", "/static/app.css", 200),  # static files
        ("GET", "/static/js/main.js", 200),
        ("GET", "/static/rules/cruel.de.html", 200),
        ("GET", "/static/nothing.js", 404),  # errors
        ("GET", "/api/games", 401),
        ("POST", "/api/games", 401),
        ("GET", "/api/games?state=%00", 400),
        ("DELETE", "/api/me", 405),
        ("GET", "/fails", 500),
    ],
)
def test_every_response_carries_the_security_headers(
    any_client: TestClient, method: str, path: str, status: int
) -> None:
    response = any_client.request(method, path)
    assert response.status_code == status
    assert {name: response.headers.get(name) for name in EXPECTED} == EXPECTED


def test_the_policy_forbids_inline_script_framing_and_other_origins() -> None:
    directives = dict(
        (part.split()[0], part.split()[1:]) for part in CONTENT_SECURITY_POLICY.split("; ")
    )
    assert directives["default-src"] == ["'self'"]
    assert directives["script-src"] == ["'self'"]  # no 'unsafe-inline', no 'unsafe-eval'
    assert directives["style-src"] == ["'self'"]
    assert directives["frame-ancestors"] == ["'none'"]
    assert directives["object-src"] == ["'none'"] and directives["base-uri"] == ["'none'"]


def test_the_client_has_no_inline_script_handler_or_style_the_policy_would_block() -> None:
    pages = {path: path.read_text() for path in STATIC.rglob("*.html")}
    scripts = {path: path.read_text() for path in STATIC.rglob("*.js")}
    inline_script = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.IGNORECASE)
    handler = re.compile(r"\son[a-z]+\s*=", re.IGNORECASE)
    style_attribute = re.compile(r"\sstyle\s*=|<style", re.IGNORECASE)
    assert pages and scripts
    for path, text in pages.items():
        assert not inline_script.search(text), path
        assert not handler.search(text), path
        assert not style_attribute.search(text), path
        assert "javascript:" not in text, path
    # Script that builds handlers or styles from text would be refused just the same.
    forbidden = re.compile(
        r"\beval\(|new Function\(|setAttribute\(\s*[\"'](style|on[a-z]+)[\"']|style=|javascript:"
    )
    assert [path.name for path, text in scripts.items() if forbidden.search(text)] == []
