"""CPU per response of compressing the first page's files and JSON: at start or per request.

    uv run python bench/compression.py [--repeat 200]

Two ways to send the start page's scripts and stylesheets gzipped, both driven in this process
through ASGI (no sockets, so the figure is the server's own work per response):

- *at start*: the server's ``/static`` route, the bytes gzipped once when the app is made
  (web/assets.py, server/static.py);
- *per request*: Starlette's ``StaticFiles`` behind its ``GZipMiddleware`` (level 9, its
  default), which reads and compresses the file for every request.

Then the JSON answers the start page asks for, gzipped per request (they differ by player), at
zlib levels 1, 6 and 9: CPU per answer and bytes. docs/performance.md, "The first page".
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import json
import re
import time
from collections.abc import Callable
from typing import Any

from fastapi import FastAPI
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.routing import Mount
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message
from tqdm import tqdm

from spielcenter.server.routes import pages
from spielcenter.web.assets import STATIC, Assets, load_assets
from spielcenter.web.i18n import catalog

LEVELS = (1, 6, 9)
FIRST_PAGE = ("index.html", "js/main.js")
"""Where the start page's files are found: the page, and every module main.js imports at once."""
STATIC_IMPORT = re.compile(r"""^import\b[^;]*?from\s*["']\./([\w.-]+\.js)["']""", re.M)


def first_page_files(assets: Assets) -> list[str]:
    """The start page's stylesheets and the modules it loads before any screen is opened."""
    page = assets.get("index.html")
    assert page is not None
    styles = re.findall(r'href="/static/([\w/.-]+\.css)"', page.body.decode())
    plain = {asset.url.rpartition("/")[2]: asset.path for asset in assets}
    modules: list[str] = []
    waiting = ["js/main.js"]
    while waiting:
        path = waiting.pop()
        if path in modules:
            continue
        modules.append(path)
        asset = assets.get(path)
        assert asset is not None
        waiting += [plain[name] for name in STATIC_IMPORT.findall(asset.body.decode())]
    return [assets.by_url(f"/static/{s}").path for s in styles] + modules  # type: ignore[union-attr]


async def get(app: ASGIApp, path: str) -> tuple[int, int]:
    """Status and body bytes of one ``GET path`` with ``Accept-Encoding: gzip``."""
    scope: dict[str, Any] = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"bench"), (b"accept-encoding", b"gzip, deflate, br")],
        "client": ("127.0.0.1", 1),
        "server": ("bench", 80),
    }
    status, size = 0, 0
    asked = False

    async def receive() -> Message:
        # The request once; then the client stays connected (a response may listen for it).
        nonlocal asked
        if asked:
            await asyncio.Event().wait()
        asked = True
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: Message) -> None:
        nonlocal status, size
        if message["type"] == "http.response.start":
            status = message["status"]
        elif message["type"] == "http.response.body":
            size += len(message.get("body", b""))

    await app(scope, receive, send)
    return status, size


def cpu_per_call(call: Callable[[], object], repeat: int) -> float:
    """CPU milliseconds of one call, over ``repeat`` calls."""
    start = time.process_time()
    for _ in range(repeat):
        call()
    return (time.process_time() - start) * 1000 / repeat


def serve_both(files: list[str], repeat: int) -> dict[str, tuple[float, int]]:
    """CPU ms and bytes per first page (all its files once) for each way of serving them."""
    assets = load_assets()
    at_start = FastAPI()
    at_start.state.assets = assets
    at_start.include_router(pages.router)
    per_request = Starlette(
        routes=[Mount("/static", StaticFiles(directory=STATIC))],
        middleware=[Middleware(GZipMiddleware, compresslevel=9)],
    )
    ways = {
        "gzipped at start (server/static.py)": (at_start, [assets.url(f) for f in files]),
        "StaticFiles + GZipMiddleware(9)": (per_request, [f"/static/{f}" for f in files]),
    }
    loop = asyncio.new_event_loop()
    results = {}
    for name, (app, urls) in ways.items():

        async def page(app: ASGIApp = app, urls: list[str] = urls) -> int:
            answers = [await get(app, url) for url in urls]
            assert all(status == 200 for status, _ in answers), answers
            return sum(size for _, size in answers)

        size = loop.run_until_complete(page())
        results[name] = (cpu_per_call(lambda p=page: loop.run_until_complete(p()), repeat), size)
    loop.close()
    return results


def json_levels(repeat: int) -> list[tuple[str, int, dict[int, tuple[float, int]]]]:
    """For each JSON answer: its bytes, and per level the CPU ms and bytes gzipped."""
    answers = {
        "/api/i18n/en": json.dumps(catalog("en")).encode(),
        "/api/i18n/de": json.dumps(catalog("de")).encode(),
    }
    rows = []
    for name, body in answers.items():
        levels = {
            level: (
                cpu_per_call(lambda lv=level, b=body: gzip.compress(b, lv), repeat),
                len(gzip.compress(body, level)),
            )
            for level in LEVELS
        }
        rows.append((name, len(body), levels))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()
    files = first_page_files(load_assets())
    with tqdm(total=2, desc="measuring", unit="part") as bar:
        served = serve_both(files, args.repeat)
        bar.update()
        levels = json_levels(args.repeat)
        bar.update()
    print(f"The start page's {len(files)} script and style files, all once, CPU per page:")
    print("| way | CPU ms per page | bytes of body |")
    print("| --- | ---: | ---: |")
    for name, (ms, size) in served.items():
        print(f"| {name} | {ms:.2f} | {size:,} |")
    print("\nJSON gzipped per request, CPU per answer:")
    print("| answer | plain bytes | " + " | ".join(f"level {lv}" for lv in LEVELS) + " |")
    print("| --- | ---: | " + " | ".join("---:" for _ in LEVELS) + " |")
    for name, size, by_level in levels:
        cells = [f"{ms:.3f} ms, {gz:,} B" for ms, gz in by_level.values()]
        print(f"| {name} | {size:,} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
