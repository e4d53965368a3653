#!/usr/bin/env bash
# The linter of the browser client (ESLint, tests/unit/test_js_lint.py) runs on Node.js and is
# installed with npm; install Debian's nodejs and npm when either is missing.
set -euo pipefail
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "installing Debian's nodejs and npm for the JavaScript linter" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null
fi
