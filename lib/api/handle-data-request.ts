import type { App } from "../app";
import { methodNotAllowed, notFound } from "../errors";
import { type CoreRequest, type CoreResponse, json, noContent } from "../http/core-types";
import { errorResponse } from "../http/error-response";
import { parseJsonBody } from "../http/parse-json-body";
import { loadSchema } from "../meta/load-schema";
import { buildOpenApi } from "../openapi/build-openapi";
import { INSTANCE_RE } from "../schema/names";
import { authenticate } from "./authenticate";
import { getRecord, listRecords } from "./read-records";
import { indexTable } from "./table-index";
import { createRecords, deleteRecord, writeRecord } from "./write-records";

const COLLECTION_VERBS = ["GET", "POST"];
const ITEM_VERBS = ["GET", "PUT", "PATCH", "DELETE"];

const requireVerb = (method: string, verbs: string[]) => {
  if (!verbs.includes(method)) throw methodNotAllowed(verbs);
};

/** Preflight needs no credentials; per-database CORS origins are added by the auth feature. */
const preflight = (segments: string[]) => {
  const verbs = segments.length === 2 ? ITEM_VERBS : segments[0] === "openapi.json" ? ["GET"] : COLLECTION_VERBS;
  return noContent({ allow: [...verbs, "OPTIONS"].join(", ") });
};

const decodeSegments = (rest: string) => {
  try {
    return rest.split("/").filter(Boolean).map(decodeURIComponent);
  } catch {
    return undefined;
  }
};

/** The data API: /v1/{db_instance}/{table}[/{id}] and /v1/{db_instance}/openapi.json. */
export const handleDataRequest = async (app: App, req: CoreRequest): Promise<CoreResponse> => {
  try {
    const [, , instance = "", ...rest] = req.pathname.split("/");
    const segments = decodeSegments(rest.join("/"));
    if (req.method === "OPTIONS") return preflight(segments ?? []);
    await app.sync();
    const schema = INSTANCE_RE.test(instance) ? await loadSchema(app, instance) : undefined;
    await authenticate(app, req, schema);
    if (!schema) throw notFound(`Database "${instance}" was not found.`);
    if (!segments || segments.length === 0 || segments.length > 2) throw notFound("No such path; use /{table} or /{table}/{id}.");
    const [name, idText] = segments;
    if (name === "openapi.json" && !idText) {
      requireVerb(req.method, ["GET"]);
      const base = `${req.origin}/v1/${schema.instance}`;
      return json(200, buildOpenApi(schema, { serverUrl: base }));
    }
    const table = schema.tables.get(name);
    if (!table) throw notFound(`Table "${name}" was not found in database "${schema.instance}".`);
    const index = indexTable(table);
    const udb = app.engine.userDb(schema.physical);
    if (idText === undefined) {
      requireVerb(req.method, COLLECTION_VERBS);
      if (req.method === "GET") return await listRecords(udb, index, req.query, req.header("prefer"));
      return await createRecords(app, udb, index, parseJsonBody(req));
    }
    if (!/^[1-9]\d{0,15}$/.test(idText)) throw notFound(`No record with id "${idText}" in ${name}.`);
    const id = Number(idText);
    requireVerb(req.method, ITEM_VERBS);
    if (req.method === "GET") return await getRecord(udb, index, id);
    if (req.method === "DELETE") return await deleteRecord(udb, index, id);
    return await writeRecord(app, udb, index, id, parseJsonBody(req), req.method === "PUT" ? "replace" : "update");
  } catch (err) {
    return errorResponse(err);
  }
};
