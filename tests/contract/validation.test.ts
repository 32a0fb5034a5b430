// Body validation (spec §7 422, PRODUCT "Bodies" and "No type coercion"), read-only automatic columns,
// references and unique columns (409 / 422).
import { beforeAll, describe, expect, it } from "vitest";
import { createDatabase, expect422, expectError, insert, list, MATRIX, useHarness } from "./contract-helpers";

const TABLES = [
  { name: "authors", columns: [{ name: "name", type: "varchar", nullable: false }] },
  {
    name: "products",
    columns: [
      { name: "name", type: "varchar", length: 10, nullable: false },
      { name: "qty", type: "int" },
      { name: "big", type: "bigint" },
      { name: "price", type: "decimal", precision: 6, scale: 2 },
      { name: "ratio", type: "float" },
      { name: "active", type: "boolean" },
      { name: "status", type: "dropdown", options: ["draft", "live"] },
      { name: "born", type: "date" },
      { name: "seen_at", type: "datetime" },
      { name: "data", type: "json" },
      { name: "note", type: "text" },
      { name: "sku", type: "varchar", length: 20, unique: true },
      { name: "author_id", type: "reference", references: "authors" },
    ],
  },
];

describe.each(MATRIX)("body validation on $engine via $adapter", (target) => {
  const ctx = useHarness(target);
  let base = "";
  let authorId = 0;

  beforeAll(async () => {
    const instance = await createDatabase(ctx.h, "Validation", TABLES);
    base = `/v1/${instance}`;
    authorId = (await insert(ctx.h, `${base}/authors`, { name: "Ann" })).id;
  });

  describe("POST refuses a bad value with 422 naming the column, and writes nothing", () => {
    it.each(([
      ["a string in an int column", { qty: "abc" }, "qty"],
      ["a numeric string in an int column", { qty: "12" }, "qty"],
      ["a fraction in an int column", { qty: 1.5 }, "qty"],
      ["an int above INT's range", { qty: 2147483648 }, "qty"],
      ["an int below INT's range", { qty: -2147483649 }, "qty"],
      ["1 in a boolean column", { active: 1 }, "active"],
      ["a string in a boolean column", { active: "true" }, "active"],
      ["a decimal with more places than its scale", { price: 1.234 }, "price"],
      ["a decimal beyond its precision", { price: 12345.5 }, "price"],
      ["a tiny decimal with more places than its scale", { price: 1e-21 }, "price"],
      ["the smallest double in a decimal column", { price: 5e-324 }, "price"],
      ["a numeric string in a decimal column", { price: "19.99" }, "price"],
      ["a string in a float column", { ratio: "0.5" }, "ratio"],
      ["a varchar longer than its length", { name: "eleven char" }, "name"],
      ["a number in a varchar column", { name: 42 }, "name"],
      ["a value outside the dropdown's options", { status: "archived" }, "status"],
      ["a dropdown option in the wrong case", { status: "Draft" }, "status"],
      ["an impossible date", { born: "2023-02-29" }, "born"],
      ["a date in another format", { born: "01/02/2024" }, "born"],
      ["a datetime that is not ISO-8601", { seen_at: "yesterday" }, "seen_at"],
      ["a string in a reference column", { author_id: "1" }, "author_id"],
      ["a reference to a row that does not exist", { author_id: 987654 }, "author_id"],
      ["an unknown property", { colour: "red" }, "colour"],
      ["a property in the wrong case", { Name: "x" }, "Name"],
      ["the id", { id: 5 }, "id"],
      ["created_at", { created_at: "2024-01-01T00:00:00.000Z" }, "created_at"],
      ["updated_at", { updated_at: "2024-01-01T00:00:00.000Z" }, "updated_at"],
      ["null in a NOT NULL column", { name: null }, "name"],
    ] as [string, Record<string, unknown>, string][]).map(([label, fields, field], i) => [label, fields, field, `bad-${i}`] as const))("%s", async (_label, fields, field, sku) => {
      const body = { name: "valid", sku, ...fields };
      expect422(await ctx.h.request("POST", `${base}/products`, { body }), field);
      expect(await list(ctx.h, `${base}/products?sku=${sku}`)).toEqual([]);
    });

    it("a body without a NOT NULL column, naming it", async () => {
      expect422(await ctx.h.request("POST", `${base}/products`, { body: { qty: 1 } }), "name");
    });

    it("lists every problem of one body in errors", async () => {
      const reply = await ctx.h.request("POST", `${base}/products`, {
        body: { qty: "x", active: 1, colour: "red", status: "gone", price: 0.001 },
      });
      expect422(reply, "qty", "active", "colour", "status", "price", "name");
      expect(reply.body.errors.length).toBeGreaterThanOrEqual(6);
    });

    it.each([
      ["malformed JSON", '{"name": "x",'],
      ["a JSON string instead of an object", '"just text"'],
      ["JSON null", "null"],
      ["a number", "42"],
      ["an empty body", ""],
    ])("%s as the body", async (_label, rawBody) => {
      const reply = await ctx.h.request("POST", `${base}/products`, { rawBody, headers: { "content-type": "application/json" } });
      expectError(reply, 422, "validation_failed", []);
    });
  });

  describe("accepted values", () => {
    it("accepts the edges of each type's range", async () => {
      const body = {
        name: "ten chars!",
        qty: 2147483647,
        big: Number.MAX_SAFE_INTEGER,
        price: 9999.99,
        ratio: -0.125,
        active: false,
        status: "live",
        born: "2024-02-29",
        seen_at: "2024-05-01T12:00:00Z",
        note: "ü".repeat(1000),
        author_id: authorId,
      };
      const reply = await ctx.h.request("POST", `${base}/products`, { body });
      expect(reply.status, reply.text).toBe(201);
      expect(reply.body).toMatchObject({ ...body, seen_at: "2024-05-01T12:00:00.000Z" });
      const low = await ctx.h.request("POST", `${base}/products`, { body: { name: "low", qty: -2147483648, price: -9999.99 } });
      expect(low.status, low.text).toBe(201);
      expect(low.body).toMatchObject({ qty: -2147483648, price: -9999.99 });
    });

    it("counts varchar length in characters, not bytes", async () => {
      const reply = await ctx.h.request("POST", `${base}/products`, { body: { name: "ñandú 🚀 ok" } });
      expect(reply.status, reply.text).toBe(201);
      expect(reply.body.name).toBe("ñandú 🚀 ok");
    });
  });

  describe("automatic columns on PUT and PATCH", () => {
    it("accepts a GET → edit → PUT round trip (automatic columns equal to the stored values)", async () => {
      const created = await insert(ctx.h, `${base}/products`, { name: "Trip", qty: 1, data: { tags: ["a"] }, author_id: authorId });
      const fetched = (await ctx.h.request("GET", `${base}/products/${created.id}`)).body;
      const reply = await ctx.h.request("PUT", `${base}/products/${created.id}`, { body: { ...fetched, name: "Trip 2", qty: 2 } });
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body).toMatchObject({ ...fetched, name: "Trip 2", qty: 2, updated_at: expect.any(String) });
      expect(reply.body.id).toBe(created.id);
      expect(reply.body.created_at).toBe(created.created_at);
    });

    it.each(["PUT", "PATCH"])("%s accepts id, created_at and updated_at equal to the stored values", async (method) => {
      const created = await insert(ctx.h, `${base}/products`, { name: "Echo" });
      const reply = await ctx.h.request(method, `${base}/products/${created.id}`, {
        body: { name: "Echo 2", id: created.id, created_at: created.created_at, updated_at: created.updated_at },
      });
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body).toMatchObject({ id: created.id, name: "Echo 2", created_at: created.created_at });
    });

    it.each([
      ["PATCH", "id", (r: any) => r.id + 1000],
      ["PATCH", "created_at", () => "2001-01-01T00:00:00.000Z"],
      ["PATCH", "updated_at", () => "2001-01-01T00:00:00.000Z"],
      ["PUT", "id", (r: any) => r.id + 1000],
      ["PUT", "created_at", () => "2001-01-01T00:00:00.000Z"],
    ] as const)("%s with a different %s is 422 naming it and changes nothing", async (method, column, value) => {
      const created = await insert(ctx.h, `${base}/products`, { name: "Fixed" });
      const reply = await ctx.h.request(method, `${base}/products/${created.id}`, { body: { name: "Changed", [column]: value(created) } });
      expect422(reply, column);
      expect((await ctx.h.request("GET", `${base}/products/${created.id}`)).body).toEqual(created);
    });

    it("PATCH refuses a bad value with 422 naming it and changes nothing", async () => {
      const created = await insert(ctx.h, `${base}/products`, { name: "Guarded", qty: 3 });
      const reply = await ctx.h.request("PATCH", `${base}/products/${created.id}`, { body: { qty: "4", colour: "red" } });
      expect422(reply, "qty", "colour");
      expect((await ctx.h.request("GET", `${base}/products/${created.id}`)).body).toEqual(created);
    });
  });

  describe("references", () => {
    it.each(["PUT", "PATCH"])("%s with a reference to a missing row is 422 naming the column", async (method) => {
      const created = await insert(ctx.h, `${base}/products`, { name: "Ref", author_id: authorId });
      expect422(await ctx.h.request(method, `${base}/products/${created.id}`, { body: { name: "Ref", author_id: 55555555 } }), "author_id");
      expect((await ctx.h.request("GET", `${base}/products/${created.id}`)).body.author_id).toBe(authorId);
    });

    it("deleting a row that others reference is 409, and the row stays", async () => {
      const author = await insert(ctx.h, `${base}/authors`, { name: "Referenced" });
      const product = await insert(ctx.h, `${base}/products`, { name: "Child", author_id: author.id });
      expectError(await ctx.h.request("DELETE", `${base}/authors/${author.id}`), 409, "conflict");
      expect((await ctx.h.request("GET", `${base}/authors/${author.id}`)).status).toBe(200);
      // Once nothing references it, it can go.
      expect((await ctx.h.request("DELETE", `${base}/products/${product.id}`)).status).toBe(204);
      expect((await ctx.h.request("DELETE", `${base}/authors/${author.id}`)).status).toBe(204);
    });
  });

  describe("unique columns", () => {
    const expectDuplicate = (reply: Awaited<ReturnType<typeof ctx.h.request>>) => {
      expectError(reply, 409, "conflict");
      if (reply.body.errors !== undefined) expect(reply.body.errors.map((e: { field: string }) => e.field)).toContain("sku");
    };

    it("POST with a duplicate value is 409 with the error body", async () => {
      await insert(ctx.h, `${base}/products`, { name: "Uniq 1", sku: "SKU-1" });
      expectDuplicate(await ctx.h.request("POST", `${base}/products`, { body: { name: "Uniq 2", sku: "SKU-1" } }));
      expect(await list(ctx.h, `${base}/products?sku=SKU-1`)).toHaveLength(1);
    });

    it("PATCH to another row's value is 409, and the row keeps its value", async () => {
      await insert(ctx.h, `${base}/products`, { name: "Uniq 3", sku: "SKU-3" });
      const other = await insert(ctx.h, `${base}/products`, { name: "Uniq 4", sku: "SKU-4" });
      expectDuplicate(await ctx.h.request("PATCH", `${base}/products/${other.id}`, { body: { sku: "SKU-3" } }));
      expect((await ctx.h.request("GET", `${base}/products/${other.id}`)).body.sku).toBe("SKU-4");
    });

    it("treats values differing only in case as different (unique is case-sensitive like exact match)", async () => {
      await insert(ctx.h, `${base}/products`, { name: "Case 1", sku: "case-sku" });
      const reply = await ctx.h.request("POST", `${base}/products`, { body: { name: "Case 2", sku: "CASE-SKU" } });
      expect(reply.status, reply.text).toBe(201);
    });

    it("allows several NULLs in a unique column", async () => {
      await insert(ctx.h, `${base}/products`, { name: "Null 1", sku: null });
      const reply = await ctx.h.request("POST", `${base}/products`, { body: { name: "Null 2", sku: null } });
      expect(reply.status, reply.text).toBe(201);
    });
  });
});
