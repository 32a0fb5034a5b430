#!/usr/bin/env bash
# `npm test`: type check and production build; the browser suite (the real server, Chromium) beside the unit and
# http lanes (SQLite, and MariaDB when reachable); then the waits and serial lanes alone.
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

# The type check runs beside the production build, which skips its own check of the same files and, building this
# checkout once, its build cache. The dashboard sign-in suite starts the production server with the dashboard on,
# and the server processes the tests start run the server bundle `npm start` runs (made by build-server.mjs) instead
# of compiling server.ts through tsx each time.
echo "== type check beside the production build"
npx tsc --noEmit -p . &
tsc_pid=$!
node scripts/copy-monaco.mjs
TABULA_TYPES_CHECKED=1 TABULA_BUILD_CACHE=0 npx next build
wait "$tsc_pid" || { echo "the type check failed (above)" >&2; exit 1; }
node scripts/build-server.mjs

# The browser suite runs beside the unit and http lanes, which have no time bound. The browser suite alone leaves a
# quarter of the machine idle; the lanes take it with one http worker instead of two, at the lowest priority
# (nice 19), so they fill that idle time rather than slow the browser suite, the longer of the two. The waits and
# serial lanes, whose tests measure time, run after both, alone on the machine. The browser suite's report is
# printed once it ends.
echo "== browser suite (real server, Chromium) started beside the unit and http lanes; its report follows them"
e2e_log="$(mktemp)"
npx playwright test > "$e2e_log" 2>&1 &
e2e_pid=$!

echo "== unit and http lanes (engines: sqlite${TEST_MYSQL_URL:+, mysql})"
lanes_log="$(mktemp)"
lanes_status=0
TABULA_HTTP_WORKERS=1 nice -n 19 npx vitest run --project unit --project http 2>&1 | tee "$lanes_log" || lanes_status=$?

e2e_status=0
wait "$e2e_pid" || e2e_status=$?
echo "== browser suite (end-to-end: real server, Chromium)"
cat "$e2e_log"
rm -f "$e2e_log"
# A failed lane's failures are printed again last, below the browser suite's report, where a log's tail shows them.
if [ "$lanes_status" != 0 ]; then
  echo "== the unit and http lanes' failures, again"
  # From vitest's first failure banner to the end (files, so no pipe breaks under pipefail), or the log's tail.
  sed -n -E '/Failed (Tests|Suites)|Unhandled Errors?/,$p' "$lanes_log" > "$lanes_log.failed"
  if [ -s "$lanes_log.failed" ]; then head -n 300 "$lanes_log.failed"; else tail -n 150 "$lanes_log"; fi
  echo "the unit or http lane failed (above)" >&2
  exit "$lanes_status"
fi
rm -f "$lanes_log"
[ "$e2e_status" = 0 ] || { echo "the browser suite failed (above)" >&2; exit "$e2e_status"; }

echo "== waits and serial lanes (engines: sqlite${TEST_MYSQL_URL:+, mysql}), alone on the machine"
npx vitest run --project waits --project serial
