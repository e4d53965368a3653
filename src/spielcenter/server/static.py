"""How a static file of the browser client is answered (its served form: ``web/assets.py``).

- Its hashed address (``/static/js/main.1a2b3c4d5e.js``) is kept by the browser for a year
  without asking again (``immutable``): another content has another address.
- Its plain address (``/static/js/main.js``, the rules pages' ``../rules.css``, a bookmark) still
  works, but the browser asks again each time (``no-cache``) and gets ``304`` while it holds
  the same file (ETag).
- An address with a hash that is no longer the file's (a page opened before the server was
  updated) is redirected to the file's current address.

A browser that accepts gzip gets the bytes gzipped when the server started; nothing is
compressed per request (docs/performance.md, "The first page").
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from fastapi.responses import RedirectResponse, Response
from starlette.datastructures import Headers
from starlette.middleware.gzip import GZipMiddleware
from starlette.types import ASGIApp, Receive, Scope, Send

from spielcenter.web.assets import COMPRESS_FROM, URL_PREFIX, Asset, Assets, unhashed

from .errors import ApiError

IMMUTABLE = "public, max-age=31536000, immutable"
"""A hashed address: a year (the longest HTTP caches honour), never revalidated."""
REVALIDATE = "no-cache"
"""A plain address and the page itself: kept, but asked again (a 304 while it is unchanged)."""
JSON_GZIP_LEVEL = 6
"""zlib's default for the answers gzipped per request (bench/compression.py: level 9 costs
more CPU for a few bytes less; docs/performance.md, "The first page")."""


def get_assets(request: Request) -> Assets:
    """The static files of the app serving this request (read when the app was made)."""
    assets: Assets = request.app.state.assets
    return assets


AssetsDep = Annotated[Assets, Depends(get_assets)]


def accepts_gzip(accept_encoding: str) -> bool:
    """Whether an ``Accept-Encoding`` header allows gzip (``gzip``, ``*``, not ``q=0``)."""
    allowed: dict[str, bool] = {}
    for part in accept_encoding.lower().split(","):
        coding, _, params = part.strip().partition(";")
        quality = params.strip().removeprefix("q=") if params.strip().startswith("q=") else "1"
        try:
            allowed[coding.strip()] = float(quality) > 0
        except ValueError:
            allowed[coding.strip()] = False
    return allowed.get("gzip", allowed.get("x-gzip", allowed.get("*", False)))


def _etags(asset: Asset) -> tuple[str, str]:
    """The ETag of the file as it is and of its gzipped form (two representations)."""
    return asset.etag, asset.etag[:-1] + '-gzip"'


def _still_held(request: Request, asset: Asset) -> bool:
    held = request.headers.get("if-none-match", "")
    tags = {tag.strip().removeprefix("W/") for tag in held.split(",")}
    return "*" in tags or not tags.isdisjoint(_etags(asset))


def asset_response(request: Request, asset: Asset, cache_control: str) -> Response:
    """The file, gzipped when the browser takes it, or ``304`` when it still holds it."""
    headers = {"Cache-Control": cache_control, "Vary": "Accept-Encoding"}
    plain, zipped = _etags(asset)
    if _still_held(request, asset):
        return Response(status_code=304, headers={**headers, "ETag": plain})
    if asset.gzipped is not None and accepts_gzip(request.headers.get("accept-encoding", "")):
        headers.update({"Content-Encoding": "gzip", "ETag": zipped})
        return Response(asset.gzipped, media_type=asset.media_type, headers=headers)
    return Response(asset.body, media_type=asset.media_type, headers={**headers, "ETag": plain})


def static_response(request: Request, assets: Assets, path: str) -> Response:
    """The answer to ``/static/<path>``: hashed, plain, stale or unknown (the module's doc)."""
    url = "/static/" + path
    asset = assets.by_url(url)
    if asset is not None:
        return asset_response(request, asset, IMMUTABLE)
    asset = assets.get(path)
    if asset is not None:
        return asset_response(request, asset, REVALIDATE)
    stale = unhashed(path)
    asset = assets.get(stale) if stale else None
    if asset is not None:
        return RedirectResponse(asset.url, status_code=302, headers={"Cache-Control": REVALIDATE})
    raise ApiError(404, "not_found", f"no static file {path!r}")


class CompressAnswers:
    """ASGI middleware: gzip for the answers made per request (JSON), when the client takes it.

    The static files are left alone (they went gzipped at start, or are too small to gain), and
    so is a WebSocket (not HTTP; its frames are the protocol's business). Starlette's
    GZipMiddleware alone would also gzip for ``Accept-Encoding: gzip;q=0``: the header is read
    here first (:func:`accepts_gzip`).
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.gzip = GZipMiddleware(app, minimum_size=COMPRESS_FROM, compresslevel=JSON_GZIP_LEVEL)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] == "http"
            and not scope["path"].startswith(URL_PREFIX)
            and accepts_gzip(Headers(scope=scope).get("accept-encoding", ""))
        ):
            await self.gzip(scope, receive, send)
        else:
            await self.app(scope, receive, send)
