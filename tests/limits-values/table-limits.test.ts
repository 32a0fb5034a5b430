// Table limits of the management API, the same on both engines: columns per table (500), MySQL's row size
// (computed from the column types, so SQLite refuses what MariaDB would), reserved name prefixes, and column
// defaults checked like values (JSON depth, lone surrogates). Each is a 422 naming the field and the limit's
// code, and the schema is unchanged afterwards.
import { beforeAll, describe, expect, it } from "vitest";
import { createDatabase, expect422, MATRIX, useHarness } from "../contract/contract-helpers";
import { MAX_COLUMNS } from "../../lib/schema/table-limits";

const ints = (n: number, prefix = "c") => Array.from({ length: n }, (_, i) => ({ name: `${prefix}${i}`, type: "int" }));
const nested = (levels: number) => JSON.parse(`${"[".repeat(levels - 1)}1${"]".repeat(levels - 1)}`);

describe.each(MATRIX.filter((t) => t.adapter === "node"))("table limits ($engine)", (target) => {
  const ctx = useHarness(target);
  let db = "";
  const tables = () => `/api/v1/databases/${db}/tables`;
  const schemaOf = async (table: string) => (await ctx.h.request("GET", `${tables()}/${table}`)).text;

  beforeAll(async () => {
    db = await createDatabase(ctx.h, "tlimits", [{ name: "base", columns: [{ name: "title", type: "varchar", length: 6000 }] }]);
  });

  /** A refused create: 422 naming `field` with `code`, and no such table afterwards. */
  const refusedCreate = async (body: unknown, field: string, code: string) => {
    const reply = await ctx.h.request("POST", tables(), { body });
    expect422(reply, field);
    expect(reply.body.errors.find((e: { field: string }) => e.field === field).code).toBe(code);
    expect((await ctx.h.request("GET", `${tables()}/${(body as { name: string }).name}`)).status).toBe(404);
  };

  /** A refused column change: 422 naming `field` with `code`, and the table's definition unchanged. */
  const refusedColumn = async (method: string, url: string, body: unknown, field: string, code: string) => {
    const before = await schemaOf("base");
    const reply = await ctx.h.request(method, url, { body });
    expect422(reply, field);
    expect(reply.body.errors.find((e: { field: string }) => e.field === field).code).toBe(code);
    expect(await schemaOf("base")).toBe(before);
  };

  it(`should create a table of ${MAX_COLUMNS} columns and refuse ${MAX_COLUMNS + 1}, or a ${MAX_COLUMNS + 1}st added`, async () => {
    await refusedCreate({ name: "wide_x", columns: ints(MAX_COLUMNS + 1) }, "columns", "too_many_columns");
    const wide = await ctx.h.request("POST", tables(), { body: { name: "wide", columns: ints(MAX_COLUMNS) } });
    expect(wide.status, wide.text).toBe(201);
    const before = await schemaOf("wide");
    const added = await ctx.h.request("POST", `${tables()}/wide/columns`, { body: { name: "one_more", type: "int" } });
    expect422(added, "type");
    expect(added.body.errors[0].code).toBe("too_many_columns");
    expect(await schemaOf("wide")).toBe(before);
  });

  it("should refuse a row over MySQL's 65,535 bytes on create, add and change, naming row_too_large", async () => {
    const long = (name: string) => ({ name, type: "varchar", length: 6000 });
    await refusedCreate({ name: "fat", columns: [long("a"), long("b"), long("c")] }, "columns", "row_too_large");
    await refusedColumn("POST", `${tables()}/base/columns`, { name: "more", type: "varchar", length: 12000 }, "length", "row_too_large");
    const second = await ctx.h.request("POST", `${tables()}/base/columns`, { body: { name: "second", type: "varchar", length: 100 } });
    expect(second.status, second.text).toBe(201);
    await refusedColumn("PATCH", `${tables()}/base/columns/second`, { length: 12000 }, "length", "row_too_large");
  });

  it("should refuse a row whose page part is over InnoDB's 8,126 bytes (many short varchars)", async () => {
    await refusedCreate({ name: "many", columns: Array.from({ length: 40 }, (_, i) => ({ name: `v${i}`, type: "varchar", length: 60 })) }, "columns", "row_too_large");
    const fits = await ctx.h.request("POST", tables(), { body: { name: "fewer", columns: Array.from({ length: 30 }, (_, i) => ({ name: `v${i}`, type: "varchar", length: 60 })) } });
    expect(fits.status, fits.text).toBe(201);
  });

  it("should refuse names starting with sqlite_ or _ for tables and columns", async () => {
    await refusedCreate({ name: "sqlite_stat", columns: [] }, "name", "reserved_name");
    await refusedCreate({ name: "_hidden", columns: [] }, "name", "invalid_name");
    await refusedColumn("POST", `${tables()}/base/columns`, { name: "sqlite_x", type: "int" }, "name", "reserved_name");
    await refusedColumn("POST", `${tables()}/base/columns`, { name: "_x", type: "int" }, "name", "invalid_name");
    await refusedColumn("PATCH", `${tables()}/base/columns/title`, { name: "sqlite_title" }, "name", "reserved_name");
  });

  it("should check column defaults like values: 33-deep json, lone surrogates, non-finite", async () => {
    await refusedColumn("POST", `${tables()}/base/columns`, { name: "doc", type: "json", default: nested(33) }, "default", "too_deep");
    await refusedColumn("POST", `${tables()}/base/columns`, { name: "label", type: "varchar", default: "\ud800x" }, "default", "invalid_text");
    await refusedColumn("POST", `${tables()}/base/columns`, { name: "kind", type: "dropdown", options: ["a", "\udc00"] }, "options[1]", "invalid_text");
    const doc = await ctx.h.request("POST", `${tables()}/base/columns`, { body: { name: "doc", type: "json", default: nested(32) } });
    expect(doc.status, doc.text).toBe(201);
    await refusedColumn("PATCH", `${tables()}/base/columns/doc`, { default: nested(33) }, "default", "too_deep");
    const row = await ctx.h.request("POST", `/v1/${db}/base`, { body: { title: "uses the default" } });
    expect(row.status, row.text).toBe(201);
    expect(row.body.doc).toEqual(nested(32));
  });

  it("should ask for a value, not fail, when a default saved before these limits breaks them (33-deep json)", async () => {
    const { h } = ctx;
    const made = await h.request("POST", tables(), { body: { name: "legacy", columns: [{ name: "doc", type: "json", nullable: false, default: { a: 1 } }] } });
    expect(made.status, made.text).toBe(201);
    // Written to the metadata directly, as an older version accepted it.
    const row = await h.app.engine.meta.selectFrom("tables").select(["id", "columns"]).where("name", "=", "legacy").orderBy("id", "desc").executeTakeFirstOrThrow();
    const columns = JSON.parse(row.columns).map((c: { name: string }) => (c.name === "doc" ? { ...c, default: nested(33) } : c));
    await h.app.engine.meta.updateTable("tables").set({ columns: JSON.stringify(columns) }).where("id", "=", row.id).execute();
    h.app.schemas.clear();
    const reply = await h.request("POST", `/v1/${db}/legacy`, { body: {} });
    expect422(reply, "doc");
    expect(reply.body.errors[0].code).toBe("invalid_default");
    expect((await h.request("GET", `/v1/${db}/legacy`)).body).toEqual([]);
    const given = await h.request("POST", `/v1/${db}/legacy`, { body: { doc: [1] } });
    expect(given.status, given.text).toBe(201);
  });
});
