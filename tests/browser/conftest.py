"""Browser tests: the real server as a subprocess and Debian's Chromium driven by Playwright.

Each test gets a fresh browser context, so a fresh guest account on the shared server (one per
worker; the computers at its tables move without pauses, see `QUICK_COMPUTERS`, and the clocks of
a table with people are short, see `SHORT_CLOCKS`).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Literal

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect, sync_playwright

from .ui import DESKTOP, PHONE_LAYOUT_WIDTH, PageFactory

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-gpu",
]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
SERVER_START_TIMEOUT_S = 60
ONE_ADDRESS_FOR_ALL = {
    "SPIELCENTER_GUEST_LIMIT": "100000/hour",
    "SPIELCENTER_CLAIM_LIMIT": "1000/minute",
    "SPIELCENTER_SOCKETS_PER_ADDRESS": "100000",
}
"""Every test's browser context is a new guest from 127.0.0.1: the whole run is one address,
more than any household (the limits themselves are tested in tests/security/)."""
QUICK_LINES = {"SPIELCENTER_SOCKET_MESSAGE_LIMIT": "1000/second"}
"""A test that plays a long line over a socket (`ui.play_line`) sends its moves one after
another without waiting 60 ms between them to stay under 20 a second (the limit is tested in
tests/security/test_sockets.py)."""


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _wait_for_health(url: str, server: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + SERVER_START_TIMEOUT_S
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"spielcenter serve exited with {server.returncode}")
        try:
            with urllib.request.urlopen(f"{url}/health", timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"spielcenter serve did not answer {url}/health in time")


QUICK_COMPUTERS = {"SPIELCENTER_COMPUTER_PAUSE_SCALE": "0"}
"""The computers at a table move without their tempo's pause (docs/tables.md): a whole game
against three computers waits some 120 pauses. Tests of the tempo itself, or that read what the
screen shows while a computer thinks, are marked ``real_pauses`` and get a server of their own
with the pauses as they are in play."""


CLOCK_SCALE = 0.25
SHORT_CLOCKS = {"SPIELCENTER_CLOCK_SCALE": str(CLOCK_SCALE)}
"""The clocks of a table with people (think time, giving clock, grace) run at a quarter of their
length on the shared server (docs/tables.md): a giving clock of 30 s with its grace of 10 s runs
out in 10 s. Only a table with people has clocks, and only tests/browser/test_tables_with_others.py
sits at one; the ``real_pauses`` server keeps them as they are in play."""


@contextmanager
def serve(data: Path, env: dict[str, str]) -> Iterator[str]:
    """A Spielcenter server of its own (with ``env`` added to its environment); its URL."""
    port = _free_port()
    with (data / "server.log").open("wb") as log:
        server = subprocess.Popen(
            [sys.executable, "-m", "spielcenter", "serve", "--port", str(port), "--data-dir", data],
            stdout=log,
            stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONUNBUFFERED": "1", **env},
        )
        url = f"http://127.0.0.1:{port}"
        try:
            _wait_for_health(url, server)
            yield url
        finally:
            server.terminate()
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()


@pytest.fixture(scope="session")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[[bool], str]]:
    """``servers(real_pauses)``: the URL of a real Spielcenter server with its own empty data
    folder, started when first asked for (one of each kind per worker)."""
    started: dict[bool, str] = {}
    with ExitStack() as stack:

        def url(real_pauses: bool) -> str:
            if real_pauses not in started:
                data = tmp_path_factory.mktemp("spielcenter-data")
                env = {**ONE_ADDRESS_FOR_ALL, **QUICK_LINES}
                if not real_pauses:
                    env |= {**QUICK_COMPUTERS, **SHORT_CLOCKS}
                started[real_pauses] = stack.enter_context(serve(data, env))
            return started[real_pauses]

        yield url


@pytest.fixture
def server_url(request: pytest.FixtureRequest, servers: Callable[[bool], str]) -> str:
    """The server of this test: computers without pauses (`QUICK_COMPUTERS`) and short clocks
    (`SHORT_CLOCKS`), unless the test is marked ``real_pauses``."""
    return servers(request.node.get_closest_marker("real_pauses") is not None)


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """Debian's Chromium, headless."""
    if not Path(CHROMIUM).is_file():
        pytest.skip(f"no Chromium at {CHROMIUM}: run `make browser` (scripts/ensure-chromium.sh)")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
        )
        yield chromium
        chromium.close()


EXPECT_MS = 15_000
"""How long an assertion waits by default: CI runs the browser tests on two busy cores, where
Playwright's own 5 s was once too short for a page that was right a moment later."""


@pytest.fixture(autouse=True)
def unhurried_expectations() -> Iterator[None]:
    """Every browser assertion waits up to `EXPECT_MS` (modules may ask for more)."""
    expect.set_options(timeout=EXPECT_MS)
    yield
    expect.set_options(timeout=5_000)


REDUCED_MOTION: Literal["reduce"] = "reduce"
"""The pages ask for reduced motion, as a player may in her system's settings: then no animation
runs without end (the glow of a lit patch, the blink of a clock in its grace; the CSS's
``prefers-reduced-motion``). An endless animation makes Chromium draw the page some 60 times a
second for as long as it runs, CPU the server and the other test worker need; no test but the
one about it watches one (test_speedquilt.py). The animations that end (a window popping up,
the shop's shelves sliding, the tempo's) run as they do for everyone."""


@pytest.fixture
def open_page(browser: Browser, server_url: str) -> Iterator[PageFactory]:
    """Open the Spielcenter in a fresh context: `open_page(viewport=PHONE, locale="de-DE")`.

    A phone's viewport (narrower than the phone layout's 700 px) comes with a touch screen,
    so its tests can tap. Every page asks for reduced motion (`REDUCED_MOTION`); a test of an
    endless animation asks for ``motion="no-preference"``.
    """
    contexts = []
    errors: list[str] = []
    refused: list[str] = []

    def factory(
        viewport: ViewportSize = DESKTOP,
        locale: str = "en-GB",
        motion: Literal["reduce", "no-preference"] = REDUCED_MOTION,
    ) -> Page:
        phone = viewport["width"] < PHONE_LAYOUT_WIDTH
        context = browser.new_context(
            viewport=viewport,
            locale=locale,
            base_url=server_url,
            has_touch=phone,
            is_mobile=phone,
            reduced_motion=motion,
        )
        context.set_default_timeout(10_000)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("console", lambda message: _note_refusal(message.text, refused))
        # A file the page needs that is not there (the favicon once was, on every page).
        page.on(
            "response",
            lambda response: (
                errors.append(f"404 {response.url}")
                if response.status == 404 and response.request.resource_type not in ("fetch", "xhr")
                else None
            ),
        )
        page.goto("/")
        page.wait_for_selector(".game-panel")
        return page

    yield factory
    for context in contexts:
        context.close()
    assert errors == [], f"JavaScript errors in the page: {errors}"
    assert refused == [], f"the page broke its Content Security Policy: {refused}"


def is_policy_refusal(text: str) -> bool:
    """Whether a console message is the browser refusing something under the page's Content
    Security Policy (Chromium: "Refused to execute inline script because it violates …")."""
    return text.startswith("Refused to") or "Content Security Policy" in text


def _note_refusal(text: str, refused: list[str]) -> None:
    if is_policy_refusal(text):
        refused.append(text)


@pytest.fixture(scope="session")
def screenshots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the tests put their screenshots: docs/screenshots when asked for
    (``make screenshots`` sets SPIELCENTER_SCREENSHOTS=1), else a temporary folder, so that
    ``make test`` leaves the work tree as it found it."""
    if os.environ.get("SPIELCENTER_SCREENSHOTS") != "1":
        return tmp_path_factory.mktemp("screenshots")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS
