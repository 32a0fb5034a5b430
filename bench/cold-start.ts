// `npm run bench:cold`: time from spawning `npm start`'s command (package.json's start script: node, its flags,
// bin/start.mjs) to the first 200 of GET /healthz and of GET /v1/{db}/{table}/{id}, and to the dashboard's
// first answer, on a built install (run `npm run build` first, or the first start builds). Env: BENCH_COLD_RUNS (3).
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { createApp } from "../lib/app";
import { loadSchema } from "../lib/meta/load-schema";
import { DatabaseCreate } from "../lib/contract/schemas/databases";
import { createAccount } from "../lib/services/accounts/create-account";
import { createDatabase } from "../lib/services/databases/create-database";
import { freePort, startNodeFlags } from "./child";

const ROOT = path.resolve(import.meta.dirname, "..");
const runs = Number(process.env.BENCH_COLD_RUNS || 3);

/** A fresh install with one account, its key, and one row at /v1/{instance}/products/1. */
const prepare = async (dataDir: string) => {
  const app = await createApp({ engine: "sqlite", dataDir, bcryptCost: 4 });
  try {
    const { account, key } = await createAccount(app, { email: "cold@example.com", password: "cold-start-password" });
    const actor = { accountId: account.id, isOperator: false, keyDatabaseId: null };
    const body = DatabaseCreate.parse({ name: "cold", tables: [{ name: "products", columns: [{ name: "name", type: "varchar", length: 100 }] }] });
    const { instance } = await createDatabase({ app, actor }, { body });
    const udb = app.engine.userDb((await loadSchema(app, instance))!.physical);
    const at = "2024-01-01 00:00:00.000";
    await sql`INSERT INTO ${udb.table("products")} (name, created_at, updated_at) VALUES ('widget', ${at}, ${at})`.execute(udb.db);
    return { path: `/v1/${instance}/products/1`, key: key.key };
  } finally {
    await app.close();
  }
};

/** Milliseconds from `started` until `url` first answers as `ok` says (polled every 5 ms). */
const firstAnswer = async (url: string, headers: Record<string, string>, ok: (status: number) => boolean, started: number, child: ChildProcess) => {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}) before ${url} answered`);
    const status = await fetch(url, { headers, redirect: "manual" }).then((r) => (r.body?.cancel(), r.status), () => 0);
    if (ok(status)) return Math.round(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};

const measureOnce = async (dataDir: string, target: { path: string; key: string }) => {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawn(process.execPath, [...startNodeFlags(ROOT), path.join("bin", "start.mjs")], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, DATABASE_URL: "", LOG_LEVEL: "warn" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const killChild = () => child.kill("SIGKILL");
  process.once("exit", killChild);
  try {
    const [healthz, record, dashboard] = await Promise.all([
      firstAnswer(`${base}/healthz`, {}, (s) => s === 200, started, child),
      firstAnswer(base + target.path, { "x-api-key": target.key }, (s) => s === 200, started, child),
      firstAnswer(`${base}/login`, {}, (s) => s === 200, started, child),
    ]);
    return { healthz, record, dashboard };
  } finally {
    process.off("exit", killChild);
    child.kill("SIGTERM");
    await new Promise((resolve) => (child.exitCode === null ? child.once("exit", resolve) : resolve(null)));
  }
};

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const main = async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-cold-"));
  try {
    const target = await prepare(dataDir);
    const results = [];
    for (let i = 0; i < runs; i++) {
      const r = await measureOnce(dataDir, target);
      console.log(`[bench:cold] run ${i + 1}: /healthz ${r.healthz} ms, GET ${path.posix.dirname(target.path)}/1 ${r.record} ms, /login ${r.dashboard} ms`);
      results.push(r);
    }
    const load = os.loadavg().map((l) => l.toFixed(2)).join(", ");
    console.log(`cold start: ${median(results.map((r) => r.record))} ms to the first record (median of ${runs}; /healthz ${median(results.map((r) => r.healthz))} ms, dashboard ${median(results.map((r) => r.dashboard))} ms; load average ${load})`);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
};

await main();
