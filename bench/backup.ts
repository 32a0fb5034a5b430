// `npm run bench:backup` (also `BENCH_BACKUP=1 npm run bench`): backup and restore throughput of one large
// table, per engine (SQLite; MariaDB too with TEST_MYSQL_URL). BENCH_BACKUP_ROWS sets the table's size (default
// 1,000,000). Rows/s and MB/s are of the uncompressed JSON lines; the archive's gzip'd size is shown beside.
import fs from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import type { EngineKind } from "../lib/config";
import { createApp } from "../lib/app";
import { restoreArchive } from "../lib/backup/restore-archive";
import { openRowSink } from "../lib/backup/row-sink";
import { writeBackup } from "../lib/backup/write-backup";
import { loadDatabase } from "../lib/meta/load-schema";
import type { Ctx } from "../lib/meta/context";
import { createAccount } from "../lib/services/accounts/create-account";
import { createDatabase } from "../lib/services/databases/create-database";
import { engineConfig } from "./setup";

const ROWS = Number(process.env.BENCH_BACKUP_ROWS || 1_000_000);
const engines: EngineKind[] = (process.env.TEST_MYSQL_URL ? (["sqlite", "mysql"] as const) : (["sqlite"] as const)).filter((e) => !process.env.BENCH_ENGINE || e === process.env.BENCH_ENGINE);
const log = (line: string) => console.log(`[bench:backup] ${line}`);
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

const benchEngine = async (engine: EngineKind) => {
  const { config, dropSchemas } = engineConfig(engine);
  const app = await createApp(config);
  try {
    const { account } = await createAccount(app, { email: "bench@example.com", password: "bench-password" });
    const ctx: Ctx = { app, actor: { accountId: account.id, isOperator: true, keyDatabaseId: null } };
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

    const file = path.join(config.dataDir, "bench.tar.gz");
    const backupStart = performance.now();
    const summary = await writeBackup(app, (await loadDatabase(app, db.instance))!, file);
    const backupSeconds = (performance.now() - backupStart) / 1000;
    const jsonBytes = await jsonLinesBytes(file);
    const restoreStart = performance.now();
    const restored = await restoreArchive(ctx, { name: "restored bench", archive: fs.createReadStream(file, { highWaterMark: 1 << 16 }) });
    const restoreSeconds = (performance.now() - restoreStart) / 1000;
    const mb = jsonBytes / 2 ** 20;
    log(`${engine}: backup  ${summary.rows.toLocaleString("en-US")} rows in ${backupSeconds.toFixed(1)} s: ${Math.round(summary.rows / backupSeconds).toLocaleString("en-US")} rows/s, ${(mb / backupSeconds).toFixed(1)} MB/s of JSON lines (${mb.toFixed(0)} MB → ${(summary.size / 2 ** 20).toFixed(1)} MB gzip'd)`);
    log(`${engine}: restore ${summary.rows.toLocaleString("en-US")} rows in ${restoreSeconds.toFixed(1)} s: ${Math.round(summary.rows / restoreSeconds).toLocaleString("en-US")} rows/s, ${(mb / restoreSeconds).toFixed(1)} MB/s (into ${restored.instance})`);
    return { engine, rows: summary.rows, backupSeconds, restoreSeconds, jsonMb: mb, archiveMb: summary.size / 2 ** 20 };
  } finally {
    await app.close();
    await dropSchemas();
    fs.rmSync(config.dataDir, { recursive: true, force: true });
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
  log(`engines: ${engines.join(", ")}; ${ROWS.toLocaleString("en-US")} rows (BENCH_BACKUP_ROWS)`);
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
