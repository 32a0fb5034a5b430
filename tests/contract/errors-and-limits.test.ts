// Limits and hostile input (spec §7–§8; PRODUCT "Status codes", "Names"): the 1 MiB body limit (413),
// quote-laden filter values that must stay data, and identifiers with quotes refused at definition.
import { beforeAll, describe, expect, it } from "vitest";
import { createDatabase, expect422, expectError, insert, list, MATRIX, qs, useHarness } from "./contract-helpers";

const MIB = 1_048_576;

const HOSTILE = [
  "' OR '1'='1",
  "Robert'); DROP TABLE people;--",
  "back`tick`; DROP TABLE people",
  'double "quote" -- ',
  "semi;colon",
  "back\\slash",
  "plain",
];

describe.each(MATRIX)("errors and limits on $engine via $adapter", (target) => {
  const ctx = useHarness(target);
  let instance = "";
  let base = "";

  beforeAll(async () => {
    instance = await createDatabase(ctx.h, "Limits", [
      { name: "people", columns: [{ name: "name", type: "varchar", length: 100 }, { name: "age", type: "int" }] },
      { name: "blobs", columns: [{ name: "data", type: "json" }, { name: "label", type: "varchar" }] },
    ]);
    base = `/v1/${instance}`;
    const created = await insert(ctx.h, `${base}/people`, HOSTILE.map((name, age) => ({ name, age })));
    expect(created.map((r: { name: string }) => r.name)).toEqual(HOSTILE);
  });

  describe("body size", () => {
    it.each(["POST", "PUT", "PATCH"])("%s with a body over 1 MiB is 413 with the error body, and changes nothing", async (method) => {
      const target = await insert(ctx.h, `${base}/blobs`, { label: `before ${method}` });
      const path = method === "POST" ? `${base}/blobs` : `${base}/blobs/${target.id}`;
      const rawBody = JSON.stringify({ label: `after ${method}`, data: "x".repeat(MIB + 10) });
      expectError(await ctx.h.request(method, path, { rawBody }), 413, "payload_too_large");
      expect((await ctx.h.request("GET", `${base}/blobs/${target.id}`)).body).toEqual(target);
      expect(await list(ctx.h, `${base}/blobs?${qs({ label: `after ${method}` })}`)).toEqual([]);
    });

    it("accepts a body of exactly 1 MiB and refuses one byte more", async () => {
      const sized = (bytes: number, label: string) => {
        const shell = JSON.stringify({ label, data: "" });
        return JSON.stringify({ label, data: "z".repeat(bytes - Buffer.byteLength(shell)) });
      };
      const exact = sized(MIB, "exact");
      expect(Buffer.byteLength(exact)).toBe(MIB);
      const reply = await ctx.h.request("POST", `${base}/blobs`, { rawBody: exact });
      expect(reply.status, reply.text.slice(0, 300)).toBe(201);
      expectError(await ctx.h.request("POST", `${base}/blobs`, { rawBody: sized(MIB + 1, "one more") }), 413, "payload_too_large");
      expect(await list(ctx.h, `${base}/blobs?${qs({ label: "one more" })}`)).toEqual([]);
    });

    it("applies the same 1 MiB limit to the management API", async () => {
      const before = (await ctx.h.request("GET", "/api/v1/databases")).body.length;
      const rawBody = JSON.stringify({ name: "Big", tables: [{ name: "t", columns: [{ name: "c", type: "varchar", default: "d".repeat(MIB) }] }] });
      expectError(await ctx.h.request("POST", "/api/v1/databases", { rawBody }), 413, "payload_too_large");
      expect((await ctx.h.request("GET", "/api/v1/databases")).body.length).toBe(before);
    });

    it("accepts a body just under 1 MiB", async () => {
      const data = "y".repeat(MIB - 2_000);
      const reply = await ctx.h.request("POST", `${base}/blobs`, { body: { label: "big", data } });
      expect(reply.status, reply.text.slice(0, 300)).toBe(201);
      expect(reply.body.data).toHaveLength(data.length);
    });

    it("refuses a too-large bulk body with 413 and writes none of its rows", async () => {
      const reply = await ctx.h.request("POST", `${base}/people`, { rawBody: JSON.stringify([{ name: "z".repeat(MIB) }]) });
      expectError(reply, 413, "payload_too_large");
      expect(await list(ctx.h, `${base}/people?age_null=true`)).toEqual([]);
    });
  });

  it("answers a CORS preflight (OPTIONS) without a key", async () => {
    const reply = await ctx.h.request("OPTIONS", `${base}/people`, {
      key: null,
      headers: { origin: "https://app.example.com", "access-control-request-method": "POST" },
    });
    expect([200, 204]).toContain(reply.status);
  });

  describe("quote-laden filter values are data", () => {
    it.each([
      [{ name: "' OR '1'='1" }, ["' OR '1'='1"]],
      [{ name: "Robert'); DROP TABLE people;--" }, ["Robert'); DROP TABLE people;--"]],
      [{ name_like: "%'; DROP TABLE people; --" }, []],
      [{ name_like: "'; DROP TABLE people" }, []],
      [{ name_ilike: "' or '1'='1" }, ["' OR '1'='1"]],
      [{ name_like: "`" }, ["back`tick`; DROP TABLE people"]],
      [{ name: "back`tick`; DROP TABLE people" }, ["back`tick`; DROP TABLE people"]],
      [{ name: 'double "quote" -- ' }, ['double "quote" -- ']],
      [{ name_like: '"' }, ['double "quote" -- ']],
      [{ name_like: ";" }, ["Robert'); DROP TABLE people;--", "back`tick`; DROP TABLE people", "semi;colon"]],
      [{ name: "back\\slash" }, ["back\\slash"]],
      [{ name_like: "\\" }, ["back\\slash"]],
      [{ name_in: "plain,' OR 1=1 --" }, ["plain"]],
      [{ name: "plain' --" }, []],
      [{ name: "1' OR 1=1; --" }, []],
    ] as [Record<string, string>, string[]][])("%o matches only the rows holding that literal text", async (params, expected) => {
      const rows = await list(ctx.h, `${base}/people?${qs(params)}`);
      expect(rows.map((r) => r.name)).toEqual(expected);
    });

    it.each([
      ["a SQL tail in an int filter", { age: "1 OR 1=1" }, "age"],
      ["a SQL tail in _sort", { _sort: "name;DROP TABLE people" }, "_sort"],
      ["a SQL tail in _sort direction", { _sort: "name DESC, (SELECT 1)" }, "_sort"],
      ["a SQL tail in _limit", { _limit: "1;DROP TABLE people" }, "_limit"],
      ["a quote in a parameter name", { "name'--": "x" }, "name'--"],
      ["a backtick in a parameter name", { "name`": "x" }, "name`"],
    ])("refuses %s with 422 naming it", async (_label, params, field) => {
      expect422(await ctx.h.request("GET", `${base}/people?${qs(params)}`), field);
    });

    it.each([
      ["a quote in the table segment", () => `${base}/people'%20OR%20'1'='1`],
      ["a backtick and semicolon in the table segment", () => `${base}/people%60%3B%20DROP%20TABLE%20people`],
      ["a quote in the instance segment", () => `/v1/${instance}'--/people`],
      ["SQL in the id segment", () => `${base}/people/1%20OR%201=1`],
    ])("answers 404 to %s", async (_label, path) => {
      expectError(await ctx.h.request("GET", path()), 404, "not_found");
    });

    it("left the table and every row in place", async () => {
      const reply = await ctx.h.request("GET", `${base}/people?_limit=1000`, { headers: { prefer: "count=exact" } });
      expect(reply.status).toBe(200);
      expect(reply.headers.get("x-total-count")).toBe(String(HOSTILE.length));
      expect(reply.body.map((r: { name: string }) => r.name)).toEqual(HOSTILE);
    });
  });

  describe("identifiers are checked at definition (management API)", () => {
    const BAD_NAMES = ['bad"name', "bad`name", "bad;name", "bad name", "bad'name", "Books", "1books", "bad-name", "bad.name", "a".repeat(64), ""];

    it.each(BAD_NAMES)("refuses the table name %j with 422 naming tables[0].name", async (name) => {
      const reply = await ctx.h.request("POST", "/api/v1/databases", {
        body: { name: "Hostile", tables: [{ name, columns: [{ name: "ok", type: "int" }] }] },
      });
      expect422(reply, "tables[0].name");
    });

    it.each([...BAD_NAMES, "Name", "drop table x;--"])("refuses the column name %j with 422 naming tables[0].columns[1].name", async (name) => {
      const reply = await ctx.h.request("POST", "/api/v1/databases", {
        body: { name: "Hostile", tables: [{ name: "things", columns: [{ name: "ok", type: "int" }, { name, type: "varchar" }] }] },
      });
      expect422(reply, "tables[0].columns[1].name");
    });

    it.each(["auth", "openapi.json", "_private"])("refuses the reserved table name %j with 422", async (name) => {
      const reply = await ctx.h.request("POST", "/api/v1/databases", { body: { name: "Reserved", tables: [{ name, columns: [] }] } });
      expect422(reply, "tables[0].name");
    });

    it.each(["id", "created_at", "updated_at"])("refuses a user column named like the automatic column %j with 422", async (name) => {
      const reply = await ctx.h.request("POST", "/api/v1/databases", { body: { name: "Reserved", tables: [{ name: "t1", columns: [{ name, type: "int" }] }] } });
      expect422(reply, "tables[0].columns[0].name");
    });

    it("creates no database when a definition is refused", async () => {
      const before = (await ctx.h.request("GET", "/api/v1/databases")).body.length;
      await ctx.h.request("POST", "/api/v1/databases", { body: { name: "Hostile", tables: [{ name: "ok_table", columns: [] }, { name: "x`; DROP DATABASE y; --", columns: [] }] } });
      const after = (await ctx.h.request("GET", "/api/v1/databases")).body;
      expect(after.length).toBe(before);
      expect(after.map((d: { name: string }) => d.name)).not.toContain("Hostile");
    });

    it("refuses hostile names for a table added later and for a column added later", async () => {
      const table = await ctx.h.request("POST", `/api/v1/databases/${instance}/tables`, { body: { name: "x`; DROP TABLE people; --", columns: [] } });
      expect422(table, "name");
      const column = await ctx.h.request("POST", `/api/v1/databases/${instance}/tables/people/columns`, { body: { name: "a'; DROP TABLE people; --", type: "int" } });
      expect422(column, "name");
      expect((await list(ctx.h, `${base}/people?_limit=1000`)).length).toBe(HOSTILE.length);
    });

    it("accepts SQL keywords as table and column names (identifiers are always quoted)", async () => {
      const db = await createDatabase(ctx.h, "Keywords", [
        { name: "order", columns: [{ name: "select", type: "varchar" }, { name: "from", type: "int" }, { name: "where", type: "boolean" }, { name: "public", type: "date" }] },
        { name: "group", columns: [{ name: "order", type: "reference", references: "order" }] },
      ]);
      const row = await insert(ctx.h, `/v1/${db}/order`, { select: "*", from: 3, where: true, public: "2024-01-02" });
      expect(row).toMatchObject({ select: "*", from: 3, where: true, public: "2024-01-02" });
      const rows = await list(ctx.h, `/v1/${db}/order?${qs({ select: "*", from_gte: 1, where: "true", _sort: "-from,select" })}`);
      expect(rows.map((r) => r.id)).toEqual([row.id]);
      expect((await ctx.h.request("PATCH", `/v1/${db}/order/${row.id}`, { body: { from: 4 } })).body.from).toBe(4);
      const child = await insert(ctx.h, `/v1/${db}/group`, { order: row.id });
      expect(child.order).toBe(row.id);
      expectError(await ctx.h.request("DELETE", `/v1/${db}/order/${row.id}`), 409, "conflict");
    });

    it("never changes a dropdown option: one with a trailing space is either refused at definition or read back exactly", async () => {
      const reply = await ctx.h.request("POST", "/api/v1/databases", { body: { name: "Spaced options", tables: [{ name: "tags", columns: [{ name: "kind", type: "dropdown", options: ["a ", "b"] }] }] } });
      if (reply.status === 422) return expect422(reply, "tables[0].columns[0].options[0]");
      expect(reply.status, reply.text).toBe(201);
      const created = await insert(ctx.h, `/v1/${reply.body.instance}/tags`, { kind: "a " });
      expect(created.kind).toBe("a ");
      expect((await ctx.h.request("GET", `/v1/${reply.body.instance}/tags/${created.id}`)).body.kind).toBe("a ");
    });

    it("treats dropdown options with quotes as data: they are stored, written and filtered exactly", async () => {
      const options = ["it's", 'say "hi"', "back`tick", "semi;colon", "back\\slash"];
      const db = await createDatabase(ctx.h, "Quoted options", [{ name: "tags", columns: [{ name: "kind", type: "dropdown", options }] }]);
      const created = await insert(ctx.h, `/v1/${db}/tags`, options.map((kind) => ({ kind })));
      expect(created.map((r: { kind: string }) => r.kind)).toEqual(options);
      for (const kind of options) {
        const rows = await list(ctx.h, `/v1/${db}/tags?${qs({ kind })}`);
        expect(rows.map((r) => r.kind)).toEqual([kind]);
      }
      expect422(await ctx.h.request("POST", `/v1/${db}/tags`, { body: { kind: "it''s" } }), "kind");
    });
  });
});
