// The rules that once lived only in the services' hand parsers are part of the route schemas now: the
// management OpenAPI shows their limits, and an unknown property on any create or replace body is a 422
// naming it, over HTTP, before a service runs.
import { beforeAll, describe, expect, it } from "vitest";
import { ENGINES } from "../helpers/harness";
import { createDatabase, expectError, useHarness } from "./contract-helpers";

type Schema = Record<string, any>;

describe.each(ENGINES)("management schema rules (%s)", (engine) => {
  const ctx = useHarness({ engine, adapter: "node" });
  let instance = "";
  let schemas: Record<string, Schema> = {};

  beforeAll(async () => {
    instance = await createDatabase(ctx.h, "rules", [{ name: "items", columns: [{ name: "title", type: "varchar" }, { name: "qty", type: "int" }] }]);
    const doc = await ctx.h.request("GET", "/api/v1/openapi.json");
    expect(doc.status, doc.text).toBe(200);
    schemas = doc.body.components.schemas;
  });

  it("shows the hook step limits: expressions of at most 2000 characters, messages of 1 to 500", () => {
    const [set, assert] = schemas.HookStep.anyOf ?? schemas.HookStep.oneOf;
    expect(set.properties.expr).toMatchObject({ maxLength: 2000 });
    expect(assert.properties.assert).toMatchObject({ maxLength: 2000 });
    expect(assert.properties.message).toMatchObject({ minLength: 1, maxLength: 500 });
    expect(schemas.HooksInput.properties.insert.maxItems).toBe(20);
  });

  it("shows the column limits: type list, varchar length, decimal precision and scale, dropdown options", () => {
    const column = schemas.ColumnInput.properties;
    expect(column.type.enum).toEqual(expect.arrayContaining(["varchar", "decimal", "dropdown", "reference", "password"]));
    expect(column.length).toMatchObject({ minimum: 1, maximum: 16383 });
    expect(column.precision).toMatchObject({ minimum: 1, maximum: 65 });
    expect(column.scale).toMatchObject({ minimum: 0, maximum: 30 });
    expect(column.options).toMatchObject({ minItems: 1, maxItems: 255, items: { minLength: 1, maxLength: 255 } });
    expect(schemas.IndexInput.properties.columns).toMatchObject({ minItems: 2, maxItems: 16 });
  });

  it("shows the database name, CORS origin and policy limits", () => {
    expect(schemas.DatabaseCreate.properties.name).toMatchObject({ minLength: 1, maxLength: 80 });
    const origins = schemas.AuthSettingsInput.properties.cors_origins;
    expect(origins.maxItems).toBe(100);
    expect(new RegExp(origins.items.pattern).test("https://app.example.com:8443")).toBe(true);
    expect(new RegExp(origins.items.pattern).test("https://app.example.com/path")).toBe(false);
    expect(JSON.stringify(schemas.PoliciesInput.properties.select)).toContain('"maxLength":2000');
  });

  it("closes every create and replace body to unknown properties", () => {
    for (const name of ["DatabaseCreate", "TableInput", "ColumnInput", "ColumnPatch", "IndexInput", "AuthSettingsInput", "PoliciesInput", "HooksInput", "KeyCreate"]) {
      expect(schemas[name].additionalProperties, name).toBe(false);
    }
    for (const branch of schemas.JoinInput.oneOf ?? schemas.JoinInput.anyOf) expect(branch.additionalProperties).toBe(false);
  });

  const bodies: [string, string, () => string, Record<string, unknown>][] = [
    ["a database", "POST", () => "/api/v1/databases", { name: "x" }],
    ["a table", "POST", () => `/api/v1/databases/${instance}/tables`, { name: "more" }],
    ["a column", "POST", () => `/api/v1/databases/${instance}/tables/items/columns`, { name: "extra", type: "int" }],
    ["a column change", "PATCH", () => `/api/v1/databases/${instance}/tables/items/columns/qty`, { nullable: false }],
    ["an index", "POST", () => `/api/v1/databases/${instance}/tables/items/indexes`, { columns: ["title", "qty"] }],
    ["a join", "POST", () => `/api/v1/databases/${instance}/joins`, { name: "j", base: "items", joins: [], columns: [] }],
    ["auth settings", "PUT", () => `/api/v1/databases/${instance}/auth`, { enabled: false }],
    ["policies", "PUT", () => `/api/v1/databases/${instance}/tables/items/policies`, { select: "true" }],
    ["hooks", "PUT", () => `/api/v1/databases/${instance}/tables/items/hooks`, { insert: [] }],
    ["a key", "POST", () => "/api/v1/keys", { name: "k" }],
    ["a webhook", "POST", () => `/api/v1/databases/${instance}/webhooks`, { url: "https://example.com/hook" }],
  ];

  it.each(bodies)("should block an unknown property on %s (422 naming it), changing nothing", async (_what, method, path, body) => {
    const before = await ctx.h.request("GET", `/api/v1/databases/${instance}`);
    const reply = await ctx.h.request(method, path(), { body: { ...body, bogus: 1 } });
    expectError(reply, 422, "validation_failed");
    expect(reply.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field: "bogus", code: "unknown_property" })]));
    expect((await ctx.h.request("GET", `/api/v1/databases/${instance}`)).body).toEqual(before.body);
  });

  it("should allow the same column body without the unknown property", async () => {
    const reply = await ctx.h.request("POST", `/api/v1/databases/${instance}/tables/items/columns`, { body: { name: "extra", type: "int" } });
    expect(reply.status, reply.text).toBe(201);
  });

  it.each([
    ["an option on the wrong type", { name: "a", type: "int", options: ["x"] }, "options", "not_applicable"],
    ["scale above precision", { name: "a", type: "decimal", precision: 4, scale: 5 }, "scale", "out_of_range"],
    ["a repeated dropdown option", { name: "a", type: "dropdown", options: ["x", "x"] }, "options[1]", "duplicate"],
    ["a reference without its table", { name: "a", type: "reference" }, "references", "required"],
    ["a default of the wrong type", { name: "a", type: "int", default: "x" }, "default", "invalid_type"],
    ["a reference to no table", { name: "a", type: "reference", references: "nosuch" }, "references", "unknown_table"],
  ])("should block a column with %s (422 naming the field)", async (_what, body, field, code) => {
    const reply = await ctx.h.request("POST", `/api/v1/databases/${instance}/tables/items/columns`, { body });
    expectError(reply, 422, "validation_failed", [field]);
    expect(reply.body.errors).toEqual([expect.objectContaining({ field, code })]);
  });
});
