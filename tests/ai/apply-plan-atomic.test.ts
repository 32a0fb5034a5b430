// Applying a plan is all or nothing on both engines. MariaDB commits DDL implicitly, so atomicity comes from the
// undo journal, not a transaction: these tests inject a failure part way (the `beforeTable` seam, or a seed row
// the database refuses) and check the metadata and the physical schema (information_schema on MariaDB, the data
// directory and sqlite_master on SQLite) against what was there before.
import fs from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyPlan } from "../../lib/ai/apply-plan";
import { type DraftPlan, validatePlan } from "../../lib/ai/plan";
import type { Ctx } from "../../lib/meta/context";
import { loadSchema } from "../../lib/meta/load-schema";
import { ENGINES, type Harness, startHarness } from "../helpers/harness";

const col = (name: string, type: string, extra: Record<string, unknown> = {}) => ({ name, type, ...extra });
const ref = (name: string, table: string) => col(name, "reference", { references: table });

const FOUR_TABLES: DraftPlan = {
  name: "Four tables",
  tables: [
    { name: "authors", columns: [col("name", "varchar", { nullable: false })] },
    { name: "books", columns: [col("title", "varchar"), col("genre", "dropdown", { options: ["novel", "poetry"] }), ref("author_id", "authors")] },
    { name: "readers", columns: [col("email", "varchar", { unique: true })] },
    { name: "loans", columns: [ref("book_id", "books"), ref("reader_id", "readers"), col("due", "date")] },
  ],
  joins: [{ name: "books_by_author", base: "books", joins: [{ table: "authors", on: [["books.author_id", "authors.id"]] }], columns: [{ column: "books.title", as: "title" }, { column: "authors.name", as: "author" }] }],
  seed: { authors: [{ name: "Ursula" }], books: [{ title: "Earthsea", genre: "novel", author_id: 1 }], readers: [{ email: "r@example.com" }], loans: [{ book_id: 1, reader_id: 1, due: "2025-06-01" }] },
};

/** Three tables added to a database that has customers and notes (and a join over them). */
const EXTENSION = (seedCustomer = 1): DraftPlan => ({
  name: "",
  tables: [
    { name: "orders", columns: [ref("customer_id", "customers"), col("status", "dropdown", { options: ["new", "paid"] })] },
    { name: "items", columns: [ref("order_id", "orders"), col("sku", "varchar")] },
    { name: "shipments", columns: [ref("order_id", "orders"), col("carrier", "varchar")] },
  ],
  joins: [{ name: "orders_with_customers", base: "orders", joins: [{ table: "customers", on: [["orders.customer_id", "customers.id"]] }], columns: [{ column: "orders.status", as: "status" }, { column: "customers.name", as: "customer" }] }],
  seed: { orders: [{ customer_id: seedCustomer, status: "new" }], items: [{ order_id: 1, sku: "A-1" }] },
});

const Injected = new Error("injected failure before the third table");

describe.each(ENGINES)("applying a plan is atomic on %s", (engine) => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness(engine, "node");
  }, 60_000);
  afterAll(async () => h?.close());

  const ctxOf = (accountId: number): Ctx => ({ app: h.app, actor: { accountId, isOperator: false, keyDatabaseId: null } });

  /** The tables the engine itself has in one user database (none when it does not exist). */
  /** The user's tables (the change-event outbox, `_tabula_*`, is the install's, not the plan's). */
  const physicalTables = async (physical: string): Promise<string[] | null> => {
    if (engine === "sqlite") {
      if (!fs.existsSync(path.join(h.app.config.dataDir, "databases", physical))) return null;
      const { rows } = await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`.execute(h.app.engine.userDb(physical).db);
      return rows.map((r) => r.name).filter((n) => !n.startsWith("_tabula_"));
    }
    const { rows: schemas } = await sql<{ s: string }>`SELECT schema_name AS s FROM information_schema.schemata WHERE schema_name = ${physical}`.execute(h.app.engine.meta);
    if (schemas.length === 0) return null;
    const { rows } = await sql<{ t: string }>`SELECT table_name AS t FROM information_schema.tables WHERE table_schema = ${physical} ORDER BY table_name`.execute(h.app.engine.meta);
    return rows.map((r) => r.t).filter((n) => !n.startsWith("_tabula_"));
  };

  /** The account's databases as the metadata and the engine know them. */
  const snapshot = async (accountId: number) => {
    const meta = h.app.engine.meta;
    const databases = await meta.selectFrom("databases").select(["id", "instance", "physical"]).where("owner_id", "=", accountId).orderBy("id").execute();
    return Promise.all(
      databases.map(async (d) => ({
        id: d.id,
        instance: d.instance,
        physical: d.physical,
        tables: (await meta.selectFrom("tables").select(["name", "columns"]).where("database_id", "=", d.id).orderBy("id").execute()).map((t) => `${t.name} ${t.columns}`),
        joins: (await meta.selectFrom("joins").select(["name", "definition"]).where("database_id", "=", d.id).orderBy("id").execute()).map((j) => `${j.name} ${j.definition}`),
        engineTables: await physicalTables(d.physical),
      })),
    );
  };

  it("the four-table plan is valid and applies whole without a fault (the control)", async () => {
    expect(validatePlan(FOUR_TABLES).errors).toEqual([]);
    const { accountId, key } = await h.createAccount();
    const instance = await applyPlan(ctxOf(accountId), FOUR_TABLES);
    const [db] = await snapshot(accountId);
    expect(db.engineTables).toEqual(["authors", "books", "loans", "readers"]);
    expect((await h.request("GET", `/v1/${instance}/books_by_author`, { key })).body).toEqual([{ title: "Earthsea", author: "Ursula" }]);
  });

  it("a new database failing at its third table leaves nothing: no database row, no table rows, no schema or file", async () => {
    const { accountId } = await h.createAccount();
    let during: Awaited<ReturnType<typeof snapshot>> = [];
    const beforeTable = async (_name: string, index: number) => {
      if (index < 2) return;
      during = await snapshot(accountId);
      throw Injected;
    };
    await expect(applyPlan(ctxOf(accountId), FOUR_TABLES, undefined, { beforeTable })).rejects.toBe(Injected);
    // Just before the failure, the database and its first two tables were real.
    expect(during).toHaveLength(1);
    expect(during[0].tables.map((t) => t.split(" ")[0])).toEqual(["authors", "books"]);
    expect(during[0].engineTables).toEqual(["authors", "books"]);
    const { id, physical, instance } = during[0];
    expect(await snapshot(accountId)).toEqual([]);
    expect(await physicalTables(physical)).toBeNull();
    const meta = h.app.engine.meta;
    expect(await meta.selectFrom("tables").select("name").where("database_id", "=", id).execute()).toEqual([]);
    expect(await meta.selectFrom("joins").select("name").where("database_id", "=", id).execute()).toEqual([]);
    // SQLite keeps a database in a file with -wal and -shm companions: none of them may be left.
    if (engine === "sqlite") expect(fs.readdirSync(path.join(h.app.config.dataDir, "databases")).filter((f) => f.startsWith(physical))).toEqual([]);
    expect(await loadSchema(h.app, instance)).toBeUndefined();
  });

  describe("extending a database", () => {
    /** A database with customers (one row), notes referencing them and a join over both. */
    const existingDatabase = async () => {
      const { accountId, key } = await h.createAccount();
      const tables = [
        { name: "customers", columns: [col("name", "varchar", { nullable: false })] },
        { name: "notes", columns: [ref("customer_id", "customers"), col("body", "text")] },
      ];
      const created = await h.request("POST", "/api/v1/databases", { key, body: { name: "Existing", tables } });
      expect(created.status, created.text).toBe(201);
      const { instance } = created.body;
      const join = { name: "notes_with_customers", base: "notes", joins: [{ table: "customers", on: [["notes.customer_id", "customers.id"]] }], columns: [{ column: "notes.body", as: "body" }, { column: "customers.name", as: "customer" }] };
      expect((await h.request("POST", `/api/v1/databases/${instance}/joins`, { key, body: join })).status).toBe(201);
      expect((await h.request("POST", `/v1/${instance}/customers`, { key, body: { name: "Ada" } })).status).toBe(201);
      const existing = (await loadSchema(h.app, instance))!;
      return { accountId, key, instance, existing, before: await snapshot(accountId) };
    };

    const rowsOf = async (key: string, instance: string) => (await h.request("GET", `/v1/${instance}/customers`, { key })).body.map((r: { name: string }) => r.name);

    it("a failure at the third new table leaves the database exactly as it was", async () => {
      const { accountId, key, instance, existing, before } = await existingDatabase();
      expect(validatePlan(EXTENSION(), existing).errors).toEqual([]);
      let during: string[] | null = null;
      const beforeTable = async (_name: string, index: number) => {
        if (index < 2) return;
        during = await physicalTables(before[0].physical);
        throw Injected;
      };
      await expect(applyPlan(ctxOf(accountId), EXTENSION(), existing, { beforeTable })).rejects.toBe(Injected);
      expect(during).toEqual(["customers", "items", "notes", "orders"]);
      expect(await snapshot(accountId)).toEqual(before);
      expect(before[0].engineTables).toEqual(["customers", "notes"]);
      expect((await h.request("GET", `/api/v1/databases/${instance}/joins`, { key })).body.map((j: { name: string }) => j.name)).toEqual(["notes_with_customers"]);
      expect(await rowsOf(key, instance)).toEqual(["Ada"]);
    });

    it("a seed row the database refuses (a customer that does not exist) undoes the tables and the join already made", async () => {
      const { accountId, key, instance, existing, before } = await existingDatabase();
      const plan = EXTENSION(99);
      expect(validatePlan(plan, existing).errors).toEqual([]);
      await expect(applyPlan(ctxOf(accountId), plan, existing)).rejects.toMatchObject({
        code: "validation_failed",
        errors: [expect.objectContaining({ code: "reference_not_found", message: "no row 99 in customers" })],
      });
      expect(await snapshot(accountId)).toEqual(before);
      expect((await h.request("GET", `/v1/${instance}/orders_with_customers`, { key })).status).toBe(404);
      expect(await rowsOf(key, instance)).toEqual(["Ada"]);
    });

    it("without a fault the same extension applies: three tables, the join and the seed rows are added", async () => {
      const { accountId, key, instance, existing, before } = await existingDatabase();
      await applyPlan(ctxOf(accountId), EXTENSION(), existing);
      const [after] = await snapshot(accountId);
      expect(after.engineTables).toEqual(["customers", "items", "notes", "orders", "shipments"]);
      expect(after.tables.slice(0, 2)).toEqual(before[0].tables);
      expect((await h.request("GET", `/v1/${instance}/orders_with_customers`, { key })).body).toEqual([{ status: "new", customer: "Ada" }]);
    });
  });
});
