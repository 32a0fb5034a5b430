// JSON forms of the column types (PRODUCT "Column types"): what is written is what is read back, on both
// engines. Password columns: bcrypt on write, the hash in every response, never the plain text.
import bcrypt from "bcrypt";
import { beforeAll, describe, expect, it } from "vitest";
import { BCRYPT, createDatabase, insert, ISO_UTC, MATRIX, useHarness } from "./contract-helpers";

const TABLES = [
  {
    name: "values",
    columns: [
      { name: "label", type: "varchar", length: 40 },
      { name: "price", type: "decimal", precision: 10, scale: 2 },
      { name: "fine", type: "decimal", precision: 12, scale: 4 },
      { name: "qty", type: "int" },
      { name: "big", type: "bigint" },
      { name: "ratio", type: "float" },
      { name: "active", type: "boolean" },
      { name: "born", type: "date" },
      { name: "seen_at", type: "datetime" },
      { name: "data", type: "json" },
      { name: "body", type: "text" },
      { name: "status", type: "dropdown", options: ["draft", "live"] },
    ],
  },
  {
    name: "users",
    columns: [
      { name: "email", type: "varchar", nullable: false },
      { name: "password", type: "password", nullable: false },
    ],
  },
];

describe.each(MATRIX)("column types on $engine via $adapter", (target) => {
  const ctx = useHarness(target);
  let base = "";

  beforeAll(async () => {
    const instance = await createDatabase(ctx.h, "Types", TABLES);
    base = `/v1/${instance}`;
  });

  /** A PATCH of `body` onto a new empty row answers the whole record exactly as GET by id then reads it. */
  const patchMatchesRead = async (body: Record<string, unknown>) => {
    const empty = await ctx.h.request("POST", `${base}/values`, { body: {} });
    const patched = await ctx.h.request("PATCH", `${base}/values/${empty.body.id}`, { body });
    expect(patched.status, patched.text).toBe(200);
    const fetched = await ctx.h.request("GET", `${base}/values/${empty.body.id}`);
    expect(patched.body).toStrictEqual(fetched.body);
    return patched;
  };

  /**
   * Writes one value, then checks the POST reply, GET by id and the list all carry `expected` for it, and that
   * a PATCH writing it answers the record as read.
   */
  const roundTrip = async (column: string, value: unknown, expected: unknown = value) => {
    const reply = await ctx.h.request("POST", `${base}/values`, { body: { label: `${column}:${JSON.stringify(value)}`.slice(0, 40), [column]: value } });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body[column]).toStrictEqual(expected);
    const fetched = await ctx.h.request("GET", `${base}/values/${reply.body.id}`);
    expect(fetched.body[column]).toStrictEqual(expected);
    const listed = await ctx.h.request("GET", `${base}/values?id=${reply.body.id}`);
    expect(listed.body[0][column]).toStrictEqual(expected);
    expect((await patchMatchesRead({ [column]: value })).body[column]).toStrictEqual(expected);
    return fetched;
  };

  it("returns 19.99 in a decimal column as the JSON number 19.99, not a string", async () => {
    const fetched = await roundTrip("price", 19.99);
    expect(fetched.text).toContain('"price":19.99');
  });

  it.each([
    ["price", 0.1],
    ["price", 1000],
    ["price", -5.5],
    ["price", 0],
    ["fine", 1234.5678],
    ["fine", 0.0001],
  ])("round-trips %s = %d as a number", async (column, value) => {
    await roundTrip(column, value);
  });

  it.each([
    ["qty", 42],
    ["qty", -7],
    ["big", 9007199254740991],
    ["big", -9007199254740991],
    ["ratio", 3.14159],
    ["ratio", -0.5],
  ])("round-trips %s = %d as a number", async (column, value) => {
    await roundTrip(column, value);
  });

  it.each([true, false])("round-trips the boolean %s as a JSON boolean", async (value) => {
    const fetched = await roundTrip("active", value);
    expect(fetched.text).toContain(`"active":${value}`);
  });

  it.each(["2024-02-29", "1999-12-31", "1000-01-01", "9999-12-31"])("round-trips the date %s as YYYY-MM-DD", async (value) => {
    await roundTrip("born", value);
  });

  it.each([
    ["2024-05-01T12:34:56.789Z", "2024-05-01T12:34:56.789Z"],
    ["2024-05-01T12:34:56Z", "2024-05-01T12:34:56.000Z"],
    ["2024-05-01T14:34:56+02:00", "2024-05-01T12:34:56.000Z"],
    ["2024-05-01T01:00:00.5-03:30", "2024-05-01T04:30:00.500Z"],
  ])("stores the datetime %s in UTC and returns it with Z", async (value, utc) => {
    const reply = await ctx.h.request("POST", `${base}/values`, { body: { seen_at: value } });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body.seen_at).toMatch(ISO_UTC);
    expect(new Date(reply.body.seen_at).toISOString()).toBe(utc);
    const fetched = await ctx.h.request("GET", `${base}/values/${reply.body.id}`);
    expect(fetched.body.seen_at).toBe(reply.body.seen_at);
    expect((await patchMatchesRead({ seen_at: value })).body.seen_at).toBe(reply.body.seen_at);
  });

  it.each([
    ["an object", { a: 1, b: [1, 2, { c: null }], s: "text", t: true }],
    ["an array", [1, "two", { three: 3 }, null]],
    ["a string", "just text"],
    ["a string that reads like a number", "123"],
    ["a number", 12.5],
    ["an empty object", {}],
  ])("stores %s in a json column and returns the same JSON", async (_label, value) => {
    await roundTrip("data", value);
  });

  it.each([
    ["quotes and backslashes", `He said "hi" \\ 'bye'`],
    ["unicode beyond the BMP", "Zoë 🚀 日本語"],
    ["newlines and tabs", "line 1\nline 2\tend"],
  ])("returns text with %s exactly as written", async (_label, value) => {
    await roundTrip("body", value);
    await roundTrip("label", value);
  });

  it("returns a dropdown value as its option text", async () => {
    await roundTrip("status", "live");
  });

  it("returns null for every column not written", async () => {
    const reply = await ctx.h.request("POST", `${base}/values`, { body: {} });
    expect(reply.status, reply.text).toBe(201);
    for (const column of TABLES[0].columns) expect(reply.body[column.name]).toBeNull();
  });

  describe("password columns", () => {
    const PLAIN = "Tr0ub4dor&3-plain";

    it("store a bcrypt hash of the value and never return the plain text", async () => {
      const created = await ctx.h.request("POST", `${base}/users`, { body: { email: "pw@example.com", password: PLAIN } });
      expect(created.status, created.text).toBe(201);
      expect(created.body.password).toMatch(BCRYPT);
      expect(await bcrypt.compare(PLAIN, created.body.password)).toBe(true);
      const replies = [
        created,
        await ctx.h.request("GET", `${base}/users/${created.body.id}`),
        await ctx.h.request("GET", `${base}/users`),
        await ctx.h.request("GET", `${base}/users?email=pw%40example.com`),
        await ctx.h.request("PATCH", `${base}/users/${created.body.id}`, { body: { email: "pw2@example.com" } }),
        await ctx.h.request("POST", `${base}/users`, { body: [{ email: "bulk@example.com", password: PLAIN }] }),
      ];
      for (const reply of replies) {
        expect(reply.status).toBeLessThan(300);
        expect(reply.text).not.toContain(PLAIN);
      }
      expect(replies[1].body.password).toBe(created.body.password);
    });

    it("hash a new value on PATCH and on PUT", async () => {
      const created = await insert(ctx.h, `${base}/users`, { email: "change@example.com", password: PLAIN });
      const patched = await ctx.h.request("PATCH", `${base}/users/${created.id}`, { body: { password: "second-secret" } });
      expect(patched.status, patched.text).toBe(200);
      expect(patched.text).not.toContain("second-secret");
      expect(patched.body.password).toMatch(BCRYPT);
      expect(await bcrypt.compare("second-secret", patched.body.password)).toBe(true);
      const put = await ctx.h.request("PUT", `${base}/users/${created.id}`, { body: { email: "change@example.com", password: "third-secret" } });
      expect(put.status, put.text).toBe(200);
      expect(put.text).not.toContain("third-secret");
      expect(await bcrypt.compare("third-secret", put.body.password)).toBe(true);
    });

    it("keep the stored hash unchanged when PUT sends that hash back", async () => {
      const created = await insert(ctx.h, `${base}/users`, { email: "keep@example.com", password: PLAIN });
      const fetched = (await ctx.h.request("GET", `${base}/users/${created.id}`)).body;
      const put = await ctx.h.request("PUT", `${base}/users/${created.id}`, { body: { ...fetched, email: "kept@example.com" } });
      expect(put.status, put.text).toBe(200);
      expect(put.body.password).toBe(created.password);
      expect(await bcrypt.compare(PLAIN, put.body.password)).toBe(true);
      expect((await ctx.h.request("GET", `${base}/users/${created.id}`)).body.password).toBe(created.password);
    });

    it("give two records with the same password different hashes (salted)", async () => {
      const [a, b] = await insert(ctx.h, `${base}/users`, [{ email: "s1@example.com", password: PLAIN }, { email: "s2@example.com", password: PLAIN }]);
      expect(a.password).toMatch(BCRYPT);
      expect(a.password).not.toBe(b.password);
    });
  });
});
