// The ceiling: the benchmark requests served by a bare node:http handler on the same driver, with the fastest
// correct SQL that engine has for the same answer (W3 on SQLite: a plain `LIKE … ESCAPE`, as the fastest peer
// runs it), minus auth, validation, query parsing and the metadata layer. The ratio to it is what Tabula's
// framework and its SQL cost together.
import fs from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { pipeline } from "node:stream/promises";
import busboy from "busboy";
import Database from "better-sqlite3";
import { createPool, type Pool } from "mysql2/promise";
import type { EngineKind } from "../lib/config";

type Row = Record<string, unknown>;

/** Runs one statement: rows for a read, insertId for a write. */
type Run = (text: string, params: unknown[]) => Promise<{ rows: Row[]; insertId?: number }>;

type Dialect = {
  /** A table of the bench database, quoted (products, indexed_products, categories). */
  table: (name: string) => string;
  ilike: (col: string) => string;
  ilikeValue: (text: string) => string;
  run: Run;
  close: () => Promise<void>;
};

const COLUMNS = `"id", "name", "price", "category", "stock", "created_at", "updated_at"`;

const openSqlite = (dataDir: string, physical: string): Dialect => {
  // Same file and pragmas as lib/db/engine.ts; statements are prepared once and reused.
  const db = new Database(path.join(dataDir, "databases", physical));
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.pragma("foreign_keys = ON");
  db.pragma("busy_timeout = 5000");
  const statements = new Map<string, Database.Statement>();
  const prepare = (text: string) => {
    let stmt = statements.get(text);
    if (!stmt) statements.set(text, (stmt = db.prepare(text)));
    return stmt;
  };
  return {
    table: (name) => `"${name}"`,
    // SQLite's LIKE folds ASCII case itself (the bench's pattern is ASCII), with no function call per row.
    ilike: (col) => `${col} LIKE ? ESCAPE '!'`,
    ilikeValue: (text) => `%${text.replace(/[!%_]/g, (c) => `!${c}`)}%`,
    run: async (text, params) => {
      const stmt = prepare(text);
      if (stmt.reader) return { rows: stmt.all(params) as Row[] };
      return { rows: [], insertId: Number(stmt.run(params).lastInsertRowid) };
    },
    close: async () => {
      db.close();
    },
  };
};

const openMysql = (url: string, physical: string): Dialect => {
  // Pool options as lib/db/engine.ts; `query` (text protocol) because that is what Kysely's MysqlDialect sends.
  const u = new URL(url);
  const pool: Pool = createPool({
    host: u.hostname,
    port: Number(u.port || 3306),
    user: decodeURIComponent(u.username || "root"),
    password: decodeURIComponent(u.password || ""),
    connectionLimit: Number(u.searchParams.get("connectionLimit") ?? 20),
    charset: "utf8mb4",
    timezone: "Z",
    dateStrings: true,
    supportBigNumbers: true,
    bigNumberStrings: false,
  });
  return {
    table: (name) => `\`${physical}\`.\`${name}\``,
    ilike: (col) => `LOWER(${col}) LIKE LOWER(?) ESCAPE '!'`,
    ilikeValue: (text) => `%${text.replace(/[!%_]/g, (c) => `!${c}`)}%`,
    run: async (text, params) => {
      const [result] = await pool.query(text.replace(/"/g, "`"), params);
      return Array.isArray(result) ? { rows: result as Row[] } : { rows: [], insertId: Number((result as { insertId: number }).insertId) };
    },
    close: () => pool.end(),
  };
};

const instanceOf = (req: IncomingMessage) => (req.url ?? "").split("/")[2];

const isoDatetime = (s: unknown) => {
  const t = String(s);
  return `${t.slice(0, 10)}T${t.slice(11, 19)}.${(t.slice(20, 23) || "000").padEnd(3, "0")}Z`;
};

const toRecord = (r: Row) => ({
  id: Number(r.id),
  name: r.name,
  price: Number(r.price),
  category: r.category,
  stock: Number(r.stock),
  created_at: isoDatetime(r.created_at),
  updated_at: isoDatetime(r.updated_at),
});

const now = () => new Date().toISOString().replace("T", " ").slice(0, 23);

const send = (res: ServerResponse, status: number, value: unknown) => {
  const body = JSON.stringify(value);
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(body) });
  res.end(body);
};

const readJson = async (req: IncomingMessage): Promise<Row> => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString("utf8")) as Row;
};

/** Only what W2/W2i/W3/W8 send: category, price_lt, name_ilike, id_gt, _sort=-price|id, _offset; pages of 50. */
const listSql = (d: Dialect, table: string, q: URLSearchParams) => {
  const where: string[] = [];
  const params: unknown[] = [];
  if (q.has("category")) where.push(`"category" = ?`), params.push(q.get("category"));
  if (q.has("price_lt")) where.push(`"price" < ?`), params.push(Number(q.get("price_lt")));
  if (q.has("name_ilike")) where.push(d.ilike(`"name"`)), params.push(d.ilikeValue(q.get("name_ilike")!));
  if (q.has("id_gt")) where.push(`"id" > ?`), params.push(Number(q.get("id_gt")));
  // W8a: the default order's cursor is ["", last id]; a hand-written keyset page is `id > last id`.
  if (q.has("_after")) where.push(`"id" > ?`), params.push((JSON.parse(Buffer.from(q.get("_after")!, "base64url").toString()) as number[])[1]);
  const order = q.get("_sort") === "-price" ? `"price" DESC, "id" ASC` : `"id" ASC`;
  const text = `SELECT ${COLUMNS} FROM ${d.table(table)}${where.length ? ` WHERE ${where.join(" AND ")}` : ""} ORDER BY ${order} LIMIT ? OFFSET ?`;
  return { text, params: [...params, 50, Number(q.get("_offset") ?? 0)] };
};

/** W6: the join's page, the same SQL Tabula plans for it (base ordered by id; categories keyed on a unique code). */
const joinSql = (d: Dialect, q: URLSearchParams) => ({
  text: `SELECT "t0"."id" AS "id", "t0"."name" AS "name", "t0"."price" AS "price", "t0"."category" AS "category", "t1"."label" AS "category_label" FROM ${d.table("products")} AS "t0" INNER JOIN ${d.table("categories")} AS "t1" ON "t0"."category" = "t1"."code" ORDER BY "t0"."id" ASC LIMIT ? OFFSET ?`,
  params: [Number(q.get("_limit") ?? 50), Number(q.get("_offset") ?? 0)],
});

const toJoinRecord = (r: Row) => ({ id: Number(r.id), name: r.name, price: Number(r.price), category: r.category, category_label: r.category_label });

/** W9: count, sum and average of price per category, shaped as Tabula answers (sum at the column's scale). */
const aggregateSql = (d: Dialect) =>
  `SELECT "category", COUNT(*) AS "n", SUM("price") AS "total", COUNT("price") AS "priced" FROM ${d.table("products")} GROUP BY "category" ORDER BY "category"`;

const toAggregate = (r: Row) => {
  const total = r.total === null ? null : Number(Number(r.total).toFixed(2));
  return { category: r.category, count: Number(r.n), sum_price: total, avg_price: Number(r.priced) === 0 || total === null ? null : total / Number(r.priced) };
};

/** W10: a page of reviews, then one IN query per referenced table, joined up in memory. */
const reviewsPage = async (d: Dialect, q: URLSearchParams) => {
  const { rows } = await d.run(
    `SELECT "id", "product_id", "category_id", "stars", "created_at", "updated_at" FROM ${d.table("reviews")} ORDER BY "id" LIMIT ? OFFSET ?`,
    [50, Number(q.get("_offset") ?? 0)],
  );
  const lookup = async (table: string, columns: string, ids: unknown[], shape: (r: Row) => Row) => {
    const unique = [...new Set(ids.map(Number))];
    if (unique.length === 0) return new Map<number, Row>();
    const found = await d.run(`SELECT ${columns} FROM ${d.table(table)} WHERE "id" IN (${unique.map(() => "?").join(", ")}) ORDER BY "id"`, unique);
    return new Map(found.rows.map((r) => [Number(r.id), shape(r)]));
  };
  const products = await lookup("products", COLUMNS, rows.map((r) => r.product_id), toRecord);
  const categories = await lookup("categories", `"id", "code", "label", "created_at", "updated_at"`, rows.map((r) => r.category_id), (r) => ({
    id: Number(r.id),
    code: r.code,
    label: r.label,
    created_at: isoDatetime(r.created_at),
    updated_at: isoDatetime(r.updated_at),
  }));
  return rows.map((r) => ({
    id: Number(r.id),
    product_id: Number(r.product_id),
    category_id: Number(r.category_id),
    stars: Number(r.stars),
    created_at: isoDatetime(r.created_at),
    updated_at: isoDatetime(r.updated_at),
    expand: { product_id: products.get(Number(r.product_id)) ?? null, category_id: categories.get(Number(r.category_id)) ?? null },
  }));
};

/** W11: the row's file value (JSON text, or parsed by the driver). */
const fileOf = (raw: unknown) => (typeof raw === "string" ? JSON.parse(raw) : raw) as { name: string; size: number; type: string } | null;

/** W12's file, streamed to a temporary file beside its place, synced and renamed in (as the local store does). */
const storeUpload = async (req: IncomingMessage, folder: string) => {
  const fields: Record<string, string> = {};
  let stored: { name: string; size: number; type: string } | undefined;
  const parser = busboy({ headers: req.headers });
  const writes: Promise<void>[] = [];
  parser.on("field", (name, value) => void (fields[name] = value));
  parser.on("file", (_field, stream) => {
    const name = `upload_${randomBytes(4).toString("hex")}.bin`;
    const temp = path.join(folder, `.~put-${name}`);
    writes.push(
      (async () => {
        let size = 0;
        stream.on("data", (chunk: Buffer) => void (size += chunk.length));
        const out = fs.createWriteStream(temp);
        await pipeline(stream, out);
        const fd = await fs.promises.open(temp, "r+");
        await fd.sync();
        await fd.close();
        await fs.promises.rename(temp, path.join(folder, name));
        stored = { name, size, type: "application/octet-stream" };
      })(),
    );
  });
  try {
    await pipeline(req, parser);
  } finally {
    await Promise.allSettled(writes);
  }
  await Promise.all(writes);
  return { fields, file: stored! };
};

export type CeilingOptions = { engine: EngineKind; dataDir: string; databaseUrl?: string; physical: string; filesPrefix: string };

export const createCeilingHandler = (options: CeilingOptions) => {
  const d = options.engine === "sqlite" ? openSqlite(options.dataDir, options.physical) : openMysql(options.databaseUrl!, options.physical);
  const byId = `SELECT ${COLUMNS} FROM ${d.table("products")} WHERE "id" = ?`;
  const insert = `INSERT INTO ${d.table("products")} ("name", "price", "category", "stock", "created_at", "updated_at") VALUES (?, ?, ?, ?, ?, ?)`;
  const update = `UPDATE ${d.table("products")} SET "stock" = ?, "updated_at" = ? WHERE "id" = ?`;
  const updateBlob = `UPDATE ${d.table("blobs")} SET "data" = ?, "updated_at" = ? WHERE "id" = ?`;
  const blobById = `SELECT "id", "data", "created_at", "updated_at" FROM ${d.table("blobs")} WHERE "id" = ?`;
  const docById = `SELECT "id", "title", "doc", "created_at", "updated_at" FROM ${d.table("documents")} WHERE "id" = ?`;
  const insertDoc = `INSERT INTO ${d.table("documents")} ("title", "doc", "created_at", "updated_at") VALUES (?, ?, ?, ?)`;
  const files = path.join(options.dataDir, "files", options.filesPrefix);

  const one = async (res: ServerResponse, id: number, status = 200) => {
    const { rows } = await d.run(byId, [id]);
    if (rows.length === 0) return send(res, 404, { error: "not_found" });
    send(res, status, toRecord(rows[0]));
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? "/";
    const q = url.indexOf("?");
    // /v1/{instance}/{products|indexed_products}[/{id}]
    const [, , , name, idText] = (q === -1 ? url : url.slice(0, q)).split("/");
    const id = idText ? Number(idText) : undefined;
    if (req.method === "GET" && name === "documents" && id) {
      const fileName = url.split("/")[6];
      const { rows } = await d.run(docById, [id]);
      const file = rows.length ? fileOf(rows[0].doc) : null;
      if (!file || file.name !== fileName) return send(res, 404, { error: "not_found" });
      res.writeHead(200, { "content-type": file.type, "content-length": file.size });
      // A client that leaves at the end of a run cuts the stream; there is nobody left to answer.
      return pipeline(fs.createReadStream(path.join(files, file.name)), res).catch(() => res.destroy());
    }
    if (req.method === "POST" && name === "documents") {
      const { fields, file } = await storeUpload(req, files);
      const at = now();
      const { insertId } = await d.run(insertDoc, [fields.title, JSON.stringify(file), at, at]);
      const r = (await d.run(docById, [insertId])).rows[0];
      const url = `/v1/${instanceOf(req)}/documents/${insertId}/doc/${file.name}`;
      return send(res, 201, { id: Number(r.id), title: r.title, doc: { ...fileOf(r.doc), url }, created_at: isoDatetime(r.created_at), updated_at: isoDatetime(r.updated_at) });
    }
    if (req.method === "GET" && name === "product_categories") {
      const { text, params } = joinSql(d, new URLSearchParams(q === -1 ? "" : url.slice(q + 1)));
      const { rows } = await d.run(text, params);
      return send(res, 200, rows.map(toJoinRecord));
    }
    if (req.method === "GET" && idText === "_aggregate") return send(res, 200, (await d.run(aggregateSql(d), [])).rows.map(toAggregate));
    if (req.method === "GET" && name === "reviews") return send(res, 200, await reviewsPage(d, new URLSearchParams(q === -1 ? "" : url.slice(q + 1))));
    if (req.method === "GET" && id) return one(res, id);
    if (req.method === "GET") {
      const { text, params } = listSql(d, name, new URLSearchParams(q === -1 ? "" : url.slice(q + 1)));
      const { rows } = await d.run(text, params);
      return send(res, 200, rows.map(toRecord));
    }
    // A single-row autocommit INSERT/UPDATE is atomic on its own, so the ceiling opens no transaction.
    if (req.method === "POST") {
      const b = await readJson(req);
      const at = now();
      const { insertId } = await d.run(insert, [b.name, b.price, b.category, b.stock, at, at]);
      return one(res, insertId!, 201);
    }
    if (req.method === "PATCH" && name === "blobs" && id) {
      const b = await readJson(req);
      await d.run(updateBlob, [JSON.stringify(b.data), now(), id]);
      const { rows } = await d.run(blobById, [id]);
      const r = rows[0];
      return send(res, 200, { id: Number(r.id), data: typeof r.data === "string" ? JSON.parse(r.data) : r.data, created_at: isoDatetime(r.created_at), updated_at: isoDatetime(r.updated_at) });
    }
    if (req.method === "PATCH" && id) {
      const b = await readJson(req);
      await d.run(update, [b.stock, now(), id]);
      return one(res, id);
    }
    send(res, 405, { error: "method_not_allowed" });
  };

  return {
    handle: (req: IncomingMessage, res: ServerResponse) =>
      handle(req, res).catch((err: unknown) => send(res, 500, { error: "internal", message: String(err) })),
    close: d.close,
  };
};
