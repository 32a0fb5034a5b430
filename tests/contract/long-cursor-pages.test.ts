// Cursor pages sorted by long text (60,000 characters): every Link stays under 2 KB (Node's HTTP client reads
// it), and walking the Links gives exactly the rows of one big read, in order, for a table and a join, on every
// engine through both adapters. A long key's cursor names its row by ids; a forged one is refused.
import { beforeAll, describe, expect, it } from "vitest";
import type { Harness } from "../helpers/harness";
import { rawRequest } from "../helpers/raw-request";
import { createDatabase, expect422, insert, list, MATRIX, useHarness } from "./contract-helpers";

const LONG = 60_000;
const LINK_MAX = 2048;

/** Long values that differ only near their end (and in case, which the text sort ignores), ties, short ones, NULL. */
const BODIES = [
  `${"m".repeat(LONG - 1)}b`,
  `${"m".repeat(LONG - 1)}A`,
  `${"M".repeat(LONG - 1)}a`,
  `${"m".repeat(LONG - 1)}c`,
  `${"m".repeat(LONG - 1)}b`,
  "short",
  null,
  `${"z".repeat(LONG)}`,
  `${"a".repeat(LONG)}`,
  `${"m".repeat(LONG - 1)}B`,
  null,
  "m",
];

const nextOf = (link: string | null | undefined) => link?.match(/^<([^>]+)>; rel="next"$/)?.[1];
const cursorOf = (link: string) => new URL(nextOf(link)!).searchParams.get("_after")!;
const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

describe.each(MATRIX)("cursor pages over long text on $engine via $adapter", (target) => {
  const ctx = useHarness(target);
  let base = "";
  let instance = "";

  /** One GET: over node:http when the adapter is a real server (its header limit is the point), else in-process. */
  const get = async (h: Harness, path: string) => {
    if (target.adapter === "route") {
      const reply = await h.request("GET", path);
      return { status: reply.status, body: reply.body, text: reply.text, link: reply.headers.get("link") ?? undefined };
    }
    const reply = await rawRequest(h.baseUrl, { method: "GET", path, headers: { "x-api-key": h.accountKey } });
    return { status: reply.status, body: reply.body, text: reply.text, link: reply.headers.link as string | undefined };
  };

  /** Follows every Link from `path`; each one under 2 KB. */
  const walk = async (path: string) => {
    const rows: any[] = [];
    const links: string[] = [];
    for (let next: string | undefined = path; next; ) {
      const reply = await get(ctx.h, next);
      expect(reply.status, reply.text.slice(0, 300)).toBe(200);
      rows.push(...reply.body);
      if (reply.link) links.push(reply.link);
      const url = nextOf(reply.link);
      next = url ? new URL(url).pathname + new URL(url).search : undefined;
    }
    return { rows, links };
  };

  beforeAll(async () => {
    instance = await createDatabase(ctx.h, "Long cursors", [
      { name: "writers", columns: [{ name: "name", type: "varchar" }] },
      { name: "notes", columns: [{ name: "body", type: "text" }, { name: "rank", type: "int" }, { name: "writer_id", type: "reference", references: "writers" }] },
    ]);
    base = `/v1/${instance}`;
    await insert(ctx.h, `${base}/writers`, [{ name: "Ann" }, { name: "Bo" }]);
    for (const [i, body] of BODIES.entries()) await insert(ctx.h, `${base}/notes`, { body, rank: i % 3, writer_id: (i % 2) + 1 });
    const made = await ctx.h.request("POST", `/api/v1/databases/${instance}/joins`, {
      body: { name: "by_writer", base: "notes", joins: [{ table: "writers", on: [["notes.writer_id", "writers.id"]] }], columns: [{ column: "notes.id", as: "id" }, { column: "notes.body", as: "body" }, { column: "writers.name", as: "writer" }] },
    });
    expect(made.status, made.text).toBe(201);
  }, 120_000);

  it.each([
    ["a table by long text ascending", "notes", "_sort=body"],
    ["a table by long text descending", "notes", "_sort=-body"],
    ["a table by an int, then long text descending", "notes", "_sort=rank,-body"],
    ["a join by long text", "by_writer", "_sort=body,-writer"],
  ])("%s: every Link under 2 KB, the rows exactly those of one read", async (_name, collection, sort) => {
    const whole = await list(ctx.h, `${base}/${collection}?_limit=1000&${sort}`);
    expect(whole).toHaveLength(BODIES.length);
    for (const size of [1, 2, 5]) {
      const { rows, links } = await walk(`${base}/${collection}?_limit=${size}&${sort}`);
      expect(rows.map((r) => r.id)).toEqual(whole.map((r) => r.id));
      expect(rows).toEqual(whole);
      expect(links).toHaveLength(Math.ceil(BODIES.length / size) - 1);
      for (const link of links) expect(link.length).toBeLessThan(LINK_MAX);
    }
  });

  it("a short key's cursor still carries its values; a long key's names its row", async () => {
    const short = await get(ctx.h, `${base}/notes?_limit=1&_sort=rank`);
    expect(JSON.parse(Buffer.from(cursorOf(short.link!), "base64url").toString())).toEqual(["rank", 0, short.body[0].id]);
    const nulls = await get(ctx.h, `${base}/notes?_limit=2&_sort=body`);
    expect(nulls.body.map((r: any) => r.body)).toEqual([null, null]);
    const second = await get(ctx.h, `${base}/notes?_limit=1&_sort=body&_after=${cursorOf(nulls.link!)}`);
    expect(second.body[0].body).toBe("a".repeat(LONG));
    expect(JSON.parse(Buffer.from(cursorOf(second.link!), "base64url").toString())).toEqual(["body", { row: [second.body[0].id] }]);
  });

  it("should allow a by-row cursor of a row the caller sees: the page after it, as one read orders it", async () => {
    const whole = await list(ctx.h, `${base}/notes?_limit=1000&_sort=body`);
    const after = await list(ctx.h, `${base}/notes?_limit=3&_sort=body&_after=${encode(["body", { row: [whole[4].id] }])}`);
    expect(after.map((r) => r.id)).toEqual(whole.slice(5, 8).map((r) => r.id));
  });

  it.each([
    ["an id that is not a whole number", ["body", { row: ["1"] }]],
    ["too many ids", ["body", { row: [1, 2] }]],
    ["no ids", ["body", { row: [] }]],
    ["another property", ["body", { row: [1], body: "m" }]],
    ["another sort", ["-body", { row: [1] }]],
    ["a row object beside values", ["body", { row: [1] }, 1]],
  ])("should block a by-row cursor with %s: 422 naming _after", async (_name, cursor) => {
    expect422(await ctx.h.request("GET", `${base}/notes?_sort=body&_after=${encode(cursor)}`), "_after");
  });

  it("a by-row cursor whose row is gone is a 422 cursor_expired naming _after; start again without it", async () => {
    const [gone] = await insert(ctx.h, `${base}/notes`, [{ body: "q".repeat(LONG), rank: 9 }]);
    const first = await get(ctx.h, `${base}/notes?_limit=1&_sort=-rank,body`);
    expect(first.body[0].id).toBe(gone.id);
    expect((await ctx.h.request("DELETE", `${base}/notes/${gone.id}`)).status).toBe(204);
    const reply = await ctx.h.request("GET", `${base}/notes?_limit=1&_sort=-rank,body&_after=${cursorOf(first.link!)}`);
    expect({ status: reply.status, body: reply.body }).toEqual({
      status: 422,
      body: {
        error: "validation_failed",
        message: "_after continues from a row that is no longer there; start again without _after",
        errors: [{ field: "_after", code: "cursor_expired", message: "_after continues from a row that is no longer there; start again without _after" }],
      },
    });
  });
});
