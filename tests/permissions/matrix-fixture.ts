// Callers and fixtures of the route permission matrix: a real server (node adapter with the dashboard
// session resolver), the operator, an owner, another account, the owner's keys of three scopes, and members of
// the owner's workspace: a viewer and an admin (sessions), an editor and a removed member (account keys).
// AI builds use the offline planner (no model configured), so they cost nothing and need no server.
import { randomBytes } from "node:crypto";
import { encode } from "next-auth/jwt";
import { expect } from "vitest";
import { authSecret } from "../../lib/auth/auth-secret";
import { createSessionResolver } from "../../lib/auth/resolve-session";
import { listenCore } from "../helpers/core-server";
import type { Harness } from "../helpers/harness";

export const CALLERS = [
  "no credentials",
  "operator",
  "owner",
  "other account",
  "account key",
  "own database key",
  "other database key",
  "viewer",
  "editor",
  "admin",
  "removed member",
] as const;
export type Caller = (typeof CALLERS)[number];

export type Reply = { status: number; headers: Headers; body: any; text: string };
export type Send = (method: string, path: string, options?: { headers?: Record<string, string>; body?: unknown; raw?: Uint8Array<ArrayBuffer> }) => Promise<Reply>;

/**
 * Path params and per-route bodies' ids for one caller: its own database (owned by the owner), a key of its own
 * account, an invite and a member of the owner's workspace (to revoke, change and remove), and an invite to a
 * stranger's workspace (to accept).
 */
export type Fixture = {
  instance: string;
  userId: number;
  keyId: number;
  /** The owner: every workspace route names this workspace (`?workspace=` or the body's `workspace`). */
  ownerId: number;
  /** A member (editor) of the owner's workspace; also the account the operator's account routes act on. */
  accountId: number;
  inviteId: number;
  acceptToken: string;
  /** A planned AI build in the owner's workspace, to apply; and one of the caller's own account, to read. */
  buildId: number;
  ownBuildId: number;
  /** A saved view on scratch the caller may change: its own private one when it may read, else the owner's. */
  viewId: number;
  credentials: Record<string, string>;
  /** A session caller's account: signed in afresh for each request (a route such as sign-out-everywhere ends sessions). */
  sessionOf?: number;
  /** A webhook of the caller's database and a (failed: its host does not resolve) delivery of it. */
  webhookId?: number;
  deliveryId?: number;
  /** A finished backup of the caller's database, and an archive to restore. */
  backupId?: number;
  archive?: Uint8Array;
};

const JOIN_SQL = "SELECT b.title, a.name AS author FROM books b JOIN authors a ON b.author_id = a.id";

const TABLES = [
  { name: "users", columns: [{ name: "email", type: "varchar", nullable: false, unique: true }, { name: "password", type: "password", nullable: false }] },
  { name: "authors", columns: [{ name: "name", type: "varchar" }] },
  { name: "books", columns: [{ name: "title", type: "varchar" }, { name: "author_id", type: "reference", references: "authors" }] },
  { name: "scratch", columns: [{ name: "temp", type: "varchar" }, { name: "keep", type: "varchar" }], indexes: [{ columns: ["keep", "id"] }] },
];

/** A body that should succeed, per operationId; a route with a body schema and no entry here fails the test. */
export const sampleBody = (operationId: string, f: Fixture): unknown =>
  ({
    createDatabase: { name: "Matrix made", workspace: f.ownerId },
    updateDatabase: { name: "Matrix renamed" },
    createTable: { name: "made_here", columns: [{ name: "n", type: "int" }] },
    renameTable: { name: "scratch" },
    addColumn: { name: "added", type: "int" },
    addColumns: { columns: [{ name: "added_a", type: "int" }, { name: "added_b", type: "boolean" }] },
    updateColumn: { nullable: true },
    addIndex: { columns: ["keep", "created_at"] },
    createJoin: { name: "made_join", sql: JOIN_SQL },
    previewJoin: { sql: JOIN_SQL },
    runSql: { sql: "SELECT count(*) AS n FROM books" },
    createView: { name: "Matrix view", query: "_sort=-id" },
    updateView: { name: "Matrix view renamed" },
    updateJoin: { name: "books_with_authors" },
    updateAuth: { enabled: true, users_table: "users", login_column: "email", password_column: "password" },
    impersonateUser: { user_id: f.userId },
    testAsUser: { user_id: f.userId, table: "books" },
    updatePolicies: { select: "true" },
    updateDocsSettings: { public: true },
    updateHooks: { insert: [{ assert: "new.keep != 'forbidden'", message: "keep may not be forbidden" }] },
    tryHooks: { action: "insert", row: { keep: "ok" } },
    createKey: { name: "matrix" },
    addAccount: { email: `m-${randomBytes(4).toString("hex")}@example.com`, password: "correct horse battery" },
    updateSettings: { signup: "operator" },
    sendTestMail: { to: "matrix@example.com" },
    sendAuthTestMail: { to: "matrix@example.com" },
    resetAccountPassword: { password: "correct horse battery" },
    // Every account of the matrix has this password; the caller sets it again, so later routes still sign in.
    changeOwnPassword: { current_password: "correct horse battery", new_password: "correct horse battery" },
    putPlan: { max_databases: 3, max_invitees: 0, roles: [], custom_domain: false, ai_calls_per_month: 5, requests_per_second: 50 },
    setAccountPlan: { plan: "pro" },
    grantCredits: { kind: "ai_calls", amount: 1 },
    createInvite: { role: "viewer" },
    acceptInvite: { token: f.acceptToken },
    updateMember: { role: "viewer" },
    createAiBuild: { prompt: "A shop: customers, products with a price, and orders of customers", workspace: f.ownerId },
    editAiBuildPlan: { plan: { name: "Matrix plan", tables: [{ name: "things", columns: [{ name: "label", type: "varchar" }] }], joins: [], seed: {} } },
    createWebhook: { url: "https://matrix.invalid/hook" },
    updateWebhook: { active: true },
    putBackupSchedule: { every_hours: 24, keep: 3 },
    cloneDatabase: { name: `Matrix clone ${randomBytes(4).toString("hex")}`, data: false },
    planDefinition: { tables: [] },
    billingWebhook: { account: f.accountId, kind: "ai_calls", amount: 1, source: `matrix-${randomBytes(4).toString("hex")}` },
  })[operationId];

/** Fills `:name` segments from the fixture; the column depends on whether the route drops it. */
export const fillPath = (path: string, operationId: string, f: Fixture) =>
  path.replace(/:(\w+)/g, (_m, name: string) => {
    const value = {
      instance: f.instance,
      table: "scratch",
      column: operationId === "deleteColumn" ? "temp" : "keep",
      join: "books_with_authors",
      index: "keep_id",
      id: String(f.keyId),
      account: String(f.accountId),
      plan: "matrix",
      invite: String(f.inviteId),
      // A build in the owner's workspace for the routes that name it (editing before applying), the caller's own otherwise.
      build: String(operationId === "applyAiBuild" || operationId === "editAiBuildPlan" ? f.buildId : f.ownBuildId),
      webhook: String(f.webhookId),
      delivery: String(f.deliveryId),
      view: String(f.viewId),
      backup: String(f.backupId),
      user: String(f.userId),
    }[name];
    if (value === undefined) throw new Error(`no fixture for path parameter :${name}`);
    return encodeURIComponent(value);
  });

/** The node adapter with the real session resolver, so sessions are tested as the dashboard sends them. */
export const startServer = async (h: Harness) => {
  const server = await listenCore(h.app, { session: createSessionResolver(h.app) });
  const base = server.baseUrl;
  const send: Send = async (method, path, options = {}) => {
    const headers: Record<string, string> = { origin: base, ...options.headers };
    if (options.body !== undefined) headers["content-type"] = "application/json";
    const res = await fetch(base + path, { method, headers, body: options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body)) });
    const binary = res.headers.get("content-type") === "application/gzip";
    const text = binary ? "" : await res.text();
    if (binary) await res.arrayBuffer();
    return { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : undefined };
  };
  return { send, close: server.close };
};

/** The dashboard's cookie as a sign-in now would make it: signed with the account's current session version. */
export const sessionHeaders = async (h: Harness, accountId: number) => {
  const row = await h.app.engine.meta.selectFrom("accounts").select("session_version").where("id", "=", accountId).executeTakeFirst();
  const token = await encode({ token: { sub: String(accountId), sv: row?.session_version ?? 0 }, secret: authSecret(h.app) });
  return { cookie: `next-auth.session-token=${token}` };
};

export const keyHeaders = (key: string) => ({ authorization: `Bearer ${key}` });

export const ok = async (reply: Promise<Reply>, status: number) => {
  const r = await reply;
  expect(r.status, r.text).toBe(status);
  return r.body;
};

/** A database of the owner with every kind of path target, auth on and one user; made with the owner's key. */
export const makeDatabase = async (send: Send, ownerKey: string, name: string) => {
  const headers = keyHeaders(ownerKey);
  const { instance } = await ok(send("POST", "/api/v1/databases", { headers, body: { name, tables: TABLES } }), 201);
  await ok(send("POST", `/api/v1/databases/${instance}/joins`, { headers, body: { name: "books_with_authors", sql: JOIN_SQL } }), 201);
  await ok(send("PUT", `/api/v1/databases/${instance}/auth`, { headers, body: sampleBody("updateAuth", {} as Fixture) }), 200);
  const user = await ok(send("POST", `/v1/${instance}/users`, { headers, body: { email: "u@example.com", password: "user-password-1" } }), 201);
  const webhook = await ok(send("POST", `/api/v1/databases/${instance}/webhooks`, { headers, body: { url: "https://matrix.invalid/hook" } }), 201);
  const delivery = await ok(send("POST", `/api/v1/databases/${instance}/webhooks/${webhook.id}/test`, { headers }), 200);
  const backup = await ok(send("POST", `/api/v1/databases/${instance}/backups`, { headers }), 202);
  let status = "running";
  while (status === "running") status = (await ok(send("GET", `/api/v1/databases/${instance}/backups/${backup.id}`, { headers }), 200)).status;
  expect(status).toBe("done");
  return { instance: instance as string, userId: user.id as number, webhookId: webhook.id as number, deliveryId: delivery.id as number, backupId: backup.id as number };
};

/** A private view on scratch made with these credentials, or (when they cannot) with the owner's key. */
export const makeView = async (send: Send, instance: string, headers: Record<string, string>, ownerKey: string) => {
  const path = `/api/v1/databases/${instance}/tables/scratch/views`;
  const mine = await send("POST", path, { headers, body: { name: "mine", query: "_sort=-id" } });
  if (mine.status === 201) return mine.body.id as number;
  return (await ok(send("POST", path, { headers: keyHeaders(ownerKey), body: { name: "the owner's" } }), 201)).id as number;
};

export const makeKey = async (send: Send, key: string, body: Record<string, unknown>) =>
  (await ok(send("POST", "/api/v1/keys", { headers: keyHeaders(key), body }), 201)) as { id: number; key: string };

/** A planned AI build (the offline planner: the matrix's app has no model) in the key's account's workspace. */
export const makeBuild = async (send: Send, key: string) =>
  (await ok(send("POST", "/api/v1/ai/builds", { headers: keyHeaders(key), body: { prompt: "Personal blog with posts, comments and authors" } }), 201)) as { id: number };

/** An invite to the key's account's workspace, as the owner or an admin makes it. */
export const makeInvite = async (send: Send, key: string, role: string) =>
  (await ok(send("POST", "/api/v1/team/invites", { headers: keyHeaders(key), body: { role } }), 201)) as { id: number; token: string };

/** Makes the member's account a member of the owner's workspace with `role`: the owner invites, the member accepts. */
export const joinWorkspace = async (send: Send, ownerKey: string, memberKey: string, role: string) => {
  const invite = await makeInvite(send, ownerKey, role);
  await ok(send("POST", "/api/v1/team/invites/accept", { headers: keyHeaders(memberKey), body: { token: invite.token } }), 200);
};
