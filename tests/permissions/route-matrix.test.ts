// Every management route × every kind of caller, generated from the route table: the status each caller gets
// follows from the route's declared permission and the caller's role in the owner's workspace alone. Allowed
// callers get the route's success status; refused ones the exact error body. Workspace routes name the owner's
// workspace. Runs on each engine through the node adapter (the adapters share one handler).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeBackup } from "../../lib/backup/write-backup";
import { loadDatabase } from "../../lib/meta/load-schema";
import { REFUSALS } from "../../lib/mgmt/authorize";
import { isDatabasePermission, isWorkspacePermission, PERMISSIONS } from "../../lib/teams/permissions";
import { type Route, ROUTES } from "../../lib/mgmt/routes";
import { ENGINES, type Harness, startHarness } from "../helpers/harness";
import {
  CALLERS,
  type Caller,
  type Fixture,
  fillPath,
  joinWorkspace,
  keyHeaders,
  makeDatabase,
  makeBuild,
  makeInvite,
  makeKey,
  makeView,
  ok,
  type Send,
  sampleBody,
  sessionHeaders,
  startServer,
} from "./matrix-fixture";

type Outcome = { allowed: true } | { allowed: false; status: number; body: { error: string; message: string } };

const allow: Outcome = { allowed: true };
const refuse = (status: number, error: string, message: string): Outcome => ({ allowed: false, status, body: { error, message } });

const DATABASE_KEYS: Caller[] = ["own database key", "other database key"];

/** Callers that are neither the owner nor a member of the owner's workspace: it does not exist for them. */
const OUTSIDERS: Caller[] = ["operator", "other account", "removed member"];

type Role = "owner" | "admin" | "editor" | "viewer";

/** The caller's role in the owner's workspace (a database key of the owner's acts as the owner on its database). */
const ROLE: Partial<Record<Caller, Role>> = { owner: "owner", "account key": "owner", "own database key": "owner", admin: "admin", editor: "editor", viewer: "viewer" };

/** docs/api.md, Permissions: a viewer reads; an editor also writes; an admin also administers; the owner does everything. */
const GRANTS: Record<Role, string[]> = { owner: ["read", "write", "admin"], admin: ["read", "write", "admin"], editor: ["read", "write"], viewer: ["read"] };

const grants = (caller: Caller, permission: string) => GRANTS[ROLE[caller]!].includes(permission.split(":")[1]);

/** The decision table, written from the permission's meaning rather than from authorize's code. */
const expected = (route: Route, caller: Caller, f: Fixture): Outcome => {
  if (!PERMISSIONS.includes(route.permission)) throw new Error(`${route.method} ${route.path} declares no known permission`);
  // No caller is the billing webhook: it needs the body's signature, and this install has no webhook secret.
  if (route.permission === "billing") return refuse(401, "unauthorized", "The billing webhook is off: BILLING_WEBHOOK_SECRET is not set on this server.");
  if (caller === "no credentials") return refuse(401, "unauthorized", "Sign in, or send an account secret key as Authorization: Bearer <key>.");
  if (route.permission === "authenticated") return allow;
  if (isDatabasePermission(route.permission)) {
    if (OUTSIDERS.includes(caller)) return refuse(404, "not_found", REFUSALS.databaseNotFound(f.instance));
    if (caller === "other database key") return refuse(403, "forbidden", REFUSALS.databaseKeyElsewhere);
    if (caller === "own database key" && route.noDatabaseKeys) return refuse(403, "forbidden", REFUSALS.databaseKeyNotHere);
    if (!grants(caller, route.permission)) return refuse(403, "forbidden", REFUSALS.roleLacks(route.permission));
    return allow;
  }
  if (DATABASE_KEYS.includes(caller)) return refuse(403, "forbidden", REFUSALS.databaseKeyOutside);
  if (isWorkspacePermission(route.permission)) {
    if (OUTSIDERS.includes(caller)) return refuse(404, "not_found", REFUSALS.workspaceNotFound(f.ownerId));
    if (!grants(caller, route.permission)) return refuse(403, "forbidden", REFUSALS.workspaceRoleLacks(route.permission));
    return allow;
  }
  if (route.permission === "operator" && caller !== "operator") return refuse(403, "forbidden", REFUSALS.operatorOnly);
  return allow;
};

type SessionAccounts = Record<"operator" | "owner" | "other" | "viewer" | "admin", number>;
/** The callers that come with a dashboard session, and whose. */
const SESSION_CALLERS: Partial<Record<Caller, (a: SessionAccounts) => number>> = {
  operator: (a) => a.operator,
  owner: (a) => a.owner,
  "other account": (a) => a.other,
  viewer: (a) => a.viewer,
  admin: (a) => a.admin,
};

// Destructive routes run last, deepest first (a column before its table), the database itself at the very end
// (it takes its database keys with it).
const rank = (r: Route) => (r.method !== "DELETE" ? 0 : r.path === "databases/:instance" ? 100 : 50 - r.path.split("/").length);
const ORDERED = [...ROUTES].sort((a, b) => rank(a) - rank(b));
const label = (r: Route) => `${r.method} /${r.path} (${r.permission})`;

describe("the route table", () => {
  it("gives every route a known permission, a unique operationId, :instance to every database route and a named workspace to every workspace route", () => {
    for (const route of ROUTES) {
      expect(PERMISSIONS, label(route)).toContain(route.permission);
      if (isDatabasePermission(route.permission)) expect(route.path, label(route)).toMatch(/^databases\/:instance(\/|$)/);
    }
    for (const route of ROUTES.filter((r) => isWorkspacePermission(r.permission))) expect(route.workspaceFrom, label(route)).toBeDefined();
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
    const operator = keyHeaders(h.accountKey);
    const setPlan = (accountId: number, plan: string) => ok(send("PATCH", `/api/v1/accounts/${accountId}`, { headers: operator, body: { plan } }), 200);
    const owner = await h.createAccount();
    ownerKey = owner.key;
    const other = await h.createAccount();
    // The owner makes a database, an invite and a member per caller: a plan with room for them (quotas have their own tests).
    const roomy = { max_databases: null, max_invitees: null, roles: ["viewer", "editor", "admin"], custom_domain: false, ai_calls_per_month: null, requests_per_second: null };
    await ok(send("PUT", "/api/v1/plans/matrix-roomy", { headers: operator, body: roomy }), 200);
    await setPlan(owner.accountId, "matrix-roomy");
    const members = { viewer: await h.createAccount(), editor: await h.createAccount(), admin: await h.createAccount(), "removed member": await h.createAccount() };
    for (const role of ["viewer", "editor", "admin"] as const) await joinWorkspace(send, owner.key, members[role].key, role);
    await joinWorkspace(send, owner.key, members["removed member"].key, "editor");
    await ok(send("DELETE", `/api/v1/team/members/${members["removed member"].accountId}`, { headers: keyHeaders(owner.key) }), 204);
    const elsewhere = await makeDatabase(send, owner.key, "Matrix elsewhere");
    const otherDbKey = await makeKey(send, owner.key, { name: "other db", database: elsewhere.instance });
    // Each caller gets its own database (all the owner's), its own key to regenerate and revoke, an invite to
    // revoke and a member to change and remove (both in the owner's workspace), and an invite to a stranger's
    // workspace to accept (a workspace of its own, so that joining it changes no other caller's outcome).
    for (const caller of CALLERS) {
      const db = await makeDatabase(send, owner.key, `Matrix ${caller}`);
      const member = caller in members ? members[caller as keyof typeof members] : undefined;
      const keyOwner = caller === "operator" ? h.accountKey : caller === "other account" ? other.key : (member?.key ?? owner.key);
      const victim = await makeKey(send, keyOwner, { name: `victim of ${caller}` });
      const invite = await makeInvite(send, owner.key, "viewer");
      const target = await h.createAccount();
      await joinWorkspace(send, owner.key, target.key, "editor");
      const stranger = await h.createAccount();
      await setPlan(stranger.accountId, "team");
      const acceptable = await makeInvite(send, stranger.key, "viewer");
      // A planned build in the owner's workspace for the apply route (each caller applies its own), and one of
      // the caller's own account for the read route (a build is visible to its creator and its workspace's owner).
      const build = await makeBuild(send, owner.key);
      const ownBuild = await makeBuild(send, keyOwner);
      const credentials: Record<Caller, () => Promise<Record<string, string>>> = {
        "no credentials": async () => ({}),
        operator: () => sessionHeaders(h, h.accountId),
        owner: () => sessionHeaders(h, owner.accountId),
        "other account": () => sessionHeaders(h, other.accountId),
        "account key": async () => keyHeaders(owner.key),
        "own database key": async () => keyHeaders((await makeKey(send, owner.key, { name: "own db", database: db.instance })).key),
        "other database key": async () => keyHeaders(otherDbKey.key),
        viewer: () => sessionHeaders(h, members.viewer.accountId),
        editor: async () => keyHeaders(members.editor.key),
        admin: () => sessionHeaders(h, members.admin.accountId),
        "removed member": async () => keyHeaders(members["removed member"].key),
      };
      const headers = await credentials[caller]();
      fixtures[caller] = {
        ...db,
        viewId: await makeView(send, db.instance, headers, owner.key),
        keyId: victim.id,
        ownerId: owner.accountId,
        accountId: target.accountId,
        inviteId: invite.id,
        acceptToken: acceptable.token,
        buildId: build.id,
        ownBuildId: ownBuild.id,
        credentials: headers,
        backupId: db.backupId,
        sessionOf: SESSION_CALLERS[caller] && SESSION_CALLERS[caller]({ operator: h.accountId, owner: owner.accountId, other: other.accountId, viewer: members.viewer.accountId, admin: members.admin.accountId }),
      };
    }
    const file = path.join(os.tmpdir(), `matrix-${elsewhere.instance}.tar.gz`);
    await writeBackup(h.app, (await loadDatabase(h.app, elsewhere.instance))!, file);
    archive = new Uint8Array(fs.readFileSync(file));
    fs.rmSync(file);
  }, 120_000);

  // The database's own definition as it is when the route runs (every earlier route changed it): an apply that changes nothing.
  let ownerKey = "";
  const liveDefinition = async (f: Fixture) => (await server.send("GET", `/api/v1/databases/${f.instance}/definition`, { headers: keyHeaders(ownerKey) })).body;
  let archive: Uint8Array<ArrayBuffer> | undefined;

  afterAll(async () => {
    await server?.close();
    await h?.close();
  });

  describe.each(CALLERS)("caller: %s", (caller) => {
    it.each(ORDERED.map((r) => [label(r), r] as const))("%s", async (_label, route) => {
      const f = fixtures[caller];
      const body = route.operationId === "applyDefinition" ? await liveDefinition(f) : route.body ? sampleBody(route.operationId, f) : undefined;
      if (route.body) expect(body, `a sample body for ${route.operationId}`).toBeDefined();
      const restoreName = route.binary === "body" ? `&name=Matrix%20restored%20${caller.replace(/ /g, "-")}` : "";
      const workspace = route.workspaceFrom === "query" ? `?workspace=${f.ownerId}${restoreName}` : "";
      const headers = f.sessionOf === undefined ? f.credentials : await sessionHeaders(h, f.sessionOf);
      const reply = await server.send(route.method, `/api/v1/${fillPath(route.path, route.operationId, f)}${workspace}`, { headers, body, raw: route.binary === "body" ? archive : undefined });
      const outcome = expected(route, caller, f);
      if (outcome.allowed) expect(reply.status, reply.text).toBe(route.status);
      else expect({ status: reply.status, body: reply.body }).toEqual({ status: outcome.status, body: outcome.body });
    });
  });
});
