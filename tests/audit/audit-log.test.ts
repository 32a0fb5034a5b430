// The audit log's contract: who reads which entries (owner, admin, operator; editors, viewers, database keys and
// other accounts refused), what an entry holds (actor, via, ip, before/after, never a secret), filters and
// cursor pages, a refused change leaving no entry, dashboard sign-ins, and retention. Both engines.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authOptions } from "../../lib/auth/auth-options";
import { pruneAudit } from "../../lib/meta/audit/prune-audit";
import { REFUSALS } from "../../lib/mgmt/authorize";
import { ENGINES, type Harness, startHarness } from "../helpers/harness";
import { joinWorkspace, keyHeaders, makeKey, ok, type Send, sessionHeaders, startServer } from "../permissions/matrix-fixture";

type Entry = { id: number; at: string; actor: { id: number | null; email: string | null }; via: string; ip: string | null; action: string; database?: string; target: string; before?: any; after?: any };

describe.each(ENGINES)("the audit log on %s", (engine) => {
  let h: Harness;
  let server: Awaited<ReturnType<typeof startServer>>;
  let send: Send;
  const owner = { accountId: 0, key: "" };
  const stranger = { accountId: 0, key: "" };
  const members = {} as Record<"admin" | "editor" | "viewer", { accountId: number; key: string }>;
  let instance = "";
  let strangerInstance = "";

  const read = async (query: string, headers: Record<string, string>) => send("GET", `/api/v1/audit${query}`, { headers });
  const entries = async (query = "", headers: Record<string, string> = keyHeaders(owner.key)) => (await ok(read(query, headers), 200)) as Entry[];

  beforeAll(async () => {
    h = await startHarness(engine, "node");
    server = await startServer(h);
    send = server.send;
    Object.assign(owner, await h.createAccount());
    Object.assign(stranger, await h.createAccount());
    await ok(send("PATCH", `/api/v1/accounts/${owner.accountId}`, { headers: keyHeaders(h.accountKey), body: { plan: "team" } }), 200);
    for (const role of ["admin", "editor", "viewer"] as const) {
      members[role] = await h.createAccount();
      await joinWorkspace(send, owner.key, members[role].key, role);
    }
    const headers = keyHeaders(owner.key);
    instance = (await ok(send("POST", "/api/v1/databases", { headers, body: { name: "Audited shop" } }), 201)).instance;
    await ok(send("POST", `/api/v1/databases/${instance}/tables`, { headers, body: { name: "orders", columns: [{ name: "note", type: "varchar" }] } }), 201);
    await ok(send("POST", `/api/v1/databases/${instance}/tables/orders/columns`, { headers: await sessionHeaders(h, owner.accountId), body: { name: "price", type: "int" } }), 201);
    await ok(send("PATCH", `/api/v1/databases/${instance}/tables/orders/columns/price`, { headers, body: { type: "decimal" } }), 200);
    strangerInstance = (await ok(send("POST", "/api/v1/databases", { headers: keyHeaders(stranger.key), body: { name: "Not yours" } }), 201)).instance;
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    await h?.close();
  });

  describe("who reads it", () => {
    it("the owner reads the workspace's entries, newest first", async () => {
      const list = await entries();
      expect(list.slice(0, 4).map((e) => [e.action, e.target])).toEqual([
        ["column.update", "orders.price"],
        ["column.create", "orders.price"],
        ["table.create", "orders"],
        ["database.create", "Audited shop"],
      ]);
      expect(list.map((e) => e.id)).toEqual([...list.map((e) => e.id)].sort((a, b) => b - a));
    });

    it("an admin reads the owner's workspace with ?workspace=", async () => {
      const list = await entries(`?workspace=${owner.accountId}`, await sessionHeaders(h, members.admin.accountId));
      expect(list.some((e) => e.action === "column.create" && e.database === instance)).toBe(true);
    });

    it.each(["editor", "viewer"] as const)("a member without admin (%s) is refused with 403", async (role) => {
      const reply = await read(`?workspace=${owner.accountId}`, keyHeaders(members[role].key));
      expect({ status: reply.status, body: reply.body }).toEqual({ status: 403, body: { error: "forbidden", message: REFUSALS.workspaceRoleLacks("workspace:admin") } });
    });

    it("a database key is refused with 403; the owner's account key reads", async () => {
      const scoped = await makeKey(send, owner.key, { name: "db only", database: instance });
      const reply = await read("", keyHeaders(scoped.key));
      expect({ status: reply.status, body: reply.body }).toEqual({ status: 403, body: { error: "forbidden", message: REFUSALS.databaseKeyOutside } });
      expect((await entries("", keyHeaders(owner.key))).length).toBeGreaterThan(0);
    });

    it("another account never sees the workspace's entries: its own list holds only its own, naming the workspace is 404", async () => {
      const own = await entries("", keyHeaders(stranger.key));
      expect(own.map((e) => e.database)).toContain(strangerInstance);
      expect(own.every((e) => e.database !== instance && e.actor.id === stranger.accountId)).toBe(true);
      const reply = await read(`?workspace=${owner.accountId}`, keyHeaders(stranger.key));
      expect({ status: reply.status, body: reply.body }).toEqual({ status: 404, body: { error: "not_found", message: REFUSALS.workspaceNotFound(owner.accountId) } });
      expect((await entries()).some((e) => e.database === strangerInstance)).toBe(false);
    });

    it("the operator reads every workspace's entries", async () => {
      const list = await entries("?_limit=200", keyHeaders(h.accountKey));
      expect(list.some((e) => e.database === instance)).toBe(true);
      expect(list.some((e) => e.database === strangerInstance)).toBe(true);
    });

    it("nothing edits or deletes an entry through the API", async () => {
      const [entry] = await entries();
      for (const method of ["POST", "PUT", "PATCH", "DELETE"]) expect((await send(method, "/api/v1/audit", { headers: keyHeaders(h.accountKey) })).status).toBe(405);
      expect((await send("DELETE", `/api/v1/audit/${entry.id}`, { headers: keyHeaders(h.accountKey) })).status).toBe(404);
      expect((await entries())[0]).toEqual(entry);
    });
  });

  describe("what an entry holds", () => {
    it("the actor, how they came and the value before and after", async () => {
      const list = await entries(`?database=${instance}`);
      const created = list.find((e) => e.action === "column.create")!;
      expect(created).toMatchObject({ actor: { id: owner.accountId, email: expect.stringContaining("@") }, via: "session", database: instance, after: { name: "price", type: "int" } });
      const updated = list.find((e) => e.action === "column.update")!;
      expect(updated).toMatchObject({ via: "key", before: { name: "price", type: "int" }, after: { name: "price", type: "decimal" } });
      expect(updated.ip).toMatch(/127\.0\.0\.1/);
    });

    it("never records a secret: key secrets, passwords, webhook secrets", async () => {
      const key = await makeKey(send, owner.key, { name: "secretive" });
      await ok(send("PUT", "/api/v1/account/password", { headers: keyHeaders(owner.key), body: { current_password: "correct horse battery", new_password: "correct horse battery" } }), 204);
      const hook = await ok(send("POST", `/api/v1/databases/${instance}/webhooks`, { headers: keyHeaders(owner.key), body: { url: "https://audit.invalid/hook" } }), 201);
      const list = await entries("?_limit=200");
      const text = JSON.stringify(list);
      expect(text).toContain("key.create");
      expect(text).toContain("account.password_change");
      expect(text).toContain("webhook.create");
      expect(text).not.toContain(key.key);
      expect(text).not.toContain("correct horse battery");
      expect(hook.secret).toMatch(/^whsec_/);
      expect(text).not.toContain(hook.secret);
      const values = JSON.stringify(list.map((e) => [e.before, e.after]));
      expect(values).not.toMatch(/"(current_password|new_password|password|secret|client_secret|password_hash|key)":/i);
    });

    it("keeps settings that only name a secret (password_column, token_ttl_seconds), and never the provider's client secret", async () => {
      const headers = keyHeaders(owner.key);
      const db = (await ok(send("POST", "/api/v1/databases", { headers, body: { name: "Audited auth", tables: [{ name: "users", columns: [{ name: "email", type: "varchar", unique: true, nullable: false }, { name: "pw", type: "password" }] }] } }), 201)).instance;
      const clientSecret = "client-secret-value-4f9a1c";
      const body = { enabled: true, users_table: "users", login_column: "email", password_column: "pw", token_ttl_seconds: 900, providers: [{ id: "oidc", name: "acme", issuer: "https://id.acme.invalid", client_id: "tabula-app", client_secret: clientSecret }] };
      const put = await send("PUT", `/api/v1/databases/${db}/auth`, { headers, body });
      expect(put.status, put.text).toBe(200);
      const [entry] = await entries(`?database=${db}&action=auth.update`);
      expect(entry.after).toMatchObject({ password_column: "pw", token_ttl_seconds: 900, providers: [{ name: "acme", client_id: "tabula-app" }] });
      expect(entry.after.providers[0]).not.toHaveProperty("client_secret");
      expect(JSON.stringify(await entries("?_limit=200"))).not.toContain(clientSecret);
    });

    it("a change refused inside its transaction leaves no entry", async () => {
      const [newest] = await entries();
      const reply = await send("POST", `/api/v1/databases/${instance}/tables`, { headers: keyHeaders(owner.key), body: { name: "orders", columns: [] } });
      expect(reply.status).toBe(409);
      expect((await entries())[0]).toEqual(newest);
    });
  });

  describe("filters and pages", () => {
    it("by database, actor (id or email) and action (exact or a kind with a trailing dot)", async () => {
      expect((await entries(`?database=${instance}`)).every((e) => e.database === instance)).toBe(true);
      const byId = await entries(`?actor=${members.admin.accountId}`);
      const email = (await entries(`?actor=${owner.accountId}`))[0].actor.email!;
      expect((await entries(`?actor=${encodeURIComponent(email)}`)).every((e) => e.actor.id === owner.accountId)).toBe(true);
      expect(byId.every((e) => e.actor.id === members.admin.accountId)).toBe(true);
      expect((await entries("?action=column.create")).map((e) => e.action)).toEqual(["column.create"]);
      expect(new Set((await entries("?action=column.")).map((e) => e.action))).toEqual(new Set(["column.create", "column.update"]));
    });

    it("pages newest first through _limit and _after, with a Link to the next page", async () => {
      const all = await entries("?_limit=200");
      expect(all.length).toBeGreaterThan(4);
      const first = await read("?_limit=2", keyHeaders(owner.key));
      expect(first.body.map((e: Entry) => e.id)).toEqual(all.slice(0, 2).map((e) => e.id));
      expect(first.headers.get("link")).toContain(`_after=${all[1].id}`);
      const second = await entries(`?_limit=2&_after=${all[1].id}`);
      expect(second.map((e) => e.id)).toEqual(all.slice(2, 4).map((e) => e.id));
    });

    it("refuses a bad filter with a 422 naming it", async () => {
      const reply = await read("?_limit=0", keyHeaders(owner.key));
      expect(reply.status).toBe(422);
      expect(reply.body.errors[0].field).toBe("_limit");
      const action = await read("?action=DROP%20TABLE", keyHeaders(owner.key));
      expect(action.status).toBe(422);
      expect(action.body.errors[0].field).toBe("action");
    });
  });

  describe("end users signing in to a database", () => {
    it("records a success and each refusal in the database owner's workspace, for its admins, never the password", async () => {
      const headers = keyHeaders(owner.key);
      const db = (await ok(send("POST", "/api/v1/databases", { headers, body: { name: "App users", tables: [{ name: "users", columns: [{ name: "email", type: "varchar", unique: true, nullable: false }, { name: "password", type: "password" }] }] } }), 201)).instance;
      await ok(send("PUT", `/api/v1/databases/${db}/auth`, { headers, body: { enabled: true } }), 200);
      const user = await ok(send("POST", `/v1/${db}/users`, { headers, body: { email: "ann@example.com", password: "ann's right password" } }), 201);
      const login = (password: string) => send("POST", `/v1/${db}/auth/login`, { body: { email: "ann@example.com", password } });
      expect((await login("a wrong password!")).status).toBe(401);
      expect((await login("ann's right password")).status).toBe(200);
      const list = await entries(`?database=${db}&action=user_signin.`);
      expect(list.map((e) => [e.action, e.via, e.actor, e.target, e.after])).toEqual([
        ["user_signin.ok", "user", { id: null, email: "ann@example.com" }, "users.ann@example.com", { user_id: user.id }],
        ["user_signin.failed", "user", { id: null, email: "ann@example.com" }, "users.ann@example.com", { reason: "credentials" }],
      ]);
      const text = JSON.stringify(await entries("?_limit=200"));
      expect(text).not.toContain("a wrong password!");
      expect(text).not.toContain("ann's right password");
      // The workspace's admin reads them; a viewer may not, and another account sees none of them.
      expect((await entries(`?workspace=${owner.accountId}&database=${db}&action=user_signin.`, keyHeaders(members.admin.key))).length).toBe(2);
      expect((await read(`?workspace=${owner.accountId}&database=${db}`, keyHeaders(members.viewer.key))).status).toBe(403);
      expect((await entries(`?database=${db}`, keyHeaders(stranger.key))).length).toBe(0);
    });
  });

  describe("dashboard sign-ins", () => {
    const signIn = async (email: string, password: string) => {
      const provider = authOptions(h.app, { email, password, attempt: { realm: "dashboard", login: email, address: "203.0.113.7" } }).providers[0] as unknown as { options: { authorize: (c: unknown, r: unknown) => Promise<unknown> } };
      return provider.options.authorize({}, {});
    };

    it("records a success and a failure in the account's own log, never the password", async () => {
      const email = (await entries(`?actor=${owner.accountId}`))[0].actor.email!;
      expect(await signIn(email, "correct horse battery")).toMatchObject({ email });
      expect(await signIn(email, "wrong password here")).toBeNull();
      const list = await entries("?action=signin.");
      expect(list.slice(0, 2).map((e) => [e.action, e.actor.id, e.ip, e.via])).toEqual([
        ["signin.failed", owner.accountId, "203.0.113.7", "session"],
        ["signin.ok", owner.accountId, "203.0.113.7", "session"],
      ]);
      expect(JSON.stringify(list)).not.toContain("wrong password here");
      // Another account's sign-ins are not this workspace's.
      expect((await entries("?action=signin.", keyHeaders(stranger.key))).length).toBe(0);
    });

    it("an unknown email is recorded for the operator only", async () => {
      expect(await signIn("nobody-here@example.com", "whatever password")).toBeNull();
      const all = await entries("?action=signin.failed&_limit=200", keyHeaders(h.accountKey));
      expect(all.find((e) => e.target === "nobody-here@example.com")).toMatchObject({ actor: { id: null, email: "nobody-here@example.com" } });
      expect((await entries("?action=signin.failed")).some((e) => e.target === "nobody-here@example.com")).toBe(false);
    });
  });

  it("keeps entries AUDIT_DAYS days: older ones are pruned, newer stay", async () => {
    const meta = h.app.engine.meta;
    const old = new Date(Date.now() - 91 * 86_400_000).toISOString();
    await meta.insertInto("audit_log").values({ at: old, workspace_id: owner.accountId, actor_id: owner.accountId, actor_email: null, via: "key", ip: null, action: "table.create", database_id: null, database_instance: null, target: "ancient", before_json: null, after_json: null }).execute();
    const before = (await entries("?_limit=200")).length;
    expect((await entries("?_limit=200")).some((e) => e.target === "ancient")).toBe(true);
    expect(await pruneAudit(h.app)).toBe(1);
    const after = await entries("?_limit=200");
    expect(after.some((e) => e.target === "ancient")).toBe(false);
    expect(after.length).toBe(before - 1);
    h.app.config.auditDays = 1;
    expect(await pruneAudit(h.app, Date.now() + 2 * 86_400_000)).toBeGreaterThan(0);
    expect(await entries()).toEqual([]);
    h.app.config.auditDays = undefined;
  });
});
