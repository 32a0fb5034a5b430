// The data API's OpenAPI documents only the errors an operation can answer (checked against real replies):
// 403 only with database auth on; 409 on every table operation (schema_changed: the schema changed while the
// request ran, see tests/reliability/schema-churn.test.ts), as a conflict too on writes with a unique column and
// on DELETE when referenced.
// 503 everywhere (an unreachable database, tests/ops/outage.test.ts).
import { beforeAll, describe, expect, it } from "vitest";
import { createDatabase, expectError, useHarness } from "../contract/contract-helpers";
import { ENGINES } from "../helpers/harness";
import { enableAuth } from "../security/security-fixture";

type Doc = { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
const codes = (doc: Doc, path: string, method: string) => Object.keys(doc.paths[path][method].responses).sort();

describe.each(ENGINES)("data OpenAPI error responses (%s)", (engine) => {
  const ctx = useHarness({ engine, adapter: "node" });
  let db = "";
  const openapi = async () => (await ctx.h.request("GET", `/v1/${db}/openapi.json`)).body as Doc;

  beforeAll(async () => {
    db = await createDatabase(ctx.h, "errdocs", [
      { name: "users", columns: [{ name: "email", type: "varchar", unique: true, nullable: false }, { name: "password", type: "password", nullable: false }] },
      { name: "tags", columns: [{ name: "label", type: "varchar" }] },
      { name: "posts", columns: [{ name: "title", type: "varchar" }, { name: "tag_id", type: "reference", references: "tags" }] },
    ]);
  });

  it("without database auth: no 403 anywhere, no 429; 409 says which conflicts can happen", async () => {
    const doc = await openapi();
    const described = (path: string, method: string) => (doc.paths[path][method].responses["409"] as { $ref: string }).$ref;
    expect(codes(doc, "/tags", "get")).toEqual(["200", "401", "404", "409", "422", "500", "503"]);
    // 200: an upsert's merged row (Prefer: resolution=merge-duplicates).
    expect(codes(doc, "/tags", "post")).toEqual(["200", "201", "401", "404", "409", "413", "422", "500", "503"]);
    expect(described("/tags", "post")).toBe("#/components/responses/SchemaChanged");
    expect(codes(doc, "/users", "post")).toEqual(["200", "201", "401", "404", "409", "413", "422", "500", "503"]);
    expect(described("/users", "post")).toBe("#/components/responses/Conflict");
    expect(codes(doc, "/tags/{id}", "delete")).toEqual(["204", "401", "404", "409", "500", "503"]);
    expect(described("/tags/{id}", "delete")).toBe("#/components/responses/Conflict");
    expect(codes(doc, "/posts/{id}", "delete")).toEqual(["204", "401", "404", "409", "500", "503"]);
    expect(described("/posts/{id}", "delete")).toBe("#/components/responses/SchemaChanged");
    expect(codes(doc, "/openapi.json", "get")).toEqual(["200", "401", "404", "500", "503"]);
  });

  it("each documented 409 is a real reply: a duplicate unique value, and deleting a referenced row", async () => {
    const { h } = ctx;
    expect((await h.request("POST", `/v1/${db}/users`, { body: { email: "x@example.com", password: "long-enough-1" } })).status).toBe(201);
    expectError(await h.request("POST", `/v1/${db}/users`, { body: { email: "x@example.com", password: "long-enough-1" } }), 409, "conflict");
    const tag = await h.request("POST", `/v1/${db}/tags`, { body: { label: "t" } });
    expect((await h.request("POST", `/v1/${db}/posts`, { body: { title: "p", tag_id: tag.body.id } })).status).toBe(201);
    expectError(await h.request("DELETE", `/v1/${db}/tags/${tag.body.id}`), 409, "conflict");
  });

  it("with database auth on: 403 is documented, as JWT users meet policies", async () => {
    await enableAuth(ctx.h, db);
    const doc = await openapi();
    expect(codes(doc, "/tags", "get")).toEqual(["200", "401", "403", "404", "409", "422", "500", "503"]);
    expect(codes(doc, "/posts/{id}", "patch")).toEqual(["200", "401", "403", "404", "409", "413", "422", "500", "503"]);
  });
});
