"""The browser client passes its linter: ESLint 9 with the repository's ``eslint.config.js``
(recommended rules, no unused names, no undefined names beyond the browser's globals, ``===``).

ESLint and its two packages come from the npm registry at the versions ``package-lock.json`` pins
(``npm ci``), installed once into a cache outside the work tree (``$XDG_CACHE_HOME/spielcenter``,
else ``~/.cache/spielcenter``, as ``tests/browser/axe.py`` keeps axe-core), so a test run leaves
the work tree as it found it. Two pytest-xdist workers may install at once: each installs into a
directory of its own and renames it into place; the loser's copy is thrown away.

``make test`` installs Debian's ``nodejs`` and ``npm`` when they are missing; without them these
tests skip and say so.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
CLIENT = ROOT / "src" / "spielcenter" / "web" / "static" / "js"
MANIFESTS = ("package.json", "package-lock.json")
CONFIG = ROOT / "eslint.config.js"
INSTALL_TIMEOUT_S = 600
LINT_TIMEOUT_S = 240


def cache_dir() -> Path:
    """Where fetched test tools are kept: outside the work tree, shared by every checkout."""
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "spielcenter"


def digest(*paths: Path) -> str:
    """A short fingerprint of files: a new lock or config gets a directory or file of its own."""
    sha = hashlib.sha256()
    for path in paths:
        sha.update(path.read_bytes())
    return sha.hexdigest()[:16]


def installed_eslint() -> Path:
    """The directory holding ``node_modules`` of the pinned ESLint, installed on first use."""
    if shutil.which("node") is None or shutil.which("npm") is None:
        pytest.skip("node and npm are not installed (make test installs Debian's nodejs and npm)")
    target = cache_dir() / f"eslint-{digest(*(ROOT / name for name in MANIFESTS))}"
    if not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        work = Path(tempfile.mkdtemp(dir=target.parent, prefix=f"{target.name}.part"))
        try:
            for name in MANIFESTS:
                shutil.copy(ROOT / name, work / name)
            npm = subprocess.run(
                ["npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"],
                cwd=work,
                capture_output=True,
                text=True,
                timeout=INSTALL_TIMEOUT_S,
            )
            if npm.returncode:
                raise RuntimeError(f"npm ci of the pinned ESLint failed in {work}:\n{npm.stderr}")
            work.rename(target)
        except OSError:
            if not target.exists():  # not another worker's copy that came first
                raise
        finally:
            shutil.rmtree(work, ignore_errors=True)
    return target


def config_in(installed: Path) -> Path:
    """The repository's config beside the installed packages, where its imports resolve."""
    path = installed / f"eslint.config.{digest(CONFIG)}.js"
    if not path.exists():
        handle, name = tempfile.mkstemp(dir=installed, prefix=path.name, suffix=".part")
        with os.fdopen(handle, "wb") as out:
            out.write(CONFIG.read_bytes())
        os.replace(name, path)
    return path


def eslint(target: Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    """ESLint over ``target`` (a file or folder) from ``cwd``, its findings as JSON."""
    installed = installed_eslint()
    return subprocess.run(
        [
            "node",
            str(installed / "node_modules" / "eslint" / "bin" / "eslint.js"),
            "--config",
            str(config_in(installed)),
            "--format",
            "json",
            "--max-warnings",
            "0",
            str(target),
        ],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=LINT_TIMEOUT_S,
    )


def findings(run: subprocess.CompletedProcess[str]) -> list[str]:
    """Each finding as ``file:line:column rule: message``."""
    assert run.stdout, f"ESLint said nothing on stdout: {run.stderr}"
    files: list[dict[str, Any]] = json.loads(run.stdout)
    return [
        f"{Path(entry['filePath']).name}:{message.get('line')}:{message.get('column')} "
        f"{message.get('ruleId')}: {message['message']}"
        for entry in files
        for message in entry["messages"]
    ]


def test_the_browser_client_has_no_lint_findings() -> None:
    run = eslint(CLIENT, ROOT)
    found = findings(run)
    assert found == [], "\n".join(found)
    assert run.returncode == 0, run.stderr


def test_the_linter_finds_an_undefined_name_an_unused_one_and_a_loose_equality(
    tmp_path: Path,
) -> None:
    """The config is in force: each of its own rules reports its slip, the browser's globals
    (``document``) are known."""
    (tmp_path / "slips.js").write_text(
        'import { unused } from "./elsewhere.js";\n'
        "\n"
        "export function slips(count) {\n"
        "  document.title = String(count);\n"
        "  return count == 1 && undefinedName;\n"
        "}\n"
    )
    run = eslint(tmp_path / "slips.js", tmp_path)
    rules = sorted(line.split(" ")[1].rstrip(":") for line in findings(run))
    assert rules == ["eqeqeq", "no-undef", "no-unused-vars"]
    assert run.returncode == 1
