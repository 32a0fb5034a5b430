import type { App } from "../app-type";
import { methodNotAllowed, notFound } from "../errors";
import { type CoreRequest, type CoreResponse, json, noContent } from "../http/core-types";
import { authVerb as authPathVerb, handleAuthRequest } from "../db-auth/handle-auth-request";
import { withCors } from "../db-auth/cors";
import { ApiError } from "../errors";
import { errorResponse } from "../http/error-response";
import { cachedDatabase, loadDatabase } from "../meta/load-schema";
import { buildOpenApi } from "../openapi/build-openapi";
import { INSTANCE_RE } from "../schema/names";
import type { LoadedDatabase } from "../meta/schema-cache";
import { addRateLimitHeaders } from "../limits/rate-limit-headers";
import type { RateDecision } from "../limits/request-limiter";
import { authenticate, knownOwnerKey } from "./authenticate";
import { serveJoin } from "./read-join";
import { getRecord, listRecords } from "./read-records";
import { COLLECTION_VERBS, type DataRequest, ITEM_VERBS, MANY_PATHS, planDataRequest } from "./data-request";
import { runWrite } from "./write/run-write";
import { upsertRecords } from "./write/upsert-records";
import { changeByFilter } from "./write/change-by-filter";
import { aggregateTable } from "./read-aggregate";
import { checkQueryText } from "../http/query-text";
import { isStaleSchemaError, schemaChanged } from "./stale-schema";
import { serveChanges, withAccessToken } from "../events/feed/serve-changes";
import { BIG_BODY_CHARS, inBigLane, nextTurn } from "../limits/big-lane";
import { issueFileToken } from "./files/file-token";
import { serveFileRequest } from "./files/serve-file";
import { withFileUrls } from "./files/file-urls";
import { withUpload } from "./files/serve-upload";
import { withAttachedUploads } from "./files/attach-uploads";

/** A refused upload closes its connection: the rest of a large body is not read. */
const uploadRefused = (err: unknown, req: CoreRequest) => {
  const response = errorResponse(err, req.requestId);
  return { ...response, headers: { ...response.headers, connection: "close" } };
};
import { parseJsonBody } from "../http/parse-json-body";
import { serveHistory } from "./history/serve-history";


const requireVerb = (method: string, verbs: string[]) => {
  if (!verbs.includes(method)) throw methodNotAllowed(verbs);
};

/** Preflight needs no credentials; withCors adds the database's allowed origin. */
const preflight = (segments: string[], isJoin: boolean) => {
  const authVerb = segments[0] === "auth" ? (segments.length === 2 && segments[1] === "file-token" ? "POST" : authPathVerb(segments.slice(1))) : undefined;
  const readOnly = isJoin || segments[0] === "openapi.json";
  const many = segments.length === 2 && Object.hasOwn(MANY_PATHS, segments[1]);
  const verbs = authVerb ? [authVerb] : readOnly ? ["GET"] : many ? ["POST"] : segments.length === 2 ? ITEM_VERBS : COLLECTION_VERBS;
  return noContent({ allow: [...verbs, "OPTIONS"].join(", ") });
};

const decodeSegments = (rest: string) => {
  try {
    return rest.split("/").filter(Boolean).map(decodeURIComponent);
  } catch {
    return undefined;
  }
};

/** `/{table}/{id}/_history`, `/{table}/{id}/_restore`, `/{table}/_deleted`: record history (docs/history.md). */
const historyPath = (segments: string[]) => {
  if (segments.length === 3 && (segments[2] === "_history" || segments[2] === "_restore")) return segments[2];
  if (segments.length === 2 && segments[1] === "_deleted") return "_deleted";
  return undefined;
};

/** A table request, planned: reads go to the read pipeline, writes to the one write kernel. */
const serveTable = async (r: DataRequest, req: CoreRequest): Promise<CoreResponse> => {
  switch (r.action) {
    case "list":
      return listRecords({ udb: r.udb, schema: r.schema, index: r.index, req, access: r.access });
    case "aggregate":
      return aggregateTable({ udb: r.udb, index: r.index, req, access: r.access });
    case "get":
      return getRecord(r.udb, r.index, r.id!, r.access);
    case "create": {
      const records = await runWrite({ ...r, action: r.action });
      return json(201, r.many || Array.isArray(r.body) ? records : records[0]);
    }
    case "delete":
      await runWrite({ ...r, action: r.action });
      return noContent();
    case "upsert":
      return upsertRecords(r);
    case "update_where":
      return changeByFilter(r, "update");
    case "delete_where":
      return changeByFilter(r, "delete");
    default:
      return json(200, (await runWrite({ ...r, action: r.action }))[0]);
  }
};

/** The data API: /v1/{db_instance}/{table}[/{id}], /auth/*, /openapi.json; CORS per database on every reply. */
export const handleDataRequest = async (app: App, req: CoreRequest): Promise<CoreResponse> => {
  const admission: Admission = {};
  const response = await serveDataRequest(app, req, admission);
  if (admission.decision) addRateLimitHeaders(response.headers, admission.decision);
  if (!req.header("origin")) return response;
  const instance = req.pathname.split("/")[2] ?? "";
  return withCors(INSTANCE_RE.test(instance) ? await loadDatabase(app, instance).catch(() => undefined) : undefined, req, response);
};

const refuse = (perSecond: number, decision: RateDecision) =>
  new ApiError("rate_limited", `This database's account allows ${perSecond} requests per second on its plan; retry in ${decision.reset} s.`, {
    headers: { "Retry-After": String(decision.reset) },
  });

/** Where admit leaves its decision, for the RateLimit headers of whatever the request answers. */
type Admission = { decision?: RateDecision };

const applyDecision = (admission: Admission, perSecond: number, decision: RateDecision) => {
  admission.decision = decision;
  if (!decision.allowed) throw refuse(perSecond, decision);
};

/**
 * Counts the request against the owner's plan rate; 429 past it. Answers without a promise while the
 * limiter can (the common case), so the hot path stays synchronous.
 */
const admit = (app: App, database: LoadedDatabase, admission: Admission): void | Promise<void> => {
  const perSecond = database.requestsPerSecond;
  if (perSecond === null) return;
  const decision = app.limitRequests(database.schema.ownerId, perSecond);
  if (!(decision instanceof Promise)) return applyDecision(admission, perSecond, decision);
  return decision.then((d) => applyDecision(admission, perSecond, d));
};

/** Counts a request that reads only the schema (an MCP tool describing tables) against the plan's rate; 429 past it. */
export const admitSchemaRead = async (app: App, database: LoadedDatabase): Promise<void> => {
  await admit(app, database, {});
};

/**
 * Serves the request. One planned on a schema that changed under it (a column or table gone, a new required
 * column) wrote nothing, so it is planned once more on a fresh load of the schema, then refused with 409.
 */
const serveDataRequest = async (app: App, req: CoreRequest, admission: Admission, replanned = false): Promise<CoreResponse> => {
  const [, , instance = "", ...rest] = req.pathname.split("/");
  try {
    const segments = decodeSegments(rest.join("/"));
    await app.sync();
    const database = INSTANCE_RE.test(instance) ? (cachedDatabase(app, instance) ?? (await loadDatabase(app, instance))) : undefined;
    if (req.method === "OPTIONS") return preflight(segments ?? [], database?.schema.joins?.has(segments?.[0] ?? "") ?? false);
    if (segments?.[0] === "auth" && segments[1] === "file-token" && segments.length === 2) return await issueFileToken(app, req, database);
    if (segments?.[0] === "auth") return await handleAuthRequest(app, req, database, segments.slice(1));
    if (segments?.length === 4 && database) {
      const [table, id, column, name] = segments;
      // Counted against the owner's rate once the caller is known (a public column's download has none to check).
      const count = async () => {
        if (!admission.decision) await admit(app, database, admission);
      };
      return await serveFileRequest(app, req, database, { table, id, column, name }, () => authenticate(app, req, database), count);
    }
    if (segments?.[0] === "_changes") req = withAccessToken(req);
    const caller = knownOwnerKey(app, req, database) ?? (await authenticate(app, req, database));
    if (!database) throw notFound(`Database "${instance}" was not found.`);
    const { schema } = database;
    if (caller.kind === "key" && caller.role === "viewer" && req.method !== "GET" && req.method !== "HEAD") {
      throw new ApiError("forbidden", "This key's account is a viewer of this database: it may read, not write.");
    }
    const admitting = admission.decision ? undefined : admit(app, database, admission);
    if (admitting) await admitting;
    checkQueryText(req.rawQuery);
    const historyVerb = segments && historyPath(segments);
    if (historyVerb) {
      // Planned as a read of the row (or table), then served by record history with its own verbs and body.
      const [table, idText] = segments!;
      const planned = planDataRequest(app, { ...req, method: "GET" }, database, caller, table, historyVerb === "_deleted" ? undefined : idText);
      return await serveHistory({ ...planned, body: historyVerb === "_restore" ? parseJsonBody(req) : undefined }, req, historyVerb);
    }
    if (!segments || segments.length === 0 || segments.length > 2) throw notFound("No such path; use /{table} or /{table}/{id}.");
    if (segments[0] === "_changes" && segments.length === 1) return await serveChanges(app, req, schema, caller);
    const [name, idText] = segments;
    if (name === "openapi.json" && !idText) {
      requireVerb(req.method, ["GET"]);
      if (caller.kind === "user") throw new ApiError("forbidden", "The OpenAPI document needs a secret key.");
      const base = `${req.origin}/v1/${schema.instance}`;
      return json(200, buildOpenApi(database, { serverUrl: base }));
    }
    const join = schema.joins?.get(name);
    if (join) return await serveJoin(app.engine.userDb(schema.physical), schema, join, req, idText, caller);
    const table = schema.tables.get(name);
    const answer = (response: CoreResponse) => (table ? withFileUrls(response, schema, table) : response);
    if (req.bodyStream) return answer(await withUpload(app, req, database, caller, { name, idText }, (planned) => serveTable(planned, req)));
    const serve = (planned: DataRequest) => (planned.files ? withAttachedUploads(app, database, planned, (r) => serveTable(r, req)) : serveTable(planned, req));
    if ((req.body?.length ?? 0) < BIG_BODY_CHARS) return answer(await serve(planDataRequest(app, req, database, caller, name, idText)));
    return answer(await inBigLane(async () => {
      const planned = planDataRequest(app, req, database, caller, name, idText); // parses the body
      await nextTurn();
      return serve(planned);
    }));
  } catch (err) {
    // An upload's body was read once: its request is answered, never planned again.
    if (req.bodyStream) return uploadRefused(isStaleSchemaError(err) ? schemaChanged() : err, req);
    if (!isStaleSchemaError(err)) return errorResponse(err, req.requestId);
    if (replanned) return errorResponse(schemaChanged(), req.requestId);
    const stale = app.schemas.get(instance);
    app.schemas.delete(instance);
    if (stale) app.engine.clearStatements(stale.physical);
    return serveDataRequest(app, req, admission, true);
  }
};
