// Hooks see who writes: under database auth a JWT user's `auth` is {kind: "user", id}, a secret key's is
// {kind: "key", id: null}. A set of the owner column from auth.id makes a row its writer's, whatever the body
// says, and runs before the policy check, so an owner policy passes without the client sending the owner.
import { beforeAll, describe, expect, it } from "vitest";
import { createDatabase, useHarness } from "../contract/contract-helpers";
import { ENGINES } from "../helpers/harness";
import { bearer, enableAuth, login, putPolicies } from "../security/security-fixture";
import { expectHookAssert, putHooks, snapshot } from "./hooks-fixture";

describe.each(ENGINES)("pre hooks and auth (%s)", (engine) => {
  const ctx = useHarness({ engine, adapter: "node" });
  let db = "";
  let a = { id: 0, token: "" };
  let b = { id: 0, token: "" };

  beforeAll(async () => {
    const { h } = ctx;
    db = await createDatabase(h, "hook auth", [
      { name: "users", columns: [{ name: "email", type: "varchar", unique: true, nullable: false }, { name: "password", type: "password", nullable: false }] },
      { name: "posts", columns: [{ name: "title", type: "varchar", nullable: false }, { name: "owner_id", type: "bigint" }] },
      { name: "reviews", columns: [{ name: "text", type: "varchar", nullable: false }, { name: "author_id", type: "bigint" }, { name: "author_kind", type: "varchar" }] },
    ]);
    await enableAuth(h, db);
    const users = await h.request("POST", `/v1/${db}/users`, {
      body: [{ email: "a@example.com", password: "alpha-password-1" }, { email: "b@example.com", password: "bravo-password-2" }],
    });
    expect(users.status, users.text).toBe(201);
    a = { id: users.body[0].id, token: await login(h, db, "a@example.com", "alpha-password-1") };
    b = { id: users.body[1].id, token: await login(h, db, "b@example.com", "bravo-password-2") };
    await putPolicies(h, db, "posts", { select: "true", insert: "owner_id = auth.id", update: "owner_id = auth.id", delete: "owner_id = auth.id" });
    await putPolicies(h, db, "reviews", { select: "true", insert: "author_id = auth.id", update: null, delete: null });
    await putHooks(h, db, "posts", { insert: [{ set: "owner_id", expr: "auth.id" }] });
    await putHooks(h, db, "reviews", {
      insert: [
        { assert: 'auth.kind == "user"', message: "only signed-in users may review" },
        { set: "author_id", expr: "auth.id" },
        { set: "author_kind", expr: "auth.kind" },
      ],
    });
  });

  it("should allow a user to post without an owner: the hook sets it from the token and the owner policy passes", async () => {
    const reply = await ctx.h.request("POST", `/v1/${db}/posts`, { body: { title: "mine" }, ...bearer(a.token) });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body).toMatchObject({ title: "mine", owner_id: a.id });
  });

  it("should block posting as someone else: the owner in the body is replaced by the caller's id", async () => {
    const reply = await ctx.h.request("POST", `/v1/${db}/posts`, { body: { title: "forged", owner_id: a.id }, ...bearer(b.token) });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body.owner_id).toBe(b.id);
    const stored = await ctx.h.request("GET", `/v1/${db}/posts/${reply.body.id}`);
    expect(stored.body.owner_id).toBe(b.id);
  });

  it("should allow a bulk POST by a user, every row owned by them", async () => {
    const reply = await ctx.h.request("POST", `/v1/${db}/posts`, { body: [{ title: "one" }, { title: "two", owner_id: a.id }], ...bearer(b.token) });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body.map((r: { owner_id: number }) => r.owner_id)).toEqual([b.id, b.id]);
  });

  it("a secret key writes with auth {kind: key, id: null}", async () => {
    const reply = await ctx.h.request("POST", `/v1/${db}/posts`, { body: { title: "by key", owner_id: a.id } });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body.owner_id).toBeNull();
  });

  it("should block a secret key where the hook asserts a user, writing nothing", async () => {
    const before = await snapshot(ctx.h, db, "reviews");
    const reply = await ctx.h.request("POST", `/v1/${db}/reviews`, { body: { text: "from a script" } });
    expectHookAssert(reply, "hook.insert[0]", "only signed-in users may review");
    expect(await snapshot(ctx.h, db, "reviews")).toBe(before);
  });

  it("should allow a user where the hook asserts a user, with auth.kind and auth.id set", async () => {
    const reply = await ctx.h.request("POST", `/v1/${db}/reviews`, { body: { text: "great" }, ...bearer(a.token) });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body).toMatchObject({ text: "great", author_id: a.id, author_kind: "user" });
  });

  it("should block a request without credentials before any hook runs", async () => {
    const before = await snapshot(ctx.h, db, "posts");
    const reply = await ctx.h.request("POST", `/v1/${db}/posts`, { body: { title: "anonymous" }, key: null });
    expect(reply.status, reply.text).toBe(401);
    expect(await snapshot(ctx.h, db, "posts")).toBe(before);
  });
});
