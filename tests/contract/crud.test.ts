// §4 rows 1–6 of the spec: list, get, create, replace, update and delete a record; 404 and 405 on the data
// path; bulk create (PRODUCT "Data API decisions").
import { beforeAll, describe, expect, it } from "vitest";
import { createDatabase, expect422, expectError, insert, ISO_UTC, list, MATRIX, sleep, useHarness } from "./contract-helpers";

const TABLES = [
  {
    name: "authors",
    columns: [
      { name: "name", type: "varchar", length: 100, nullable: false },
      { name: "email", type: "varchar", unique: true },
      { name: "bio", type: "text" },
      { name: "age", type: "int" },
    ],
  },
  {
    name: "books",
    columns: [
      { name: "title", type: "varchar", nullable: false },
      { name: "price", type: "decimal", precision: 10, scale: 2 },
      { name: "in_stock", type: "boolean" },
      { name: "author_id", type: "reference", references: "authors" },
      { name: "notes", type: "varchar" },
    ],
  },
  { name: "tiny", columns: [{ name: "n", type: "int", nullable: false }, { name: "batch", type: "varchar", length: 20 }] },
];

describe.each(MATRIX)("CRUD on $engine via $adapter", (target) => {
  const ctx = useHarness(target);
  let base = "";
  let authorId = 0;

  beforeAll(async () => {
    const instance = await createDatabase(ctx.h, "CRUD contract", TABLES);
    base = `/v1/${instance}`;
    authorId = (await insert(ctx.h, `${base}/authors`, { name: "Ursula", email: "ursula@example.com" })).id;
  });

  describe("GET /{table}", () => {
    it("returns 200 and a JSON array of records in id order", async () => {
      const a = await insert(ctx.h, `${base}/books`, { title: "List one" });
      const b = await insert(ctx.h, `${base}/books`, { title: "List two" });
      const reply = await ctx.h.request("GET", `${base}/books`);
      expect(reply.status).toBe(200);
      expect(reply.headers.get("content-type")).toMatch(/^application\/json/);
      expect(Array.isArray(reply.body)).toBe(true);
      const ids = reply.body.map((r: { id: number }) => r.id);
      expect(ids).toEqual([...ids].sort((x, y) => x - y));
      expect(reply.body).toEqual(expect.arrayContaining([a, b]));
    });

    it("returns an empty array for a table without rows", async () => {
      const instance = await createDatabase(ctx.h, "Empty", [{ name: "things", columns: [{ name: "label", type: "varchar" }] }]);
      const reply = await ctx.h.request("GET", `/v1/${instance}/things`);
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual([]);
    });
  });

  describe("POST /{table}", () => {
    it("returns 201 with the full record: id, every column, created_at and updated_at", async () => {
      const before = Date.now();
      const reply = await ctx.h.request("POST", `${base}/books`, {
        body: { title: "Dune", price: 19.99, in_stock: true, author_id: authorId },
      });
      expect(reply.status, reply.text).toBe(201);
      const record = reply.body;
      expect(Object.keys(record).sort()).toEqual(["author_id", "created_at", "id", "in_stock", "notes", "price", "title", "updated_at"]);
      expect(record).toMatchObject({ title: "Dune", price: 19.99, in_stock: true, author_id: authorId, notes: null });
      expect(Number.isInteger(record.id) && record.id > 0).toBe(true);
      expect(record.created_at).toMatch(ISO_UTC);
      expect(record.updated_at).toBe(record.created_at);
      expect(Date.parse(record.created_at)).toBeGreaterThanOrEqual(before - 1000);
      expect(Date.parse(record.created_at)).toBeLessThanOrEqual(Date.now() + 1000);
    });

    it("gives each new record a new, increasing id", async () => {
      const a = await insert(ctx.h, `${base}/books`, { title: "First" });
      const b = await insert(ctx.h, `${base}/books`, { title: "Second" });
      expect(b.id).toBeGreaterThan(a.id);
    });
  });

  describe("GET /{table}/{id}", () => {
    it("returns 200 with the record as POST returned it", async () => {
      const created = await insert(ctx.h, `${base}/books`, { title: "Get me", price: 5, in_stock: false, author_id: authorId });
      const reply = await ctx.h.request("GET", `${base}/books/${created.id}`);
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual(created);
    });

    it("returns 404 with the error body for an id that does not exist", async () => {
      expectError(await ctx.h.request("GET", `${base}/books/987654321`), 404, "not_found");
    });
  });

  describe("PUT /{table}/{id}", () => {
    it("replaces the record: omitted nullable columns become null", async () => {
      const created = await insert(ctx.h, `${base}/books`, { title: "Old", price: 10, in_stock: true, author_id: authorId, notes: "keep?" });
      const reply = await ctx.h.request("PUT", `${base}/books/${created.id}`, { body: { title: "New" } });
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body).toMatchObject({ id: created.id, title: "New", price: null, in_stock: null, author_id: null, notes: null, created_at: created.created_at });
      expect((await ctx.h.request("GET", `${base}/books/${created.id}`)).body).toEqual(reply.body);
    });

    it("refuses a body that omits a NOT NULL column with 422 naming it, and changes nothing", async () => {
      const created = await insert(ctx.h, `${base}/books`, { title: "Stays", price: 3 });
      const reply = await ctx.h.request("PUT", `${base}/books/${created.id}`, { body: { price: 4 } });
      expect422(reply, "title");
      expect((await ctx.h.request("GET", `${base}/books/${created.id}`)).body).toEqual(created);
    });

    it("moves updated_at forward and keeps created_at", async () => {
      const created = await insert(ctx.h, `${base}/books`, { title: "Stamp" });
      await sleep(15);
      const reply = await ctx.h.request("PUT", `${base}/books/${created.id}`, { body: { title: "Stamp 2" } });
      expect(reply.status).toBe(200);
      expect(reply.body.created_at).toBe(created.created_at);
      expect(reply.body.updated_at).toMatch(ISO_UTC);
      expect(Date.parse(reply.body.updated_at)).toBeGreaterThan(Date.parse(created.updated_at));
    });
  });

  describe("PATCH /{table}/{id}", () => {
    it("changes only the columns it names; the other columns stay unchanged", async () => {
      const created = await insert(ctx.h, `${base}/books`, { title: "Patch me", price: 12.5, in_stock: true, author_id: authorId, notes: "n" });
      const reply = await ctx.h.request("PATCH", `${base}/books/${created.id}`, { body: { price: 13.25 } });
      expect(reply.status, reply.text).toBe(200);
      const { updated_at: _u, ...rest } = reply.body;
      const { updated_at: _c, ...expected } = created;
      expect(rest).toEqual({ ...expected, price: 13.25 });
      expect((await ctx.h.request("GET", `${base}/books/${created.id}`)).body).toEqual(reply.body);
    });

    it("sets a nullable column to null when asked", async () => {
      const created = await insert(ctx.h, `${base}/books`, { title: "Nulling", notes: "gone soon" });
      const reply = await ctx.h.request("PATCH", `${base}/books/${created.id}`, { body: { notes: null } });
      expect(reply.status).toBe(200);
      expect(reply.body).toMatchObject({ title: "Nulling", notes: null });
    });

    it("refuses null in a NOT NULL column with 422 naming it", async () => {
      const created = await insert(ctx.h, `${base}/books`, { title: "Not null" });
      expect422(await ctx.h.request("PATCH", `${base}/books/${created.id}`, { body: { title: null } }), "title");
    });
  });

  describe("DELETE /{table}/{id}", () => {
    it("returns 204 with an empty body, and the record is gone", async () => {
      const created = await insert(ctx.h, `${base}/books`, { title: "Doomed" });
      const reply = await ctx.h.request("DELETE", `${base}/books/${created.id}`);
      expect(reply.status).toBe(204);
      expect(reply.text).toBe("");
      expectError(await ctx.h.request("GET", `${base}/books/${created.id}`), 404, "not_found");
      const rows = await list(ctx.h, `${base}/books?id=${created.id}`);
      expect(rows).toEqual([]);
    });
  });

  describe("404 Not Found", () => {
    it.each([
      ["GET", undefined],
      ["PUT", { title: "x" }],
      ["PATCH", { title: "x" }],
      ["DELETE", undefined],
    ])("%s on an id that does not exist is 404", async (method, body) => {
      expectError(await ctx.h.request(method, `${base}/books/999999999`, { body }), 404, "not_found");
    });

    it.each([
      ["a wrong instance", () => "/v1/nosuchdb_zz9qq8/books"],
      ["a wrong table", () => `${base}/nosuchtable`],
      ["a wrong table with an id", () => `${base}/nosuchtable/1`],
      ["a wrong id", () => `${base}/books/424242424`],
      ["an id that is not a number", () => `${base}/books/abc`],
      ["an id of zero", () => `${base}/books/0`],
      ["a path deeper than /{table}/{id}", () => `${base}/books/1/extra`],
    ])("GET with %s is 404", async (_label, path) => {
      expectError(await ctx.h.request("GET", path()), 404, "not_found");
    });
  });

  describe("405 Method Not Allowed", () => {
    it.each([
      ["POST", "item", ["GET", "PUT", "PATCH", "DELETE"]],
      ["PUT", "collection", ["GET", "POST", "PATCH", "DELETE"]],
    ] as const)("%s on /{table}%s is 405 with an Allow header", async (method, kind, allowed) => {
      const created = await insert(ctx.h, `${base}/books`, { title: "Verb target" });
      const path = kind === "item" ? `${base}/books/${created.id}` : `${base}/books`;
      const reply = await ctx.h.request(method, path, { body: { title: "x" } });
      expectError(reply, 405, "method_not_allowed");
      const allow = (reply.headers.get("allow") ?? "").split(",").map((v) => v.trim()).filter(Boolean);
      expect(allow).toEqual(expect.arrayContaining([...allowed]));
      expect(allow).not.toContain(method);
      // Nothing was written or removed by the refused verb.
      expect((await ctx.h.request("GET", `${base}/books/${created.id}`)).body).toEqual(created);
    });
  });

  describe("bulk POST of an array", () => {
    it("creates every row in one request and returns 201 with the array of records", async () => {
      const reply = await ctx.h.request("POST", `${base}/books`, {
        body: [{ title: "Bulk A", price: 1 }, { title: "Bulk B", in_stock: true }, { title: "Bulk C", author_id: authorId }],
      });
      expect(reply.status, reply.text).toBe(201);
      expect(reply.body).toHaveLength(3);
      expect(reply.body.map((r: { title: string }) => r.title)).toEqual(["Bulk A", "Bulk B", "Bulk C"]);
      expect(reply.body[0]).toMatchObject({ price: 1, in_stock: null, author_id: null, notes: null });
      for (const record of reply.body) {
        expect(Object.keys(record).sort()).toEqual(["author_id", "created_at", "id", "in_stock", "notes", "price", "title", "updated_at"]);
        expect((await ctx.h.request("GET", `${base}/books/${record.id}`)).body).toEqual(record);
      }
    });

    it("accepts exactly 1000 rows", async () => {
      const rows = Array.from({ length: 1000 }, (_, n) => ({ n, batch: "thousand" }));
      const reply = await ctx.h.request("POST", `${base}/tiny`, { body: rows });
      expect(reply.status, reply.text.slice(0, 300)).toBe(201);
      expect(reply.body).toHaveLength(1000);
      expect(reply.body[999]).toMatchObject({ n: 999, batch: "thousand" });
    });

    it("refuses more than 1000 rows with 422 and inserts nothing", async () => {
      const rows = Array.from({ length: 1001 }, (_, n) => ({ n, batch: "too-many" }));
      const reply = await ctx.h.request("POST", `${base}/tiny`, { body: rows });
      expectError(reply, 422, "validation_failed", []);
      expect(await list(ctx.h, `${base}/tiny?batch=too-many`)).toEqual([]);
    });

    it("refuses the whole array when one row is invalid: 422 naming [i].column, nothing inserted", async () => {
      const reply = await ctx.h.request("POST", `${base}/books`, {
        body: [{ title: "Atomic 1" }, { title: "Atomic 2", price: "cheap" }, { title: "Atomic 3" }],
      });
      expect422(reply, "[1].price");
      expect(await list(ctx.h, `${base}/books?title_like=Atomic`)).toEqual([]);
    });

    it("reports the problems of several rows, each with its index", async () => {
      const reply = await ctx.h.request("POST", `${base}/books`, { body: [{ title: "Many 0", price: "x" }, { title: "Many 1" }, { price: 2 }] });
      expect422(reply, "[0].price", "[2].title");
      expect(await list(ctx.h, `${base}/books?title_like=Many`)).toEqual([]);
    });

    it("refuses the whole array when one row references a missing record: 422 naming [i].column, nothing inserted", async () => {
      const reply = await ctx.h.request("POST", `${base}/books`, {
        body: [{ title: "Ref ok", author_id: authorId }, { title: "Ref bad", author_id: 99999999 }],
      });
      expect422(reply, "[1].author_id");
      expect(await list(ctx.h, `${base}/books?title_like=Ref `)).toEqual([]);
    });

    it("rolls back the rows already written when a later row hits a unique conflict (all or nothing)", async () => {
      const reply = await ctx.h.request("POST", `${base}/authors`, {
        body: [{ name: "Twin 1", email: "twin@example.com" }, { name: "Twin 2", email: "other-twin@example.com" }, { name: "Twin 3", email: "twin@example.com" }],
      });
      expectError(reply, 409, "conflict");
      expect(await list(ctx.h, `${base}/authors?name_like=Twin`)).toEqual([]);
    });
  });
});
