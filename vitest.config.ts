import path from "node:path";
import { configDefaults, defineConfig } from "vitest/config";

// Four lanes, run one after another (docs/testing.md, "Lanes"). `unit`: no server, no MariaDB, no Redis, no child
// process; in parallel threads sharing their module cache (`npm run test:fast`). `http`: suites that only
// speak HTTP to their own harness (own SQLite folder, own MariaDB schema), two files at a time in two worker
// processes that keep their loaded modules from file to file (`isolate: false`): a file builds its own harness and
// config, so only loaded code carries over, and each file no longer pays the 5-15 s of importing lib/ again.
const UNIT = [
  "tests/layering.test.ts",
  "tests/docs.test.ts",
  "tests/import-graph.test.ts",
  "tests/contract/openapi-limits.test.ts",
  "tests/ai/offline-planner.test.ts",
  "tests/ai/plan-edits.test.ts",
  "tests/ai/offline-measure.test.ts",
  "tests/dashboard/column-draft.test.ts",
  "tests/dashboard/human-errors.test.ts",
  "tests/dashboard/typed-values.test.ts",
  "tests/dashboard/view-columns.test.ts",
  "tests/dashboard/quick-search.test.ts",
  "tests/joins/canvas-definition.test.ts",
  "tests/hooks/budget-grace.test.ts",
  "tests/kernel/filter-operators.test.ts",
  "tests/kernel/group-commit.test.ts",
  "tests/ops/cluster-identity.test.ts",
  "tests/permissions/docs-table.test.ts",
  "tests/reliability/join-next-run.test.ts",
  "tests/reliability/read-once-per-turn.test.ts",
  "tests/reliability/serialization-retry.test.ts",
];

// `serial`: one file at a time, with nothing else on the CPU: server processes, redis-server, a private MariaDB,
// races and time bounds (a latency under 250 ms, a statement stopped within 8 s). Its one worker keeps its loaded
// modules from file to file, as the http lane's do. The CLI linter (openapi-lint.test.ts) has no bound tighter than
// its tools' 120 s, so it runs in `http` beside another file.
const SERIAL = [
  "tests/clients/**",
  "tests/backup/backup-restore.test.ts",
  "tests/backup/cli.test.ts",
  "tests/backup/restore-crash.test.ts",
  "tests/backup/s3-backups.test.ts",
  // The outbox, the feeds, webhook delivery and two processes; big-batches.test.ts (large writes and their events
  // over HTTP, no time bound) runs in `http`.
  "tests/events/cross-process.test.ts",
  "tests/events/feed-limits.test.ts",
  "tests/events/outbox-table-id.test.ts",
  "tests/events/outbox-writers.test.ts",
  "tests/events/outcome-deadlock.test.ts",
  "tests/events/webhook-targets.test.ts",
  "tests/events/webhooks-management.test.ts",
  // The kernel's races and waits; its read paths (like-paths, search-index, insert-returning, the documented
  // errors) only speak HTTP to their harness and run in `http`.
  "tests/kernel/concurrent-upserts.test.ts",
  "tests/kernel/concurrent-writes.test.ts",
  "tests/kernel/group-commit-kernel.test.ts",
  "tests/kernel/read-during-write.test.ts",
  "tests/kernel/transaction-ends.test.ts",
  "tests/kernel/write-transaction.test.ts",
  "tests/ops/**",
  "tests/reliability/**",
  "tests/scale/many-databases.test.ts",
  "tests/scale/reader-threads.test.ts",
  "tests/scale/reader-line.test.ts",
  "tests/scale/unavailable.test.ts",
  "tests/scale-out/**",
  "tests/files/tus-large-upload.test.ts",
  "tests/files/cluster-s3.test.ts",
  "tests/hooks/hook-cost-bound.test.ts",
  "tests/hooks/hook-limits.test.ts",
  "tests/mcp/stdio-bridge.test.ts",
  "tests/db-auth/auth-test-mail.test.ts",
  "tests/security/dashboard-sign-in.test.ts",
  "tests/security/oauth-sign-in.test.ts",
  "tests/security/sign-in-paths.test.ts",
  "tests/sql-console/**",
  "tests/teams/member-access.test.ts",
];

// `waits`: files that spend most of their time waiting on a clock (one-second rate windows, retry schedules, feed
// polls and heartbeats, DNS and SMTP time-outs, a killed process's sweep) and little on the CPU: three at a time,
// so they wait side by side while the machine stays far from busy and their time bounds hold. Each starts its
// own servers on free ports (redis-server included); none shares a server with another file.
const WAITS = [
  "tests/limits/**",
  "tests/events/webhook-delivery.test.ts",
  "tests/events/webhook-attempts.test.ts",
  "tests/events/feed.test.ts",
  "tests/events/feed-leaks.test.ts",
  "tests/events/feed-rls.test.ts",
  "tests/mcp/data-mcp-limits.test.ts",
  "tests/files/upload-process.test.ts",
  "tests/domains/verify-domain.test.ts",
  "tests/db-auth/mailbox.test.ts",
];

/** Two on their own; `npm test` runs the lane with one beside the browser suite (scripts/test.sh). */
const HTTP_WORKERS = Number(process.env.TABULA_HTTP_WORKERS || 2);

const globs = (paths: string[]) => paths.map((p) => (p.endsWith("**") ? `${p}/*.test.ts` : p));

// With TEST_MYSQL_URL, the http, waits and serial lanes migrate one MariaDB metadata schema before their files run, and
// each harness starts from a copy of it instead of running every migration again (tests/helpers/meta-template.ts).
const META_TEMPLATE = "tests/helpers/meta-template.ts";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The in-process servers' JSON request lines would bury the report; server processes set their own level.
    env: { LOG_LEVEL: process.env.LOG_LEVEL ?? "silent" },
    projects: [
      { extends: true, test: { name: "unit", include: UNIT, pool: "threads", isolate: false, sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: "http", isolate: false, globalSetup: [META_TEMPLATE], include: ["tests/**/*.test.ts"], exclude: [...configDefaults.exclude, ...UNIT, ...WAITS, ...SERIAL], maxWorkers: HTTP_WORKERS, sequence: { groupOrder: 1 } } },
      { extends: true, test: { name: "waits", isolate: false, globalSetup: [META_TEMPLATE], include: globs(WAITS), exclude: [...configDefaults.exclude, ...UNIT], maxWorkers: 3, sequence: { groupOrder: 2 } } },
      { extends: true, test: { name: "serial", isolate: false, globalSetup: [META_TEMPLATE], include: globs(SERIAL), exclude: [...configDefaults.exclude, ...UNIT, ...WAITS], fileParallelism: false, sequence: { groupOrder: 3 } } },
    ],
  },
});
