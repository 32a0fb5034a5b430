// Join reads by JWT users (database auth): the same rule as table reads, password columns never reach a
// browser, while secret keys (the server role) see them. RLS inside joins is covered by tests/security/rls-joins.
import { describe, expect, it } from "vitest";
import { ENGINES } from "../helpers/harness";
import { useHarness } from "../contract/contract-helpers";
import { bearer, makeFixture } from "../security/security-fixture";

describe.each(ENGINES)("join reads by JWT users on %s", (engine) => {
  const ctx = useHarness({ engine, adapter: "node" });

  it("should block password hashes for JWT users and allow them for the secret key", async () => {
    const f = await makeFixture(ctx.h, `join hashes ${engine}`);
    const made = await ctx.h.request("POST", `/api/v1/databases/${f.db}/joins`, {
      body: { name: "notes_pw", sql: "SELECT n.title, u.email AS author, u.password AS pw FROM notes n JOIN users u ON n.owner_id = u.id" },
    });
    expect(made.status, made.text).toBe(201);
    const asKey = await ctx.h.request("GET", `/v1/${f.db}/notes_pw`);
    expect(asKey.status).toBe(200);
    expect(asKey.body[0].pw).toMatch(/^\$2[aby]\$/);
    const asUser = await ctx.h.request("GET", `/v1/${f.db}/notes_pw`, bearer(f.userA.token));
    expect(asUser.status, asUser.text).toBe(200);
    expect(asUser.body.length).toBeGreaterThan(0);
    for (const row of asUser.body) expect(Object.keys(row)).toEqual(["title", "author"]);
  });
});
