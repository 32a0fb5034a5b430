// Shared parts of the backup suites: a database with every column type, policies, a hook, a join and auth;
// taking, downloading and restoring an archive over real HTTP; and every row of a database read through one
// snapshot with the archive's codec, so two databases (either engine) can be compared value by value.
import fs from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import { expect } from "vitest";
import { settleBackups } from "../../lib/backup/backup-jobs";
import { openSnapshot } from "../../lib/backup/open-snapshot";
import { encodeValue } from "../../lib/backup/row-codec";
import { loadSchema } from "../../lib/meta/load-schema";
import { recordColumns } from "../../lib/schema/types";
import { createDatabase } from "../contract/contract-helpers";
import type { Harness } from "../helpers/harness";

export const KIND_TABLES = [
  { name: "users", columns: [{ name: "email", type: "varchar", unique: true, nullable: false }, { name: "password", type: "password", nullable: false }] },
  { name: "authors", columns: [{ name: "name", type: "varchar", length: 80, nullable: false }] },
  {
    name: "kinds",
    columns: [
      { name: "title", type: "varchar", nullable: false },
      { name: "body", type: "text" },
      { name: "qty", type: "int" },
      { name: "big", type: "bigint" },
      { name: "price", type: "decimal", precision: 12, scale: 2 },
      { name: "ratio", type: "float" },
      { name: "live", type: "boolean" },
      { name: "day", type: "date" },
      { name: "at", type: "datetime" },
      { name: "doc", type: "json" },
      { name: "status", type: "dropdown", options: ["draft", "live", "gone"] },
      { name: "author_id", type: "reference", references: "authors" },
      { name: "owner_id", type: "bigint", default: "auth.id" },
    ],
    indexes: [{ columns: ["status", "qty"] }],
  },
  { name: "items", columns: [{ name: "n", type: "int", nullable: false }, { name: "label", type: "varchar" }, { name: "at", type: "datetime" }] },
];

const ok = async (h: Harness, method: string, url: string, body?: unknown, status = 200) => {
  const reply = await h.request(method, url, { body });
  expect(reply.status, `${method} ${url}: ${reply.text}`).toBe(status);
  return reply.body;
};

/** A bigint past 2^53 (no JSON number holds it; the data API refuses it, so it is written in SQL). */
export const BIG_BEYOND_DOUBLE = "9007199254740993";

/** A database holding one row of every kind (and nulls), a user with a password, policies, a hook, a join and auth. */
export const makeKindsDatabase = async (h: Harness, name = "kinds") => {
  const db = await createDatabase(h, name, KIND_TABLES as never);
  await ok(h, "PUT", `/api/v1/databases/${db}/auth`, { enabled: true, users_table: "users", login_column: "email", password_column: "password", signup: true });
  await ok(h, "PUT", `/api/v1/databases/${db}/tables/kinds/policies`, { select: "owner_id = auth.id", insert: "owner_id = auth.id", update: null, delete: null });
  await ok(h, "PUT", `/api/v1/databases/${db}/tables/kinds/hooks`, { insert: [{ assert: "new.title != ''", message: "title must not be empty" }] });
  await ok(h, "POST", `/api/v1/databases/${db}/joins`, { name: "kinds_by_author", base: "kinds", joins: [{ table: "authors", on: [["kinds.author_id", "authors.id"]] }], columns: [{ column: "kinds.title", as: "title" }, { column: "authors.name", as: "author" }] }, 201);
  await ok(h, "POST", `/v1/${db}/users`, { email: "ann@example.com", password: "correct horse battery" }, 201);
  const [author] = await ok(h, "POST", `/v1/${db}/authors`, [{ name: "Ünïcode “quotes” 🎉" }, { name: "Bob" }], 201);
  await ok(h, "POST", `/v1/${db}/kinds`, [
    { title: "every", body: "line1\nline2 \"q\" \\ back", qty: -2147483648, big: 9007199254740991, price: 1234567890.12, ratio: 0.1, live: true, day: "2024-02-29", at: "2024-05-01T12:34:56.789Z", doc: { b: [1, { c: null }], a: "x" }, status: "live", author_id: author.id, owner_id: 7 },
    { title: "nulls" },
    { title: "small", price: -0.01, ratio: -1e-300, live: false, doc: "just a string", status: "draft", qty: 0 },
  ], 201);
  const { physical } = (await loadSchema(h.app, db))!;
  const udb = h.app.engine.userDb(physical);
  await sql`UPDATE ${udb.table("kinds")} SET big = ${sql.raw(BIG_BEYOND_DOUBLE)} WHERE title = 'small'`.execute(udb.db);
  return db;
};

/** Every row of every table, encoded as the archive encodes it, in id order. */
export const dumpRows = async (h: Harness, instance: string) => {
  const schema = (await loadSchema(h.app, instance))!;
  const snapshot = await openSnapshot(h.app, schema.physical);
  const out: Record<string, unknown[]> = {};
  try {
    for (const table of [...schema.tables.values()].sort((a, b) => a.name.localeCompare(b.name))) {
      const columns = recordColumns(table);
      out[table.name] = [];
      for await (const batch of snapshot.batches(table.name, columns.map((c) => c.name))) {
        for (const row of batch) out[table.name].push(Object.fromEntries(columns.map((c) => [c.name, encodeValue(c, row[c.name])])));
      }
    }
  } finally {
    await snapshot.close();
  }
  return { rows: out, eventId: snapshot.eventId };
};

/** POSTs a backup and waits for it to end; answers its view. */
export const takeBackup = async (h: Harness, db: string) => {
  const started = await ok(h, "POST", `/api/v1/databases/${db}/backups`, undefined, 202);
  expect(started.status).toBe("running");
  await settleBackups(h.app);
  return ok(h, "GET", `/api/v1/databases/${db}/backups/${started.id}`);
};

export const download = async (h: Harness, db: string, id: number): Promise<Buffer> => {
  const reply = await fetch(`${h.baseUrl}/api/v1/databases/${db}/backups/${id}/download`, { headers: { "x-api-key": h.accountKey } });
  expect(reply.status).toBe(200);
  expect(reply.headers.get("content-type")).toBe("application/gzip");
  return Buffer.from(await reply.arrayBuffer());
};

export const restore = async (h: Harness, name: string, archive: Buffer | Uint8Array) => {
  const reply = await fetch(`${h.baseUrl}/api/v1/databases/restore?name=${encodeURIComponent(name)}`, {
    method: "POST",
    headers: { "x-api-key": h.accountKey, "content-type": "application/gzip" },
    body: new Uint8Array(archive),
  });
  const text = await reply.text();
  return { status: reply.status, body: text ? JSON.parse(text) : undefined, text };
};

/** What exists of a harness's user databases: the list the API shows and the physical ones on disk or server. */
export const userDatabases = async (h: Harness) => {
  const listed = ((await ok(h, "GET", "/api/v1/databases")) as { name: string }[]).map((d) => d.name).sort();
  const meta = await h.app.engine.meta.selectFrom("databases").select("physical").execute();
  let physical: string[];
  if (h.engine === "sqlite") physical = fs.readdirSync(path.join(h.app.config.dataDir, "databases")).filter((f) => f.endsWith(".sqlite")).sort();
  else {
    const prefix = new URL(h.app.config.databaseUrl!).pathname.slice(1);
    const [rows] = (await (await import("mysql2/promise")).createConnection(h.app.config.databaseUrl!).then(async (c) => {
      const r = await c.query("SELECT schema_name AS s FROM information_schema.schemata WHERE schema_name LIKE ?", [`${prefix}\\_\\_%`]);
      await c.end();
      return r;
    })) as unknown as [{ s: string }[]];
    physical = rows.map((r) => r.s).sort();
  }
  const claims = await h.app.engine.meta.selectFrom("restore_claims").selectAll().execute();
  return { listed, meta: meta.length, physical, claims: claims.length };
};
