// `npm run bench:cluster` (with `npm run cluster` up): W1 (GET by id), W4 (POST), W5 (PATCH) through HAProxy
// on the Galera cluster, beside one Tabula process on the single MariaDB (127.0.0.1:3306, schemas tabula_bench_cluster*, dropped after), and the
// cost of wsrep_sync_wait (one API node with DB_SYNC_WAIT=1, the default, against one with 0). Short runs:
// BENCH_SECONDS (5), BENCH_CONNECTIONS (20), BENCH_ROWS (5000).
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import autocannon from "autocannon";
import { sql } from "kysely";
import { createApp, type App } from "../lib/app";
import { readConfig } from "../lib/config";
import { createAccount } from "../lib/services/accounts/create-account";

const ROOT = path.resolve(import.meta.dirname, "..");
const CLUSTER_DIR = process.env.CLUSTER_DIR ?? path.join(ROOT, ".cluster");
const seconds = Number(process.env.BENCH_SECONDS || 5);
const connections = Number(process.env.BENCH_CONNECTIONS || 20);
const rows = Number(process.env.BENCH_ROWS || 5000);
const single = "mysql://root@127.0.0.1:3306/tabula_bench_cluster";
const secret = fs.readFileSync(path.join(CLUSTER_DIR, "secret"), "utf8").trim();

type Target = { label: string; url: string; key: string; instance: string; ids: number[] };

const openApp = (databaseUrl: string, dir: string): Promise<App> =>
  createApp({ ...readConfig({ ...process.env, REDIS_URL: "", DATA_DIR: path.join(CLUSTER_DIR, dir) }), databaseUrl, engine: "mysql", secret, bcryptCost: 4 });

/** An operator account (no rate limit), a products table with `rows` rows; returns the key, instance and ids. */
const prepare = async (app: App) => {
  const { account, key } = await createAccount(app, { email: `bench-${Date.now()}@example.com`, password: "bench-password" });
  await app.engine.meta.updateTable("accounts").set({ is_operator: 1 }).where("id", "=", account.id).execute();
  return { key: key.key, accountId: account.id };
};

const makeDatabase = async (url: string, key: string) => {
  const reply = await fetch(`${url}/api/v1/databases`, {
    method: "POST",
    headers: { "x-api-key": key, "content-type": "application/json" },
    body: JSON.stringify({ name: "bench", tables: [{ name: "products", columns: [{ name: "name", type: "varchar" }, { name: "price", type: "decimal" }, { name: "stock", type: "int" }] }] }),
  });
  if (reply.status !== 201) throw new Error(`creating the bench database: ${reply.status} ${await reply.text()}`);
  return ((await reply.json()) as { instance: string }).instance;
};

const fill = async (app: App, instance: string) => {
  const { physical } = await app.engine.meta.selectFrom("databases").select("physical").where("instance", "=", instance).executeTakeFirstOrThrow();
  const udb = app.engine.userDb(physical);
  for (let first = 0; first < rows; first += 500) {
    const values = Array.from({ length: Math.min(500, rows - first) }, (_, i) => sql`(${`product ${first + i}`}, ${(first + i) % 1000}, ${i}, NOW(3), NOW(3))`);
    await sql`INSERT INTO ${udb.table("products")} (name, price, stock, created_at, updated_at) VALUES ${sql.join(values)}`.execute(udb.db);
  }
  const { rows: idRows } = await sql<{ id: number }>`SELECT id FROM ${udb.table("products")}`.execute(udb.db);
  return idRows.map((r) => Number(r.id));
};

const startServer = async (port: number, env: Record<string, string>): Promise<ChildProcess> => {
  const child = spawn(process.execPath, ["--import", "tsx", "server.ts"], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: "production", DASHBOARD: "off", HOST: "127.0.0.1", PORT: String(port), TABULA_SECRET: secret, LOG_LEVEL: "warn", ...env },
    stdio: "ignore",
  });
  for (let i = 0; i < 150; i++) {
    if (await fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.ok, () => false)) return child;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`server on ${port} did not start`);
};

const pick = (ids: number[]) => ids[Math.floor(Math.random() * ids.length)];
const WORKLOADS = {
  W1: (t: Target) => ({ method: "GET" as const, path: `/v1/${t.instance}/products/${pick(t.ids)}` }),
  W4: (t: Target) => ({ method: "POST" as const, path: `/v1/${t.instance}/products`, body: JSON.stringify({ name: "new", price: 9.5, stock: 1 }) }),
  W5: (t: Target) => ({ method: "PATCH" as const, path: `/v1/${t.instance}/products/${pick(t.ids)}`, body: JSON.stringify({ stock: Math.floor(Math.random() * 1000) }) }),
};

const run = async (t: Target, id: keyof typeof WORKLOADS) => {
  const result = await autocannon({
    url: t.url,
    connections,
    duration: seconds,
    headers: { "x-api-key": t.key, "content-type": "application/json" },
    requests: [{ setupRequest: (req) => ({ ...req, ...WORKLOADS[id](t) }) }],
  });
  const bad = result.non2xx + result.errors;
  console.log(`[bench:cluster] ${t.label.padEnd(36)} ${id}  ${result.requests.average.toFixed(0).padStart(6)} req/s  p99 ${String(result.latency.p99).padStart(4)} ms${bad ? `  (${bad} non-2xx/errors)` : ""}`);
};

const main = async () => {
  const clusterApp = await openApp("mysql://root@127.0.0.1:3313/tabula", "bench-app");
  const singleApp = await openApp(single, "bench-single");
  const children: ChildProcess[] = [];
  try {
    const c = await prepare(clusterApp);
    const s = await prepare(singleApp);
    children.push(await startServer(3340, { DATABASE_URL: single }));
    // Beside API node 1 (DB_SYNC_WAIT default 1), one on the same Galera node with it off: the cost of read-your-writes.
    children.push(await startServer(3341, { DATABASE_URL: "mysql://root@127.0.0.1:3311/tabula", DB_SYNC_WAIT: "0" }));
    const clusterDb = await makeDatabase("http://127.0.0.1:3320", c.key);
    const singleDb = await makeDatabase("http://127.0.0.1:3340", s.key);
    const clusterIds = await fill(clusterApp, clusterDb);
    const singleIds = await fill(singleApp, singleDb);
    const targets: Target[] = [
      { label: "single MariaDB, one process", url: "http://127.0.0.1:3340", key: s.key, instance: singleDb, ids: singleIds },
      { label: "Galera via HAProxy (2 API nodes)", url: "http://127.0.0.1:3320", key: c.key, instance: clusterDb, ids: clusterIds },
      { label: "Galera, API node 1 (sync wait 1)", url: "http://127.0.0.1:3331", key: c.key, instance: clusterDb, ids: clusterIds },
      { label: "Galera, node 1 with DB_SYNC_WAIT=0", url: "http://127.0.0.1:3341", key: c.key, instance: clusterDb, ids: clusterIds },
    ];
    console.log(`[bench:cluster] ${connections} connections, ${seconds} s per run, ${rows} rows`);
    for (const t of targets) for (const id of ["W1", "W4", "W5"] as const) await run(t, id);
  } finally {
    for (const child of children) child.kill("SIGTERM");
    await clusterApp.close();
    const { rows: schemas } = await sql<{ name: string }>`SELECT SCHEMA_NAME AS name FROM information_schema.SCHEMATA WHERE SCHEMA_NAME LIKE 'tabula\_bench\_cluster%'`.execute(singleApp.engine.meta);
    for (const { name } of schemas) await sql`DROP DATABASE IF EXISTS ${sql.id(name)}`.execute(singleApp.engine.meta);
    await singleApp.close();
  }
};

main().catch((err) => {
  console.error("[bench:cluster] failed:", err);
  process.exit(1);
});
