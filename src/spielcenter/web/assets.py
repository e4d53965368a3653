"""The browser client's files as the server sends them: named by their content, compressed once.

There is no build step. When the server starts it reads ``web/static/`` once and gives every file
a second name with a hash of its content (``js/main.js`` → ``js/main.1a2b3c4d5e.js``); a browser
may keep a file under that name for ever, since another content gets another name. For that to
hold, the names inside the files are rewritten too: the module imports of the scripts
(``from "./api.js"``, ``import("./game.js")``), the ``"/static/…"`` addresses in scripts and in
``index.html``. A file's hash is taken after its own names were rewritten, so a changed module
also renames every module that imports it, up to ``main.js`` — and ``index.html``, which is
never kept (``no-cache``), names the new ``main.js`` at once.

Besides the files under ``web/static/`` the message catalogues are served as static files
(``i18n/de.json``, ``i18n/en.json``, written from the ``.po`` files by
:func:`.i18n.catalogue_files`), so that they too are named by content, kept and sent gzipped.

Each file is gzipped once here (level 9, the smallest) rather than for every request; a file
too small to gain is kept as it is (:data:`COMPRESS_FROM`).

>>> from spielcenter.web.assets import load_assets
>>> main = load_assets().get("js/main.js")
>>> main.url.startswith("/static/js/main.") and main.url.endswith(".js")
True
"""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from .i18n import catalogue_files

STATIC = Path(__file__).parent / "static"
URL_PREFIX = "/static/"
HASH_LENGTH = 10
"""Hex digits of SHA-256 in a file's name: 40 bits, no two versions of a file will meet."""
COMPRESS_FROM = 500
"""Bytes from which a response is worth gzipping (a smaller one gains less than gzip's own
header and trailer); Starlette's default, the server's GZipMiddleware uses it for JSON too."""

MEDIA_TYPES = {
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".html": "text/html; charset=utf-8",
    ".json": "application/json",
    ".svg": "image/svg+xml",
}

TEXT = (".js", ".html", ".css")
"""The files whose names of other files are rewritten."""
HASHED_NAME = re.compile(rf"^(?P<stem>.+)\.(?P<hash>[0-9a-f]{{{HASH_LENGTH}}})(?P<suffix>\.\w+)$")
"""``js/main.1a2b3c4d5e.js``: a name with a content hash before its suffix."""
MODULE_IMPORT = re.compile(
    r"""(?P<lead>\b(?:from|import)\s*\(?\s*)(?P<q>["'])(?P<name>\./[\w.-]+\.js)(?P=q)"""
)
"""A relative module specifier: ``from "./api.js"``, ``import "./x.js"``, ``import("./x.js")``."""
STATIC_ADDRESS = re.compile(r"""(?P<q>["'])/static/(?P<name>[\w./-]+)(?P=q)""")
"""A quoted address of a static file: ``"/static/app.css"`` in a page or a script."""


class AssetCycleError(RuntimeError):
    """Two static files name each other: neither's hash can be known before the other's."""


@dataclass(frozen=True)
class Asset:
    """One static file as it is served."""

    path: str
    """Its path under ``static/``: ``js/main.js``."""
    url: str
    """Its address named by content: ``/static/js/main.1a2b3c4d5e.js``."""
    body: bytes
    """Its bytes, names rewritten."""
    gzipped: bytes | None
    """The same, gzipped; None for a file too small to gain."""
    media_type: str
    etag: str
    """The content hash, quoted as an ETag (for the un-hashed address, which is revalidated)."""


class Assets:
    """Every static file by path and by hashed name."""

    def __init__(self, assets: Mapping[str, Asset]) -> None:
        self._by_path = dict(assets)
        self._by_url = {asset.url: asset for asset in assets.values()}

    def get(self, path: str) -> Asset | None:
        """The file at ``path`` under ``static/`` (its un-hashed name)."""
        return self._by_path.get(path)

    def by_url(self, url: str) -> Asset | None:
        """The file whose hashed address is ``url``."""
        return self._by_url.get(url)

    def url(self, path: str) -> str:
        """The hashed address of the file at ``path`` (KeyError for a file that is not there)."""
        return self._by_path[path].url

    def __iter__(self) -> Iterator[Asset]:
        return iter(self._by_path.values())


def unhashed(path: str) -> str | None:
    """``js/main.js`` for ``js/main.1a2b3c4d5e.js``; None for a name without a hash."""
    match = HASHED_NAME.match(path)
    return f"{match['stem']}{match['suffix']}" if match else None


def _hashed(path: str, body: bytes) -> tuple[str, str]:
    digest = hashlib.sha256(body).hexdigest()[:HASH_LENGTH]
    stem, dot, suffix = path.rpartition(".")
    name = f"{stem}.{digest}.{suffix}" if dot else f"{path}.{digest}"
    return URL_PREFIX + name, digest


def _names(path: str, text: str, known: set[str]) -> set[str]:
    """The static files that the file at ``path`` names (only those that are there)."""
    names = {m["name"] for m in STATIC_ADDRESS.finditer(text)}
    if path.endswith(".js"):
        folder = path.rpartition("/")[0]
        names |= {_join(folder, m["name"]) for m in MODULE_IMPORT.finditer(text)}
    return names & known


def _join(folder: str, relative: str) -> str:
    name = relative.removeprefix("./")
    return f"{folder}/{name}" if folder else name


def _rewrite(path: str, text: str, urls: Mapping[str, str]) -> str:
    """``text`` with every name of a known file replaced by its hashed name."""

    def address(match: re.Match[str]) -> str:
        url = urls.get(match["name"])
        return f"{match['q']}{url}{match['q']}" if url else match[0]

    text = STATIC_ADDRESS.sub(address, text)
    if not path.endswith(".js"):
        return text
    folder = path.rpartition("/")[0]

    def module(match: re.Match[str]) -> str:
        url = urls.get(_join(folder, match["name"]))
        if url is None:
            return match[0]
        # Still relative ("./api.<hash>.js"): the module resolves wherever /static is mounted.
        return f"{match['lead']}{match['q']}./{url.rpartition('/')[2]}{match['q']}"

    return MODULE_IMPORT.sub(module, text)


def _media_type(path: str) -> str:
    suffix = Path(path).suffix
    return MEDIA_TYPES.get(suffix) or mimetypes.guess_type(path)[0] or "application/octet-stream"


def _asset(path: str, body: bytes) -> Asset:
    url, digest = _hashed(path, body)
    gzipped = gzip.compress(body, compresslevel=9, mtime=0) if len(body) >= COMPRESS_FROM else None
    if gzipped is not None and len(gzipped) >= len(body):
        gzipped = None
    return Asset(path, url, body, gzipped, _media_type(path), f'"{digest}"')


def build_assets(files: Mapping[str, bytes]) -> Assets:
    """The served form of ``files`` (path under ``static/`` → bytes): names rewritten, hashed in
    the order of their dependencies, gzipped."""
    texts = {path: body.decode() for path, body in files.items() if path.endswith(TEXT)}
    known = set(files)
    needs = {path: _names(path, text, known) - {path} for path, text in texts.items()}
    done: dict[str, Asset] = {}
    visiting: list[str] = []

    def visit(path: str) -> None:
        if path in done:
            return
        if path in visiting:
            circle = " → ".join([*visiting[visiting.index(path) :], path])
            raise AssetCycleError(f"static files name each other in a circle: {circle}")
        visiting.append(path)
        for name in sorted(needs.get(path, ())):
            visit(name)
        visiting.pop()
        if path in texts:
            urls = {name: done[name].url for name in needs[path]}
            body = _rewrite(path, texts[path], urls).encode("utf-8")
        else:
            body = files[path]
        done[path] = _asset(path, body)

    for path in sorted(files):
        visit(path)
    return Assets(done)


@cache
def load_assets(static: Path = STATIC) -> Assets:
    """The served form of the files under ``static`` and of the message catalogues (read once
    per process)."""
    files = {
        file.relative_to(static).as_posix(): file.read_bytes()
        for file in sorted(static.rglob("*"))
        if file.is_file()
    }
    return build_assets({**files, **catalogue_files()})
