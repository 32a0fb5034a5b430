// Removed members and keys (both engines): a removed member keeps nothing of the workspace, AI builds
// included; a key limited to one database cannot impersonate a user (an account-wide key can); on a shared
// database only an admin or the owner may create a key for it (viewer and editor refused). Pairs throughout.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, type Harness, startHarness } from "../helpers/harness";
import { type Fixture, makeFixture } from "../security/security-fixture";
import { type Account, addMember, newAccount, outcome, removeMember } from "./team-fixture";

const PROMPT = "Personal blog with posts, comments and authors";

describe.each(ENGINES)("removed members, scoped keys and shared-database keys on %s", (engine) => {
  let h: Harness;
  let owner: Account;

  beforeAll(async () => {
    h = await startHarness(engine, "node");
    owner = await newAccount(h, "team");
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  const build = async (key: string, workspace: number) => {
    const reply = await h.request("POST", "/api/v1/ai/builds", { key, body: { prompt: PROMPT, workspace } });
    expect(reply.status, reply.text).toBe(201);
    return reply.body as { id: number; prompt: string };
  };
  const listed = async (key: string) => ((await h.request("GET", "/api/v1/ai/builds", { key })).body as { id: number }[]).map((b) => b.id);

  it("a member reads the AI builds they made in the workspace; once removed, neither the build nor the list shows it, the owner still does", async () => {
    const member = await addMember(h, owner, "editor");
    const made = await build(member.key, owner.accountId);
    expect((await h.request("GET", `/api/v1/ai/builds/${made.id}`, { key: member.key })).body).toMatchObject({ id: made.id, prompt: PROMPT });
    expect(await listed(member.key)).toContain(made.id);

    expect((await removeMember(h, owner, member)).status).toBe(204);
    expect(outcome(await h.request("GET", `/api/v1/ai/builds/${made.id}`, { key: member.key }))).toEqual({
      status: 404,
      body: { error: "not_found", message: `AI build ${made.id} was not found.` },
    });
    expect(await listed(member.key)).not.toContain(made.id);
    expect((await h.request("GET", `/api/v1/ai/builds/${made.id}`, { key: owner.key })).body).toMatchObject({ id: made.id, prompt: PROMPT });
    expect(await listed(owner.key)).toContain(made.id);
  });

  it("a removed member's own builds in their own workspace stay theirs", async () => {
    const member = await addMember(h, owner, "editor");
    const own = await build(member.key, member.accountId);
    expect((await removeMember(h, owner, member)).status).toBe(204);
    expect((await h.request("GET", `/api/v1/ai/builds/${own.id}`, { key: member.key })).status).toBe(200);
  });

  describe("impersonation", () => {
    let f: Fixture;
    beforeAll(async () => {
      f = await makeFixture(h, `impersonate ${engine}`);
    });

    it("should block a key limited to the database with 403, and leave no token", async () => {
      const scoped = await h.request("POST", "/api/v1/keys", { body: { name: "scoped", database: f.db } });
      expect(scoped.status, scoped.text).toBe(201);
      const reply = await h.request("POST", `/api/v1/databases/${f.db}/auth/impersonate`, { key: scoped.body.key, body: { user_id: f.userA.id } });
      expect(outcome(reply)).toEqual({
        status: 403,
        body: { error: "forbidden", message: "A key limited to one database cannot do this; use an account-wide key or the dashboard." },
      });
    });

    it("should allow the account-wide key: a short-lived token for the user", async () => {
      const reply = await h.request("POST", `/api/v1/databases/${f.db}/auth/impersonate`, { body: { user_id: f.userA.id } });
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body.token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    });
  });

  describe("keys for a shared database", () => {
    let instance: string;
    const roles = {} as Record<"viewer" | "editor" | "admin", Account>;
    beforeAll(async () => {
      const db = await h.request("POST", "/api/v1/databases", { key: owner.key, body: { name: "Shared", tables: [{ name: "notes", columns: [{ name: "text", type: "varchar" }] }] } });
      expect(db.status, db.text).toBe(201);
      instance = db.body.instance;
      for (const role of ["viewer", "editor", "admin"] as const) roles[role] = await addMember(h, owner, role);
    });
    const createKey = (key: string) => h.request("POST", "/api/v1/keys", { key, body: { name: "for the shared db", database: instance } });
    const keyCount = async (account: Account) => (await h.request("GET", "/api/v1/keys", { key: account.key })).body.length as number;

    it.each(["viewer", "editor"] as const)("should block a %s with 403 and create no key", async (role) => {
      const before = await keyCount(roles[role]);
      expect(outcome(await createKey(roles[role].key))).toEqual({
        status: 403,
        body: { error: "forbidden", message: `Your role on this database (${role}) cannot create keys for it; an admin or the owner can.` },
      });
      expect(await keyCount(roles[role])).toBe(before);
    });

    it.each(["admin", "owner"] as const)("should allow the %s: 201 with a key for the database", async (role) => {
      const reply = await createKey(role === "owner" ? owner.key : roles[role].key);
      expect(reply.status, reply.text).toBe(201);
      expect(reply.body).toMatchObject({ database: instance, key: expect.stringMatching(/^sk_/) });
    });

    it("a viewer still creates an account-wide key (it acts with the viewer's role)", async () => {
      const reply = await h.request("POST", "/api/v1/keys", { key: roles.viewer.key, body: { name: "mine" } });
      expect(reply.status, reply.text).toBe(201);
    });
  });
});
