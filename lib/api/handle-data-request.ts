import type { App } from "../app";
import { methodNotAllowed, notFound } from "../errors";
import { type CoreRequest, type CoreResponse, json, noContent } from "../http/core-types";
import { AUTH_VERBS, handleAuthRequest } from "../db-auth/handle-auth-request";
import { withCors } from "../db-auth/cors";
import { ApiError } from "../errors";
import { errorResponse } from "../http/error-response";
import { parseJsonBody } from "../http/parse-json-body";
import { loadSchema } from "../meta/load-schema";
import { buildOpenApi } from "../openapi/build-openapi";
import { type Access, FULL_ACCESS } from "../rls/access";
import { rowFilter } from "../rls/row-filter";
import { INSTANCE_RE } from "../schema/names";
import type { DatabaseSchema } from "../schema/types";
import { rateLimitHeaders } from "../limits/rate-limit-headers";
import { authenticate } from "./authenticate";
import { serveJoin } from "./read-join";
import { getRecord, listRecords } from "./read-records";
import { indexTable, indexTableForUsers } from "./table-index";
import { createRecords, deleteRecord, writeRecord } from "./write-records";

const COLLECTION_VERBS = ["GET", "POST"];
const ITEM_VERBS = ["GET", "PUT", "PATCH", "DELETE"];

const requireVerb = (method: string, verbs: string[]) => {
  if (!verbs.includes(method)) throw methodNotAllowed(verbs);
};

/** Preflight needs no credentials; withCors adds the database's allowed origin. */
const preflight = (segments: string[], isJoin: boolean) => {
  const authVerb = segments[0] === "auth" && segments.length === 2 ? AUTH_VERBS[segments[1]] : undefined;
  const readOnly = isJoin || segments[0] === "openapi.json";
  const verbs = authVerb ? [authVerb] : readOnly ? ["GET"] : segments.length === 2 ? ITEM_VERBS : COLLECTION_VERBS;
  return noContent({ allow: [...verbs, "OPTIONS"].join(", ") });
};

const decodeSegments = (rest: string) => {
  try {
    return rest.split("/").filter(Boolean).map(decodeURIComponent);
  } catch {
    return undefined;
  }
};

/** The data API: /v1/{db_instance}/{table}[/{id}], /auth/*, /openapi.json; CORS per database on every reply. */
export const handleDataRequest = async (app: App, req: CoreRequest): Promise<CoreResponse> => {
  const response = await serveDataRequest(app, req);
  if (!req.header("origin")) return response;
  const instance = req.pathname.split("/")[2] ?? "";
  return withCors(INSTANCE_RE.test(instance) ? await loadSchema(app, instance).catch(() => undefined) : undefined, req, response);
};

/** Counts the request against the owner's plan rate: 429 past it; either way the RateLimit headers to send. */
const admit = async (app: App, schema: DatabaseSchema, rate: { headers?: Record<string, string> }) => {
  const perSecond = schema.requestsPerSecond;
  if (perSecond === null || perSecond === undefined) return;
  const decision = await app.limitRequests(schema.ownerId, perSecond);
  rate.headers = rateLimitHeaders(decision);
  if (!decision.allowed) {
    throw new ApiError("rate_limited", `This database's account allows ${perSecond} requests per second on its plan; retry in ${decision.reset} s.`, {
      headers: { "Retry-After": String(decision.reset) },
    });
  }
};

const serveDataRequest = async (app: App, req: CoreRequest): Promise<CoreResponse> => {
  const rate: { headers?: Record<string, string> } = {};
  const response = await routeDataRequest(app, req, rate);
  if (rate.headers) Object.assign(response.headers, rate.headers);
  return response;
};

const routeDataRequest = async (app: App, req: CoreRequest, rate: { headers?: Record<string, string> }): Promise<CoreResponse> => {
  try {
    const [, , instance = "", ...rest] = req.pathname.split("/");
    const segments = decodeSegments(rest.join("/"));
    await app.sync();
    const schema = INSTANCE_RE.test(instance) ? await loadSchema(app, instance) : undefined;
    if (req.method === "OPTIONS") return preflight(segments ?? [], schema?.joins?.has(segments?.[0] ?? "") ?? false);
    if (segments?.[0] === "auth") return await handleAuthRequest(app, req, schema, segments.slice(1));
    const caller = await authenticate(app, req, schema);
    // Secret keys are the server role; a JWT user meets the table's policies (deny by default).
    const access: Access = caller.kind === "key" || !schema ? FULL_ACCESS : (table, action) => rowFilter(caller, schema, table, action);
    if (!schema) throw notFound(`Database "${instance}" was not found.`);
    await admit(app, schema, rate);
    if (!segments || segments.length === 0 || segments.length > 2) throw notFound("No such path; use /{table} or /{table}/{id}.");
    const [name, idText] = segments;
    if (name === "openapi.json" && !idText) {
      requireVerb(req.method, ["GET"]);
      if (caller.kind === "user") throw new ApiError("forbidden", "The OpenAPI document needs a secret key.");
      const base = `${req.origin}/v1/${schema.instance}`;
      return json(200, buildOpenApi(schema, { serverUrl: base }));
    }
    const join = schema.joins?.get(name);
    if (join) return await serveJoin(app.engine.userDb(schema.physical), schema, join, req, idText, caller);
    const table = schema.tables.get(name);
    if (!table) throw notFound(`Table "${name}" was not found in database "${schema.instance}".`);
    const index = caller.kind === "user" ? indexTableForUsers(table) : indexTable(table);
    const udb = app.engine.userDb(schema.physical);
    if (idText === undefined) {
      requireVerb(req.method, COLLECTION_VERBS);
      if (req.method === "GET") return await listRecords(udb, index, req.query, req.header("prefer"), access);
      return await createRecords(app, udb, index, parseJsonBody(req), access, caller.kind === "user" ? caller.userId : undefined);
    }
    if (!/^[1-9]\d{0,15}$/.test(idText)) throw notFound(`No record with id "${idText}" in ${name}.`);
    const id = Number(idText);
    requireVerb(req.method, ITEM_VERBS);
    if (req.method === "GET") return await getRecord(udb, index, id, access);
    if (req.method === "DELETE") return await deleteRecord(udb, index, id, access);
    return await writeRecord(app, udb, index, id, parseJsonBody(req), req.method === "PUT" ? "replace" : "update", access);
  } catch (err) {
    return errorResponse(err);
  }
};
