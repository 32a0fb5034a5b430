// The live OpenAPI document of a database (spec §1 "updates the documentation immediately"; PRODUCT
// "GET /openapi.json", "OpenAPI lists every operation, PATCH included").
import { beforeAll, describe, expect, it } from "vitest";
import { createDatabase, expect401, expectError, insert, list, MATRIX, useHarness } from "./contract-helpers";

/** The record schema of a table's list response, following one $ref into components. */
const recordSchema = (doc: any, table: string) => {
  const items = doc.paths[`/${table}`].get.responses["200"].content["application/json"].schema.items;
  if (!items.$ref) return items;
  const name = decodeURIComponent(items.$ref.replace("#/components/schemas/", "")).replace(/~1/g, "/").replace(/~0/g, "~");
  return doc.components.schemas[name];
};

describe.each(MATRIX)("OpenAPI document on $engine via $adapter", (target) => {
  const ctx = useHarness(target);
  let instance = "";

  beforeAll(async () => {
    instance = await createDatabase(ctx.h, "Docs", [
      { name: "books", columns: [{ name: "title", type: "varchar", nullable: false }, { name: "price", type: "decimal" }] },
      { name: "order_items", columns: [{ name: "qty", type: "int" }] },
    ]);
  });

  it("answers 200 with an OpenAPI 3.1.0 document listing every table's paths and operations", async () => {
    const reply = await ctx.h.request("GET", `/v1/${instance}/openapi.json`);
    expect(reply.status).toBe(200);
    expect(reply.headers.get("content-type")).toMatch(/^application\/json/);
    const doc = reply.body;
    expect(doc.openapi).toBe("3.1.0");
    for (const table of ["books", "order_items"]) {
      expect(Object.keys(doc.paths[`/${table}`]).filter((k) => k !== "parameters").sort()).toEqual(["delete", "get", "patch", "post"]);
      expect(Object.keys(doc.paths[`/${table}/{id}`]).filter((k) => k !== "parameters").sort()).toEqual(["delete", "get", "patch", "put"]);
    }
    expect(Object.keys(recordSchema(doc, "books").properties)).toEqual(expect.arrayContaining(["id", "title", "price", "created_at", "updated_at"]));
  });

  it.each(["POST", "PUT", "PATCH", "DELETE"])("answers %s on openapi.json with 405 and Allow: GET", async (method) => {
    const reply = await ctx.h.request(method, `/v1/${instance}/openapi.json`, { body: method === "DELETE" ? undefined : {} });
    expectError(reply, 405, "method_not_allowed");
    expect(reply.headers.get("allow")).toMatch(/\bGET\b/);
  });

  it("is refused without a key with 401", async () => {
    expect401(await ctx.h.request("GET", `/v1/${instance}/openapi.json`, { key: null }));
  });

  it("shows a column added through the management API in the very next fetch, and the column works at once", async () => {
    const before = (await ctx.h.request("GET", `/v1/${instance}/openapi.json`)).body;
    expect(Object.keys(recordSchema(before, "books").properties)).not.toContain("isbn");
    const added = await ctx.h.request("POST", `/api/v1/databases/${instance}/tables/books/columns`, { body: { name: "isbn", type: "varchar", length: 20 } });
    expect(added.status, added.text).toBe(201);
    const after = (await ctx.h.request("GET", `/v1/${instance}/openapi.json`)).body;
    expect(Object.keys(recordSchema(after, "books").properties)).toContain("isbn");
    const book = await insert(ctx.h, `/v1/${instance}/books`, { title: "Dune", isbn: "978-0441013593" });
    expect(book.isbn).toBe("978-0441013593");
    expect((await list(ctx.h, `/v1/${instance}/books?isbn=978-0441013593`)).map((b) => b.id)).toEqual([book.id]);
  });

  it("shows a table added through the management API in the very next fetch", async () => {
    const added = await ctx.h.request("POST", `/api/v1/databases/${instance}/tables`, { body: { name: "reviews", columns: [{ name: "stars", type: "int" }] } });
    expect(added.status, added.text).toBe(201);
    const doc = (await ctx.h.request("GET", `/v1/${instance}/openapi.json`)).body;
    expect(doc.paths["/reviews"]).toBeDefined();
    expect(doc.paths["/reviews/{id}"].patch).toBeDefined();
  });
});
