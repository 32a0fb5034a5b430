import type { App } from "../app-type";
import { ApiError, invalidField, methodNotAllowed, notFound, unauthorized } from "../errors";
import type { CoreRequest, CoreResponse } from "../http/core-types";
import { json, noContent, StreamedBody } from "../http/core-types";
import { readCredential } from "../http/credentials";
import { errorResponse } from "../http/error-response";
import { refuseDisabled, resolveKey } from "../keys/resolve-key";
import type { Actor, Ctx } from "../meta/context";
import { billingActor } from "../billing/webhook";
import { type QuotaInputs, type QuotaKind, quotaMeter } from "../plans/quotas";
import { withWorkspaceWithRoom, workspaceWithRoom } from "../plans/workspace-with-room";
import { buildManagementOpenApi } from "../openapi/management-openapi";
import { handleDomainAllowed } from "../docs/serve-docs";
import { authorize } from "./authorize";
import { auditSlotFor } from "./audit-actions";
import { noteBefore } from "./audit-before";
import { retrySchemaChange } from "../meta/schema-change/retry-schema-change";
import { parseInput } from "../contract/parse-input";
import type { Tag } from "./route";
import { matchPath, ROUTES } from "./routes";

/** Management routes whose writes are schema changes (changeSchema), so a lost race is planned and run again. */
const SCHEMA_CHANGE_TAGS = new Set<Tag>(["Tables", "Columns", "Joins", "Auth", "Hooks"]);

export type SessionResolver = (req: CoreRequest) => Promise<Actor | undefined>;

const actorFromKey = async (app: App, req: CoreRequest): Promise<Actor | undefined> => {
  const credential = readCredential(req);
  if (!credential) return undefined;
  const key = credential.startsWith("sk_") ? await resolveKey(app, credential) : null;
  if (!key) throw unauthorized("The secret key is not valid (it may have been regenerated or revoked).");
  refuseDisabled(key);
  const account = await app.engine.meta.selectFrom("accounts").select("is_operator").where("id", "=", key.accountId).executeTakeFirst();
  if (!account) throw unauthorized();
  return { accountId: key.accountId, isOperator: account.is_operator === 1, keyDatabaseId: key.databaseId };
};

// A malformed escape stays as sent: its `%` fits no literal segment and no path parameter's schema.
const decodeSegment = (segment: string) => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
};

/**
 * The management API under /api/v1: a secret key (Bearer or x-api-key) or the dashboard session. Each request
 * is matched to its route, authenticated, parsed with the route's schemas (path, query and body), authorized
 * against its permission, then run: no service sees input its schemas refuse.
 */
export const handleManagementRequest = async (app: App, req: CoreRequest, session?: SessionResolver): Promise<CoreResponse> => {
  try {
    const segments = req.pathname.split("/").slice(3).filter(Boolean).map(decodeSegment);
    if (segments.length === 1 && segments[0] === "openapi.json") {
      return json(200, buildManagementOpenApi(`${req.origin}/api/v1`));
    }
    // The TLS proxy's on-demand "ask": no caller, like openapi.json (lib/docs/serve-docs.ts).
    if (segments.join("/") === "domains/allowed" && req.method === "GET") return await handleDomainAllowed(app, req);
    const candidates = ROUTES.map((r) => ({ route: r, params: matchPath(r.path, segments) })).filter((m) => m.params);
    if (candidates.length === 0) throw notFound("No such management endpoint; see /api/v1/openapi.json.");
    const verbs = candidates.map((c) => c.route.method);
    if (req.method === "OPTIONS") return noContent({ allow: [...verbs, "OPTIONS"].join(", ") });
    const match = candidates.find((c) => c.route.method === req.method);
    if (!match) throw methodNotAllowed(verbs);
    const { route } = match;
    const params = match.params!;
    await app.sync();
    const keyActor = route.permission === "billing" ? undefined : await actorFromKey(app, req);
    const actor = route.permission === "billing" ? billingActor(app, req) : (keyActor ?? (await session?.(req)));
    if (!actor) throw unauthorized("Sign in, or send an account secret key as Authorization: Bearer <key>.");
    const ctx: Ctx = { app, actor, origin: req.origin, responseHeaders: {} };
    const input = parseInput(route, params, req);
    if (route.binary === "body") {
      if (!req.bodyStream) throw invalidField("body", "required", "Send the backup archive as the request body.");
      input.archive = req.bodyStream;
    }
    await authorize(ctx, route, input);
    const via = route.permission === "billing" ? "signature" : keyActor ? "key" : "session";
    ctx.audit = auditSlotFor({ route, input: input as Record<string, unknown>, ctx, via, ip: req.clientAddress });
    await noteBefore(route, ctx, input as Record<string, unknown>);
    // A quota is charged to the workspace the route acts in (a member creating a database uses the owner's);
    // defineRoute lets a route declare only a quota whose input its parsed input provides.
    const meter = route.quota && quotaMeter(route.quota, ctx.workspaceId ?? actor.accountId, `account:${actor.accountId}`, input as QuotaInputs[QuotaKind], app);
    if (meter) ctx.meter = meter;
    // A run after a lost race plans from the database as it is now: authorize loads it again.
    const run = async (attempt = 1) => {
      if (attempt > 1) await authorize(ctx, route, input);
      return route.run(ctx, input);
    };
    const result = await (route.method !== "GET" && SCHEMA_CHANGE_TAGS.has(route.tag) ? retrySchemaChange(app, run) : run()).catch(async (err: unknown) => {
      // A database that does not fit this workspace may fit another the caller can create it in: the 402 names it.
      if (route.quota !== "databases" || !(err instanceof ApiError) || err.quota?.kind !== "databases") throw err;
      const room = await workspaceWithRoom(app.engine.meta, actor.accountId, ctx.workspaceId ?? actor.accountId);
      throw room ? withWorkspaceWithRoom(err, room, room.id === actor.accountId) : err;
    });
    if (meter && !meter.applied) throw new Error(`${route.operationId} declares quota "${route.quota}" but its service opened no transaction with transact()`);
    if (ctx.audit && !ctx.audit.written) throw new Error(`${route.operationId} changed nothing through commitMeta or changeSchema, so it has no audit entry`);
    if (result instanceof StreamedBody) return { status: 200, headers: { ...ctx.responseHeaders, ...result.headers }, stream: result.stream };
    return route.status === 204 ? noContent(ctx.responseHeaders) : json(route.status, result, ctx.responseHeaders);
  } catch (err) {
    return errorResponse(err, req.requestId);
  }
};
