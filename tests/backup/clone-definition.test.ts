// Clones (with and without rows) and definitions as code: a plan that makes one database match another's
// definition, applied through the same services, then the same definition again is an empty plan; lossy
// changes only with allow_lossy.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase } from "../contract/contract-helpers";
import { ENGINES, type Harness, startHarness } from "../helpers/harness";
import { BIG_BEYOND_DOUBLE, dumpRows, makeKindsDatabase } from "./backup-fixture";

describe.each(ENGINES)("clones and definitions on %s", (engine) => {
  let h: Harness;
  let source: string;

  beforeAll(async () => {
    h = await startHarness(engine, "node");
    source = await makeKindsDatabase(h, "source");
  }, 60_000);
  afterAll(() => h.close());

  const definitionOf = async (db: string) => {
    const reply = await h.request("GET", `/api/v1/databases/${db}/definition`);
    expect(reply.status, reply.text).toBe(200);
    return reply.body;
  };

  it("clones with data: the same definition and every row value for value", async () => {
    const reply = await h.request("POST", `/api/v1/databases/${source}/clone`, { body: { name: "copy with rows" } });
    expect(reply.status, reply.text).toBe(201);
    expect(await definitionOf(reply.body.instance)).toEqual(await definitionOf(source));
    const rows = (await dumpRows(h, reply.body.instance)).rows;
    expect(rows).toEqual((await dumpRows(h, source)).rows);
    expect((rows.kinds as Record<string, unknown>[]).find((r) => r.title === "small")!.big).toBe(BIG_BEYOND_DOUBLE);
  });

  it("clones without data: the same definition and no rows", async () => {
    const reply = await h.request("POST", `/api/v1/databases/${source}/clone`, { body: { name: "empty copy", data: false } });
    expect(reply.status, reply.text).toBe(201);
    expect(await definitionOf(reply.body.instance)).toEqual(await definitionOf(source));
    const { rows } = await dumpRows(h, reply.body.instance);
    expect(Object.values(rows).every((r) => r.length === 0)).toBe(true);
  });

  it("a clone's name already used in the workspace is 409, and nothing is created", async () => {
    const before = (await h.request("GET", "/api/v1/databases")).body.length;
    const reply = await h.request("POST", `/api/v1/databases/${source}/clone`, { body: { name: "source" } });
    expect(reply.status).toBe(409);
    expect(reply.body).toMatchObject({ error: "conflict", errors: [{ field: "name", code: "taken" }] });
    expect((await h.request("GET", "/api/v1/databases")).body.length).toBe(before);
  });

  it("plans, applies and then plans nothing: a database made to match another's definition", async () => {
    const target = await createDatabase(h, "target", [
      { name: "authors", columns: [{ name: "name", type: "varchar", length: 40, nullable: false }, { name: "born", type: "date" }] },
      { name: "old_stuff", columns: [{ name: "x", type: "int" }] },
    ] as never);
    await h.request("POST", `/v1/${target}/authors`, { body: { name: "Kept", born: "1970-01-01" } });
    const definition = await definitionOf(source);
    const plan = await h.request("POST", `/api/v1/databases/${target}/definition/plan`, { body: definition });
    expect(plan.status, plan.text).toBe(200);
    const actions = plan.body.changes.map((c: { action: string; target: string; lossy: boolean }) => `${c.action} ${c.target}${c.lossy ? " (lossy)" : ""}`);
    expect(actions).toEqual([
      "table.create items",
      "table.create kinds",
      "table.create users",
      "column.update authors.name",
      "policies.update kinds",
      "hooks.update kinds",
      "join.create kinds_by_author",
      "auth.update auth",
      "column.drop authors.born (lossy)",
      "table.drop old_stuff (lossy)",
    ]);
    expect(plan.body.lossy).toBe(true);

    const refused = await h.request("POST", `/api/v1/databases/${target}/definition/apply`, { body: definition });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.map((e: { message: string }) => e.message)).toEqual(["column.drop authors.born: drop the column and its values", "table.drop old_stuff: drop the table and its rows"]);
    expect((await definitionOf(target)).tables.map((t: { name: string }) => t.name)).toEqual(["authors", "old_stuff"]);

    const applied = await h.request("POST", `/api/v1/databases/${target}/definition/apply`, { body: { ...definition, allow_lossy: true } });
    expect(applied.status, applied.text).toBe(200);
    expect(applied.body.changes.length).toBe(plan.body.changes.length);
    const after = await definitionOf(target);
    expect(after).toEqual(definition);
    const again = await h.request("POST", `/api/v1/databases/${target}/definition/plan`, { body: after });
    expect(again.body).toEqual({ changes: [], lossy: false });
    const kept = await h.request("GET", `/v1/${target}/authors`);
    expect(kept.body.map((r: { name: string }) => r.name)).toEqual(["Kept"]);
  });

  it("an apply refused at a later change leaves the database exactly as before: tables, columns, indexes, policies, hooks, joins, auth and rows", async () => {
    const db = await createDatabase(h, "undone", [
      { name: "authors", columns: [{ name: "name", type: "varchar", length: 40, nullable: false }] },
      { name: "books", columns: [{ name: "title", type: "varchar", length: 40 }, { name: "author_id", type: "reference", references: "authors" }, { name: "owner_id", type: "bigint" }] },
    ] as never);
    const author = await h.request("POST", `/v1/${db}/authors`, { body: { name: "Ann" } });
    await h.request("POST", `/v1/${db}/books`, { body: { title: "First", author_id: author.body.id, owner_id: 7 } });
    const policies = await h.request("PUT", `/api/v1/databases/${db}/tables/books/policies`, { body: { select: "owner_id = auth.id", insert: null, update: null, delete: null } });
    expect(policies.status, policies.text).toBe(200);
    const join = { name: "books_by_author", base: "books", joins: [{ table: "authors", on: [["books.author_id", "authors.id"]] }], columns: [{ column: "books.title", as: "title" }, { column: "authors.name", as: "author" }] };
    expect((await h.request("POST", `/api/v1/databases/${db}/joins`, { body: join })).status).toBe(201);
    const before = await definitionOf(db);
    const rowsBefore = (await dumpRows(h, db)).rows;

    // Every change before the last one succeeds; the changed join names a column that does not exist.
    const tables = before.tables.map((t: { name: string; columns: { name: string }[] }) =>
      t.name === "authors" ? { ...t, columns: [{ name: "born", type: "int" }, { name: "name", type: "varchar", length: 80, nullable: false }], indexes: [{ name: "name_born", columns: ["name", "born"], unique: false }] }
      : { ...t, policies: { select: null, insert: null, update: null, delete: null }, hooks: { insert: [{ assert: "new.title != ''", message: "title" }] } });
    const target = { tables: [...tables, { name: "extra", columns: [{ name: "x", type: "int" }] }], joins: [{ ...join, columns: [{ column: "authors.nope", as: "nope" }] }], auth: before.auth, allow_lossy: true };
    const plan = await h.request("POST", `/api/v1/databases/${db}/definition/plan`, { body: target });
    expect(plan.status, plan.text).toBe(200);
    expect(plan.body.changes.map((c: { action: string }) => c.action)).toEqual(["join.delete", "table.create", "column.add", "column.update", "index.add", "policies.update", "hooks.update", "join.create"]);

    const refused = await h.request("POST", `/api/v1/databases/${db}/definition/apply`, { body: target });
    expect(refused.status, refused.text).toBe(422);
    expect(refused.text).toContain("nope");
    expect(await definitionOf(db)).toEqual(before);
    expect((await dumpRows(h, db)).rows).toEqual(rowsBefore);
    const again = await h.request("POST", `/api/v1/databases/${db}/definition/plan`, { body: before });
    expect(again.body).toEqual({ changes: [], lossy: false });
  });

  it("an apply whose later drop would be refused drops nothing: the earlier drop's values are still there", async () => {
    const db = await createDatabase(h, "drops checked", [
      { name: "authors", columns: [{ name: "name", type: "text" }] },
      { name: "books", columns: [{ name: "title", type: "text" }, { name: "author_id", type: "reference", references: "authors" }, { name: "notes", type: "text" }] },
    ] as never);
    const author = await h.request("POST", `/v1/${db}/authors`, { body: { name: "Ann" } });
    expect((await h.request("POST", `/v1/${db}/books`, { body: { title: "First", author_id: author.body.id, notes: "keep me" } })).status).toBe(201);
    const before = await definitionOf(db);
    const rowsBefore = (await dumpRows(h, db)).rows;

    // books.notes goes first and would succeed; authors is still referenced by books.author_id, which stays.
    type Table = { name: string; columns: { name: string }[] };
    const target = { ...before, tables: before.tables.filter((t: Table) => t.name === "books").map((t: Table) => ({ ...t, columns: t.columns.filter((c) => c.name !== "notes") })), allow_lossy: true };
    const plan = await h.request("POST", `/api/v1/databases/${db}/definition/plan`, { body: target });
    expect(plan.status, plan.text).toBe(200);
    expect(plan.body.changes.map((c: { action: string; target: string }) => `${c.action} ${c.target}`)).toEqual(["column.drop books.notes", "table.drop authors"]);
    const refused = await h.request("POST", `/api/v1/databases/${db}/definition/apply`, { body: target });
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body.message).toBe('Table "authors" is referenced by column "books.author_id"; drop or change that column first.');
    expect(await definitionOf(db)).toEqual(before);
    expect((await dumpRows(h, db)).rows).toEqual(rowsBefore);

    // Without the reference, both drops are made.
    const unreferenced = { ...target, tables: target.tables.map((t: Table) => ({ ...t, columns: t.columns.filter((c) => c.name !== "author_id") })) };
    const applied = await h.request("POST", `/api/v1/databases/${db}/definition/apply`, { body: unreferenced });
    expect(applied.status, applied.text).toBe(200);
    expect((await definitionOf(db)).tables.map((t: Table) => [t.name, t.columns.map((c) => c.name)])).toEqual([["books", ["title"]]]);
  });

  it("a definition that does not parse is a 422 naming its place", async () => {
    const reply = await h.request("POST", `/api/v1/databases/${source}/definition/plan`, { body: { tables: [{ name: "t", columns: [{ name: "c", type: "nope" }] }] } });
    expect(reply.status).toBe(422);
    expect(reply.body.errors[0].field).toBe("body.tables[0].columns[0].type");
  });

  it("a database key may read the definition but not clone (403); and an account key may", async () => {
    const key = await h.request("POST", "/api/v1/keys", { body: { name: "db key", database: source } });
    expect(key.status, key.text).toBe(201);
    expect((await h.request("GET", `/api/v1/databases/${source}/definition`, { key: key.body.key })).status).toBe(200);
    expect((await h.request("POST", `/api/v1/databases/${source}/clone`, { body: { name: "by key" }, key: key.body.key })).status).toBe(403);
    expect((await h.request("POST", `/api/v1/databases/${source}/clone`, { body: { name: "by account key", data: false } })).status).toBe(201);
  });
});

