#!/usr/bin/env bash
# `npm test`: type check, unit + HTTP contract suites (SQLite, and MariaDB when reachable), then the
# production build and the browser/end-to-end suite against the real server.
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1

# The browser suite is part of npm test: make sure its Chromium is there before anything runs.
bash scripts/ensure-browser.sh

# MariaDB is part of the contract suite. CI sets TABULA_REQUIRE_MYSQL=1 so a missing server fails loudly.
if [ -z "${TEST_MYSQL_URL:-}" ]; then
  if node -e "require('net').connect(3306,'127.0.0.1').on('connect',()=>process.exit(0)).on('error',()=>process.exit(1))"; then
    export TEST_MYSQL_URL="mysql://root@127.0.0.1:3306/tabula_test"
  elif [ "${TABULA_REQUIRE_MYSQL:-0}" = "1" ]; then
    echo "MariaDB/MySQL is required (TABULA_REQUIRE_MYSQL=1) but nothing listens on 127.0.0.1:3306" >&2
    exit 1
  else
    echo "note: no MariaDB on 127.0.0.1:3306; running the SQLite half only" >&2
  fi
fi

echo "== type check"
npx tsc --noEmit -p .

# Built first: the dashboard sign-in suite starts the production server (server.ts) with the dashboard on.
echo "== production build"
node scripts/copy-monaco.mjs
TABULA_TYPES_CHECKED=1 npx next build

echo "== unit and HTTP contract suites (engines: sqlite${TEST_MYSQL_URL:+, mysql})"
npx vitest run

echo "== end-to-end (real server, Chromium)"
npx playwright test
