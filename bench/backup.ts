// `npm run bench:backup` (also `BENCH_BACKUP=1 npm run bench`): backup and restore throughput of one large
// table, per engine (SQLite; MariaDB too with TEST_MYSQL_URL), then the backup's effect on W1 and W4: each runs
// alone, then again while a server-side backup of that table runs in the same server process, in the same run
// so the ratio holds however loaded the machine is. `--rows N` (or BENCH_BACKUP_ROWS) sets the table's size
// (default 1,000,000); BENCH_SECONDS (10) and BENCH_CONNECTIONS (50) the W1/W4 runs. Rows/s and MB/s are of the
// uncompressed JSON lines; the archive's gzip'd size is shown beside.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import type { EngineKind } from "../lib/config";
import { createApp } from "../lib/app";
import { restoreArchive } from "../lib/backup/restore-archive";
import { openRowSink } from "../lib/backup/row-sink";
import { writeBackup } from "../lib/backup/write-backup";
import { loadDatabase } from "../lib/meta/load-schema";
import type { Ctx } from "../lib/meta/context";
import { createDatabase } from "../lib/services/databases/create-database";
import { databaseCtx } from "../lib/services/databases/database-ctx";
import { deleteDatabase } from "../lib/services/databases/delete-database";
import { startChild } from "./child";
import { type LoadResult, runLoad } from "./measure";
import { prepareTarget, type Target } from "./setup";
import { WORKLOADS } from "./workloads";

const rowsFlag = process.argv.indexOf("--rows");
const ROWS = Number((rowsFlag > 0 && process.argv[rowsFlag + 1]) || process.env.BENCH_BACKUP_ROWS || 1_000_000);
const SECONDS = Number(process.env.BENCH_SECONDS || 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 50);
const engines: EngineKind[] = (process.env.TEST_MYSQL_URL ? (["sqlite", "mysql"] as const) : (["sqlite"] as const)).filter((e) => !process.env.BENCH_ENGINE || e === process.env.BENCH_ENGINE);
const log = (line: string) => console.log(`[bench:backup] ${line}`);
const load = () => os.loadavg().map((l) => l.toFixed(1)).join(" ");
const FILL_BATCH = 5_000;

const COLUMNS = [
  { name: "title", type: "varchar", length: 120, nullable: false },
  { name: "body", type: "text" },
  { name: "qty", type: "int" },
  { name: "price", type: "decimal", precision: 10, scale: 2 },
  { name: "at", type: "datetime" },
  { name: "doc", type: "json" },
];

const row = (i: number) => [
  i,
  `Product number ${i}`,
  `A longer description of product ${i}, with some words in it to look like text.`,
  i % 1000,
  engineValue((i % 100000) / 100),
  "2024-05-01 12:00:00.000",
  JSON.stringify({ tags: ["a", "b"], n: i }),
  "2024-05-01 12:00:00.000",
  "2024-05-01 12:00:00.000",
];
let engineValue = (v: number): unknown => v;

/** Fills the table, then times a backup to a file and a restore of it in this process; the restored copy is deleted. */
const throughput = async (target: Target) => {
  const app = await createApp(target.config);
  const { engine } = target;
  try {
    const account = await app.engine.meta.selectFrom("accounts").select("id").where("email", "=", "bench@example.com").executeTakeFirstOrThrow();
    const ctx: Ctx = { app, actor: { accountId: account.id, isOperator: false, keyDatabaseId: null } };
    const db = await createDatabase(ctx, { body: { name: "backup bench", tables: [{ name: "products", columns: COLUMNS as never }] } });
    const physical = (await loadDatabase(app, db.instance))!.schema.physical;
    engineValue = engine === "mysql" ? (v) => v.toFixed(2) : (v) => v;
    const sink = await openRowSink(app, physical);
    const fillStart = performance.now();
    const names = ["id", "title", "body", "qty", "price", "at", "doc", "created_at", "updated_at"];
    for (let from = 1; from <= ROWS; from += FILL_BATCH) {
      await sink.insert("products", names, Array.from({ length: Math.min(FILL_BATCH, ROWS - from + 1) }, (_, k) => row(from + k)));
    }
    await sink.close();
    log(`${engine}: ${ROWS.toLocaleString("en-US")} rows filled in ${((performance.now() - fillStart) / 1000).toFixed(1)} s`);

    const file = path.join(target.config.dataDir, "bench.tar.gz");
    log(`${engine}: backup starts, load average ${load()}`);
    const backupStart = performance.now();
    const summary = await writeBackup(app, (await loadDatabase(app, db.instance))!, file);
    const backupSeconds = (performance.now() - backupStart) / 1000;
    const jsonBytes = await jsonLinesBytes(file);
    log(`${engine}: restore starts, load average ${load()}`);
    const restoreStart = performance.now();
    const restored = await restoreArchive(ctx, { name: "restored bench", archive: fs.createReadStream(file, { highWaterMark: 1 << 16 }) });
    const restoreSeconds = (performance.now() - restoreStart) / 1000;
    fs.rmSync(file, { force: true });
    await deleteDatabase(await databaseCtx(ctx, restored.instance), { instance: restored.instance });
    const mb = jsonBytes / 2 ** 20;
    log(`${engine}: backup  ${summary.rows.toLocaleString("en-US")} rows in ${backupSeconds.toFixed(1)} s: ${Math.round(summary.rows / backupSeconds).toLocaleString("en-US")} rows/s, ${(mb / backupSeconds).toFixed(1)} MB/s of JSON lines (${mb.toFixed(0)} MB → ${(summary.size / 2 ** 20).toFixed(1)} MB gzip'd)`);
    log(`${engine}: restore ${summary.rows.toLocaleString("en-US")} rows in ${restoreSeconds.toFixed(1)} s: ${Math.round(summary.rows / restoreSeconds).toLocaleString("en-US")} rows/s, ${(mb / restoreSeconds).toFixed(1)} MB/s`);
    return { instance: db.instance, result: { engine, rows: summary.rows, backupSeconds, restoreSeconds, jsonMb: mb, archiveMb: summary.size / 2 ** 20 } };
  } finally {
    await app.close();
  }
};

type Beside = { id: string; alone: LoadResult; beside: LoadResult; backupSeconds: number; coveredRun: boolean; loadAlone: string; loadBeside: string };

/** W1 and W4 on the bench database, each alone and then beside a backup (over HTTP, run by the server) of the large table's database. */
const besideBackup = async (target: Target, bigInstance: string): Promise<Beside[]> => {
  const child = await startChild("tabula", target);
  const headers = { "x-api-key": target.apiKey, "content-type": "application/json" };
  const api = (method: string, url: string) => fetch(`${child.url}/api/v1/databases/${bigInstance}${url}`, { method, headers }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> }));
  const base = `/v1/${target.instance}`;
  const opts = { seconds: SECONDS, connections: CONNECTIONS };
  const out: Beside[] = [];
  try {
    await runLoad(child, WORKLOADS.find((w) => w.id === "W1")!, base, target.apiKey, { seconds: 3, connections: CONNECTIONS });
    await child.waitIdle();
    for (const id of ["W1", "W4"]) {
      const w = WORKLOADS.find((x) => x.id === id)!;
      const loadAlone = load();
      const alone = await runLoad(child, w, base, target.apiKey, opts);
      await child.waitIdle();
      const started = await api("POST", "/backups");
      if (started.status !== 202) throw new Error(`starting the backup failed: ${started.status} ${JSON.stringify(started.body)}`);
      const loadBeside = load();
      const beside = await runLoad(child, w, base, target.apiKey, opts);
      const ranOut = await api("GET", `/backups/${started.body.id}`);
      let view = ranOut.body;
      while (view.status === "running") {
        await new Promise((r) => setTimeout(r, 200));
        view = (await api("GET", `/backups/${started.body.id}`)).body;
      }
      if (view.status !== "done") throw new Error(`the backup beside ${id} ended ${view.status}: ${view.error}`);
      await child.waitIdle();
      const backupSeconds = (Date.parse(view.finished_at as string) - Date.parse(view.created_at as string)) / 1000;
      out.push({ id, alone, beside, backupSeconds, coveredRun: ranOut.body.status === "running", loadAlone, loadBeside });
      const fmt = (r: LoadResult) => `${r.reqPerSec.toFixed(0)} req/s p50 ${r.p50Ms} ms p99 ${r.p99Ms} ms${r.non2xx || r.errors ? ` (${r.non2xx} non-2xx, ${r.errors} errors)` : ""}`;
      log(`${target.engine}: ${id} alone ${fmt(alone)} (load ${loadAlone}) | beside a backup ${fmt(beside)} (load ${loadBeside}); the backup took ${backupSeconds.toFixed(1)} s${out.at(-1)!.coveredRun ? ", still running when the run ended" : ", ended before the run did"}`);
    }
  } finally {
    await child.stop();
  }
  return out;
};

const benchEngine = async (engine: EngineKind) => {
  const target = await prepareTarget(engine, (line) => log(`${engine}: ${line}`));
  try {
    const { instance, result } = await throughput(target);
    const beside = await besideBackup(target, instance);
    return { ...result, beside };
  } finally {
    await target.cleanup();
  }
};

/** The uncompressed size of the archive's table parts, from its manifest. */
const jsonLinesBytes = async (file: string) => {
  const { readTar } = await import("../lib/backup/tar");
  const { createGunzip } = await import("node:zlib");
  for await (const entry of readTar(fs.createReadStream(file).pipe(createGunzip()))) {
    const chunks: Buffer[] = [];
    for await (const c of entry.body) chunks.push(c);
    const manifest = JSON.parse(Buffer.concat(chunks).toString()) as { parts: { path: string; bytes: number }[] };
    return manifest.parts.filter((p) => p.path.startsWith("tables/")).reduce((n, p) => n + p.bytes, 0);
  }
  return 0;
};

export const runBackupBench = async () => {
  log(`engines: ${engines.join(", ")}; ${ROWS.toLocaleString("en-US")} rows (--rows); W1/W4 ${SECONDS} s at ${CONNECTIONS} connections; ${os.cpus().length} CPUs, load average ${load()}`);
  const results = [];
  for (const engine of engines) results.push(await benchEngine(engine));
  return results;
};

if (import.meta.url === `file://${process.argv[1]}`) {
  runBackupBench().catch((err) => {
    console.error("[bench:backup] failed:", err);
    process.exit(1);
  });
}
