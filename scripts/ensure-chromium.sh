#!/usr/bin/env bash
# The browser tests drive Debian's Chromium; install it when it is missing.
set -euo pipefail
if [ ! -x /usr/bin/chromium ]; then
  echo "installing Debian's chromium for the browser tests" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
