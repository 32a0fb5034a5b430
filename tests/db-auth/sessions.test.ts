// Sessions of database users: every way in answers an access token and a refresh token; a refresh token is
// single use, a reused one revokes its whole family, logout ends one family or all, rotating the signing
// secret ends them all, and of 100 concurrent refreshes of one token exactly one wins.
import { beforeAll, describe, expect, it } from "vitest";
import { ENGINES } from "../helpers/harness";
import { expectError, useHarness } from "../contract/contract-helpers";
import { addUser, authClient, makeAuthDatabase, PASSWORD } from "./accounts-fixture";
import { setUserDisabled } from "../../lib/db-auth/disable-user";

const SESSION = {
  token: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
  token_type: "Bearer",
  expires_in: 3600,
  refresh_token: expect.stringMatching(/^rt_[\w-]{43}$/),
  user: expect.objectContaining({ email: expect.any(String) }),
};

describe.each(ENGINES)("database auth sessions on %s", (engine) => {
  const ctx = useHarness({ engine, adapter: "node" }, { config: { trustProxy: { hops: 1 } } });
  let db: string;
  beforeAll(async () => {
    db = await makeAuthDatabase(ctx.h, `sessions ${engine}`);
  });

  const signIn = async (email: string, address: string) => {
    const c = authClient(ctx.h, db, address);
    const r = await c.post("login", { email, password: PASSWORD });
    expect(r.status, r.text).toBe(200);
    return { c, session: r.body };
  };

  it("login and sign-up answer {token, token_type, expires_in, refresh_token, user}", async () => {
    await addUser(ctx.h, db, "s1@example.com");
    const { session } = await signIn("s1@example.com", "10.1.0.1");
    expect(session).toEqual(SESSION);
    const up = await authClient(ctx.h, db, "10.1.0.2").post("signup", { email: "s1b@example.com", password: PASSWORD });
    expect(up.status, up.text).toBe(201);
    expect(up.body).toEqual(SESSION);
  });

  it("refresh rotates: a new pair that works, the old refresh token spent; reusing it revokes the family", async () => {
    await addUser(ctx.h, db, "s2@example.com");
    const { c, session } = await signIn("s2@example.com", "10.1.0.3");
    const next = await c.post("refresh", { refresh_token: session.refresh_token });
    expect(next.status, next.text).toBe(200);
    expect(next.body).toEqual(SESSION);
    expect(next.body.refresh_token).not.toBe(session.refresh_token);
    expect((await c.get("me", next.body.token)).status).toBe(200);
    // The spent token again: a reuse. The family ends, the new pair with it.
    expectError(await c.post("refresh", { refresh_token: session.refresh_token }), 401, "refresh_token_reused");
    expectError(await c.post("refresh", { refresh_token: next.body.refresh_token }), 401, "unauthorized");
    expectError(await c.get("me", next.body.token), 401, "unauthorized");
    // A new sign-in is a new family, unaffected.
    const again = await signIn("s2@example.com", "10.1.0.3");
    expect((await again.c.post("refresh", { refresh_token: again.session.refresh_token })).status).toBe(200);
  });

  it("refresh: should block an unknown token and a missing one, and a token of another database", async () => {
    const c = authClient(ctx.h, db, "10.1.0.4");
    expectError(await c.post("refresh", { refresh_token: "rt_nope" }), 401, "unauthorized");
    expectError(await c.post("refresh", {}), 422, "validation_failed", ["refresh_token"]);
    const other = await makeAuthDatabase(ctx.h, `sessions other ${engine}`);
    await addUser(ctx.h, other, "o@example.com");
    const o = await authClient(ctx.h, other, "10.1.0.5").post("login", { email: "o@example.com", password: PASSWORD });
    expectError(await c.post("refresh", { refresh_token: o.body.refresh_token }), 401, "unauthorized");
  });

  it("logout ends this session only; {scope: all} ends every session of the user", async () => {
    await addUser(ctx.h, db, "s3@example.com");
    const one = await signIn("s3@example.com", "10.1.0.6");
    const two = await signIn("s3@example.com", "10.1.0.6");
    const three = await signIn("s3@example.com", "10.1.0.6");
    expect((await one.c.post("logout", undefined, one.session.token)).status).toBe(204);
    expectError(await one.c.get("me", one.session.token), 401, "unauthorized");
    expectError(await one.c.post("refresh", { refresh_token: one.session.refresh_token }), 401, "unauthorized");
    expect((await two.c.get("me", two.session.token)).status).toBe(200);
    expect((await two.c.post("logout", { scope: "all" }, two.session.token)).status).toBe(204);
    expectError(await three.c.get("me", three.session.token), 401, "unauthorized");
    expectError(await three.c.post("refresh", { refresh_token: three.session.refresh_token }), 401, "unauthorized");
    expectError(await one.c.post("logout", { scope: "everything" }, three.session.token), 422, "validation_failed", ["scope"]);
    expectError(await one.c.post("logout"), 401, "unauthorized");
  });

  it("rotating the signing secret ends every session (access and refresh)", async () => {
    const rdb = await makeAuthDatabase(ctx.h, `sessions rotate ${engine}`);
    await addUser(ctx.h, rdb, "r@example.com");
    const c = authClient(ctx.h, rdb, "10.1.0.7");
    const s = (await c.post("login", { email: "r@example.com", password: PASSWORD })).body;
    expect((await ctx.h.request("POST", `/api/v1/databases/${rdb}/auth/rotate-secret`)).status).toBe(200);
    expectError(await c.get("me", s.token), 401, "unauthorized");
    expectError(await c.post("refresh", { refresh_token: s.refresh_token }), 401, "unauthorized");
  });

  it("disabling a user ends its sessions and refuses its login (the same 401 as a wrong password); enabling lets it back", async () => {
    const id = await addUser(ctx.h, db, "off@example.com");
    const { c, session } = await signIn("off@example.com", "10.1.0.9");
    const databaseId = (await ctx.h.app.engine.meta.selectFrom("databases").select("id").where("instance", "=", db).executeTakeFirstOrThrow()).id;
    await setUserDisabled(ctx.h.app, databaseId, id, true);
    expectError(await c.get("me", session.token), 401, "unauthorized");
    expectError(await c.post("refresh", { refresh_token: session.refresh_token }), 401, "unauthorized");
    const refused = await c.post("login", { email: "off@example.com", password: PASSWORD });
    const wrong = await c.post("login", { email: "off@example.com", password: "not-the-password" });
    expectError(refused, 401, "unauthorized");
    expect(refused.text).toBe(wrong.text);
    await setUserDisabled(ctx.h.app, databaseId, id, false);
    expect((await c.post("login", { email: "off@example.com", password: PASSWORD })).status).toBe(200);
  });

  it("100 concurrent refreshes of one token: exactly one wins, and the reuse ends the family", async () => {
    await addUser(ctx.h, db, "race@example.com");
    const { c, session } = await signIn("race@example.com", "10.1.0.8");
    const replies = await Promise.all(Array.from({ length: 100 }, () => c.post("refresh", { refresh_token: session.refresh_token })));
    const statuses = replies.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 401)).toHaveLength(99);
    expect(replies.filter((r) => r.body.error === "refresh_token_reused").length).toBeGreaterThan(0);
    const winner = replies.find((r) => r.status === 200)!;
    expectError(await c.post("refresh", { refresh_token: winner.body.refresh_token }), 401, "unauthorized");
  });
});
