// Indexes as a schema feature: `"index": true` on a column, a table's `indexes` over several columns,
// an index on every reference column. Each case asks the engine itself (sqlite_master / information_schema)
// what exists, on both engines, through creation, the management API listing, column renames and type changes,
// table renames and column drops; bad input is a 422 naming the field, and a refused change leaves it all as it was.
import { sql } from "kysely";
import { beforeEach, describe, expect, it } from "vitest";
import { createDatabase, expectError, insert, list } from "../contract/contract-helpers";
import { ENGINES, type Harness } from "../helpers/harness";
import { useHarness } from "../contract/contract-helpers";
import { loadSchema } from "../../lib/meta/load-schema";

type EngineIndex = { columns: string[]; unique: boolean };

/** Every index on the table except the primary key, as the engine reports it (column lists in index order). */
const engineIndexes = async (h: Harness, instance: string, table: string): Promise<EngineIndex[]> => {
  const schema = (await loadSchema(h.app, instance))!;
  const udb = h.app.engine.userDb(schema.physical);
  const { rows } =
    udb.engine === "mysql"
      ? await sql<{ name: string; col: string; nonUnique: number }>`SELECT INDEX_NAME AS name, COLUMN_NAME AS col, NON_UNIQUE AS nonUnique
          FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = ${schema.physical} AND TABLE_NAME = ${table} AND INDEX_NAME <> 'PRIMARY'
          ORDER BY INDEX_NAME, SEQ_IN_INDEX`.execute(udb.db)
      : await sql<{ name: string; col: string; nonUnique: number }>`SELECT m.name AS name, i.name AS col, 1 - l."unique" AS nonUnique
          FROM sqlite_master AS m, pragma_index_info(m.name) AS i, pragma_index_list(${table}) AS l
          WHERE m.type = 'index' AND m.tbl_name = ${table} AND l.name = m.name ORDER BY m.name, i.seqno`.execute(udb.db);
  const byName = new Map<string, EngineIndex>();
  for (const r of rows) {
    const index = byName.get(r.name) ?? { columns: [], unique: Number(r.nonUnique) === 0 };
    index.columns.push(r.col);
    byName.set(r.name, index);
  }
  return [...byName.values()];
};

const PRODUCTS = {
  name: "products",
  columns: [
    { name: "category", type: "varchar", length: 20, nullable: false, index: true },
    { name: "price", type: "decimal", precision: 10, scale: 2 },
    { name: "sku", type: "varchar", length: 20, unique: true },
    { name: "maker_id", type: "reference", references: "makers" },
    { name: "notes", type: "text" },
  ],
  indexes: [{ columns: ["category", "price"] }, { columns: ["maker_id", "sku"], unique: true, name: "maker_sku" }],
};

describe.each(ENGINES)("indexes on %s", (engine) => {
  const ctx = useHarness({ engine, adapter: "node" });
  let instance = "";
  const api = (path: string) => `/api/v1/databases/${instance}${path}`;
  const getTable = async (name: string) => {
    const r = await ctx.h.request("GET", api(`/tables/${name}`));
    expect(r.status, r.text).toBe(200);
    return r.body;
  };
  const indexesOf = (table = "products") => engineIndexes(ctx.h, instance, table);

  // A database of its own for each case, so each runs alone (-t); a case after the rename starts with it made.
  const renameCategory = async () => {
    const r = await ctx.h.request("PATCH", api("/tables/products/columns/category"), { body: { name: "kind" } });
    expect(r.status, r.text).toBe(200);
  };

  beforeEach(async () => {
    instance = await createDatabase(ctx.h, `Indexes ${engine}`, [{ name: "makers", columns: [{ name: "name", type: "varchar" }] }, PRODUCTS]);
    const makers = await insert(ctx.h, `/v1/${instance}/makers`, [{ name: "a" }, { name: "b" }]);
    await insert(ctx.h, `/v1/${instance}/products`, [
      { category: "c1", price: 5, sku: "s1", maker_id: makers[0].id },
      { category: "c1", price: 3, sku: "s2", maker_id: makers[1].id },
      { category: "c2", price: 4, sku: "s3", maker_id: makers[0].id },
    ]);
  });

  it("creates the column, reference and composite indexes on the engine and lists them", async () => {
    const found = await indexesOf();
    expect(found).toContainEqual({ columns: ["category"], unique: false });
    expect(found).toContainEqual({ columns: ["maker_id"], unique: false });
    expect(found).toContainEqual({ columns: ["category", "price"], unique: false });
    expect(found).toContainEqual({ columns: ["maker_id", "sku"], unique: true });
    expect(found).toContainEqual({ columns: ["sku"], unique: true });
    expect(found.some((i) => i.columns.includes("price") && i.columns.length === 1)).toBe(false);
    // One index per column list: a foreign key uses the column's index instead of adding its own.
    expect(new Set(found.map((i) => i.columns.join())).size).toBe(found.length);
    const table = await getTable("products");
    expect(table.indexes).toEqual([
      { name: "category_price", columns: ["category", "price"], unique: false },
      { name: "maker_sku", columns: ["maker_id", "sku"], unique: true },
    ]);
    expect(Object.fromEntries(table.columns.map((c: { name: string; index: boolean }) => [c.name, c.index]))).toEqual({
      category: true, price: false, sku: false, maker_id: true, notes: false,
    });
  });

  it("indexes every reference column by default, and refuses to take that index away", async () => {
    const add = await ctx.h.request("POST", api("/tables/makers/columns"), { body: { name: "parent_id", type: "reference", references: "makers" } });
    expect(add.status, add.text).toBe(201);
    expect(add.body.index).toBe(true);
    expect((await indexesOf("makers")).filter((i) => i.columns.join() === "parent_id")).toEqual([{ columns: ["parent_id"], unique: false }]);
    const off = await ctx.h.request("PATCH", api("/tables/makers/columns/parent_id"), { body: { index: false } });
    expectError(off, 422, "validation_failed", ["index"]);
    expect(await indexesOf("makers")).toContainEqual({ columns: ["parent_id"], unique: false });
  });

  it("SQLite answers a filter and sort on the composite index's columns from the index", async () => {
    if (engine !== "sqlite") return; // EXPLAIN QUERY PLAN is SQLite's; MariaDB's EXPLAIN differs and picks by statistics
    const schema = (await loadSchema(ctx.h.app, instance))!;
    const udb = ctx.h.app.engine.userDb(schema.physical);
    const { rows } = await sql<{ detail: string }>`EXPLAIN QUERY PLAN SELECT * FROM products WHERE category = 'c1' AND price < 10 ORDER BY price DESC`.execute(udb.db);
    expect(rows.map((r) => r.detail).join(" | ")).toMatch(/USING INDEX _ix_\d+_category_price_/);
  });

  it("turns a column's index on and off with PATCH", async () => {
    const on = await ctx.h.request("PATCH", api("/tables/products/columns/price"), { body: { index: true } });
    expect(on.status, on.text).toBe(200);
    expect(on.body.index).toBe(true);
    expect(await indexesOf()).toContainEqual({ columns: ["price"], unique: false });
    const off = await ctx.h.request("PATCH", api("/tables/products/columns/price"), { body: { index: false } });
    expect(off.status, off.text).toBe(200);
    expect((await indexesOf()).some((i) => i.columns.join() === "price")).toBe(false);
  });

  it("keeps every index through a column rename, on the engine and in the listing", async () => {
    const r = await ctx.h.request("PATCH", api("/tables/products/columns/category"), { body: { name: "kind" } });
    expect(r.status, r.text).toBe(200);
    const found = await indexesOf();
    expect(found).toContainEqual({ columns: ["kind"], unique: false });
    expect(found).toContainEqual({ columns: ["kind", "price"], unique: false });
    expect(found.some((i) => i.columns.includes("category"))).toBe(false);
    expect((await getTable("products")).indexes[0]).toEqual({ name: "category_price", columns: ["kind", "price"], unique: false });
    // A reference column: on MariaDB its foreign key moves to the index made under the new name.
    const ref = await ctx.h.request("PATCH", api("/tables/products/columns/maker_id"), { body: { name: "brand_id" } });
    expect(ref.status, ref.text).toBe(200);
    const renamed = await indexesOf();
    expect(renamed).toContainEqual({ columns: ["brand_id"], unique: false });
    expect(renamed).toContainEqual({ columns: ["brand_id", "sku"], unique: true });
    expect(renamed.some((i) => i.columns.includes("maker_id"))).toBe(false);
    expect((await ctx.h.request("PATCH", api("/tables/products/columns/brand_id"), { body: { name: "maker_id" } })).status).toBe(200);
    expect(new Set((await indexesOf()).map((i) => i.columns.join())).size).toBe((await indexesOf()).length);
  });

  it("keeps every index through type changes (a table rebuild on SQLite, a converted column on MariaDB)", async () => {
    await renameCategory();
    const toText = await ctx.h.request("PATCH", api("/tables/products/columns/price"), { body: { type: "varchar", length: 30 } });
    expect(toText.status, toText.text).toBe(200);
    const nullable = await ctx.h.request("PATCH", api("/tables/products/columns/kind"), { body: { nullable: true, length: 40 } });
    expect(nullable.status, nullable.text).toBe(200);
    const found = await indexesOf();
    expect(found).toContainEqual({ columns: ["kind"], unique: false });
    expect(found).toContainEqual({ columns: ["kind", "price"], unique: false });
    expect(found).toContainEqual({ columns: ["maker_id", "sku"], unique: true });
    expect(found).toContainEqual({ columns: ["maker_id"], unique: false });
    expect(found).toContainEqual({ columns: ["sku"], unique: true });
    const rows = await list(ctx.h, `/v1/${instance}/products?kind=c1&_sort=-price`);
    expect(rows.map((p) => Number(p.price))).toEqual([5, 3]);
  });

  it("keeps every index through a table rename", async () => {
    await renameCategory();
    const r = await ctx.h.request("PATCH", api("/tables/products"), { body: { name: "items" } });
    expect(r.status, r.text).toBe(200);
    const found = await indexesOf("items");
    expect(found).toContainEqual({ columns: ["kind", "price"], unique: false });
    expect(found).toContainEqual({ columns: ["maker_id", "sku"], unique: true });
    expect(found).toContainEqual({ columns: ["kind"], unique: false });
    expect((await getTable("items")).indexes.map((i: { name: string }) => i.name)).toEqual(["category_price", "maker_sku"]);
    const back = await ctx.h.request("PATCH", api("/tables/items"), { body: { name: "products" } });
    expect(back.status, back.text).toBe(200);
  });

  it("refuses bad input with a 422 naming the field, changing nothing", async () => {
    await renameCategory();
    const before = { table: await getTable("products"), engine: await indexesOf() };
    const cases: [unknown, string, string][] = [
      [{ columns: ["kind", "nope"] }, "columns[1]", "unknown_column"],
      [{ columns: ["kind", "price"] }, "columns", "duplicate"],
      [{ columns: ["price", "kind"], name: "maker_sku" }, "name", "duplicate"],
      [{ columns: ["kind"] }, "columns", "out_of_range"],
      [{ columns: ["kind", "notes"] }, "columns", "not_indexable"],
      [{ columns: ["kind", "kind"] }, "columns[1]", "duplicate"],
      [{ columns: ["kind", "price"], name: "Bad Name" }, "name", "invalid_name"],
      [{ columns: ["kind", "price"], sorted: true }, "sorted", "unknown_property"],
    ];
    for (const [body, field, code] of cases) {
      const r = await ctx.h.request("POST", api("/tables/products/indexes"), { body });
      expectError(r, 422, "validation_failed", [field]);
      expect(r.body.errors.find((e: { field: string }) => e.field === field).code, JSON.stringify(body)).toBe(code);
    }
    const columnCases: [string, unknown, string][] = [
      ["POST", { name: "body", type: "text", index: true }, "index"],
      ["POST", { name: "big", type: "varchar", length: 1000, index: true }, "index"],
      ["POST", { name: "flag", type: "boolean", index: "yes" }, "index"],
    ];
    for (const [method, body, field] of columnCases) expectError(await ctx.h.request(method, api("/tables/products/columns"), { body }), 422, "validation_failed", [field]);
    const create = await ctx.h.request("POST", api("/tables"), { body: { name: "other", columns: [{ name: "a", type: "int" }], indexes: [{ columns: ["a", "b"] }] } });
    expectError(create, 422, "validation_failed", ["indexes[0].columns[1]"]);
    expect((await ctx.h.request("GET", api("/tables/other"))).status).toBe(404);
    expect(await getTable("products")).toEqual(before.table);
    expect(await indexesOf()).toEqual(before.engine);
  });

  it("refuses a unique index over repeated values and a type change an index cannot hold, leaving the schema as it was", async () => {
    await renameCategory();
    const [first] = await list(ctx.h, `/v1/${instance}/products?sku=s1`);
    await insert(ctx.h, `/v1/${instance}/products`, { kind: first.kind, maker_id: first.maker_id, sku: "s4" });
    const before = { table: await getTable("products"), engine: await indexesOf() };
    const unique = await ctx.h.request("POST", api("/tables/products/indexes"), { body: { columns: ["kind", "maker_id"], unique: true } });
    expectError(unique, 422, "validation_failed", ["unique"]);
    const toText = await ctx.h.request("PATCH", api("/tables/products/columns/price"), { body: { type: "text" } });
    expectError(toText, 409, "conflict");
    expect(toText.body.message).toContain('index "category_price"');
    expect(await getTable("products")).toEqual(before.table);
    expect(await indexesOf()).toEqual(before.engine);
  });

  it("adds and deletes an index by name through the table's indexes routes", async () => {
    await renameCategory();
    const add = await ctx.h.request("POST", api("/tables/products/indexes"), { body: { columns: ["maker_id", "created_at"], name: "by_maker" } });
    expect(add.status, add.text).toBe(201);
    expect(add.body).toEqual({ name: "by_maker", columns: ["maker_id", "created_at"], unique: false });
    expect(await indexesOf()).toContainEqual({ columns: ["maker_id", "created_at"], unique: false });
    const unique = await ctx.h.request("POST", api("/tables/products/indexes"), { body: { columns: ["sku", "kind"], unique: true } });
    expect(unique.status, unique.text).toBe(201);
    expect(await indexesOf()).toContainEqual({ columns: ["sku", "kind"], unique: true });
    const del = await ctx.h.request("DELETE", api("/tables/products/indexes/by_maker"));
    expect(del.status, del.text).toBe(204);
    expect((await indexesOf()).some((i) => i.columns.join() === "maker_id,created_at")).toBe(false);
    expectError(await ctx.h.request("DELETE", api("/tables/products/indexes/by_maker")), 404, "not_found");
  });

  it("drops the indexes containing a dropped column, and keeps the others", async () => {
    await renameCategory();
    const sorted = await ctx.h.request("POST", api("/tables/products/indexes"), { body: { columns: ["sku", "kind"], unique: true } });
    expect(sorted.status, sorted.text).toBe(201);
    const r = await ctx.h.request("DELETE", api("/tables/products/columns/price"));
    expect(r.status, r.text).toBe(204);
    const found = await indexesOf();
    expect(found.some((i) => i.columns.includes("price"))).toBe(false);
    expect(found).toContainEqual({ columns: ["kind"], unique: false });
    expect(found).toContainEqual({ columns: ["maker_id", "sku"], unique: true });
    expect((await getTable("products")).indexes.map((i: { name: string }) => i.name)).toEqual(["maker_sku", "sku_kind"]);
    const maker = await ctx.h.request("DELETE", api("/tables/products/columns/maker_id"));
    expect(maker.status, maker.text).toBe(204);
    const after = await indexesOf();
    expect(after.some((i) => i.columns.includes("maker_id"))).toBe(false);
    expect(after).toContainEqual({ columns: ["sku", "kind"], unique: true });
    expect((await getTable("products")).indexes.map((i: { name: string }) => i.name)).toEqual(["sku_kind"]);
  });
});
