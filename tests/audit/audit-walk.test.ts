// The audit walk: every write operation of the management OpenAPI document, read from the document itself, is
// called once with a valid request and must leave exactly one audit entry with its action; a refused call of it
// (4xx) must leave none. A route added without an audit action fails here at its first call.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeBackup } from "../../lib/backup/write-backup";
import { loadDatabase } from "../../lib/meta/load-schema";
import { signBillingBody } from "../../lib/billing/webhook";
import { AUDIT_ACTIONS, NOT_AUDITED } from "../../lib/mgmt/audit-actions";
import { ROUTES } from "../../lib/mgmt/routes";
import { ENGINES, type Harness, startHarness } from "../helpers/harness";
import { type Fixture, fillPath, joinWorkspace, keyHeaders, makeBuild, makeDatabase, makeInvite, makeKey, makeView, ok, sampleBody, type Send, startServer } from "../permissions/matrix-fixture";

const SECRET = "audit-walk-billing-secret";
const METHODS = ["post", "put", "patch", "delete"] as const;

type Operation = { method: string; path: string; operationId: string };

/** A refused call of the operation: a named thing that does not exist, else a body its schema refuses. */
const refusedCall = (op: Operation, route: (typeof ROUTES)[number], path: string) => {
  const params = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]).filter((p) => p !== "instance" && p !== "plan");
  if (params.length) {
    const last = params[params.length - 1];
    const missing = ["table", "column", "join", "index"].includes(last) ? "no_such_thing" : "999999";
    const parts = path.split("/");
    const index = route.path.split("/").lastIndexOf(`:${last}`);
    parts[index] = missing;
    return { path: parts.join("/"), body: route.body ? sampleBody(op.operationId, {} as Fixture) : undefined };
  }
  if (route.body) return { path, body: [] };
  return undefined;
};

/** Writes that change or remove something that existed before (their entry holds it as `before`): every PUT, PATCH and DELETE, and POSTs acting on a named thing. */
const BEFORE_POSTS = new Set(["regenerateKey", "disableAccount", "enableAccount", "resetAccountPassword", "setAccountPlan", "disableAuthUser", "enableAuthUser", "verifyAuthUser", "rotateAuthSecret"]);
// putPlan creates the walk's plan (a PUT that makes what was not there has no before).
const replacesState = (op: Operation) => op.operationId !== "putPlan" && (op.method === "PUT" || op.method === "PATCH" || op.method === "DELETE" || BEFORE_POSTS.has(op.operationId));

// Destructive operations run last, deepest first; the database itself at the very end.
const rank = (op: Operation) => (op.method !== "DELETE" ? 0 : op.path === "/databases/{instance}" ? 100 : 50 - op.path.split("/").length);

describe.each(ENGINES)("the audit walk on %s", (engine) => {
  let h: Harness;
  let server: Awaited<ReturnType<typeof startServer>>;
  let send: Send;
  let operations: Operation[] = [];
  let f: Fixture;
  let ownerKey: string;
  /** A backup archive of the walk's database, for the restore route. */
  let archive: Uint8Array<ArrayBuffer> | undefined;

  const entriesAfter = async (id: number) => h.app.engine.meta.selectFrom("audit_log").selectAll().where("id", ">", id).orderBy("id").execute();
  const lastId = async () => Number((await h.app.engine.meta.selectFrom("audit_log").select((eb) => eb.fn.max("id").as("id")).executeTakeFirst())?.id ?? 0);

  beforeAll(async () => {
    h = await startHarness(engine, "node", { config: { billingWebhookSecret: SECRET } });
    server = await startServer(h);
    send = server.send;
    const document = (await ok(send("GET", "/api/v1/openapi.json"), 200)) as { paths: Record<string, Record<string, { operationId: string }>> };
    operations = Object.entries(document.paths)
      .flatMap(([path, item]) => METHODS.filter((m) => item[m]).map((m) => ({ method: m.toUpperCase(), path, operationId: item[m].operationId })))
      .sort((a, b) => rank(a) - rank(b));
    const operator = keyHeaders(h.accountKey);
    const owner = await h.createAccount();
    ownerKey = owner.key;
    const roomy = { max_databases: null, max_invitees: null, roles: ["viewer", "editor", "admin"], custom_domain: false, ai_calls_per_month: null, requests_per_second: null };
    await ok(send("PUT", "/api/v1/plans/walk-roomy", { headers: operator, body: roomy }), 200);
    await ok(send("PATCH", `/api/v1/accounts/${owner.accountId}`, { headers: operator, body: { plan: "walk-roomy" } }), 200);
    const db = await makeDatabase(send, owner.key, "Audit walk");
    const victim = await makeKey(send, owner.key, { name: "victim" });
    const invite = await makeInvite(send, owner.key, "viewer");
    const target = await h.createAccount();
    await joinWorkspace(send, owner.key, target.key, "editor");
    const stranger = await h.createAccount();
    await ok(send("PATCH", `/api/v1/accounts/${stranger.accountId}`, { headers: operator, body: { plan: "team" } }), 200);
    const acceptable = await makeInvite(send, stranger.key, "viewer");
    const build = await makeBuild(send, owner.key);
    f = {
      ...db,
      viewId: await makeView(send, db.instance, keyHeaders(owner.key), owner.key),
      keyId: victim.id,
      ownerId: owner.accountId,
      accountId: target.accountId,
      inviteId: invite.id,
      acceptToken: acceptable.token,
      buildId: build.id,
      ownBuildId: build.id,
      credentials: keyHeaders(owner.key),
    };
    const file = path.join(os.tmpdir(), `walk-${db.instance}.tar.gz`);
    await writeBackup(h.app, (await loadDatabase(h.app, db.instance))!, file);
    archive = new Uint8Array(fs.readFileSync(file));
    fs.rmSync(file);
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    await h?.close();
  });

  it("finds the write operations in the document, each with an audit action or a reason to have none", () => {
    expect(operations.length).toBeGreaterThan(40);
    for (const op of operations) expect(AUDIT_ACTIONS[op.operationId] ?? NOT_AUDITED[op.operationId], op.operationId).toBeDefined();
  });

  it("records exactly one entry, with its action, for each successful write and none for a refused one", async () => {
    const covered: string[] = [];
    const missingBefore: string[] = [];
    for (const op of operations) {
      const route = ROUTES.find((r) => r.operationId === op.operationId);
      expect(route, `${op.operationId} is in the route table`).toBeDefined();
      const restoreName = route!.binary === "body" ? "&name=Walk%20restored" : "";
      const path = `/api/v1/${fillPath(route!.path, op.operationId, f)}${route!.workspaceFrom === "query" ? `?workspace=${f.ownerId}${restoreName}` : ""}`;
      const headers = route!.permission === "operator" ? keyHeaders(h.accountKey) : keyHeaders(ownerKey);
      // A definition applied as it is now: a call that changes nothing, still recorded.
      const body =
        op.operationId === "applyDefinition" ? (await send("GET", `/api/v1/databases/${f.instance}/definition`, { headers: keyHeaders(ownerKey) })).body : route!.body ? sampleBody(op.operationId, f) : undefined;
      const refused = refusedCall(op, route!, path);
      if (refused) {
        const before = await lastId();
        const signed = route!.permission === "billing" ? { "x-tabula-signature": `sha256=${signBillingBody(SECRET, JSON.stringify(refused.body))}` } : headers;
        const reply = await send(op.method, refused.path, { headers: signed, body: refused.body });
        expect(reply.status, `${op.operationId} refused: ${reply.text}`).toBeGreaterThanOrEqual(400);
        expect(reply.status, `${op.operationId} refused: ${reply.text}`).toBeLessThan(500);
        expect(await entriesAfter(before), `${op.operationId} refused leaves no entry`).toEqual([]);
      }
      const before = await lastId();
      const signed = route!.permission === "billing" ? { "x-tabula-signature": `sha256=${signBillingBody(SECRET, JSON.stringify(body))}` } : headers;
      const reply = await send(op.method, path, { headers: signed, body, raw: route!.binary === "body" ? archive : undefined });
      expect(reply.status, `${op.method} ${path}: ${reply.text}`).toBe(route!.status);
      const entries = await entriesAfter(before);
      const action = AUDIT_ACTIONS[op.operationId];
      if (!action) {
        expect(entries, `${op.operationId} records nothing`).toEqual([]);
        continue;
      }
      expect(entries.map((e) => e.action), `${op.operationId}`).toEqual([action]);
      if (replacesState(op) && entries[0].before_json === null) missingBefore.push(op.operationId);
      covered.push(op.operationId);
    }
    expect(missingBefore, "writes that replace or remove a state record it as before").toEqual([]);
    expect(covered.length).toBe(Object.keys(AUDIT_ACTIONS).length);
  }, 60_000);
});
