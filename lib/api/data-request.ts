// A data-API request on a table, planned once: who calls, which table (as that caller sees it), what they do,
// the row, the body and the query. Reads and the write kernel take it as it is; nothing re-derives it.
import type { App } from "../app-type";
import { invalidField, methodNotAllowed, notFound } from "../errors";
import type { CoreRequest } from "../http/core-types";
import { parseJsonBody } from "../http/parse-json-body";
import { pathId } from "../http/path-id";
import { type Access, FULL_ACCESS } from "../rls/access";
import { rowFilter } from "../rls/row-filter";
import type { DatabaseSchema } from "../schema/types";
import type { LoadedDatabase } from "../meta/schema-cache";
import type { Caller } from "./authenticate";
import type { Actor } from "../events/outbox/record-change";
import { indexTable, indexTableForUsers } from "./table-index";
import { isUpsert } from "./write/parse-upsert";
import type { WriteAction, WriteRequest } from "./write/run-write";
import { fileScopeOf } from "./files/file-scope";

export const COLLECTION_VERBS = ["GET", "POST", "PATCH", "DELETE"];
export const ITEM_VERBS = ["GET", "PUT", "PATCH", "DELETE"];

/** `upsert`: POST with `_on_conflict`; `update_where` / `delete_where`: PATCH / DELETE on the collection by filter. */
export type DataAction = "list" | "get" | "aggregate" | "upsert" | "update_where" | "delete_where" | WriteAction;

export type DataRequest = Omit<WriteRequest, "action"> & {
  schema: DatabaseSchema;
  caller: Caller;
  action: DataAction;
  query: URLSearchParams;
  prefer?: string;
  /** `/{table}/_bulk` or `/{table}/_upsert`: the body must be an array and the answer is always one. */
  many?: true;
};

const ITEM_ACTIONS: Record<string, DataAction> = { GET: "get", PUT: "replace", PATCH: "update", DELETE: "delete" };
const COLLECTION_ACTIONS: Record<string, DataAction> = { GET: "list", POST: "create", PATCH: "update_where", DELETE: "delete_where" };

/** The caller's row predicates: secret keys are the server role; a JWT user meets the policies (deny by default). */
const accessFor = (schema: DatabaseSchema, caller: Caller): Access =>
  caller.kind === "key" ? FULL_ACCESS : (table, action) => rowFilter(caller, schema, table, action);

/** Who writes, as record history names them: the dashboard's key writes for its member. */
export const actorOf = (caller: Caller): Actor =>
  caller.kind === "user" ? { kind: "user", id: caller.userId } : caller.dashboard ? { kind: "member", id: caller.accountId } : { kind: "key", id: caller.keyId };

const actionOf = (req: CoreRequest, item: boolean): DataAction => {
  const verbs = item ? ITEM_VERBS : COLLECTION_VERBS;
  if (!verbs.includes(req.method)) throw methodNotAllowed(verbs);
  if (item) return ITEM_ACTIONS[req.method];
  return req.method === "POST" && isUpsert(req.query, req.header("prefer")) ? "upsert" : COLLECTION_ACTIONS[req.method];
};

const BODILESS: DataAction[] = ["list", "get", "aggregate", "delete", "delete_where"];

/**
 * `/{table}/_bulk` (create) and `/{table}/_upsert` (merge on `_on_conflict`, no Prefer needed): POST only, an
 * array in and an array out, so a generated client types each answer exactly. `POST /{table}` keeps taking
 * arrays too.
 */
export const MANY_PATHS: Record<string, DataAction> = { _bulk: "create", _upsert: "upsert" };

const manyBody = (req: CoreRequest): unknown[] => {
  const body = parseJsonBody(req);
  if (!Array.isArray(body)) throw invalidField("body", "array_required", "this path takes a JSON array of records");
  return body;
};

/** Plans `/{table}[/{id}]`: 404 for an unknown table or id shape, 405 for a verb the path does not take. */
export const planDataRequest = (
  app: App,
  req: CoreRequest,
  database: LoadedDatabase,
  caller: Caller,
  name: string,
  idText?: string,
  /** The body when the request's was read otherwise (a multipart upload), instead of its JSON. */
  body?: unknown,
): DataRequest => {
  const { schema } = database;
  const table = schema.tables.get(name);
  if (!table) throw notFound(`Table "${name}" was not found in database "${schema.instance}".`);
  // `/{table}/_aggregate`, `_bulk` and `_upsert` are operations of their own (table names start with a letter,
  // so no table is called that).
  const aggregate = idText === "_aggregate";
  const many = idText !== undefined && Object.hasOwn(MANY_PATHS, idText) ? MANY_PATHS[idText] : undefined;
  if (many && req.method !== "POST") throw methodNotAllowed(["POST"]);
  const id = idText === undefined || aggregate || many ? undefined : pathId(idText, `No record with id "${idText}" in ${name}.`);
  const action: DataAction = aggregate ? "aggregate" : (many ?? actionOf(req, id !== undefined));
  const hooks = database.hooks.get(name);
  const userId = caller.kind === "user" ? caller.userId : undefined;
  return {
    app,
    schema,
    caller,
    udb: app.engine.userDb(schema.physical),
    index: caller.kind === "user" ? indexTableForUsers(table) : indexTable(table),
    access: accessFor(schema, caller),
    action,
    id,
    body: BODILESS.includes(action) ? undefined : many ? manyBody(req) : (body ?? parseJsonBody(req)),
    ...(many && { many: true as const }),
    query: req.query,
    prefer: req.header("prefer"),
    hook: hooks && { app, databaseId: schema.id, hooks, auth: { kind: caller.kind, id: userId ?? null } },
    authId: userId,
    files: fileScopeOf(app, database, table),
    actor: actorOf(caller),
  };
};
