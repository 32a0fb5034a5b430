// Every management route × every kind of caller, generated from the route table: the status each caller gets
// follows from the route's declared permission alone. Allowed callers get the route's success status; refused
// ones the exact error body. Runs on each engine through the node adapter (the adapters share one handler).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REFUSALS } from "../../lib/mgmt/authorize";
import { isDatabasePermission, PERMISSIONS } from "../../lib/mgmt/permissions";
import { type Route, ROUTES } from "../../lib/mgmt/routes";
import { ENGINES, type Harness, startHarness } from "../helpers/harness";
import { CALLERS, type Caller, type Fixture, fillPath, keyHeaders, makeDatabase, makeKey, type Send, sampleBody, sessionHeaders, startServer } from "./matrix-fixture";

type Outcome = { allowed: true } | { allowed: false; status: number; body: { error: string; message: string } };

const allow: Outcome = { allowed: true };
const refuse = (status: number, error: string, message: string): Outcome => ({ allowed: false, status, body: { error, message } });

const DATABASE_KEYS: Caller[] = ["own database key", "other database key"];

/** The decision table, written from the permission's meaning rather than from authorize's code. */
const expected = (route: Route, caller: Caller, f: Fixture): Outcome => {
  if (!PERMISSIONS.includes(route.permission)) throw new Error(`${route.method} ${route.path} declares no known permission`);
  // No caller is the billing webhook: it needs the body's signature, and this install has no webhook secret.
  if (route.permission === "billing") return refuse(401, "unauthorized", "The billing webhook is off: BILLING_WEBHOOK_SECRET is not set on this server.");
  if (caller === "no credentials") return refuse(401, "unauthorized", "Sign in, or send an account secret key as Authorization: Bearer <key>.");
  if (route.permission === "authenticated") return allow;
  if (isDatabasePermission(route.permission)) {
    if (caller === "operator" || caller === "other account") return refuse(404, "not_found", REFUSALS.databaseNotFound(f.instance));
    if (caller === "other database key") return refuse(403, "forbidden", REFUSALS.databaseKeyElsewhere);
    return allow;
  }
  if (DATABASE_KEYS.includes(caller)) return refuse(403, "forbidden", REFUSALS.databaseKeyOutside);
  if (route.permission === "operator" && caller !== "operator") return refuse(403, "forbidden", REFUSALS.operatorOnly);
  return allow;
};

// Destructive routes run last, deepest first (a column before its table), the database itself at the very end
// (it takes its database keys with it).
const rank = (r: Route) => (r.method !== "DELETE" ? 0 : r.path === "databases/:instance" ? 100 : 50 - r.path.split("/").length);
const ORDERED = [...ROUTES].sort((a, b) => rank(a) - rank(b));
const label = (r: Route) => `${r.method} /${r.path} (${r.permission})`;

describe("the route table", () => {
  it("gives every route a known permission, a unique operationId, and :instance to every database route", () => {
    for (const route of ROUTES) {
      expect(PERMISSIONS, label(route)).toContain(route.permission);
      if (isDatabasePermission(route.permission)) expect(route.path, label(route)).toMatch(/^databases\/:instance(\/|$)/);
    }
    const ids = ROUTES.map((r) => r.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("fails the matrix for a route without a permission", () => {
    const bare = { ...ROUTES[0], permission: undefined } as unknown as Route;
    expect(() => expected(bare, "owner", { instance: "x" } as Fixture)).toThrow(/declares no known permission/);
  });
});

describe.each(ENGINES)("route permissions on %s", (engine) => {
  let h: Harness;
  let server: Awaited<ReturnType<typeof startServer>>;
  const fixtures = {} as Record<Caller, Fixture>;

  beforeAll(async () => {
    h = await startHarness(engine, "node");
    server = await startServer(h);
    const send: Send = server.send;
    const owner = await h.createAccount();
    const other = await h.createAccount();
    // The owner makes a database per caller: a plan with room for them (quotas have their own tests).
    expect((await send("PATCH", `/api/v1/accounts/${owner.accountId}`, { headers: keyHeaders(h.accountKey), body: { plan: "team" } })).status).toBe(200);
    const elsewhere = await makeDatabase(send, owner.key, "Matrix elsewhere");
    const otherDbKey = await makeKey(send, owner.key, { name: "other db", database: elsewhere.instance });
    // Each caller gets its own database (all the owner's) and its own key to regenerate and revoke.
    for (const caller of CALLERS) {
      const db = await makeDatabase(send, owner.key, `Matrix ${caller}`);
      const keyOwner = caller === "operator" ? h.accountKey : caller === "other account" ? other.key : owner.key;
      const victim = await makeKey(send, keyOwner, { name: `victim of ${caller}` });
      const credentials: Record<Caller, () => Promise<Record<string, string>>> = {
        "no credentials": async () => ({}),
        operator: () => sessionHeaders(h, h.accountId),
        owner: () => sessionHeaders(h, owner.accountId),
        "other account": () => sessionHeaders(h, other.accountId),
        "account key": async () => keyHeaders(owner.key),
        "own database key": async () => keyHeaders((await makeKey(send, owner.key, { name: "own db", database: db.instance })).key),
        "other database key": async () => keyHeaders(otherDbKey.key),
      };
      fixtures[caller] = { ...db, keyId: victim.id, accountId: other.accountId, credentials: await credentials[caller]() };
    }
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    await h?.close();
  });

  describe.each(CALLERS)("caller: %s", (caller) => {
    it.each(ORDERED.map((r) => [label(r), r] as const))("%s", async (_label, route) => {
      const f = fixtures[caller];
      const body = route.body ? sampleBody(route.operationId, f) : undefined;
      if (route.body) expect(body, `a sample body for ${route.operationId}`).toBeDefined();
      const reply = await server.send(route.method, `/api/v1/${fillPath(route.path, route.operationId, f)}`, { headers: f.credentials, body });
      const outcome = expected(route, caller, f);
      if (outcome.allowed) expect(reply.status, reply.text).toBe(route.status);
      else expect({ status: reply.status, body: reply.body }).toEqual({ status: outcome.status, body: outcome.body });
    });
  });
});
