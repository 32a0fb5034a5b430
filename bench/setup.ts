// Builds the benchmark's database through the library (not HTTP): the operator, then the bench account on a
// `bench` plan whose request rate (BENCH_RATE_LIMIT, default 1e9/s) runs the rate limiter on every request
// without ever refusing one (`BENCH_RATE_LIMIT=off`: an unlimited plan, no limiter); a `bench` database with one
// `products` table, and 100,000 rows loaded by direct multi-row INSERTs; a 20-row `categories` table and the
// `product_categories` join of the two (W6); `indexed_products`, a copy of products with an index on
// (category, price) made through the schema API (W2i); `searchable_products`, the same rows with `name`
// searchable (W3s, W3rs); `blobs`, a few rows with a json column (WJ's 900 KB writes); `documents`, rows with a
// stored 100 KB file each (W11's downloads) that W12's uploads add to. Also owns the teardown.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import { openFileStore } from "../lib/files/store";
import { recountStorage } from "../lib/api/files/storage-usage";
import { sql } from "kysely";
import { createPool } from "mysql2/promise";
import { createApp } from "../lib/app";
import type { Config, EngineKind } from "../lib/config";
import { createAccount } from "../lib/services/accounts/create-account";
import { createDatabase } from "../lib/services/databases/create-database";
import { databaseCtx } from "../lib/services/databases/database-ctx";
import { createJoin } from "../lib/services/joins/create-join";
import { createTable } from "../lib/services/tables/create-table";
import { loadSchema } from "../lib/meta/load-schema";
import { DEFAULT_PLANS } from "../lib/plans/default-plans";
import { putPlan } from "../lib/services/plans/put-plan";
import { updateHooks } from "../lib/services/hooks/hook-service";
import { DatabaseCreate, TableInput } from "../lib/contract/schemas/databases";
import { JoinInput } from "../lib/contract/schemas/joins";

export const ROW_COUNT = 100_000;

/** The bench plan's requests per second: high enough never to refuse, or null (`off`) for no limiter at all. */
const { name: _free, ...FREE_LIMITS } = DEFAULT_PLANS[0];

/** BENCH_HOOKS=1: a three-step insert hook on products (W4 then measures the pre-hook path). */
const BENCH_HOOK = [
  { set: "name", expr: "new.name.lowerAscii()" },
  { set: "stock", expr: "new.stock + 1" },
  { assert: "new.price > 0.0", message: "price must be positive" },
];

export const benchRate = () => (process.env.BENCH_RATE_LIMIT === "off" ? null : Number(process.env.BENCH_RATE_LIMIT || 1_000_000_000));
const BATCH_ROWS = 1000;
const BATCHES_PER_TRANSACTION = 10;

export type Target = {
  engine: EngineKind;
  config: Config;
  /** What the bench server child needs to open the same data. */
  instance: string;
  physical: string;
  apiKey: string;
  /** Where the documents table's files are in the file store (`<database id>/<table id>/`). */
  filesPrefix: string;
  cleanup: () => Promise<void>;
};

const PRODUCTS = {
  name: "products",
  columns: [
    { name: "name", type: "varchar", length: 100, nullable: false },
    { name: "price", type: "decimal", precision: 10, scale: 2, nullable: false },
    { name: "category", type: "varchar", length: 20, nullable: false },
    { name: "stock", type: "int", nullable: false },
  ],
};

/** Category codes c0..c19 (unique, the join key) with a label each. */
const CATEGORIES = {
  name: "categories",
  columns: [
    { name: "code", type: "varchar", length: 20, nullable: false, unique: true },
    { name: "label", type: "varchar", length: 40, nullable: false },
  ],
};

export const JOIN_NAME = "product_categories";

/** W10's table: 5,000 reviews, each referencing a product and a category (two `_expand` columns). */
export const REVIEWS_TABLE = "reviews";
export const REVIEW_COUNT = 5000;
const REVIEWS = {
  name: REVIEWS_TABLE,
  columns: [
    { name: "product_id", type: "reference", references: "products", nullable: false },
    { name: "category_id", type: "reference", references: "categories", nullable: false },
    { name: "stars", type: "int", nullable: false },
  ],
};

/** WJ's table: BLOB_COUNT rows with a json column the big writes replace. */
export const BLOBS_TABLE = "blobs";
export const BLOB_COUNT = 3;
const BLOBS = { name: BLOBS_TABLE, columns: [{ name: "data", type: "json", nullable: true }] };

/** W11's and W12's table: DOC_COUNT rows, each with a stored file of DOC_BYTES under a known stored name. */
export const DOCS_TABLE = "documents";
export const DOC_COUNT = 50;
const DOC_BYTES = 100 * 1024;
const DOCS = { name: DOCS_TABLE, columns: [{ name: "title", type: "varchar", length: 100 }, { name: "doc", type: "file" }] };
/** Row n's stored name (the shape every stored name has: a base, `_`, eight letters or digits, an extension). */
export const docName = (n: number) => `doc_${String(n).padStart(8, "0")}.bin`;

/** W3s's table: the products rows again, `name` searchable (a trigram index on SQLite). */
export const SEARCH_TABLE = "searchable_products";
const SEARCHABLE_PRODUCTS = { ...PRODUCTS, name: SEARCH_TABLE, columns: PRODUCTS.columns.map((c) => (c.name === "name" ? { ...c, searchable: true } : c)) };

/** W2i's table: the products rows again, with the composite index W2's filter and sort can use. */
export const INDEXED_TABLE = "indexed_products";
const INDEXED_PRODUCTS = { ...PRODUCTS, name: INDEXED_TABLE, indexes: [{ columns: ["category", "price"] }] };

const PRODUCT_CATEGORIES = {
  name: JOIN_NAME,
  base: "products",
  joins: [{ table: "categories", on: [["products.category", "categories.code"]] }],
  columns: [
    { column: "products.id", as: "id" },
    { column: "products.name", as: "name" },
    { column: "products.price", as: "price" },
    { column: "products.category", as: "category" },
    { column: "categories.label", as: "category_label" },
  ],
};

/** A seeded PRNG (mulberry32) so every run loads the same rows and the reads compare across runs. */
const seeded = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

const storedDatetime = (ms: number) => new Date(ms).toISOString().replace("T", " ").slice(0, 23);

/** Row n (1-based): `widget n`, so `widget 12` matches 12, 120–129, 1200–1299, 12000–12999 (1,111 rows). */
const makeRow = (n: number, random: () => number) => {
  const at = storedDatetime(Date.UTC(2024, 0, 1) + n * 60_000);
  const cents = 100 + Math.floor(random() * 99_900);
  return [`widget ${n}`, cents / 100, `c${n % 20}`, Math.floor(random() * 1000), at, at];
};

export const engineConfig = (engine: EngineKind): { config: Config; dropSchemas: () => Promise<void> } => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-bench-"));
  const config: Config = { engine, dataDir, bcryptCost: 4 };
  if (engine === "sqlite") return { config, dropSchemas: async () => {} };
  const url = new URL(process.env.TEST_MYSQL_URL!);
  const base = decodeURIComponent(url.pathname.slice(1)) || "tabula_bench";
  const meta = `${base}_${randomBytes(4).toString("hex")}`;
  url.pathname = `/${meta}`;
  config.databaseUrl = url.toString();
  const dropSchemas = async () => {
    const pool = createPool({
      host: url.hostname,
      port: Number(url.port || 3306),
      user: decodeURIComponent(url.username || "root"),
      password: decodeURIComponent(url.password),
    });
    try {
      // The meta schema and every `<meta>__<id>` user schema this run made (`_` escaped in LIKE).
      const [rows] = await pool.query("SELECT schema_name AS s FROM information_schema.schemata WHERE schema_name = ? OR schema_name LIKE ?", [
        meta,
        `${meta.replace(/_/g, "\\_")}\\_\\_%`,
      ]);
      for (const { s } of rows as { s: string }[]) await pool.query(`DROP DATABASE \`${s.replace(/`/g, "``")}\``);
    } finally {
      await pool.end();
    }
  };
  return { config, dropSchemas };
};

/** The documents table, its files stored straight into the file store and its rows inserted naming them. */
const storeDocuments = async (app: Awaited<ReturnType<typeof createApp>>, actor: Parameters<typeof databaseCtx>[0]["actor"], instance: string, udb: ReturnType<typeof app.engine.userDb>) => {
  await createTable(await databaseCtx({ app, actor }, instance), { instance, body: TableInput.parse(DOCS) });
  const schema = (await loadSchema(app, instance))!;
  const prefix = `${schema.id}/${schema.tables.get(DOCS_TABLE)!.id}/`;
  const store = openFileStore(app.config);
  const at = storedDatetime(Date.UTC(2024, 0, 1));
  const rows = [];
  for (let n = 1; n <= DOC_COUNT; n++) {
    const file = { name: docName(n), size: DOC_BYTES, type: "application/octet-stream" };
    await store.put(`${prefix}${file.name}`, Readable.from([randomBytes(DOC_BYTES)]), { contentType: file.type });
    rows.push(sql`(${sql.join([`document ${n}`, JSON.stringify(file), at, at])})`);
  }
  await sql`INSERT INTO ${udb.table(DOCS_TABLE)} (${sql.join(["title", "doc", "created_at", "updated_at"].map((c) => sql.id(c)))}) VALUES ${sql.join(rows)}`.execute(udb.db);
  await recountStorage(app, instance);
  return prefix;
};

export const prepareTarget = async (engine: EngineKind, log: (line: string) => void): Promise<Target> => {
  const { config, dropSchemas } = engineConfig(engine);
  const cleanup = async () => {
    await dropSchemas();
    fs.rmSync(config.dataDir, { recursive: true, force: true });
  };
  try {
    const app = await createApp(config);
    try {
      await createAccount(app, { email: "operator@example.com", password: "bench-password" });
      const { account, key } = await createAccount(app, { email: "bench@example.com", password: "bench-password" });
      const actor = { accountId: account.id, isOperator: false, keyDatabaseId: null };
      // A storage quota that uploads never reach, so each one still reserves its bytes as on any limited plan.
      await putPlan({ app, actor }, { plan: "bench", body: { ...FREE_LIMITS, max_databases: null, requests_per_second: benchRate(), storage_bytes: Number.MAX_SAFE_INTEGER } });
      await app.engine.meta.updateTable("accounts").set({ plan: "bench" }).where("id", "=", account.id).execute();
      const { instance } = await createDatabase({ app, actor }, { body: DatabaseCreate.parse({ name: "bench", tables: [PRODUCTS, CATEGORIES] }) });
      const schema = (await loadSchema(app, instance))!;
      const udb = app.engine.userDb(schema.physical);
      const columns = sql.join(["name", "price", "category", "stock", "created_at", "updated_at"].map((c) => sql.id(c)));
      const random = seeded(42);
      const started = Date.now();
      for (let first = 1; first <= ROW_COUNT; first += BATCH_ROWS * BATCHES_PER_TRANSACTION) {
        await udb.db.transaction().execute(async (trx) => {
          for (let b = 0; b < BATCHES_PER_TRANSACTION; b++) {
            const from = first + b * BATCH_ROWS;
            const to = Math.min(from + BATCH_ROWS - 1, ROW_COUNT);
            if (from > to) break;
            const rows = [];
            for (let n = from; n <= to; n++) rows.push(sql`(${sql.join(makeRow(n, random))})`);
            await sql`INSERT INTO ${udb.table("products")} (${columns}) VALUES ${sql.join(rows)}`.execute(trx);
          }
        });
      }
      const labels = Array.from({ length: 20 }, (_, i) => sql`(${sql.join([`c${i}`, `Category ${i}`, storedDatetime(Date.UTC(2024, 0, 1)), storedDatetime(Date.UTC(2024, 0, 1))])})`);
      await sql`INSERT INTO ${udb.table("categories")} (${sql.join(["code", "label", "created_at", "updated_at"].map((c) => sql.id(c)))}) VALUES ${sql.join(labels)}`.execute(udb.db);
      await createJoin(await databaseCtx({ app, actor }, instance), { instance, body: JoinInput.parse(PRODUCT_CATEGORIES) });
      await createTable(await databaseCtx({ app, actor }, instance), { instance, body: TableInput.parse(INDEXED_PRODUCTS) });
      const copied = sql.join(["id", "name", "price", "category", "stock", "created_at", "updated_at"].map((c) => sql.id(c)));
      await sql`INSERT INTO ${udb.table(INDEXED_TABLE)} (${copied}) SELECT ${copied} FROM ${udb.table("products")}`.execute(udb.db);
      await createTable(await databaseCtx({ app, actor }, instance), { instance, body: TableInput.parse(SEARCHABLE_PRODUCTS) });
      await sql`INSERT INTO ${udb.table(SEARCH_TABLE)} (${copied}) SELECT ${copied} FROM ${udb.table("products")}`.execute(udb.db);
      await createTable(await databaseCtx({ app, actor }, instance), { instance, body: TableInput.parse(REVIEWS) });
      const reviewed = sql.join(["product_id", "category_id", "stars", "created_at", "updated_at"].map((c) => sql.id(c)));
      await sql`INSERT INTO ${udb.table(REVIEWS_TABLE)} (${reviewed}) SELECT ${sql.id("id")}, ${sql.id("id")} % 20 + 1, ${sql.id("id")} % 5 + 1, ${sql.id("created_at")}, ${sql.id("updated_at")} FROM ${udb.table("products")} WHERE ${sql.id("id")} <= ${REVIEW_COUNT}`.execute(udb.db);
      await createTable(await databaseCtx({ app, actor }, instance), { instance, body: TableInput.parse(BLOBS) });
      const blobs = Array.from({ length: BLOB_COUNT }, () => sql`(${sql.join(['{"items":[]}', storedDatetime(Date.UTC(2024, 0, 1)), storedDatetime(Date.UTC(2024, 0, 1))])})`);
      await sql`INSERT INTO ${udb.table(BLOBS_TABLE)} (${sql.join(["data", "created_at", "updated_at"].map((c) => sql.id(c)))}) VALUES ${sql.join(blobs)}`.execute(udb.db);
      const filesPrefix = await storeDocuments(app, actor, instance, udb);
      if (process.env.BENCH_HOOKS === "1") await updateHooks(await databaseCtx({ app, actor }, instance), { instance, table: "products", body: { insert: BENCH_HOOK } });
      log(`loaded ${ROW_COUNT.toLocaleString("en-US")} rows in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      return { engine, config, instance, physical: schema.physical, apiKey: key.key, filesPrefix, cleanup };
    } finally {
      await app.close();
    }
  } catch (err) {
    await cleanup();
    throw err;
  }
};
