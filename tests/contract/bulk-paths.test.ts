// `POST /{table}/_bulk` and `POST /{table}/_upsert`: an array in, an array out, whatever the body holds, so a
// generated client types each answer exactly; `POST /{table}` keeps answering one record for one object and an
// array for an array. Both engines, both adapters.
import { beforeAll, describe, expect, it } from "vitest";
import { createDatabase, list, useHarness } from "./contract-helpers";
import { type Adapter, ENGINES } from "../helpers/harness";

const TARGETS = ENGINES.flatMap((engine) => (["node", "route"] as Adapter[]).map((adapter) => ({ engine, adapter })));

describe.each(TARGETS)("bulk paths on $engine through $adapter", (target) => {
  const ctx = useHarness(target);
  let db = "";
  const items = () => list(ctx.h, `/v1/${db}/items?_limit=1000`);

  beforeAll(async () => {
    db = await createDatabase(ctx.h, "bulk", [
      {
        name: "items",
        columns: [
          { name: "sku", type: "varchar", unique: true, nullable: false },
          { name: "qty", type: "int" },
        ],
      },
    ]);
  });

  it("_bulk creates every record of the array in body order and answers the array, also for one record", async () => {
    const many = await ctx.h.request("POST", `/v1/${db}/items/_bulk`, { body: [{ sku: "b-1", qty: 1 }, { sku: "b-2", qty: 2 }] });
    expect(many.status, many.text).toBe(201);
    expect(many.body.map((r: { sku: string }) => r.sku)).toEqual(["b-1", "b-2"]);
    const one = await ctx.h.request("POST", `/v1/${db}/items/_bulk`, { body: [{ sku: "b-3" }] });
    expect(one.status, one.text).toBe(201);
    expect(Array.isArray(one.body)).toBe(true);
    expect(one.body).toHaveLength(1);
    expect((await items()).map((r) => r.sku)).toEqual(expect.arrayContaining(["b-1", "b-2", "b-3"]));
  });

  it("_bulk is all or nothing and names the refused value by its position", async () => {
    const before = (await items()).length;
    const refused = await ctx.h.request("POST", `/v1/${db}/items/_bulk`, { body: [{ sku: "c-1" }, { qty: "many" }] });
    expect(refused.status, refused.text).toBe(422);
    expect(refused.body.errors.map((e: { field: string }) => e.field)).toEqual(expect.arrayContaining(["[1].sku", "[1].qty"]));
    expect(await items()).toHaveLength(before);
  });

  it("_bulk and _upsert refuse a body that is not an array, naming the body, and take POST only", async () => {
    for (const path of ["_bulk", "_upsert?_on_conflict=sku"]) {
      const single = await ctx.h.request("POST", `/v1/${db}/items/${path}`, { body: { sku: "d-1" } });
      expect(single.status, single.text).toBe(422);
      expect(single.body.errors).toEqual([expect.objectContaining({ field: "body", code: "array_required" })]);
      const get = await ctx.h.request("GET", `/v1/${db}/items/${path}`);
      expect(get.status).toBe(405);
      expect(get.headers.get("allow")).toContain("POST");
    }
    expect((await items()).some((r) => r.sku === "d-1")).toBe(false);
  });

  it("_upsert merges or creates each record without a Prefer header and answers [{status, record}] for any count", async () => {
    const first = await ctx.h.request("POST", `/v1/${db}/items/_upsert?_on_conflict=sku`, { body: [{ sku: "u-1", qty: 1 }] });
    expect(first.status, first.text).toBe(201);
    expect(first.body).toEqual([{ status: 201, record: expect.objectContaining({ sku: "u-1", qty: 1 }) }]);
    const mixed = await ctx.h.request("POST", `/v1/${db}/items/_upsert?_on_conflict=sku`, { body: [{ sku: "u-1", qty: 5 }, { sku: "u-2", qty: 2 }] });
    expect(mixed.status, mixed.text).toBe(201);
    expect(mixed.body.map((o: { status: number; record: { sku: string; qty: number } }) => [o.status, o.record.sku, o.record.qty])).toEqual([
      [200, "u-1", 5],
      [201, "u-2", 2],
    ]);
    const merged = await ctx.h.request("POST", `/v1/${db}/items/_upsert?_on_conflict=sku`, { body: [{ sku: "u-2", qty: 9 }] });
    expect(merged.status, merged.text).toBe(200);
    expect(merged.body).toEqual([{ status: 200, record: expect.objectContaining({ sku: "u-2", qty: 9 }) }]);
  });

  it("_upsert without _on_conflict is a 422 naming it, and writes nothing", async () => {
    const missing = await ctx.h.request("POST", `/v1/${db}/items/_upsert`, { body: [{ sku: "m-1" }] });
    expect(missing.status, missing.text).toBe(422);
    expect(missing.body.errors).toEqual([expect.objectContaining({ field: "_on_conflict", code: "required" })]);
    expect((await items()).some((r) => r.sku === "m-1")).toBe(false);
  });

  it("POST /{table} still answers one record for an object and an array for an array", async () => {
    const one = await ctx.h.request("POST", `/v1/${db}/items`, { body: { sku: "p-1" } });
    expect(one.status).toBe(201);
    expect(one.body).toMatchObject({ sku: "p-1" });
    const many = await ctx.h.request("POST", `/v1/${db}/items`, { body: [{ sku: "p-2" }] });
    expect(many.status).toBe(201);
    expect(many.body).toEqual([expect.objectContaining({ sku: "p-2" })]);
  });

  it("the OpenAPI document gives each path one answer type", async () => {
    const doc = (await ctx.h.request("GET", `/v1/${db}/openapi.json`)).body;
    const create = doc.paths["/items"].post;
    expect(create.requestBody.content["application/json"].schema).toEqual({ $ref: "#/components/schemas/Items.Create" });
    expect(create.responses["201"].content["application/json"].schema).toEqual({ $ref: "#/components/schemas/Items" });
    const bulk = doc.paths["/items/_bulk"].post;
    expect(bulk.responses["201"].content["application/json"].schema).toEqual({ type: "array", items: { $ref: "#/components/schemas/Items" } });
    const upsert = doc.paths["/items/_upsert"].post;
    expect(upsert.parameters).toEqual([expect.objectContaining({ name: "_on_conflict", required: true, schema: { type: "string", enum: ["id", "sku"] } })]);
    expect(upsert.responses["200"].content["application/json"].schema.items.properties.record).toEqual({ $ref: "#/components/schemas/Items" });
  });
});
