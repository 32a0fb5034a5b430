// Row policies on the second-edition reads: `_expand` reads the referenced table with the caller's select
// policy (a hidden row expands to null), aggregates count only visible rows, left joins join only visible rows,
// an `_or` group narrows within the visible rows and never reaches a hidden one.
// Pairs per caller kind: the secret key (server role) against JWT users A and B.
import { beforeAll, describe, expect, it } from "vitest";
import { expectError, MATRIX, useHarness } from "../contract/contract-helpers";
import { bearer, type Fixture, makeFixture, putPolicies } from "./security-fixture";

describe.each(MATRIX)("RLS on expansions, aggregates and left joins on $engine via $adapter", (target) => {
  const ctx = useHarness(target);
  let f: Fixture;
  const get = (path: string, token?: string) => ctx.h.request("GET", `/v1/${f.db}/${path}`, token ? bearer(token) : {});
  const ok = async (path: string, token?: string) => {
    const reply = await get(path, token);
    expect(reply.status, reply.text).toBe(200);
    return reply.body;
  };

  beforeAll(async () => {
    f = await makeFixture(ctx.h, `rls reads ${target.engine}`);
    const table = await ctx.h.request("POST", `/api/v1/databases/${f.db}/tables`, {
      body: {
        name: "comments",
        columns: [
          { name: "body", type: "varchar" },
          { name: "note_id", type: "reference", references: "notes" },
          { name: "author_id", type: "reference", references: "users" },
        ],
      },
    });
    expect(table.status, table.text).toBe(201);
    await putPolicies(ctx.h, f.db, "comments", { select: "true" });
    const { a1, b1, bp, ap } = f.notes;
    const made = await ctx.h.request("POST", `/v1/${f.db}/comments`, {
      body: [
        { body: "on a1 by A", note_id: a1, author_id: f.userA.id },
        { body: "on b1 by B", note_id: b1, author_id: f.userB.id },
        { body: "on bp by B", note_id: bp, author_id: f.userB.id },
        { body: "on ap by A", note_id: ap, author_id: f.userA.id },
      ],
    });
    expect(made.status, made.text).toBe(201);
    const join = await ctx.h.request("POST", `/api/v1/databases/${f.db}/joins`, {
      body: {
        name: "notes_left_users",
        base: "notes",
        joins: [{ table: "users", on: [["notes.owner_id", "users.id"]], type: "left" }],
        columns: [{ column: "notes.id", as: "id" }, { column: "notes.title", as: "title" }, { column: "users.email", as: "author" }],
      },
    });
    expect(join.status, join.text).toBe(201);
  });

  const expanded = async (token?: string) =>
    (await ok("comments?_expand=note_id,author_id&_select=body", token)).map((r: any) => [r.body, r.expand.note_id?.title ?? null, r.expand.author_id?.email ?? null]);

  it("should allow the secret key every referenced row, without password columns", async () => {
    expect(await expanded()).toEqual([
      ["on a1 by A", "alpha one", "a@example.com"],
      ["on b1 by B", "bravo one secret", "b@example.com"],
      ["on bp by B", "bravo public", "b@example.com"],
      ["on ap by A", "alpha public", "a@example.com"],
    ]);
    for (const row of await ok("comments?_expand=author_id")) expect(Object.keys(row.expand.author_id)).not.toContain("password");
  });

  it("should block referenced rows a JWT user's policy hides (null) and allow the visible ones", async () => {
    expect(await expanded(f.userA.token)).toEqual([
      ["on a1 by A", "alpha one", "a@example.com"],
      ["on b1 by B", null, null],
      ["on bp by B", "bravo public", null],
      ["on ap by A", "alpha public", "a@example.com"],
    ]);
    expect(await expanded(f.userB.token)).toEqual([
      ["on a1 by A", null, null],
      ["on b1 by B", "bravo one secret", "b@example.com"],
      ["on bp by B", "bravo public", "b@example.com"],
      ["on ap by A", "alpha public", null],
    ]);
  });

  it("should block every expansion into a table without a select policy (null), while the read itself is allowed", async () => {
    await putPolicies(ctx.h, f.db, "users", { select: null });
    try {
      expect((await expanded(f.userA.token)).map((r: unknown[]) => r[2])).toEqual([null, null, null, null]);
      expect((await expanded()).map((r: unknown[]) => r[2]), "the key still expands them").toEqual(["a@example.com", "b@example.com", "b@example.com", "a@example.com"]);
    } finally {
      await putPolicies(ctx.h, f.db, "users", { select: "id = auth.id" });
    }
  });

  it("should allow the secret key to aggregate every row", async () => {
    expect(await ok("notes/_aggregate?_group=public&_agg=count,sum:rank")).toEqual([
      { public: false, count: 5, sum_rank: 19 },
      { public: true, count: 2, sum_rank: 2 },
    ]);
  });

  it("should block hidden rows from a JWT user's aggregates and allow the visible ones", async () => {
    expect(await ok("notes/_aggregate?_agg=count,sum:rank,max:rank", f.userA.token)).toEqual([{ count: 5, sum_rank: 11, max_rank: 5 }]);
    expect(await ok("notes/_aggregate?_agg=count,sum:rank,max:rank", f.userB.token)).toEqual([{ count: 4, sum_rank: 12, max_rank: 6 }]);
    expect(await ok("notes/_aggregate?_group=owner_id&_agg=count&_sort=-count", f.userA.token)).toEqual([
      { owner_id: f.userA.id, count: 4 },
      { owner_id: f.userB.id, count: 1 },
    ]);
  });

  it("should block aggregates over a table without a select policy for JWT users (403) and allow them for the key", async () => {
    expectError(await get("secrets/_aggregate", f.userA.token), 403, "forbidden");
    expect(await ok("secrets/_aggregate")).toEqual([{ count: 0 }]);
  });

  it("left joins: should block a JWT user's hidden joined rows (their columns null) and allow the key all of them", async () => {
    const asKey = await ok("notes_left_users?_limit=100");
    expect(asKey.map((r: any) => r.author)).toEqual(["a@example.com", "a@example.com", "a@example.com", "a@example.com", "b@example.com", "b@example.com", "b@example.com"]);
    const asA = await ok("notes_left_users?_limit=100", f.userA.token);
    expect(asA.map((r: any) => [r.title, r.author])).toEqual([
      ["alpha one", "a@example.com"],
      ["alpha two", "a@example.com"],
      ["alpha three", "a@example.com"],
      ["alpha public", "a@example.com"],
      ["bravo public", null],
    ]);
    expect(await ok("notes_left_users/_aggregate?_group=author", f.userA.token)).toEqual([{ author: null, count: 1 }, { author: "a@example.com", count: 4 }]);
    expect(await ok("notes_left_users/_aggregate?_group=author")).toEqual([{ author: "a@example.com", count: 4 }, { author: "b@example.com", count: 3 }]);
  });

  const orGroup = (filters: string) => `_or=${encodeURIComponent(filters)}`;
  const titles = (rows: { title: string }[]) => rows.map((r) => r.title);

  it("_or: should allow the secret key every row an OR group matches", async () => {
    const group = orGroup(`title=bravo one secret&owner_id=${f.userB.id}`);
    expect(titles(await ok(`notes?${group}`))).toEqual(["bravo one secret", "bravo two secret", "bravo public"]);
    expect(await ok(`notes/_aggregate?${group}`)).toEqual([{ count: 3 }]);
  });

  it("_or: should block a JWT user's hidden rows even when an OR group names them, and allow the visible ones", async () => {
    const group = orGroup(`title=bravo one secret&owner_id=${f.userB.id}`);
    expect(titles(await ok(`notes?${group}`, f.userA.token)), "b1 and b2 stay hidden from A").toEqual(["bravo public"]);
    const counted = await ctx.h.request("GET", `/v1/${f.db}/notes?${group}`, { ...bearer(f.userA.token), headers: { ...bearer(f.userA.token).headers, prefer: "count=exact" } });
    expect(counted.headers.get("x-total-count")).toBe("1");
    expect(await ok(`notes/_aggregate?${group}`, f.userA.token)).toEqual([{ count: 1 }]);
    expect(titles(await ok(`notes?${orGroup("public=false&public=true")}`, f.userA.token)), "an always-true group widens nothing").toEqual([
      "alpha one", "alpha two", "alpha three", "alpha public", "bravo public",
    ]);
    expect(titles(await ok(`notes?${group}`, f.userB.token))).toEqual(["bravo one secret", "bravo two secret", "bravo public"]);
    expect(titles(await ok(`notes_left_users?${orGroup("title=alpha one&title=bravo one secret")}`, f.userA.token))).toEqual(["alpha one"]);
  });
});
