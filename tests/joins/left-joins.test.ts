// Left joins (PRODUCT "Query grammar, second edition"): `"type": "left"` per joined table in the structured
// form, `LEFT [OUTER] JOIN` in SQL mode; unmatched columns read null. Every engine, both adapters.
import { beforeAll, describe, expect, it } from "vitest";
import { expect422, list, MATRIX, useHarness } from "../contract/contract-helpers";
import { BOOKS_JOIN, seedCatalog } from "./join-fixture";

const LEFT_JOIN = {
  ...BOOKS_JOIN,
  name: "everything",
  joins: BOOKS_JOIN.joins.map((j) => ({ ...j, type: "left" })),
};

const pairs = (rows: any[]) => rows.map((r) => [r.title, r.author, r.category]);

describe.each(MATRIX)("left joins on $engine via $adapter", (target) => {
  const ctx = useHarness(target);
  let instance = "";
  let base = "";
  let mgmt = "";

  beforeAll(async () => {
    ({ instance, base } = await seedCatalog(ctx.h, "Left joins"));
    mgmt = `/api/v1/databases/${instance}/joins`;
    const made = await ctx.h.request("POST", mgmt, { body: LEFT_JOIN });
    expect(made.status, made.text).toBe(201);
  });

  it("keeps base rows without a match, their joined columns null", async () => {
    expect(pairs(await list(ctx.h, `${base}/everything`))).toEqual([
      ["The Dispossessed", "Ursula", "Fiction"],
      ["all about love", "bell", "poetry"],
      ["Earthsea", "Ursula", "Fiction"],
      ["Lathe of Heaven", "Ursula", "poetry"],
      ["Orphan", null, "Fiction"],
      ["Unfiled", "bell", null],
    ]);
  });

  it("stores the type per joined table; inner stays the default and is shown as no type", async () => {
    const one = await ctx.h.request("GET", `${mgmt}/everything`);
    expect(one.body.joins.map((j: any) => j.type)).toEqual(["left", "left"]);
    const mixed = await ctx.h.request("POST", mgmt, { body: { ...BOOKS_JOIN, name: "mixed", joins: [BOOKS_JOIN.joins[0], { ...BOOKS_JOIN.joins[1], type: "left" }] } });
    expect(mixed.status, mixed.text).toBe(201);
    expect(mixed.body.joins[0]).toEqual(BOOKS_JOIN.joins[0]);
    expect(pairs(await list(ctx.h, `${base}/mixed`)).map((p) => p[0]), "the inner join to authors still drops Orphan").toEqual([
      "The Dispossessed", "all about love", "Earthsea", "Lathe of Heaven", "Unfiled",
    ]);
  });

  it("SQL mode accepts LEFT JOIN and LEFT OUTER JOIN", async () => {
    const sqlText = "SELECT b.id, b.title, a.name AS author, c.label AS category FROM books b LEFT JOIN authors a ON b.author_id = a.id LEFT OUTER JOIN categories c ON b.category_id = c.id";
    const made = await ctx.h.request("POST", mgmt, { body: { name: "by_sql", sql: sqlText } });
    expect(made.status, made.text).toBe(201);
    expect(made.body.joins.map((j: any) => j.type)).toEqual(["left", "left"]);
    expect(pairs(await list(ctx.h, `${base}/by_sql`))).toEqual(pairs(await list(ctx.h, `${base}/everything`)));
  });

  it("a renamed table keeps its join's LEFT JOIN in the rewritten SQL", async () => {
    await ctx.h.request("POST", mgmt, { body: { name: "sql_left", sql: "SELECT b.title, a.name AS author FROM books b LEFT JOIN authors a ON b.author_id = a.id" } });
    const renamed = await ctx.h.request("PATCH", `/api/v1/databases/${instance}/tables/authors`, { body: { name: "writers" } });
    expect(renamed.status, renamed.text).toBe(200);
    const after = await ctx.h.request("GET", `${mgmt}/sql_left`);
    expect(after.body.sql).toMatch(/LEFT JOIN `writers`/);
    expect(after.body.joins[0]).toEqual({ table: "writers", on: [["books.author_id", "writers.id"]], type: "left" });
    expect((await list(ctx.h, `${base}/sql_left`)).map((r) => r.author)).toEqual(["Ursula", "bell", "Ursula", "Ursula", null, "bell"]);
    expect((await ctx.h.request("PATCH", `/api/v1/databases/${instance}/tables/writers`, { body: { name: "authors" } })).status).toBe(200);
  });

  it("filters, sorts, cursor pages and aggregates see the null columns", async () => {
    expect((await list(ctx.h, `${base}/everything?author_null=true`)).map((r) => r.title)).toEqual(["Orphan"]);
    const whole = await list(ctx.h, `${base}/everything?_sort=category,-author`);
    expect(whole.map((r) => r.title)).toEqual(["Unfiled", "The Dispossessed", "Earthsea", "Orphan", "Lathe of Heaven", "all about love"]);
    const walked: any[] = [];
    for (let next: string | undefined = `${base}/everything?_sort=category,-author&_limit=1`; next; ) {
      const reply = await ctx.h.request("GET", next);
      walked.push(...reply.body);
      const link = reply.headers.get("link");
      next = link ? new URL(link.slice(1, link.indexOf(">"))).pathname + new URL(link.slice(1, link.indexOf(">"))).search : undefined;
    }
    expect(walked).toEqual(whole);
    const grouped = await ctx.h.request("GET", `${base}/everything/_aggregate?_group=author&_agg=count`);
    expect(grouped.body).toEqual([{ author: null, count: 1 }, { author: "bell", count: 2 }, { author: "Ursula", count: 3 }]);
  });

  it.each([
    [{ ...LEFT_JOIN, name: "bad_type", joins: [{ ...BOOKS_JOIN.joins[0], type: "right" }] }, "joins[0].type"],
    [{ ...LEFT_JOIN, name: "bad_prop", joins: [{ ...BOOKS_JOIN.joins[0], kind: "left" }] }, "joins[0].kind"],
  ])("refuses a bad join entry with 422 naming the field", async (body, field) => {
    expect422(await ctx.h.request("POST", mgmt, { body }), field);
  });
});
