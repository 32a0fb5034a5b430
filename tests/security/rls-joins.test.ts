// Policies apply to every table inside a join: each table is filtered by its own select policy, and a table
// without one closes the join to JWT users (403). Secret keys see every joined row.
import { beforeAll, describe, expect, it } from "vitest";
import { ENGINES } from "../helpers/harness";
import { expectError, useHarness } from "../contract/contract-helpers";
import { bearer, type Fixture, makeFixture, putPolicies } from "./security-fixture";

describe.each(ENGINES)("RLS inside joins on %s", (engine) => {
  const ctx = useHarness({ engine, adapter: "node" });
  let f: Fixture;
  const read = (token: string | undefined, query = "") =>
    ctx.h.request("GET", `/v1/${f.db}/notes_with_authors${query}`, token ? bearer(token) : {});

  beforeAll(async () => {
    f = await makeFixture(ctx.h, `rls joins ${engine}`);
    // The join needs a key pair; owner_id is a bigint here, so join on it explicitly.
    const r = await ctx.h.request("POST", `/api/v1/databases/${f.db}/joins`, {
      body: {
        name: "notes_with_authors",
        base: "notes",
        joins: [{ table: "users", on: [["notes.owner_id", "users.id"]] }],
        columns: [
          { column: "notes.id", as: "note_id" },
          { column: "notes.title", as: "title" },
          { column: "users.email", as: "author" },
        ],
      },
    });
    expect(r.status, r.text).toBe(201);
  });

  it("should allow the secret key every joined row", async () => {
    expect((await read(undefined, "?_limit=1000")).body.length).toBe(7);
  });

  it("should block rows of tables the user cannot see: both policies filter (notes visible AND author visible)", async () => {
    // users: select id = auth.id, so only rows authored by the caller survive, even public notes of others.
    await putPolicies(ctx.h, f.db, "users", { select: "id = auth.id", update: "id = auth.id" });
    const rows = (await read(f.userA.token, "?_limit=1000")).body;
    expect(rows.map((r: any) => r.author)).toEqual(["a@example.com", "a@example.com", "a@example.com", "a@example.com"]);
    const filtered = await ctx.h.request("GET", `/v1/${f.db}/notes_with_authors?author=b@example.com`, { ...bearer(f.userA.token), headers: { ...bearer(f.userA.token).headers, prefer: "count=exact" } });
    expect(filtered.body).toEqual([]);
    expect(filtered.headers.get("x-total-count")).toBe("0");
  });

  it("should allow more rows when a joined table's policy opens up", async () => {
    await putPolicies(ctx.h, f.db, "users", { select: "true" });
    const rows = (await read(f.userA.token, "?_limit=1000")).body;
    expect(rows.map((r: any) => r.title).sort()).toEqual(["alpha one", "alpha public", "alpha three", "alpha two", "bravo public"]);
  });

  it("should block the whole join (403) when a table in it has no select policy", async () => {
    await putPolicies(ctx.h, f.db, "users", { select: null });
    expectError(await read(f.userA.token), 403, "forbidden");
  });
});
