#!/usr/bin/env bash
# The browser tests drive a system Chromium (Playwright never downloads one here). Before any test runs:
# use CHROMIUM_PATH or /usr/bin/chromium; when it is missing and this user may install packages, install
# Debian's `chromium`; otherwise stop at once with the one command to run.
set -euo pipefail

browser="${CHROMIUM_PATH:-/usr/bin/chromium}"
[ -x "$browser" ] && exit 0

if [ -n "${CHROMIUM_PATH:-}" ]; then
  echo "CHROMIUM_PATH=$CHROMIUM_PATH is not an executable; point it at a Chromium or Chrome binary." >&2
  exit 1
fi

as_root=""
if [ "$(id -u)" != "0" ]; then
  if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then as_root="sudo -n"; else as_root="none"; fi
fi

if command -v apt-get >/dev/null && [ "$as_root" != "none" ]; then
  echo "== installing Debian's chromium for the browser tests (apt-get install chromium)"
  $as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  $as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  [ -x "$browser" ] && exit 0
  echo "apt-get installed chromium, but $browser is still missing." >&2
  exit 1
fi

cat >&2 <<MSG
npm test needs Chromium for its browser tests, and $browser is missing. Run:

    sudo apt-get install -y chromium

(or set CHROMIUM_PATH to a Chromium/Chrome binary), then npm test again.
MSG
exit 1
