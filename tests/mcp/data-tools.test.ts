// The data MCP server at /v1/{db}/mcp, driven by the SDK's client over Streamable HTTP on every engine and
// through both adapters: tools whose schemas come from the live schema, reads with the data API's grammar,
// writes through the write kernel, and bad input answered as error results that name the problem.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase, insert, list, MATRIX, useHarness } from "../contract/contract-helpers";
import { call, connectMcp, resultJson } from "./mcp-client";

describe.each(MATRIX)("data MCP server on $engine via $adapter", (target) => {
  const ctx = useHarness(target);
  let db: string;
  let client: Client;
  let authors: { id: number }[];

  beforeAll(async () => {
    db = await createDatabase(ctx.h, `mcp data ${target.engine}`, [
      { name: "authors", columns: [{ name: "name", type: "varchar", nullable: false }] },
      {
        name: "books",
        columns: [
          { name: "title", type: "varchar", nullable: false },
          { name: "genre", type: "dropdown", options: ["scifi", "poetry"], nullable: false },
          { name: "price", type: "decimal" },
          { name: "in_print", type: "boolean", nullable: false, default: true },
          { name: "author_id", type: "reference", references: "authors" },
        ],
      },
    ]);
    authors = await insert(ctx.h, `/v1/${db}/authors`, [{ name: "Le Guin" }, { name: "Oliver" }]);
    await insert(ctx.h, `/v1/${db}/books`, [
      { title: "The Dispossessed", genre: "scifi", price: 9.5, author_id: authors[0].id },
      { title: "The Lathe of Heaven", genre: "scifi", price: 7.25, author_id: authors[0].id },
      { title: "Dream Work", genre: "poetry", price: 12, author_id: authors[1].id },
    ]);
    const join = await ctx.h.request("POST", `/api/v1/databases/${db}/joins`, {
      body: {
        name: "books_by_author",
        base: "books",
        joins: [{ table: "authors", on: [["books.author_id", "authors.id"]] }],
        columns: [{ column: "books.id", as: "id" }, { column: "books.title", as: "title" }, { column: "authors.name", as: "author" }],
      },
    });
    expect(join.status, join.text).toBe(201);
    client = await connectMcp(ctx.h, `/v1/${db}/mcp`, { "x-api-key": ctx.h.accountKey });
  });
  afterAll(async () => {
    await client?.close();
  });

  it("lists the data tools with annotations and input schemas from the live schema (dropdown enums, required columns)", async () => {
    const { tools } = await client.listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(Object.keys(byName).sort()).toEqual(["aggregate", "create_rows", "delete_rows", "describe_table", "get_row", "list_tables", "query_rows", "update_rows"]);
    expect(byName.query_rows.annotations).toMatchObject({ readOnlyHint: true });
    expect(byName.delete_rows.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(byName.create_rows.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    const create = byName.create_rows.inputSchema as any;
    expect(create.properties.table.enum).toEqual(["authors", "books"]);
    expect((byName.query_rows.inputSchema as any).properties.table.enum).toEqual(["authors", "books", "books_by_author"]);
    expect(create.required).toEqual(["table", "rows"]);
    const books = create.allOf.find((b: any) => b.if.properties.table.const === "books").then.properties.rows.items;
    expect(books.properties.genre.enum).toEqual(["scifi", "poetry"]);
    expect(books.required).toEqual(["title", "genre"]);
    expect(books.additionalProperties).toBe(false);
    const query = (byName.query_rows.inputSchema as any).allOf.find((b: any) => b.if.properties.table.const === "books").then.properties;
    expect(query.filters.properties.genre.enum).toEqual(["scifi", "poetry"]);
    expect(Object.keys(query.filters.properties)).toEqual(expect.arrayContaining(["price_lt", "title_ilike", "author_id_in", "genre_null"]));
    expect(query._expand.anyOf[0].items.enum).toEqual(["author_id"]);
  });

  it("list_tables and describe_table answer the schema; the schema is also a resource", async () => {
    const tables = resultJson(await call(client, "list_tables"));
    expect(tables.map((t: any) => [t.name, t.kind])).toEqual([["authors", "table"], ["books", "table"], ["books_by_author", "join"]]);
    const books = resultJson(await call(client, "describe_table", { table: "books" }));
    expect(books.required_on_create).toEqual(["title", "genre"]);
    expect(books.columns.find((c: any) => c.name === "genre")).toMatchObject({ type: "dropdown", options: ["scifi", "poetry"] });
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual([`tabula://${db}/schema`]);
    const read = await client.readResource({ uri: `tabula://${db}/schema` });
    const doc = JSON.parse((read.contents[0] as { text: string }).text);
    expect(doc.tables.map((t: any) => t.name)).toEqual(["authors", "books"]);
    expect(doc.joins.map((j: any) => j.name)).toEqual(["books_by_author"]);
  });

  it("reads a join with query_rows; writes to it are refused as error results", async () => {
    const rows = resultJson(await call(client, "query_rows", { table: "books_by_author", filters: { author: "Oliver" } }));
    expect(rows).toEqual([{ id: expect.any(Number), title: "Dream Work", author: "Oliver" }]);
    const write = await call(client, "create_rows", { table: "books_by_author", rows: [{ title: "X" }] });
    expect([write.isError, resultJson(write).error]).toEqual([true, "method_not_allowed"]);
  });

  it("query_rows takes filters, _select, _sort and _expand, and pages by cursor", async () => {
    const result = await call(client, "query_rows", { table: "books", filters: { genre: "scifi", price_lt: 9 }, _select: ["title"], _expand: "author_id", count: true });
    expect(result.isError).toBeFalsy();
    expect(resultJson(result)).toEqual([{ id: expect.any(Number), title: "The Lathe of Heaven", expand: { author_id: expect.objectContaining({ name: "Le Guin" }) } }]);
    expect(JSON.parse((result.content[1] as { text: string }).text)).toEqual({ total: 1 });
    const first = await call(client, "query_rows", { table: "books", _sort: "-price", _limit: 2, _select: "title" });
    expect(resultJson(first).map((r: any) => r.title)).toEqual(["Dream Work", "The Dispossessed"]);
    const { next } = JSON.parse((first.content[1] as { text: string }).text);
    const second = await call(client, "query_rows", { table: "books", _sort: "-price", _limit: 2, _select: "title", _after: next._after });
    expect(resultJson(second).map((r: any) => r.title)).toEqual(["The Lathe of Heaven"]);
    expect(second.content).toHaveLength(1);
    const either = await call(client, "query_rows", { table: "books", _or: [{ genre: "poetry", price_lt: 8 }], _select: "title" });
    expect(resultJson(either).map((r: any) => r.title)).toEqual(["The Lathe of Heaven", "Dream Work"]);
  });

  it("get_row and aggregate answer the data API's JSON", async () => {
    const [book] = await list(ctx.h, `/v1/${db}/books?title=Dream%20Work`);
    expect(resultJson(await call(client, "get_row", { table: "books", id: book.id }))).toEqual(book);
    const groups = resultJson(await call(client, "aggregate", { table: "books", _group: "genre", _agg: ["count", "sum:price"], _sort: "-count" }));
    expect(groups).toEqual([
      { genre: "scifi", count: 2, sum_price: 16.75 },
      { genre: "poetry", count: 1, sum_price: 12 },
    ]);
  });

  it("creates, updates and deletes rows through the write kernel", async () => {
    const created = await call(client, "create_rows", { table: "books", rows: [{ title: "Wild Geese", genre: "poetry", author_id: authors[1].id }, { title: "Always Coming Home", genre: "scifi" }] });
    expect(created.isError, JSON.stringify(created)).toBeFalsy();
    const rows = resultJson(created);
    expect(rows.map((r: any) => [r.title, r.in_print])).toEqual([["Wild Geese", true], ["Always Coming Home", true]]);
    const one = resultJson(await call(client, "update_rows", { table: "books", id: rows[0].id, values: { price: 5 } }));
    expect(one).toMatchObject({ id: rows[0].id, price: 5 });
    expect(resultJson(await call(client, "update_rows", { table: "books", filters: { genre: "scifi", price_null: true }, values: { in_print: false } }))).toEqual({ affected: 1 });
    expect((await list(ctx.h, `/v1/${db}/books?in_print=false`)).map((r) => r.title)).toEqual(["Always Coming Home"]);
    const removed = await call(client, "delete_rows", { table: "books", filters: { in_print: false }, return_rows: true });
    expect(resultJson(removed).map((r: any) => r.title)).toEqual(["Always Coming Home"]);
    expect(resultJson(await call(client, "delete_rows", { table: "books", id: rows[0].id }))).toEqual({ deleted: true });
    expect((await list(ctx.h, `/v1/${db}/books`)).map((r) => r.title)).toEqual(["The Dispossessed", "The Lathe of Heaven", "Dream Work"]);
  });

  it("should block update_rows and delete_rows without a filter, changing nothing", async () => {
    for (const [name, args] of [["delete_rows", { table: "books" }], ["update_rows", { table: "books", values: { in_print: false } }]] as const) {
      const result = await call(client, name, args);
      expect(result.isError).toBe(true);
      expect(resultJson(result)).toMatchObject({ error: "validation_failed", errors: [expect.objectContaining({ field: "filter" })] });
    }
    expect(await list(ctx.h, `/v1/${db}/books?in_print=true`)).toHaveLength(3);
  });

  it.each([
    ["an unknown tool", "drop_everything", {}, { error: "not_found", message: expect.stringContaining('No tool "drop_everything"') }],
    ["an unknown table", "query_rows", { table: "nope" }, { error: "not_found", message: 'Table "nope" was not found in database "DB".' }],
    ["a value of the wrong type", "query_rows", { table: "books", _limit: "ten" }, { error: "validation_failed", errors: [expect.objectContaining({ field: "_limit" })] }],
    ["an unknown argument", "get_row", { table: "books", id: 1, colour: "red" }, { error: "validation_failed", errors: [expect.objectContaining({ field: "colour" })] }],
    ["a filter on an unknown column", "query_rows", { table: "books", filters: { colour: "red" } }, { error: "validation_failed", errors: [expect.objectContaining({ field: "colour" })] }],
    ["a parameter among the filters", "query_rows", { table: "books", filters: { _limit: 5 } }, { error: "validation_failed", errors: [expect.objectContaining({ field: "filters._limit" })] }],
    ["a value outside a dropdown's options", "create_rows", { table: "books", rows: [{ title: "X", genre: "horror" }] }, { error: "validation_failed", errors: [expect.objectContaining({ field: "[0].genre", code: "not_an_option" })] }],
    ["a missing required column", "create_rows", { table: "books", rows: [{ genre: "scifi" }, { title: "Y", genre: "scifi" }] }, { error: "validation_failed", errors: [expect.objectContaining({ field: "[0].title" })] }],
    ["an id beside filters", "delete_rows", { table: "books", id: 1, filters: { genre: "scifi" } }, { error: "validation_failed", errors: [expect.objectContaining({ field: "id" })] }],
  ])("answers %s with an error result naming it", async (_case, name, args, body) => {
    const result = await call(client, name, args);
    expect(result.isError).toBe(true);
    const named = "message" in body && typeof body.message === "string" ? { ...body, message: body.message.replace('"DB"', `"${db}"`) } : body;
    expect(resultJson(result)).toMatchObject(named);
    expect(await list(ctx.h, `/v1/${db}/books`)).toHaveLength(3);
  });

  it("answers HTTP as the data API does before any MCP: 401 without a key, 404 for an unknown database, 405 on GET", async () => {
    const post = (path: string, key: string | null) =>
      ctx.h.request("POST", path, { key, headers: { accept: "application/json, text/event-stream" }, body: { jsonrpc: "2.0", id: 1, method: "tools/list" } });
    expect((await post(`/v1/${db}/mcp`, null)).status).toBe(401);
    expect((await post(`/v1/${db}/mcp`, "sk_wrong")).status).toBe(401);
    const missing = await post("/v1/no_such_db/mcp", ctx.h.accountKey);
    expect([missing.status, missing.body.error]).toEqual([404, "not_found"]);
    const get = await ctx.h.request("GET", `/v1/${db}/mcp`);
    expect(get.status).toBe(405);
  });
});
