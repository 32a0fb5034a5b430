// The query grammar of collection reads (spec §4 "Query parameters", §8 limits, PRODUCT "Details that clients
// rely on"): _limit, _offset, _sort, every filter operator on every kind of column, and the 422s.
import { beforeAll, describe, expect, it } from "vitest";
import { createDatabase, expect422, insert, list, MATRIX, qs, sleep, useHarness } from "./contract-helpers";

const TABLES = [
  {
    name: "items",
    columns: [
      { name: "label", type: "varchar", length: 10, nullable: false, unique: true },
      { name: "name", type: "varchar", length: 100 },
      { name: "qty", type: "int" },
      { name: "price", type: "decimal", precision: 10, scale: 2 },
      { name: "released", type: "date" },
      { name: "seen_at", type: "datetime" },
      { name: "status", type: "dropdown", options: ["pending", "active", "closed"] },
      { name: "flag", type: "boolean" },
      { name: "secret", type: "password" },
      { name: "meta", type: "json" },
    ],
  },
  { name: "pages", columns: [{ name: "n", type: "int", nullable: false }, { name: "grp", type: "int", nullable: false }] },
  { name: "events", columns: [{ name: "label", type: "varchar", length: 10 }] },
  { name: "words", columns: [{ name: "word", type: "varchar", length: 20 }] },
];

// Inserted in this order, so ids ascend r1 → r12 and an unsorted read lists them in this order.
const ITEMS = [
  { label: "r1", name: "apple", qty: 5, price: 1.5, released: "2024-01-10", seen_at: "2024-01-10T08:00:00.000Z", status: "active", flag: true, secret: "pw-one" },
  { label: "r2", name: "Banana", qty: 10, price: 0.99, released: "2024-02-01", seen_at: "2024-02-01T12:00:00.000Z", status: "pending", flag: false },
  { label: "r3", name: "cherry", qty: null, price: 3.25, released: null, seen_at: null, status: "closed", flag: null, meta: { a: 1 } },
  { label: "r4", name: "APPLE pie", qty: 7, price: 12, released: "2024-03-15", seen_at: "2024-03-15T23:59:59.500Z", status: "active", flag: true },
  { label: "r5", name: "banana split", qty: 10, price: 5, released: "2023-12-31", seen_at: "2023-12-31T23:00:00.000Z", status: null, flag: false },
  { label: "r6", name: null, qty: 1, price: null, released: "2024-01-10", seen_at: "2024-01-10T08:00:00.001Z", status: "pending", flag: null },
  { label: "r7", name: "Apple", qty: -3, price: 250.75, released: "2024-06-30", seen_at: "2024-06-30T00:00:00.000Z", status: "closed", flag: true },
  { label: "r8", name: "100% juice" },
  { label: "r9", name: "1000 juice" },
  { label: "r10", name: "a_b" },
  { label: "r11", name: "axb" },
  { label: "r12", name: "pad " },
];
const NO_EXTRAS = ["r8", "r9", "r10", "r11", "r12"];
const FIRST_SEVEN = "r1,r2,r3,r4,r5,r6,r7";

describe.each(MATRIX)("query grammar on $engine via $adapter", (target) => {
  const ctx = useHarness(target);
  let base = "";
  const labelsOf = (rows: { label: string }[]) => rows.map((r) => r.label);
  const labels = async (params: Record<string, string | number>) => labelsOf(await list(ctx.h, `${base}/items?${qs(params)}`));
  const ns = (rows: { n: number }[]) => rows.map((r) => r.n);
  const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

  beforeAll(async () => {
    const instance = await createDatabase(ctx.h, "Query grammar", TABLES);
    base = `/v1/${instance}`;
    await insert(ctx.h, `${base}/items`, ITEMS);
    await insert(ctx.h, `${base}/pages`, range(1, 1000).map((n) => ({ n, grp: n % 3 })));
    await insert(ctx.h, `${base}/pages`, { n: 1001, grp: 1001 % 3 });
    await insert(ctx.h, `${base}/words`, ["ÄRGER", "ärger", "Émile", "emile"].map((word) => ({ word })));
  });

  describe("_limit", () => {
    it("defaults to 50 rows, in id order", async () => {
      expect(ns(await list(ctx.h, `${base}/pages`))).toEqual(range(1, 50));
    });

    it("returns at most the number asked for", async () => {
      expect(ns(await list(ctx.h, `${base}/pages?_limit=1`))).toEqual([1]);
      expect(ns(await list(ctx.h, `${base}/pages?_limit=7`))).toEqual(range(1, 7));
    });

    it("accepts its maximum of 1000", async () => {
      expect(ns(await list(ctx.h, `${base}/pages?_limit=1000`))).toEqual(range(1, 1000));
    });

    it.each(["0", "1001", "abc", "-1", "2.5", ""])("refuses _limit=%s with 422 naming _limit", async (value) => {
      expect422(await ctx.h.request("GET", `${base}/pages?_limit=${value}`), "_limit");
    });
  });

  describe("_offset", () => {
    it("skips rows: page n of size s is _offset=(n-1)*s", async () => {
      const size = 10;
      for (const page of [1, 3, 100]) {
        const rows = await list(ctx.h, `${base}/pages?_limit=${size}&_offset=${(page - 1) * size}`);
        expect(ns(rows)).toEqual(range((page - 1) * size + 1, page * size));
      }
    });

    it("returns the last partial page and then an empty array", async () => {
      expect(ns(await list(ctx.h, `${base}/pages?_limit=10&_offset=995`))).toEqual(range(996, 1001));
      expect(await list(ctx.h, `${base}/pages?_offset=1001`)).toEqual([]);
    });

    it.each(["10000000", "999999999999999"])("accepts the large whole number _offset=%s (an empty page)", async (offset) => {
      expect(await list(ctx.h, `${base}/pages?_offset=${offset}`)).toEqual([]);
    });

    it.each(["-1", "abc", "1.5"])("refuses _offset=%s with 422 naming _offset", async (value) => {
      expect422(await ctx.h.request("GET", `${base}/pages?_offset=${value}`), "_offset");
    });
  });

  describe("_sort", () => {
    it.each([
      ["qty", ["r3", "r7", "r6", "r1", "r4", "r2", "r5"]],
      ["-qty", ["r2", "r5", "r4", "r1", "r6", "r7", "r3"]],
      ["price", ["r6", "r2", "r1", "r3", "r5", "r4", "r7"]],
      ["-price", ["r7", "r4", "r5", "r3", "r1", "r2", "r6"]],
      ["released", ["r3", "r5", "r1", "r6", "r2", "r4", "r7"]],
      ["-seen_at", ["r7", "r4", "r2", "r6", "r1", "r5", "r3"]],
      ["flag", ["r3", "r6", "r2", "r5", "r1", "r4", "r7"]],
      ["-id", ["r7", "r6", "r5", "r4", "r3", "r2", "r1"]],
    ])("_sort=%s orders by the column, NULLs first ascending and last descending, id breaking ties", async (sort, expected) => {
      expect(await labels({ label_in: FIRST_SEVEN, _sort: sort })).toEqual(expected);
    });

    it("sorts text case-insensitively, ties in id order", async () => {
      expect(await labels({ label_in: FIRST_SEVEN, _sort: "name" })).toEqual(["r6", "r1", "r7", "r4", "r2", "r5", "r3"]);
      expect(await labels({ label_in: FIRST_SEVEN, _sort: "-name" })).toEqual(["r3", "r5", "r2", "r4", "r1", "r7", "r6"]);
    });

    it("sorts a dropdown by its text, not by the order of its options", async () => {
      expect(await labels({ label_in: FIRST_SEVEN, _sort: "status" })).toEqual(["r5", "r1", "r4", "r3", "r7", "r2", "r6"]);
      expect(await labels({ label_in: FIRST_SEVEN, _sort: "-status" })).toEqual(["r2", "r6", "r3", "r7", "r1", "r4", "r5"]);
    });

    it("takes a comma list: later columns order the ties of earlier ones", async () => {
      expect(await labels({ label_in: FIRST_SEVEN, _sort: "qty,-name" })).toEqual(["r3", "r7", "r6", "r1", "r4", "r5", "r2"]);
      expect(await labels({ label_in: FIRST_SEVEN, _sort: "-qty,name" })).toEqual(["r2", "r5", "r4", "r1", "r6", "r7", "r3"]);
    });

    it("keeps pages stable when the sort column has ties: pages concatenate to the full order, ids ascending within ties", async () => {
      for (const sort of ["grp", "-grp"]) {
        const whole = await list(ctx.h, `${base}/pages?_sort=${sort}&_limit=35`);
        const paged: { n: number; grp: number; id: number }[] = [];
        for (let page = 0; page < 5; page++) paged.push(...(await list(ctx.h, `${base}/pages?_sort=${sort}&_limit=7&_offset=${page * 7}`)));
        expect(paged).toEqual(whole);
        const expectedGroup = sort === "grp" ? 0 : 2;
        expect(whole.every((r) => r.grp === expectedGroup)).toBe(true);
        const ids = whole.map((r) => r.id);
        expect(ids).toEqual([...ids].sort((a, b) => a - b));
      }
    });

    it.each([
      ["an unknown column", "nosuch"],
      ["a password column", "secret"],
      ["a password column, descending", "-secret"],
      ["a list with one unknown column", "qty,nosuch"],
    ])("refuses a sort on %s with 422 naming _sort", async (_label, sort) => {
      expect422(await ctx.h.request("GET", `${base}/items?${qs({ _sort: sort })}`), "_sort");
    });
  });

  describe("filters", () => {
    it.each([
      // int
      [{ qty: 10 }, ["r2", "r5"]],
      [{ qty: -3 }, ["r7"]],
      [{ qty_gt: 5 }, ["r2", "r4", "r5"]],
      [{ qty_gte: 5 }, ["r1", "r2", "r4", "r5"]],
      [{ qty_lt: 5 }, ["r6", "r7"]],
      [{ qty_lte: 5 }, ["r1", "r6", "r7"]],
      [{ qty_in: "1,7,99" }, ["r4", "r6"]],
      [{ qty_null: "true" }, ["r3", ...NO_EXTRAS]],
      [{ qty_null: "false" }, ["r1", "r2", "r4", "r5", "r6", "r7"]],
      // decimal
      [{ price: "0.99" }, ["r2"]],
      [{ price: "12" }, ["r4"]],
      [{ price: "12.00" }, ["r4"]],
      [{ price_gt: "3.25" }, ["r4", "r5", "r7"]],
      [{ price_gte: "3.25" }, ["r3", "r4", "r5", "r7"]],
      [{ price_lt: "1.5" }, ["r2"]],
      [{ price_lte: "1.5" }, ["r1", "r2"]],
      [{ price_in: "0.99,250.75" }, ["r2", "r7"]],
      [{ price_null: "true" }, ["r6", ...NO_EXTRAS]],
      // varchar: exact match and _like are case-sensitive, _ilike is not; % and _ are literal
      [{ name: "apple" }, ["r1"]],
      [{ name: "Apple" }, ["r7"]],
      [{ name: "APPLE" }, []],
      [{ name: "pad " }, ["r12"]],
      [{ name: "pad" }, []],
      [{ name_like: "pple" }, ["r1", "r7"]],
      [{ name_like: "APPLE" }, ["r4"]],
      [{ name_like: "anana" }, ["r2", "r5"]],
      [{ name_like: "Banana" }, ["r2"]],
      [{ name_ilike: "apple" }, ["r1", "r4", "r7"]],
      [{ name_ilike: "BANANA" }, ["r2", "r5"]],
      [{ name_like: "%" }, ["r8"]],
      [{ name_ilike: "0%" }, ["r8"]],
      [{ name_like: "100%" }, ["r8"]],
      [{ name_like: "_" }, ["r10"]],
      [{ name_like: "a_b" }, ["r10"]],
      [{ name_ilike: "A_B" }, ["r10"]],
      [{ name_in: "apple,cherry" }, ["r1", "r3"]],
      [{ name_in: "pad,Cherry,APPLE pie" }, ["r4"]],
      [{ name_null: "true" }, ["r6"]],
      [{ name_null: "false" }, ["r1", "r2", "r3", "r4", "r5", "r7", ...NO_EXTRAS]],
      // date
      [{ released: "2024-01-10" }, ["r1", "r6"]],
      [{ released_gt: "2024-01-10" }, ["r2", "r4", "r7"]],
      [{ released_gte: "2024-02-01" }, ["r2", "r4", "r7"]],
      [{ released_lt: "2024-01-10" }, ["r5"]],
      [{ released_lte: "2024-01-10" }, ["r1", "r5", "r6"]],
      [{ released_in: "2024-02-01,2023-12-31" }, ["r2", "r5"]],
      [{ released_null: "true" }, ["r3", ...NO_EXTRAS]],
      // datetime: Z or an offset, compared in UTC to the millisecond
      [{ seen_at: "2024-02-01T12:00:00Z" }, ["r2"]],
      [{ seen_at: "2024-02-01T14:00:00+02:00" }, ["r2"]],
      [{ seen_at_gt: "2024-01-10T08:00:00Z" }, ["r2", "r4", "r6", "r7"]],
      [{ seen_at_gte: "2024-01-10T08:00:00Z" }, ["r1", "r2", "r4", "r6", "r7"]],
      [{ seen_at_lt: "2024-01-10T08:00:00.001Z" }, ["r1", "r5"]],
      [{ seen_at_lte: "2024-03-15T23:59:59.500Z" }, ["r1", "r2", "r4", "r5", "r6"]],
      [{ seen_at_gt: "2024-03-16T01:00:00+02:00" }, ["r4", "r7"]],
      [{ seen_at_in: "2024-01-10T08:00:00Z,2024-06-30T00:00:00Z" }, ["r1", "r7"]],
      [{ seen_at_null: "true" }, ["r3", ...NO_EXTRAS]],
      // boolean
      [{ flag: "true" }, ["r1", "r4", "r7"]],
      [{ flag: "false" }, ["r2", "r5"]],
      [{ flag_null: "true" }, ["r3", "r6", ...NO_EXTRAS]],
      // dropdown
      [{ status: "active" }, ["r1", "r4"]],
      [{ status_in: "pending,closed" }, ["r2", "r3", "r6", "r7"]],
      [{ status_null: "true" }, ["r5", ...NO_EXTRAS]],
      // json: only _null
      [{ meta_null: "false" }, ["r3"]],
    ] as [Record<string, string | number>, string[]][])("%o matches %j", async (params, expected) => {
      expect(await labels(params)).toEqual(expected);
    });

    it.each([
      [{ word_ilike: "ärger" }, ["ÄRGER", "ärger"]],
      [{ word_ilike: "ÉMILE" }, ["Émile"]],
      [{ word_like: "ÄRG" }, ["ÄRGER"]],
      [{ word: "ärger" }, ["ärger"]],
    ] as [Record<string, string>, string[]][])("folds the case of non-ASCII letters only in _ilike: %o matches %j", async (params, expected) => {
      expect((await list(ctx.h, `${base}/words?${qs(params)}`)).map((r) => r.word)).toEqual(expected);
    });

    it("filters on the automatic id column", async () => {
      const all = await list(ctx.h, `${base}/items?_limit=100`);
      const id = (label: string) => all.find((r) => r.label === label).id;
      expect(await labels({ id: id("r4") })).toEqual(["r4"]);
      expect(await labels({ id_gt: id("r10") })).toEqual(["r11", "r12"]);
      expect(await labels({ id_in: `${id("r2")},${id("r9")}` })).toEqual(["r2", "r9"]);
    });

    it("filters and sorts on created_at and updated_at", async () => {
      const e1 = await insert(ctx.h, `${base}/events`, { label: "e1" });
      await sleep(25);
      const e2 = await insert(ctx.h, `${base}/events`, { label: "e2" });
      await sleep(25);
      const e3 = await insert(ctx.h, `${base}/events`, { label: "e3" });
      const events = async (params: Record<string, string>) => labelsOf(await list(ctx.h, `${base}/events?${qs(params)}`));
      expect(await events({ created_at_gt: e1.created_at })).toEqual(["e2", "e3"]);
      expect(await events({ created_at_gte: e2.created_at })).toEqual(["e2", "e3"]);
      expect(await events({ created_at_lt: e2.created_at })).toEqual(["e1"]);
      expect(await events({ created_at_lte: e2.created_at })).toEqual(["e1", "e2"]);
      expect(await events({ created_at: e2.created_at })).toEqual(["e2"]);
      expect(await events({ updated_at_gt: e2.updated_at })).toEqual(["e3"]);
      expect(await events({ _sort: "-created_at" })).toEqual(["e3", "e2", "e1"]);
      // The same instant written with an offset.
      const shifted = new Date(Date.parse(e1.created_at) + 2 * 3600_000).toISOString().replace("Z", "+02:00");
      expect(await events({ created_at_gt: shifted })).toEqual(["e2", "e3"]);
      expect(e3.id).toBeGreaterThan(e2.id);
    });

    it("applies several filters, a sort and a page together (the spec's combined example)", async () => {
      expect(await labels({ flag: "true", price_lte: 200, _sort: "-price" })).toEqual(["r4", "r1"]);
      expect(await labels({ flag: "true", price_lte: 200, _sort: "-price", _limit: 1, _offset: 1 })).toEqual(["r1"]);
      expect(await labels({ name_ilike: "an", qty_gte: 10, _sort: "-name" })).toEqual(["r5", "r2"]);
      expect(await labels({ status: "active", qty_lt: 7, released_lte: "2024-12-31" })).toEqual(["r1"]);
    });

    it.each([
      ["an unknown column", { nosuch: "1" }, "nosuch"],
      ["an unknown _parameter", { _bogus: "1" }, "_bogus"],
      ["an unknown operator suffix", { name_regex: "a" }, "name_regex"],
      ["a column name in the wrong case", { Name: "apple" }, "Name"],
      ["text in an int filter", { qty: "abc" }, "qty"],
      ["text in an int bound", { qty_gt: "ten" }, "qty_gt"],
      ["a decimal in an int filter", { qty: "1.5" }, "qty"],
      ["an impossible date", { released: "2024-13-01" }, "released"],
      ["a datetime that is not ISO-8601", { seen_at_gt: "yesterday" }, "seen_at_gt"],
      ["1 for a boolean", { flag: "1" }, "flag"],
      ["yes for a boolean", { flag: "yes" }, "flag"],
      ["a _null value other than true/false", { qty_null: "maybe" }, "qty_null"],
      ["an _in list with one bad item", { qty_in: "1,x" }, "qty_in"],
      ["an exact filter on a password column", { secret: "pw-one" }, "secret"],
      ["a _like filter on a password column", { secret_like: "pw" }, "secret_like"],
      ["a _null filter on a password column", { secret_null: "true" }, "secret_null"],
    ])("refuses %s with 422 naming it", async (_label, params, field) => {
      expect422(await ctx.h.request("GET", `${base}/items?${qs(params)}`), field);
    });

    it("lists every bad parameter of one request", async () => {
      const reply = await ctx.h.request("GET", `${base}/items?_limit=0&nosuch=1&_offset=-1&qty=x`);
      expect422(reply, "_limit", "nosuch", "_offset", "qty");
    });
  });

  describe("Prefer: count=exact", () => {
    it.each([
      ["no filter", "", 1001, 50],
      ["a filter, paged", "grp=1&_limit=5", 334, 5],
      ["a filter past its last page", "grp=0&_offset=400", 333, 0],
    ])("with %s sets X-Total-Count to the number of matching rows", async (_label, query, total, length) => {
      const reply = await ctx.h.request("GET", `${base}/pages?${query}`, { headers: { prefer: "count=exact" } });
      expect(reply.status).toBe(200);
      expect(reply.body).toHaveLength(length);
      expect(reply.headers.get("x-total-count")).toBe(String(total));
    });

    it("is not sent without the Prefer header", async () => {
      const reply = await ctx.h.request("GET", `${base}/pages?grp=1&_limit=5`);
      expect(reply.status).toBe(200);
      expect(reply.headers.get("x-total-count")).toBeNull();
    });
  });
});
