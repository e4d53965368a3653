#!/usr/bin/env bash
# The server tests also run against PostgreSQL and Redis: install Debian's packages when missing.
# Nothing is started here; the test fixtures (tests/services.py) start a private PostgreSQL
# cluster and a redis-server on free loopback ports and stop them at the end.
set -euo pipefail

missing=()
if ! compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null; then
  missing+=(postgresql)
fi
if ! command -v redis-server >/dev/null 2>&1; then
  missing+=(redis-server)
fi
if [ "${#missing[@]}" -gt 0 ]; then
  echo "installing Debian's ${missing[*]} for the server tests" >&2
  apt-get update -qq
  # policy-rc.d keeps the packages from starting their system-wide services: the tests start
  # their own on loopback ports.
  policy=/usr/sbin/policy-rc.d
  added_policy=""
  if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod +x "$policy" && added_policy=1
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  if [ -n "$added_policy" ]; then rm -f "$policy"; fi
fi
