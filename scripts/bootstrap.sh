#!/usr/bin/env bash
# Installs what Spielcenter needs on a fresh Debian machine: Python 3.11+, uv, and the locked
# environment (.venv), and compiles the solvers. Safe to run again: it only installs what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

apt_install() {
  if [ -z "${APT_UPDATED:-}" ]; then apt-get update -qq; export APT_UPDATED=1; fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

if ! command -v python3 >/dev/null 2>&1; then
  echo "bootstrap: installing python3 from Debian" >&2
  apt_install python3 python3-pip python3-venv
fi
if ! command -v uv >/dev/null 2>&1 && ! python3 -m uv --version >/dev/null 2>&1; then
  if ! python3 -m pip --version >/dev/null 2>&1; then
    echo "bootstrap: installing pip from Debian" >&2
    apt_install python3-pip python3-venv
  fi
  echo "bootstrap: installing uv with pip" >&2
  python3 -m pip install --quiet uv 2>/dev/null \
    || python3 -m pip install --quiet --break-system-packages uv
fi
if command -v uv >/dev/null 2>&1; then UV=uv; else UV="python3 -m uv"; fi
$UV sync --frozen --quiet

# The solvers' search modules are compiled to C with mypyc (src/spielcenter/native.py): that
# needs a C compiler and the interpreter's headers.
if ! command -v cc >/dev/null 2>&1; then
  echo "bootstrap: installing Debian's gcc for the compiled solvers" >&2
  apt_install gcc libc6-dev
fi
include="$($UV run --no-sync python -c 'import sysconfig; print(sysconfig.get_paths()["include"])')"
if [ ! -f "$include/Python.h" ]; then
  echo "bootstrap: installing the Python headers for the compiled solvers" >&2
  apt_install python3-dev
fi
# `--no-build`: everything but the compile itself (`make test` runs it beside ruff and mypy).
if [ "${1:-}" != "--no-build" ]; then
  $UV run --no-sync python -m spielcenter.native build --quiet
fi
