// Join definitions as schema objects: validation against the live schema, one namespace with tables, and how
// renames and drops of the tables and columns they use are handled. Every engine, node adapter (the
// management core is adapter-independent; the data suite covers both adapters).
import { beforeEach, describe, expect, it } from "vitest";
import { ENGINES } from "../helpers/harness";
import { expect422, expectError, list, useHarness } from "../contract/contract-helpers";
import { BOOKS_JOIN, CATALOG, CATALOG_SQL, seedCatalog } from "./join-fixture";

describe.each(ENGINES.map((engine) => ({ engine, adapter: "node" as const })))("join definitions on $engine", (target) => {
  const ctx = useHarness(target);
  let instance = "";
  let base = "";
  let mgmt = "";
  let n = 0;

  beforeEach(async () => {
    ({ instance, base } = await seedCatalog(ctx.h, `Join defs ${++n}`));
    mgmt = `/api/v1/databases/${instance}/joins`;
  });
  const create = (body: unknown) => ctx.h.request("POST", mgmt, { body });

  it("refuses definitions that do not fit the live schema, listing every problem", async () => {
    const reply = await create({
      name: "bad",
      base: "books",
      joins: [
        { table: "nope", on: [["books.author_id", "nope.id"]] },
        { table: "authors", on: [["books.title", "authors.id"]] },
      ],
      columns: [{ column: "books.title", as: "x" }, { column: "authors.missing" }, { column: "authors.name", as: "x" }],
    });
    expect422(reply, "joins[0].table", "joins[1].on[0]", "columns[1].column", "columns[2].as");
    expect(reply.body.errors.find((e: any) => e.field === "joins[1].on[0]").message).toBe(
      "joins[1].on[0]: books.title (varchar) and authors.id (bigint) cannot be compared as keys",
    );
    expect422(await create({ ...BOOKS_JOIN, name: "Bad Name" }), "name");
    expect422(await create({ ...BOOKS_JOIN, name: "x", joins: [] }), "joins");
    expect422(await create({ ...BOOKS_JOIN, name: "x", columns: [{ column: "books.title", as: "has space" }] }), "columns[0].as");
    expect422(await create({ ...BOOKS_JOIN, name: "x", extra: 1 }), "extra");
    expect422(await create({ name: "x", sql: CATALOG_SQL, base: "books" }), "base");
    expect422(await create({ ...BOOKS_JOIN, name: "x", joins: [{ table: "authors", on: [["books.author_id", "categories.id"]] }] }), "joins[0].on[0]");
  });

  it("tables and joins share one namespace (409 either way)", async () => {
    expect((await create(BOOKS_JOIN)).status).toBe(201);
    expectError(await create(BOOKS_JOIN), 409, "conflict");
    expectError(await create({ ...BOOKS_JOIN, name: "authors" }), 409, "conflict");
    const table = await ctx.h.request("POST", `/api/v1/databases/${instance}/tables`, { body: { name: "catalog", columns: [{ name: "x", type: "int" }] } });
    expectError(table, 409, "conflict");
    expect(table.body.message).toMatch(/catalog/);
    expectError(await ctx.h.request("PATCH", `/api/v1/databases/${instance}/tables/authors`, { body: { name: "catalog" } }), 409, "conflict");
  });

  it("renaming a column or a table a join uses updates the join, which keeps serving", async () => {
    expect((await create(BOOKS_JOIN)).status).toBe(201);
    expect((await create({ name: "from_sql", sql: CATALOG_SQL })).status).toBe(201);
    const renamed = await ctx.h.request("PATCH", `/api/v1/databases/${instance}/tables/authors/columns/name`, { body: { name: "full_name" } });
    expect(renamed.status, renamed.text).toBe(200);
    const table = await ctx.h.request("PATCH", `/api/v1/databases/${instance}/tables/categories`, { body: { name: "genres" } });
    expect(table.status, table.text).toBe(200);
    const join = (await ctx.h.request("GET", `${mgmt}/catalog`)).body;
    expect(join.columns).toContainEqual({ column: "authors.full_name", as: "author" });
    expect(join.joins[1]).toEqual({ table: "genres", on: [["books.category_id", "genres.id"]] });
    expect(await list(ctx.h, `${base}/catalog`)).toEqual(CATALOG);
    const fromSql = (await ctx.h.request("GET", `${mgmt}/from_sql`)).body;
    expect(fromSql.sql).toContain("`authors`.`full_name` AS `author`");
    expect(fromSql.sql).toContain("INNER JOIN `genres`");
    expect(await list(ctx.h, `${base}/from_sql`)).toEqual(CATALOG);
  });

  it("dropping a column or a table a join uses is refused with 409 naming the join", async () => {
    expect((await create(BOOKS_JOIN)).status).toBe(201);
    const column = await ctx.h.request("DELETE", `/api/v1/databases/${instance}/tables/authors/columns/country`);
    expect({ status: column.status, body: column.body }).toEqual({
      status: 409,
      body: { error: "conflict", message: 'Column "authors.country" is used by join "catalog"; change or delete the join first.' },
    });
    // A table no other table references, so only the join blocks dropping it.
    const notes = await ctx.h.request("POST", `/api/v1/databases/${instance}/tables`, { body: { name: "notes", columns: [{ name: "book_id", type: "bigint" }] } });
    expect(notes.status, notes.text).toBe(201);
    const noted = { name: "noted", base: "books", joins: [{ table: "notes", on: [["notes.book_id", "books.id"]] }], columns: [{ column: "books.title" }] };
    expect((await create(noted)).status).toBe(201);
    const table = await ctx.h.request("DELETE", `/api/v1/databases/${instance}/tables/notes`);
    expect({ status: table.status, body: table.body }).toEqual({
      status: 409,
      body: { error: "conflict", message: 'Table "notes" is used by join "noted"; change or delete the join first.' },
    });
    expect((await ctx.h.request("DELETE", `/api/v1/databases/${instance}/tables/categories/columns/public`)).status, "a column no join uses drops").toBe(204);
  });

  it("PATCH renames a join (its SQL kept) or replaces its structure; DELETE removes it (204, then 404)", async () => {
    expect((await create({ name: "cat", sql: CATALOG_SQL })).status).toBe(201);
    const renamed = await ctx.h.request("PATCH", `${mgmt}/cat`, { body: { name: "cat2" } });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body.sql).toBe(CATALOG_SQL);
    const narrowed = await ctx.h.request("PATCH", `${mgmt}/cat2`, { body: { columns: [{ column: "books.title" }] } });
    expect(narrowed.status, narrowed.text).toBe(200);
    expect(narrowed.body.sql).toBeUndefined();
    expect(await list(ctx.h, `${base}/cat2?_sort=-title`)).toEqual([{ title: "The Dispossessed" }, { title: "Lathe of Heaven" }, { title: "Earthsea" }, { title: "all about love" }]);
    expect((await ctx.h.request("DELETE", `${mgmt}/cat2`)).status).toBe(204);
    expectError(await ctx.h.request("GET", `${mgmt}/cat2`), 404, "not_found");
    expectError(await ctx.h.request("GET", `${base}/cat2`), 404, "not_found");
  });

  it("preview returns the structured form and the first rows without saving", async () => {
    const reply = await ctx.h.request("POST", `${mgmt}/preview`, { body: { sql: CATALOG_SQL } });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toEqual({ base: "books", joins: BOOKS_JOIN.joins, columns: BOOKS_JOIN.columns, rows: CATALOG });
    expect((await ctx.h.request("GET", mgmt)).body).toEqual([]);
  });

  it("the join is its own path in the database's OpenAPI document, with its output columns", async () => {
    expect((await create(BOOKS_JOIN)).status).toBe(201);
    const doc = (await ctx.h.request("GET", `${base}/openapi.json`)).body;
    const path = doc.paths["/catalog"];
    expect(Object.keys(path)).toEqual(["get"]);
    expect(doc.paths["/catalog/{id}"]).toBeUndefined();
    const params = path.get.parameters.map((p: any) => p.name ?? p.$ref);
    expect(params).toEqual(expect.arrayContaining(["author", "category_in", "price_gte"]));
  });
});
