// Schema changes through the service layer, on SQLite and (with TEST_MYSQL_URL) MariaDB: every change keeps
// every row (converted losslessly), lossy changes are refused with a 422 that names the rows and change
// nothing, and the physical schema (types, NOT NULL, UNIQUE, FOREIGN KEY, column order) matches the metadata.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import { createPool } from "mysql2/promise";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, createApp } from "../lib/app";
import type { Config, EngineKind } from "../lib/config";
import type { UserDb } from "../lib/db/engine";
import { toErrorResponse } from "../lib/errors";
import { addColumn as addColumnService } from "../lib/services/columns/add-column";
import { addColumns as addColumnsService } from "../lib/services/columns/add-columns";
import { dropColumn as dropColumnService } from "../lib/services/columns/drop-column";
import { updateColumn as updateColumnService } from "../lib/services/columns/update-column";
import type { Ctx } from "../lib/meta/context";
import { createDatabase as createDatabaseService } from "../lib/services/databases/create-database";
import { loadSchema } from "../lib/meta/load-schema";
import { createTable as createTableService } from "../lib/services/tables/create-table";
import { dropTable as dropTableService } from "../lib/services/tables/drop-table";
import { getTable as getTableService } from "../lib/services/tables/get-table";
import { listTables as listTablesService } from "../lib/services/tables/list-tables";
import { updateTable as updateTableService } from "../lib/services/tables/update-table";
import { TYPE_SPECS } from "../lib/schema/column-types";
import type { ColumnDef } from "../lib/schema/types";
import { ColumnInput, ColumnPatch, ColumnsInput } from "../lib/contract/schemas/columns";
import { DatabaseCreate, TableInput, TableUpdate } from "../lib/contract/schemas/databases";
import { parseWith } from "../lib/contract/parse-input";
import { asRoute, asRouteWithBody } from "./helpers/as-route";

const dropColumn = asRoute(dropColumnService);
const dropTable = asRoute(dropTableService);
const getTable = asRoute(getTableService);
const listTables = asRoute(listTablesService);

const addColumn = asRouteWithBody(ColumnInput, addColumnService);
const addColumns = asRouteWithBody(ColumnsInput, addColumnsService);
const updateColumn = asRouteWithBody(ColumnPatch, updateColumnService);
const createDatabase = (ctx: Ctx, { body }: { body: unknown }) => createDatabaseService(ctx, { body: parseWith(DatabaseCreate, body) });
const createTable = asRouteWithBody(TableInput, createTableService);
const updateTable = asRouteWithBody(TableUpdate, updateTableService);

const ENGINES: EngineKind[] = process.env.TEST_MYSQL_URL ? ["sqlite", "mysql"] : ["sqlite"];

const CREATED = "2024-01-02 03:04:05.678";
const UPDATED = "2024-02-03 04:05:06.789";
const HASH = `$2b$04$${"a".repeat(53)}`;

type Json = Record<string, unknown>;
type Db = { instance: string; physical: string; udb: UserDb };
/** One column change: `c` of table `items` starts as `column` holding `values` (one row each), then `patch`. */
type Change = { name: string; column: Json; values: unknown[]; patch: Json; expected?: unknown[] };
type Refusal = Omit<Change, "expected"> & { field: string; message: string | RegExp };

const REF = { type: "reference", references: "authors" };

const CONVERSIONS: Change[] = [
  { name: "rename keeps the values", column: { type: "varchar" }, values: ["a", "b", null], patch: { name: "d" } },
  { name: "int to bigint", column: { type: "int" }, values: [5, -3, null], patch: { type: "bigint" } },
  { name: "bigint to int when every value fits", column: { type: "bigint" }, values: [5, -3], patch: { type: "int" } },
  { name: "int to varchar", column: { type: "int" }, values: [5, -3, null], patch: { type: "varchar" }, expected: ["5", "-3", null] },
  { name: "varchar to int", column: { type: "varchar" }, values: ["12", "-4", null], patch: { type: "int" }, expected: [12, -4, null] },
  { name: "varchar to text", column: { type: "varchar" }, values: ["hello", ""], patch: { type: "text" } },
  { name: "text to varchar when all values fit", column: { type: "text" }, values: ["abc", "hello"], patch: { type: "varchar", length: 5 } },
  { name: "varchar length grows", column: { type: "varchar", length: 5 }, values: ["abcde"], patch: { length: 20 } },
  { name: "varchar length shrinks to the longest value", column: { type: "varchar" }, values: ["abc", "ab"], patch: { length: 3 } },
  {
    name: "varchar to dropdown when every value is an option",
    column: { type: "varchar" },
    values: ["draft", "live", null, "draft"],
    patch: { type: "dropdown", options: ["draft", "live", "archived"] },
  },
  { name: "dropdown to varchar", column: { type: "dropdown", options: ["a", "b"] }, values: ["a", "b"], patch: { type: "varchar", length: 10 } },
  { name: "dropdown option added", column: { type: "dropdown", options: ["draft", "live"] }, values: ["live", "draft"], patch: { options: ["draft", "live", "archived"] } },
  { name: "unused dropdown option removed", column: { type: "dropdown", options: ["draft", "live", "old"] }, values: ["live", "draft"], patch: { options: ["draft", "live"] } },
  {
    name: "dropdown option renamed: rows follow",
    column: { type: "dropdown", options: ["draft", "live"], default: "live" },
    values: ["live", "draft", "live"],
    patch: { options: ["draft", "published"], rename: { live: "published" } },
    expected: ["published", "draft", "published"],
  },
  { name: "date to datetime", column: { type: "date" }, values: ["2024-05-01", null], patch: { type: "datetime" }, expected: ["2024-05-01T00:00:00.000Z", null] },
  { name: "datetime at midnight to date", column: { type: "datetime" }, values: ["2024-05-01T00:00:00.000Z"], patch: { type: "date" }, expected: ["2024-05-01"] },
  { name: "int to decimal", column: { type: "int" }, values: [5, 12], patch: { type: "decimal", precision: 10, scale: 2 } },
  { name: "decimal without fractions to int", column: { type: "decimal" }, values: [5, 12], patch: { type: "int" } },
  { name: "decimal precision and scale grow", column: { type: "decimal" }, values: [12.5, 3.25], patch: { precision: 12, scale: 4 } },
  { name: "decimal precision shrinks to fit", column: { type: "decimal" }, values: [12.5, -3.25], patch: { precision: 4 } },
  { name: "decimal to varchar", column: { type: "decimal" }, values: [12.5, 3], patch: { type: "varchar" }, expected: ["12.5", "3"] },
  { name: "int to float", column: { type: "int" }, values: [7], patch: { type: "float" } },
  { name: "boolean to int", column: { type: "boolean" }, values: [true, false, null], patch: { type: "int" }, expected: [1, 0, null] },
  { name: "int 0/1 to boolean", column: { type: "int" }, values: [1, 0], patch: { type: "boolean" }, expected: [true, false] },
  { name: "boolean to varchar", column: { type: "boolean" }, values: [true, false], patch: { type: "varchar" }, expected: ["true", "false"] },
  { name: "int to json", column: { type: "int" }, values: [5, null], patch: { type: "json" } },
  { name: "varchar to json", column: { type: "varchar" }, values: ["hi", "{\"a\":1}"], patch: { type: "json" } },
  { name: "boolean to json", column: { type: "boolean" }, values: [true], patch: { type: "json" } },
  { name: "datetime to json", column: { type: "datetime" }, values: ["2024-05-01T10:20:30.400Z"], patch: { type: "json" } },
  { name: "json string to text", column: { type: "json" }, values: ["hi", { a: 1 }], patch: { type: "text" }, expected: ["hi", "{\"a\":1}"] },
  { name: "reference to bigint", column: REF, values: [1, 2, null], patch: { type: "bigint" } },
  { name: "bigint to reference when every id exists", column: { type: "bigint" }, values: [1, 3, null], patch: REF },
  { name: "reference target changes when every id exists there", column: REF, values: [1, 2], patch: { references: "editors" } },
  { name: "nullable turned off when no value is null", column: { type: "int" }, values: [1, 2], patch: { nullable: false } },
  { name: "nullable turned on", column: { type: "int", nullable: false }, values: [1, 2], patch: { nullable: true } },
  { name: "unique turned on without duplicates", column: { type: "varchar" }, values: ["a", "b", null, null], patch: { unique: true } },
  { name: "unique turned off", column: { type: "varchar", unique: true }, values: ["a", "b"], patch: { unique: false } },
  { name: "unique reference loses unique", column: { ...REF, unique: true }, values: [1, 2], patch: { unique: false } },
  { name: "default set", column: { type: "int" }, values: [1], patch: { default: 7 } },
  { name: "default removed", column: { type: "int", default: 7 }, values: [1], patch: { default: null } },
  { name: "password to text", column: { type: "password" }, values: [HASH, null], patch: { type: "text" } },
  { name: "password to varchar(60)", column: { type: "password" }, values: [HASH], patch: { type: "varchar", length: 60 } },
  { name: "varchar with only nulls to password", column: { type: "varchar" }, values: [null, null], patch: { type: "password" } },
  { name: "rename and type change at once", column: { type: "int", unique: true }, values: [1, 2], patch: { name: "code", type: "varchar", length: 4 }, expected: ["1", "2"] },
  { name: "unique int to unique bigint", column: { type: "int", unique: true, nullable: false }, values: [1, 2], patch: { type: "bigint" } },
];

const REFUSALS: Refusal[] = [
  {
    name: "varchar length too short for some values",
    column: { type: "varchar", length: 20 },
    values: ["abc", "too long here", "x", "also too long", "abcdef"],
    patch: { length: 5 },
    field: "length",
    message: /^3 rows do not fit varchar\(5\): ids 2, 4, 5 \(id 2: must be at most 5 characters\)$/,
  },
  { name: "text that is no number to int", column: { type: "varchar" }, values: ["12", "abc"], patch: { type: "int" }, field: "type", message: /^1 row does not fit int: ids 2 / },
  { name: "leading zeros would be lost", column: { type: "varchar" }, values: ["012"], patch: { type: "int" }, field: "type", message: /does not fit int: ids 1/ },
  { name: "decimal with fractions to int", column: { type: "decimal" }, values: [1, 12.5], patch: { type: "int" }, field: "type", message: /ids 2 \(id 2: 12\.5 has a fractional part\)/ },
  { name: "decimal scale too small", column: { type: "decimal" }, values: [3.25], patch: { scale: 1 }, field: "scale", message: /does not fit decimal\(10,1\): ids 1/ },
  { name: "decimal precision too small", column: { type: "decimal" }, values: [123.45, 1], patch: { precision: 4 }, field: "precision", message: /does not fit decimal\(4,2\): ids 1/ },
  { name: "datetime with a time to date", column: { type: "datetime" }, values: ["2024-05-01T00:00:00.000Z", "2024-05-01T10:00:00.000Z"], patch: { type: "date" }, field: "type", message: /ids 2/ },
  { name: "int other than 0/1 to boolean", column: { type: "int" }, values: [0, 2], patch: { type: "boolean" }, field: "type", message: /does not fit boolean: ids 2/ },
  { name: "text too long for varchar", column: { type: "text" }, values: ["abcd"], patch: { type: "varchar", length: 3 }, field: "type", message: /^1 row does not fit varchar\(3\): ids 1/ },
  { name: "varchar value that is no option", column: { type: "varchar" }, values: ["a", "zzz"], patch: { type: "dropdown", options: ["a", "b"] }, field: "type", message: /does not fit dropdown\(a, b\): ids 2/ },
  { name: "removing an option rows still hold", column: { type: "dropdown", options: ["a", "b", "c"] }, values: ["a", "c"], patch: { options: ["a", "b"] }, field: "options", message: /^1 row holds "c", which this change removes/ },
  { name: "an option replaced by another is no rename", column: { type: "dropdown", options: ["a", "b"] }, values: ["a", "b"], patch: { options: ["a", "z"] }, field: "options", message: /^1 row holds "b"/ },
  { name: "nullable off while rows are null", column: { type: "int" }, values: [1, null, null], patch: { nullable: false }, field: "nullable", message: /^2 rows have no value in "c": ids 2, 3/ },
  { name: "unique on with duplicates", column: { type: "varchar" }, values: ["a", "b", "a"], patch: { unique: true }, field: "unique", message: /^2 rows share a value with another row in "c": ids 1, 3$/ },
  { name: "bigint to reference with missing ids", column: { type: "bigint" }, values: [1, 99], patch: REF, field: "type", message: /^1 row points at rows missing from "authors": ids 2$/ },
  { name: "reference target lacking ids", column: REF, values: [1, 3], patch: { references: "editors" }, field: "references", message: /missing from "editors": ids 2/ },
  { name: "values to password", column: { type: "varchar" }, values: ["secret"], patch: { type: "password" }, field: "type", message: /cannot become password hashes/ },
  { name: "password to int", column: { type: "password" }, values: [null], patch: { type: "int" }, field: "type", message: /bcrypt hashes/ },
  { name: "password to a short varchar", column: { type: "password" }, values: [HASH], patch: { type: "varchar", length: 20 }, field: "length", message: /varchar\(60\)/ },
  { name: "bigint out of int range", column: { type: "bigint" }, values: [3_000_000_000], patch: { type: "int" }, field: "type", message: /does not fit int: ids 1/ },
  { name: "json object to int", column: { type: "json" }, values: [{ a: 1 }], patch: { type: "int" }, field: "type", message: /does not fit int/ },
  { name: "current default does not fit", column: { type: "int", default: 5 }, values: [], patch: { type: "dropdown", options: ["a"] }, field: "default", message: /current default 5/ },
  {
    name: "only five ids are named",
    column: { type: "varchar" },
    values: ["a", "b", "c", "d", "e", "f", "g"],
    patch: { type: "int" },
    field: "type",
    message: /^7 rows do not fit int: ids 1, 2, 3, 4, 5, … \(id 1:/,
  },
];

const BAD_NAMES = ['bad"name', "bad`name", "x;drop", "two words", "Upper", "_hidden"];

/** Catches the ApiError of a call and returns its status and body as a client would see them. */
const failure = async (promise: Promise<unknown>) => {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, "the call should have failed").toBeDefined();
  return toErrorResponse(err);
};

const expect422 = async (promise: Promise<unknown>, field: string, message?: string | RegExp) => {
  const { status, body } = await failure(promise);
  expect(status, JSON.stringify(body)).toBe(422);
  expect(body.error).toBe("validation_failed");
  expect(body.errors?.[0]).toEqual({ field, code: expect.any(String), message: expect.any(String) });
  if (message) expect(body.errors![0].message).toMatch(message);
  expect(body.message).toBe(body.errors!.length === 1 ? body.errors![0].message : expect.any(String));
};

const testConfig = (engine: EngineKind): Config => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-schema-"));
  return { engine, dataDir, bcryptCost: 4, databaseUrl: engine === "mysql" ? process.env.TEST_MYSQL_URL : undefined };
};

/** Drops the metadata schema and every `<meta>__<id>` user schema this suite created. */
const dropMysqlSchemas = async (url: string) => {
  const u = new URL(url);
  const meta = decodeURIComponent(u.pathname.slice(1));
  const pool = createPool({ host: u.hostname, port: Number(u.port || 3306), user: decodeURIComponent(u.username || "root"), password: decodeURIComponent(u.password) });
  const [rows] = await pool.query("SELECT schema_name AS s FROM information_schema.schemata WHERE schema_name = ? OR schema_name LIKE ?", [meta, `${meta}\\_\\_%`]);
  for (const { s } of rows as { s: string }[]) await pool.query(`DROP DATABASE \`${s.replace(/`/g, "``")}\``);
  await pool.end();
};

describe.each(ENGINES)("schema changes on %s", (engine) => {
  let app: App;
  let ctx: Ctx;
  let config: Config;

  beforeAll(async () => {
    config = testConfig(engine);
    app = await createApp(config);
    const { insertId } = await app.engine.meta
      .insertInto("accounts")
      .values({ email: `schema-${randomBytes(4).toString("hex")}@example.com`, password_hash: "x", is_operator: 1, created_at: new Date().toISOString() })
      .executeTakeFirstOrThrow();
    ctx = { app, actor: { accountId: Number(insertId), isOperator: true, keyDatabaseId: null } };
  });

  afterAll(async () => {
    await app?.close();
    if (engine === "mysql") await dropMysqlSchemas(config.databaseUrl!);
    fs.rmSync(config.dataDir, { recursive: true, force: true });
  });

  const insertRows = async (db: Db, table: string, rows: Json[]) => {
    for (const row of rows) {
      const values = { created_at: CREATED, updated_at: UPDATED, ...row };
      const names = sql.join(Object.keys(values).map((n) => sql.id(n)));
      await sql`INSERT INTO ${db.udb.table(table)} (${names}) VALUES (${sql.join(Object.values(values))})`.execute(db.udb.db);
    }
  };

  /** The stored form of a JSON value, as the data API would write it (password hashes are written as given). */
  const stored = (col: ColumnDef, v: unknown) => {
    if (v === null || col.type === "password") return v;
    const check = TYPE_SPECS[col.type].fromJson(v, col);
    if (!check.ok) throw new Error(`bad fixture ${JSON.stringify(v)} for ${col.type}: ${check.message}`);
    return check.value;
  };

  /** A database with authors (ids 1-3), editors (ids 1-2) and items {c: column, note}, one item per value. */
  const seed = async (column: Json, values: unknown[]): Promise<Db> => {
    const view = await createDatabase(ctx, {
      body: {
        name: "schema changes",
        tables: [
          { name: "authors", columns: [{ name: "name", type: "varchar" }] },
          { name: "editors", columns: [{ name: "name", type: "varchar" }] },
          { name: "items", columns: [{ name: "c", ...column }, { name: "note", type: "varchar" }] },
        ],
      },
    });
    const schema = (await loadSchema(app, view.instance))!;
    const db = { instance: view.instance, physical: schema.physical, udb: app.engine.userDb(schema.physical) };
    await insertRows(db, "authors", ["Ann", "Bob", "Cy"].map((name) => ({ name })));
    await insertRows(db, "editors", ["Ed", "Flo"].map((name) => ({ name })));
    const col = schema.tables.get("items")!.columns[0];
    await insertRows(db, "items", values.map((v, i) => ({ c: stored(col, v), note: `row ${i + 1}` })));
    return db;
  };

  /** Every row of a table as JSON (through the current metadata's `toJson`), timestamps as stored. */
  const readRows = async (db: Db, table: string) => {
    const def = (await loadSchema(app, db.instance))!.tables.get(table)!;
    const { rows } = await sql<Json>`SELECT * FROM ${db.udb.table(table)} ORDER BY ${sql.id("id")}`.execute(db.udb.db);
    return rows.map((row) => {
      const out: Json = { id: Number(row.id), created_at: String(row.created_at), updated_at: String(row.updated_at) };
      for (const col of def.columns) out[col.name] = TYPE_SPECS[col.type].toJson(row[col.name]);
      return out;
    });
  };

  /** Name, type, NOT NULL, UNIQUE and FOREIGN KEY target of every physical column, in order. */
  const physicalColumns = async (db: Db, table: string) => {
    const { udb, physical } = db;
    if (engine === "sqlite") {
      const { rows: cols } = await sql<{ name: string; type: string; notnull: number }>`SELECT * FROM pragma_table_info(${table})`.execute(udb.db);
      const { rows: indexes } = await sql<{ name: string; unique: number; origin: string }>`SELECT * FROM pragma_index_list(${table})`.execute(udb.db);
      const unique = new Set<string>();
      for (const index of indexes.filter((i) => i.unique && i.origin === "u")) {
        const { rows } = await sql<{ name: string }>`SELECT * FROM pragma_index_info(${index.name})`.execute(udb.db);
        if (rows.length === 1) unique.add(rows[0].name);
      }
      const { rows: fks } = await sql<{ from: string; table: string }>`SELECT * FROM pragma_foreign_key_list(${table})`.execute(udb.db);
      return cols.map((c) => ({ name: c.name, type: c.type.toLowerCase(), notNull: c.notnull === 1, unique: unique.has(c.name), references: fks.find((f) => f.from === c.name)?.table }));
    }
    const { rows: cols } = await sql<{ name: string; type: string; nullable: string }>`
      SELECT COLUMN_NAME AS name, COLUMN_TYPE AS type, IS_NULLABLE AS nullable FROM information_schema.COLUMNS
      WHERE TABLE_SCHEMA = ${physical} AND TABLE_NAME = ${table} ORDER BY ORDINAL_POSITION`.execute(udb.db);
    const { rows: uniques } = await sql<{ name: string }>`
      SELECT MAX(COLUMN_NAME) AS name FROM information_schema.STATISTICS
      WHERE TABLE_SCHEMA = ${physical} AND TABLE_NAME = ${table} AND NON_UNIQUE = 0 AND INDEX_NAME <> 'PRIMARY'
      GROUP BY INDEX_NAME HAVING COUNT(*) = 1`.execute(udb.db);
    const { rows: fks } = await sql<{ name: string; target: string }>`
      SELECT COLUMN_NAME AS name, REFERENCED_TABLE_NAME AS target FROM information_schema.KEY_COLUMN_USAGE
      WHERE TABLE_SCHEMA = ${physical} AND TABLE_NAME = ${table} AND REFERENCED_TABLE_NAME IS NOT NULL`.execute(udb.db);
    return cols.map((c) => ({
      name: c.name,
      type: c.type.replace(/^(int|bigint)\(\d+\)/, "$1").replace(/^longtext$/, "json"),
      notNull: c.nullable === "NO",
      unique: uniques.some((u) => u.name === c.name),
      references: fks.find((f) => f.name === c.name)?.target,
    }));
  };

  /** The physical table is exactly what the metadata describes. */
  const expectPhysicalMatchesMetadata = async (db: Db, table: string) => {
    const def = (await loadSchema(app, db.instance))!.tables.get(table)!;
    const userColumns = def.columns.map((c) => ({
      name: c.name,
      type: (engine === "mysql" ? TYPE_SPECS[c.type].mysql(c) : TYPE_SPECS[c.type].sqlite(c)).toLowerCase(),
      notNull: !c.nullable,
      unique: c.unique,
      references: c.references,
    }));
    const names = ["id", ...def.columns.map((c) => c.name), "created_at", "updated_at"];
    const found = await physicalColumns(db, table);
    expect(found.map((c) => c.name).sort()).toEqual([...names].sort());
    // SQLite's in-place ADD COLUMN appends after the timestamps; only MySQL keeps the display order.
    const actual = engine === "sqlite" ? names.map((n) => found.find((c) => c.name === n)!) : found;
    expect(actual.map((c) => c.name)).toEqual(names);
    expect(actual.slice(1, -2)).toEqual(userColumns);
  };

  const ddlText = async (db: Db, table: string) => {
    if (engine === "sqlite") {
      const { rows } = await sql<{ sql: string }>`SELECT sql FROM sqlite_master WHERE name = ${table}`.execute(db.udb.db);
      return rows[0]?.sql;
    }
    const { rows } = await sql<Json>`SHOW CREATE TABLE ${db.udb.table(table)}`.execute(db.udb.db);
    return rows[0]?.["Create Table"];
  };

  const snapshot = async (db: Db) => ({
    tables: await listTables(ctx, { instance: db.instance }),
    rows: await readRows(db, "items"),
    ddl: await ddlText(db, "items"),
    physical: await physicalColumns(db, "items"),
  });

  describe("column changes keep every row", () => {
    it.each(CONVERSIONS)("$name", async ({ column, values, patch, expected }) => {
      const db = await seed(column, values);
      const before = await readRows(db, "items");
      const view = await updateColumn(ctx, { instance: db.instance, table: "items", column: "c", body: patch });
      const name = (patch.name as string | undefined) ?? "c";
      const { default: newDefault, rename: _rename, ...rest } = patch;
      expect(view).toMatchObject({ name, ...rest });
      if (newDefault !== undefined) expect(view.default).toEqual(newDefault ?? undefined);
      const after = await readRows(db, "items");
      expect(after.map((r) => r[name])).toEqual(expected ?? values);
      expect(after.map(({ id, note, created_at, updated_at }) => ({ id, note, created_at, updated_at }))).toEqual(
        before.map(({ id, note, created_at, updated_at }) => ({ id, note, created_at, updated_at })),
      );
      expect((await getTable(ctx, { instance: db.instance, table: "items" })).columns[0]).toEqual(view);
      await expectPhysicalMatchesMetadata(db, "items");
    });

    it("a renamed dropdown option also renames the column's default", async () => {
      const db = await seed({ type: "dropdown", options: ["draft", "live"], default: "live" }, []);
      const view = await updateColumn(ctx, { instance: db.instance, table: "items", column: "c", body: { rename: { live: "published" } } });
      expect(view.default).toBe("published");
    });

    it("a converted column keeps the id counter, so deleted ids are not handed out again", async () => {
      const db = await seed({ type: "int" }, [1, 2, 3]);
      await sql`DELETE FROM ${db.udb.table("items")} WHERE ${sql.id("id")} = 3`.execute(db.udb.db);
      await updateColumn(ctx, { instance: db.instance, table: "items", column: "c", body: { type: "varchar", unique: true } });
      await insertRows(db, "items", [{ c: "4" }]);
      expect((await readRows(db, "items")).map((r) => r.id)).toEqual([1, 2, 4]);
    });

    it("unique turned on is enforced afterwards", async () => {
      const db = await seed({ type: "varchar" }, ["a", "b"]);
      await updateColumn(ctx, { instance: db.instance, table: "items", column: "c", body: { unique: true } });
      await expect(insertRows(db, "items", [{ c: "a" }])).rejects.toThrow();
      await insertRows(db, "items", [{ c: "c" }]);
    });

    it("a column turned into a reference enforces its foreign key; turned back it does not", async () => {
      const db = await seed({ type: "bigint" }, [1]);
      await updateColumn(ctx, { instance: db.instance, table: "items", column: "c", body: REF });
      await expect(insertRows(db, "items", [{ c: 99 }])).rejects.toThrow();
      await expect(sql`DELETE FROM ${db.udb.table("authors")} WHERE ${sql.id("id")} = 1`.execute(db.udb.db)).rejects.toThrow();
      await updateColumn(ctx, { instance: db.instance, table: "items", column: "c", body: { type: "bigint" } });
      await insertRows(db, "items", [{ c: 99 }]);
      await expectPhysicalMatchesMetadata(db, "items");
    });

    it("renaming to a column name in use is a 409", async () => {
      const db = await seed({ type: "int" }, [1]);
      const { status, body } = await failure(updateColumn(ctx, { instance: db.instance, table: "items", column: "c", body: { name: "note" } }));
      expect({ status, body }).toEqual({ status: 409, body: { error: "conflict", message: 'Column "note" already exists in table "items".' } });
    });
  });

  describe("lossy column changes are refused and change nothing", () => {
    it.each(REFUSALS)("$name", async ({ column, values, patch, field, message }) => {
      const db = await seed(column, values);
      const before = await snapshot(db);
      await expect422(updateColumn(ctx, { instance: db.instance, table: "items", column: "c", body: patch }), field, message);
      expect(await snapshot(db)).toEqual(before);
    });

    it("the refusal counts the rows that do not fit; misfits: null converts anyway and makes only those NULL", async () => {
      const db = await seed({ type: "varchar" }, ["12", "abc", null, "7", "x"]);
      const { status, body } = await failure(updateColumn(ctx, { instance: db.instance, table: "items", column: "c", body: { type: "int" } }));
      expect(status).toBe(422);
      expect(body).toMatchObject({ error: "validation_failed", misfit_rows: 2, errors: [{ field: "type", code: "lossy_conversion" }] });
      await updateColumn(ctx, { instance: db.instance, table: "items", column: "c", body: { type: "int", misfits: "null" } });
      expect((await readRows(db, "items")).map((r) => r.c)).toEqual([12, null, null, 7, null]);
      await expectPhysicalMatchesMetadata(db, "items");
    });

    it("misfits: null on a column left required is refused, naming misfits, and changes nothing", async () => {
      const db = await seed({ type: "varchar", nullable: false }, ["12", "abc"]);
      const before = await snapshot(db);
      await expect422(updateColumn(ctx, { instance: db.instance, table: "items", column: "c", body: { type: "int", misfits: "null" } }), "misfits", /nullable column/);
      expect(await snapshot(db)).toEqual(before);
    });
  });

  describe("tables", () => {
    it("create, list and get a table; a self reference is allowed; a taken name is a 409", async () => {
      const db = await seed({ type: "int" }, []);
      const input = { name: "people", columns: [{ name: "boss_id", type: "reference", references: "people" }, { name: "email", type: "varchar", unique: true }] };
      const view = await createTable(ctx, { instance: db.instance, body: input });
      expect(view).toEqual({
        name: "people",
        columns: [
          { name: "boss_id", type: "reference", references: "people", nullable: true, unique: false, index: true, searchable: false, mysql_type: "BIGINT UNSIGNED" },
          { name: "email", type: "varchar", length: 255, nullable: true, unique: true, index: false, searchable: false, mysql_type: "VARCHAR(255)" },
        ],
        indexes: [],
        history: true,
        automatic_columns: ["id", "created_at", "updated_at"],
      });
      expect((await listTables(ctx, { instance: db.instance })).map((t) => t.name)).toEqual(["authors", "editors", "items", "people"]);
      expect(await getTable(ctx, { instance: db.instance, table: "people" })).toEqual(view);
      await expectPhysicalMatchesMetadata(db, "people");
      await insertRows(db, "people", [{ email: "a@x" }, { email: "b@x", boss_id: 1 }]);
      await expect(insertRows(db, "people", [{ boss_id: 42 }])).rejects.toThrow();
      const { status, body } = await failure(createTable(ctx, { instance: db.instance, body: input }));
      expect({ status, body }).toEqual({ status: 409, body: { error: "conflict", message: `Table "people" already exists in database "${db.instance}".` } });
    });

    it("rename keeps the rows, and references from other tables and itself follow and still enforce", async () => {
      const db = await seed({ ...REF }, [1, 2]);
      await addColumn(ctx, { instance: db.instance, table: "authors", body: { name: "mentor_id", type: "reference", references: "authors" } });
      const view = await updateTable(ctx, { instance: db.instance, table: "authors", body: { name: "writers" } });
      expect(view.columns.find((c) => c.name === "mentor_id")?.references).toBe("writers");
      expect((await getTable(ctx, { instance: db.instance, table: "items" })).columns[0].references).toBe("writers");
      expect((await readRows(db, "writers")).map((r) => r.name)).toEqual(["Ann", "Bob", "Cy"]);
      await expectPhysicalMatchesMetadata(db, "items");
      await expectPhysicalMatchesMetadata(db, "writers");
      await expect(insertRows(db, "items", [{ c: 99 }])).rejects.toThrow();
      await expect(insertRows(db, "writers", [{ name: "Di", mentor_id: 99 }])).rejects.toThrow();
      await expect(sql`DELETE FROM ${db.udb.table("writers")} WHERE ${sql.id("id")} = 1`.execute(db.udb.db)).rejects.toThrow();
      await insertRows(db, "items", [{ c: 3 }]);
      await insertRows(db, "writers", [{ name: "Di", mentor_id: 1 }]);
      const ids = (await readRows(db, "writers")).map((r) => r.id);
      expect(ids.slice(0, 3)).toEqual([1, 2, 3]);
      expect(ids[3]).toBeGreaterThan(3);
    });

    it("changing a column of a referenced, self-referencing table keeps every foreign key enforced", async () => {
      const db = await seed({ ...REF }, [1, 2]);
      await addColumn(ctx, { instance: db.instance, table: "authors", body: { name: "mentor_id", type: "reference", references: "authors" } });
      await sql`UPDATE ${db.udb.table("authors")} SET ${sql.id("mentor_id")} = 1 WHERE ${sql.id("id")} = 2`.execute(db.udb.db);
      await updateColumn(ctx, { instance: db.instance, table: "authors", column: "name", body: { unique: true, length: 50 } });
      const authors = await readRows(db, "authors");
      expect(authors.map(({ id, name, mentor_id }) => ({ id, name, mentor_id }))).toEqual([
        { id: 1, name: "Ann", mentor_id: null },
        { id: 2, name: "Bob", mentor_id: 1 },
        { id: 3, name: "Cy", mentor_id: null },
      ]);
      await expectPhysicalMatchesMetadata(db, "authors");
      await expectPhysicalMatchesMetadata(db, "items");
      await expect(insertRows(db, "items", [{ c: 99 }])).rejects.toThrow();
      await expect(insertRows(db, "authors", [{ name: "Di", mentor_id: 99 }])).rejects.toThrow();
      await expect(sql`DELETE FROM ${db.udb.table("authors")} WHERE ${sql.id("id")} = 1`.execute(db.udb.db)).rejects.toThrow();
      await expect(insertRows(db, "authors", [{ name: "Ann" }])).rejects.toThrow();
    });

    it("rename refuses unknown properties (422) and a taken name (409)", async () => {
      const db = await seed({ type: "int" }, []);
      await expect422(updateTable(ctx, { instance: db.instance, table: "items", body: { name: "things", columns: [] } }), "columns", /unknown property "columns"/);
      const { status, body } = await failure(updateTable(ctx, { instance: db.instance, table: "items", body: { name: "authors" } }));
      expect({ status, body }).toEqual({ status: 409, body: { error: "conflict", message: `Table "authors" already exists in database "${db.instance}".` } });
    });

    it("drop of a referenced table is a 409 naming the referencing column; a self reference does not block", async () => {
      const db = await seed({ ...REF }, [1]);
      const { status, body } = await failure(dropTable(ctx, { instance: db.instance, table: "authors" }));
      expect({ status, body }).toEqual({
        status: 409,
        body: { error: "conflict", message: 'Table "authors" is referenced by column "items.c"; drop or change that column first.' },
      });
      expect((await readRows(db, "authors")).length).toBe(3);
      await createTable(ctx, { instance: db.instance, body: { name: "nodes", columns: [{ name: "parent_id", type: "reference", references: "nodes" }] } });
      await insertRows(db, "nodes", [{}, { parent_id: 1 }]);
      await dropTable(ctx, { instance: db.instance, table: "nodes" });
      await dropColumn(ctx, { instance: db.instance, table: "items", column: "c" });
      await dropTable(ctx, { instance: db.instance, table: "authors" });
      expect((await listTables(ctx, { instance: db.instance })).map((t) => t.name)).toEqual(["editors", "items"]);
    });
  });

  describe("add and drop columns", () => {
    it("NOT NULL without a default on a table with rows is a 422 naming the row count", async () => {
      const db = await seed({ type: "int" }, [1, 2]);
      const before = await snapshot(db);
      await expect422(addColumn(ctx, { instance: db.instance, table: "items", body: { name: "qty", type: "int", nullable: false } }), "nullable", /has 2 rows that would have no value in "qty"/);
      expect(await snapshot(db)).toEqual(before);
    });

    it.each([
      { name: "NOT NULL with a default fills existing rows", column: { type: "int", nullable: false, default: 3 }, expected: [3, 3] },
      { name: "nullable with a default fills existing rows", column: { type: "varchar", default: "x" }, expected: ["x", "x"] },
      { name: "nullable without a default leaves nulls", column: { type: "date" }, expected: [null, null] },
      { name: "a reference with a default that exists", column: { ...REF, nullable: false, default: 2 }, expected: [2, 2] },
      { name: "a json column with a default", column: { type: "json", default: { a: [1] } }, expected: [{ a: [1] }, { a: [1] }] },
      { name: "a unique nullable column", column: { type: "varchar", unique: true }, expected: [null, null] },
    ])("add: $name", async ({ column, expected }) => {
      const db = await seed({ type: "int" }, [1, 2]);
      const view = await addColumn(ctx, { instance: db.instance, table: "items", body: { name: "extra", ...column } });
      expect(view).toMatchObject({ name: "extra", ...column });
      const rows = await readRows(db, "items");
      expect(rows.map((r) => r.extra)).toEqual(expected);
      expect(rows.map((r) => [r.c, r.note, r.created_at])).toEqual([[1, "row 1", CREATED], [2, "row 2", CREATED]]);
      await expectPhysicalMatchesMetadata(db, "items");
    });

    it("an added NOT NULL column on an empty table needs no default, and an added reference enforces", async () => {
      const db = await seed({ type: "int" }, []);
      await addColumn(ctx, { instance: db.instance, table: "items", body: { name: "author_id", ...REF, nullable: false } });
      await expectPhysicalMatchesMetadata(db, "items");
      await expect(insertRows(db, "items", [{ author_id: 99 }])).rejects.toThrow();
      await insertRows(db, "items", [{ author_id: 1 }]);
    });

    it.each([
      { name: "unique with one default for many rows", column: { type: "int", unique: true, default: 1 }, field: "unique" },
      { name: "a reference default that is no id", column: { ...REF, default: 42 }, field: "default" },
      { name: "an unknown property", column: { type: "int", size: 4 }, field: "size" },
    ])("add refuses $name (422)", async ({ column, field }) => {
      const db = await seed({ type: "int" }, [1, 2]);
      const before = await snapshot(db);
      await expect422(addColumn(ctx, { instance: db.instance, table: "items", body: { name: "extra", ...column } }), field);
      expect(await snapshot(db)).toEqual(before);
    });

    it("adding a column name in use is a 409", async () => {
      const db = await seed({ type: "int" }, []);
      const { status, body } = await failure(addColumn(ctx, { instance: db.instance, table: "items", body: { name: "note", type: "text" } }));
      expect({ status, body }).toEqual({ status: 409, body: { error: "conflict", message: 'Column "note" already exists in table "items".' } });
    });

    it("a batch adds several columns in one change, each row given each default", async () => {
      const db = await seed({ type: "int" }, [1, 2]);
      const columns = [
        { name: "price", type: "decimal", precision: 8, scale: 2, nullable: false, default: 9.5 },
        { name: "author_id", ...REF },
        { name: "status", type: "dropdown", options: ["draft", "live"], default: "draft" },
        { name: "sku", type: "varchar", unique: true },
      ];
      const added = await addColumns(ctx, { instance: db.instance, table: "items", body: { columns } });
      expect(added.map((c) => c.name)).toEqual(["price", "author_id", "status", "sku"]);
      const rows = await readRows(db, "items");
      expect(rows.map((r) => [r.c, r.price, r.author_id, r.status, r.sku])).toEqual([[1, 9.5, null, "draft", null], [2, 9.5, null, "draft", null]]);
      await expectPhysicalMatchesMetadata(db, "items");
      await expect(insertRows(db, "items", [{ author_id: 99 }])).rejects.toThrow();
    });

    it("a batch with one refused column adds none, naming every problem by its column and field", async () => {
      const db = await seed({ type: "int" }, [1, 2]);
      const before = await snapshot(db);
      const columns = [
        { name: "fine", type: "int" },
        { name: "must", type: "int", nullable: false },
        { name: "ref", type: "reference", references: "nowhere" },
      ];
      const { status: refStatus, body: refBody } = await failure(addColumns(ctx, { instance: db.instance, table: "items", body: { columns } }));
      expect({ status: refStatus, body: refBody }).toEqual({ status: 422, body: { error: "validation_failed", message: 'table "nowhere" does not exist', errors: [{ field: "columns[2].references", code: "unknown_table", message: 'table "nowhere" does not exist' }] } });
      const { status, body } = await failure(addColumns(ctx, { instance: db.instance, table: "items", body: { columns: columns.slice(0, 2) } }));
      const message = 'table "items" has 2 rows that would have no value in "must"; give the column a default or make it nullable';
      expect({ status, body }).toEqual({ status: 422, body: { error: "validation_failed", message, errors: [{ field: "columns[1].nullable", code: "rows_need_value", message }] } });
      await expect422(addColumns(ctx, { instance: db.instance, table: "items", body: { columns: [{ name: "a", type: "int" }, { name: "a", type: "text" }] } }), "columns[1].name");
      expect(await snapshot(db)).toEqual(before);
    });

    it("a batch naming a column the table has is a 409 naming it, and adds none", async () => {
      const db = await seed({ type: "int" }, []);
      const before = await snapshot(db);
      const { status, body } = await failure(addColumns(ctx, { instance: db.instance, table: "items", body: { columns: [{ name: "fresh", type: "int" }, { name: "note", type: "text" }] } }));
      expect({ status, body }).toEqual({
        status: 409,
        body: { error: "conflict", message: 'Column "note" already exists in table "items".', errors: [{ field: "columns[1].name", code: "conflict", message: 'column "note" already exists in table "items"' }] },
      });
      expect(await snapshot(db)).toEqual(before);
    });

    it.each([
      { name: "a plain column", column: { type: "int" } },
      { name: "a unique column", column: { type: "varchar", unique: true } },
      { name: "a reference column", column: { ...REF } },
    ])("drop $name keeps the other columns' rows", async ({ column }) => {
      const db = await seed(column, [1, 2].map((v) => (column.type === "varchar" ? String(v) : v)));
      await dropColumn(ctx, { instance: db.instance, table: "items", column: "c" });
      const rows = await readRows(db, "items");
      expect(rows).toEqual([1, 2].map((id) => ({ id, note: `row ${id}`, created_at: CREATED, updated_at: UPDATED })));
      await expectPhysicalMatchesMetadata(db, "items");
      await sql`DELETE FROM ${db.udb.table("authors")} WHERE ${sql.id("id")} = 1`.execute(db.udb.db);
    });
  });

  describe("names with quotes, backticks, semicolons or spaces are refused at definition", () => {
    it.each(BAD_NAMES)("%s", async (bad) => {
      const db = await seed({ type: "int" }, [1]);
      const before = await snapshot(db);
      await expect422(createTable(ctx, { instance: db.instance, body: { name: bad, columns: [] } }), "name");
      await expect422(createTable(ctx, { instance: db.instance, body: { name: "ok", columns: [{ name: bad, type: "int" }] } }), "columns[0].name");
      await expect422(updateTable(ctx, { instance: db.instance, table: "items", body: { name: bad } }), "name");
      await expect422(addColumn(ctx, { instance: db.instance, table: "items", body: { name: bad, type: "int" } }), "name");
      await expect422(updateColumn(ctx, { instance: db.instance, table: "items", column: "c", body: { name: bad } }), "name");
      expect(await snapshot(db)).toEqual(before);
    });
  });
});
