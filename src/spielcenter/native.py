"""The solvers' search modules compiled to C with mypyc, and how the package finds them.

The patience solvers spend their time in a few typed, pure modules (:data:`MODULES`). mypyc
(part of mypy, which the project already uses for its types) compiles exactly those files to C
extension modules, with the same source and the same answers, a few times faster (the figures,
and the command that measures them, are in docs/performance.md, *Compiled solvers*).

* ``python -m spielcenter.native build`` (run by ``make install``) compiles :data:`MODULES` into
  ``build/native/<interpreter>/`` and writes a manifest there: a hash of every source file the
  compiled code was made from (the solvers and the game engines they import) and the mypy version.
  When the manifest already matches, it does nothing; when a build of the same sources is kept
  in the machine's cache (:data:`CACHE`, outside the work tree), it copies that one instead of
  compiling again (a fresh clone of the same code, CI's among them, saves a minute of gcc).
* :func:`activate`, called by :mod:`spielcenter.solvers` before any of its modules is imported,
  puts that directory first on the package's ``__path__`` — only when the manifest matches the
  sources beside it. A module edited since the build therefore runs as plain Python, never in
  its stale compiled form; ``SPIELCENTER_PURE_PYTHON=1`` asks for plain Python always.

Without a build (an installed wheel, no C compiler) everything runs as plain Python, only slower.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import shutil
import sys
import sysconfig
import tempfile
from collections.abc import MutableSequence
from pathlib import Path

__all__ = ["CACHE", "MODULES", "activate", "active", "build", "main"]

MODULES = (
    "solvers/codes.py",
    "solvers/verdict.py",
    "solvers/crazy_quilt_position.py",
    "solvers/crazy_quilt_relaxed.py",
    "solvers/crazy_quilt_last_pass.py",
    "solvers/crazy_quilt_search.py",
    "solvers/crazy_quilt.py",
    "solvers/crazy_quilt_beam.py",
    "solvers/crazy_quilt_honest.py",
    "solvers/crazy_quilt_waiting.py",
    "solvers/cruel_rules.py",
    "solvers/cruel_dead.py",
    "solvers/cruel_start.py",
    "solvers/cruel_search.py",
    "solvers/cruel.py",
)
"""The compiled modules, relative to the ``spielcenter`` package: the searches and the checks
they ask at nearly every position."""

HASHED = ("games", "solvers")
"""The subpackages whose sources a build is made from: the compiled modules and what they
import (mypyc reads the types of the engines' plain data)."""

PURE_SWITCH = "SPIELCENTER_PURE_PYTHON"
"""Set to ``1`` to ignore any build and run the solvers as plain Python."""

GROUP = "spielcenter.solvers.native"
"""The name of the shared library that holds the compiled modules (inside the package)."""

PACKAGE = Path(__file__).resolve().parent
ROOT = PACKAGE.parent.parent
BUILD = ROOT / "build" / "native" / sysconfig.get_config_var("SOABI")
"""Where the build lives: beside ``src/`` in a checkout, one folder per interpreter."""

CACHE = (
    Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    / "spielcenter"
    / "native"
    / sysconfig.get_config_var("SOABI")
)
"""The machine's builds, one folder per fingerprint (:func:`_fingerprint`): every checkout of the
same sources on this machine (a worktree, a fresh clone) copies its build from here. A folder
counts only with its manifest, which is written last; :data:`CACHE_KEPT` are kept."""

CACHE_KEPT = 12
"""How many builds the cache keeps (the most recently made or used, about 2.5 MB each)."""


def _fingerprint() -> dict[str, object]:
    """What a build is made from: the hash of every source file of :data:`HASHED`, and the
    compiler's version."""
    import mypy.version

    sources = {}
    for folder in HASHED:
        for path in sorted((PACKAGE / folder).rglob("*.py")):
            relative = path.relative_to(PACKAGE).as_posix()
            sources[relative] = hashlib.sha256(path.read_bytes()).hexdigest()
    return {"mypy": mypy.version.__version__, "modules": list(MODULES), "sources": sources}


def _manifest(build_dir: Path) -> dict[str, object] | None:
    try:
        manifest = json.loads((build_dir / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return manifest if isinstance(manifest, dict) else None


def up_to_date(build_dir: Path = BUILD) -> bool:
    """Whether ``build_dir`` holds a build of exactly the current sources."""
    try:
        return _manifest(build_dir) == _fingerprint()
    except ImportError:  # no mypy: nothing to compare with, so nothing is trusted
        return False


def activate(package_path: MutableSequence[str], build_dir: Path = BUILD) -> bool:
    """Put the compiled modules first on ``package_path`` (``spielcenter.solvers.__path__``)
    when a build of the current sources exists; whether it did."""
    if os.environ.get(PURE_SWITCH, "") not in ("", "0"):
        return False
    compiled = build_dir / "spielcenter" / "solvers"
    if not compiled.is_dir() or not up_to_date(build_dir):
        return False
    package_path.insert(0, str(compiled))
    return True


def active() -> bool:
    """Whether the solvers' search modules are the compiled ones in this process."""
    from spielcenter.solvers import crazy_quilt_search, cruel_search

    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    return all(
        str(module.__file__).endswith(suffix) for module in (crazy_quilt_search, cruel_search)
    )


def _cached(fingerprint: dict[str, object], cache: Path) -> Path:
    """The cache's folder for a build of exactly these sources."""
    digest = hashlib.sha256(json.dumps(fingerprint, sort_keys=True).encode()).hexdigest()
    return cache / digest[:32]


def _copy_build(source: Path, target: Path) -> None:
    """Copy a build so that ``target`` has a manifest only once every module is there: the
    modules go to a sibling folder first, which is renamed into place."""
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=".copy-", dir=target.parent) as work:
        staged = Path(work) / "build"
        shutil.copytree(source, staged, ignore=shutil.ignore_patterns("manifest.json"))
        shutil.copy2(source / "manifest.json", staged / "manifest.json")
        if target.exists():
            shutil.rmtree(target)
        with contextlib.suppress(OSError):  # another checkout put the same build there first
            staged.rename(target)


def _remember(build_dir: Path, fingerprint: dict[str, object], cache: Path) -> None:
    """Keep a copy of a finished build in the cache and drop the least recently used ones."""
    with contextlib.suppress(OSError):  # a cache that cannot be written only costs time
        _copy_build(build_dir, _cached(fingerprint, cache))
        kept = sorted(
            (entry for entry in cache.iterdir() if not entry.name.startswith(".")),
            key=lambda entry: entry.stat().st_mtime,
            reverse=True,
        )
        for old in kept[CACHE_KEPT:]:
            shutil.rmtree(old, ignore_errors=True)


def _from_cache(build_dir: Path, fingerprint: dict[str, object], cache: Path) -> bool:
    """Copy the cache's build of these sources into ``build_dir``; whether there was one."""
    kept = _cached(fingerprint, cache)
    if _manifest(kept) != fingerprint:
        return False
    try:
        _copy_build(kept, build_dir)
        os.utime(kept)  # used: the last to be dropped
    except OSError:
        return False
    return _manifest(build_dir) == fingerprint


def build(build_dir: Path = BUILD, *, quiet: bool = False, cache: Path | None = CACHE) -> bool:
    """Compile :data:`MODULES` into ``build_dir`` unless it is up to date or the cache holds a
    build of the same sources (copied instead); whether it compiled. ``cache=None``: no cache.

    Raises ``RuntimeError`` when mypyc or the C compiler fails (their output goes to stderr).
    """
    fingerprint = _fingerprint()
    if _manifest(build_dir) == fingerprint:
        if cache is not None and _manifest(_cached(fingerprint, cache)) != fingerprint:
            _remember(build_dir, fingerprint, cache)  # built before there was a cache
        return False
    if cache is not None and _from_cache(build_dir, fingerprint, cache):
        return False
    from mypyc.build import mypycify
    from setuptools import Distribution

    (build_dir / "manifest.json").unlink(missing_ok=True)  # a half-made build is never trusted
    here = os.getcwd()
    os.chdir(PACKAGE.parent)  # mypyc names the modules by their paths: spielcenter/solvers/…
    said = io.StringIO()  # mypyc's notes, shown when asked or when the build fails
    try:
        with (
            tempfile.TemporaryDirectory(prefix="spielcenter-native-") as work,
            contextlib.redirect_stdout(said if quiet else sys.stdout),
        ):
            extensions = mypycify(
                [f"spielcenter/{module}" for module in MODULES],
                group_name=GROUP,
                target_dir=str(Path(work) / "c"),
            )
            distribution = Distribution({"ext_modules": extensions, "script_name": "native"})
            command = distribution.get_command_obj("build_ext")
            command.build_lib = str(build_dir)
            command.build_temp = str(Path(work) / "objects")
            distribution.verbose = not quiet
            distribution.run_command("build_ext")
    except (SystemExit, Exception) as exc:  # setuptools reports a failed compile by exiting
        sys.stderr.write(said.getvalue())
        raise RuntimeError(f"compiling the solvers failed: {exc}") from None
    finally:
        os.chdir(here)
    (build_dir / "manifest.json").write_text(json.dumps(fingerprint, indent=1), encoding="utf-8")
    if cache is not None:
        _remember(build_dir, fingerprint, cache)
    return True


def main(argv: list[str] | None = None) -> int:
    """``python -m spielcenter.native build [--quiet]``."""
    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] != "build" or any(a != "--quiet" for a in args[1:]):
        sys.stderr.write("usage: python -m spielcenter.native build [--quiet]\n")
        return 2
    was_current = up_to_date()
    try:
        compiled = build(quiet="--quiet" in args)
    except RuntimeError as exc:
        sys.stderr.write(f"spielcenter: {exc}\n")
        return 1
    done = "built" if compiled else "up to date" if was_current else f"copied from {CACHE}"
    where = BUILD.relative_to(ROOT) if BUILD.is_relative_to(ROOT) else BUILD
    sys.stdout.write(f"compiled solvers: {done} in {where}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
