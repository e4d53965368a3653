"""axe-core, the accessibility checker, for the browser tests only (the product never serves it).

It comes from the npm registry as the tarball of one pinned version, checked against the
registry's sha512 integrity, and its ``axe.min.js`` is kept in a cache outside the work tree
(``$XDG_CACHE_HOME/spielcenter``, else ``~/.cache/spielcenter``). Two pytest-xdist workers may
fetch it at once: each writes its own temporary file and renames it into place.

The page's Content Security Policy forbids inline scripts, so the source is not added as a
``<script>``: it runs through the DevTools protocol (``page.evaluate``), which the policy does not
govern, and defines ``window.axe`` in the page.
"""

from __future__ import annotations

import base64
import hashlib
import io
import os
import tarfile
import tempfile
import urllib.request
from functools import cache
from pathlib import Path
from typing import Any

from playwright.sync_api import Page

AXE_VERSION = "4.14.1"
AXE_TARBALL = f"https://registry.npmjs.org/axe-core/-/axe-core-{AXE_VERSION}.tgz"
AXE_INTEGRITY = (
    "sha512-FHfa+lmNjQZfJz1q8wKqIDwC6DExcHt/pkjNQb09a3NPjCKg2rhu5qb2S4r76"
    "ASyFNNtuFooJpZe37OgudVGtQ=="
)
"""The ``dist.integrity`` of the version in the registry's metadata
(``https://registry.npmjs.org/axe-core/4.14.1``)."""

AXE_RULES = (
    # Text that cannot be read against what is behind it.
    "color-contrast",
    # Controls and pictures without a name a screen reader can say.
    "label",
    "button-name",
    "link-name",
    "image-alt",
    "input-image-alt",
    "select-name",
    "input-button-name",
    "svg-img-alt",
    "role-img-alt",
    "object-alt",
    "frame-title",
    "document-title",
    "summary-name",
    # The ARIA naming rules: every role that needs a name has one.
    "aria-command-name",
    "aria-input-field-name",
    "aria-toggle-field-name",
    "aria-meter-name",
    "aria-progressbar-name",
    "aria-tooltip-name",
    "aria-dialog-name",
    "aria-treeitem-name",
    # A label that says something else than the visible text, and ARIA that does not hold.
    "label-title-only",
    "aria-allowed-attr",
    "aria-required-attr",
    "aria-valid-attr",
    "aria-valid-attr-value",
    "aria-roles",
    "aria-hidden-focus",
    "nested-interactive",
    # The page says its language, so a reader speaks German as German.
    "html-has-lang",
    "html-lang-valid",
    "valid-lang",
)
"""The rules ``assert_accessible`` runs. Left out: the best-practice rules about page structure
(``region``, ``landmark-*``, ``heading-order``, ``page-has-heading-one``) — the game screens are
one application view, not documents — and ``scrollable-region-focusable``, whose scrolling
history lists are read with the mouse or the phone's finger, not tabbed into."""


def cache_dir() -> Path:
    """Where fetched test tools are kept: outside the work tree, shared by every checkout."""
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "spielcenter"


def integrity_of(data: bytes) -> str:
    """The npm ``integrity`` string (Subresource Integrity, sha512) of ``data``."""
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode("ascii")


def _fetch_tarball() -> bytes:
    with urllib.request.urlopen(AXE_TARBALL, timeout=60) as answer:
        data: bytes = answer.read()
    found = integrity_of(data)
    if found != AXE_INTEGRITY:
        raise RuntimeError(f"{AXE_TARBALL} is not the pinned axe-core: {found}")
    return data


def _write_atomically(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, name = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".part")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(name, path)
    except BaseException:
        Path(name).unlink(missing_ok=True)
        raise


@cache
def axe_source() -> str:
    """The source of ``axe.min.js`` of the pinned version, fetched into the cache once."""
    path = cache_dir() / f"axe-core-{AXE_VERSION}" / "axe.min.js"
    if not path.exists():
        with tarfile.open(fileobj=io.BytesIO(_fetch_tarball()), mode="r:gz") as tarball:
            member = tarball.extractfile("package/axe.min.js")
            assert member is not None
            _write_atomically(path, member.read().decode("utf-8"))
    return path.read_text(encoding="utf-8")


def run_axe(page: Page, rules: tuple[str, ...] = AXE_RULES) -> list[dict[str, Any]]:
    """The violations of ``rules`` on the page as it is now: ``{id, help, nodes: [...]}``."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(axe_source())
    violations: list[dict[str, Any]] = page.evaluate(
        """async (rules) => {
          const result = await window.axe.run(document, {
            runOnly: { type: "rule", values: rules },
            resultTypes: ["violations"],
          });
          return result.violations.map((v) => ({
            id: v.id,
            help: v.help,
            nodes: v.nodes.map((n) => ({ target: n.target.join(" "), summary: n.failureSummary,
                                         html: n.html.slice(0, 160) })),
          }));
        }""",
        list(rules),
    )
    return violations


def describe(violations: list[dict[str, Any]]) -> str:
    """The violations as lines a person can act on (at most four places each)."""
    lines = []
    for violation in violations:
        lines.append(f"{violation['id']}: {violation['help']}")
        for node in violation["nodes"][:4]:
            summary = " ".join(str(node["summary"]).split())
            lines.append(f"    {node['target']}  {node['html']}  — {summary}")
        if len(violation["nodes"]) > 4:
            lines.append(f"    … and {len(violation['nodes']) - 4} more")
    return "\n".join(lines)
