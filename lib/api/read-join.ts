import type { UserDb } from "../db/engine";
import { scanRows } from "../db/scan-rows";
import { methodNotAllowed, notFound } from "../errors";
import { type CoreResponse, jsonText } from "../http/core-types";
import { rowFilter } from "../rls/row-filter";
import type { DatabaseSchema, JoinDef } from "../schema/types";
import type { Caller } from "./authenticate";
import { type Access, FULL_ACCESS } from "../rls/access";
import { countJoinSql } from "./build-sql";
import { indexJoin, joinPolicies } from "./join-index";
import { parseReadQuery } from "./parse-query";
import { aggregateJoin } from "./read-aggregate";
import { planPage, readPage } from "./read-page";

/** The caller's row access for tables read beside the join (expansions); no caller = the owner. */
const joinAccess = (schema: DatabaseSchema, caller?: Caller): Access =>
  caller?.kind === "user" ? (table, action) => rowFilter(caller, schema, table, action) : FULL_ACCESS;

type JoinRequest = { method: string; query: URLSearchParams; header: (name: string) => string | undefined; origin?: string; pathname?: string };

/** GET /{join}: the same query grammar as a table read, over the join's output columns. */
export const listJoinRecords = async (
  udb: UserDb,
  schema: DatabaseSchema,
  join: JoinDef,
  params: URLSearchParams,
  options: { caller?: Caller; prefer?: string; url?: { origin: string; pathname: string; query: URLSearchParams } } = {},
): Promise<CoreResponse> => {
  const index = indexJoin(udb, schema, join);
  const query = parseReadQuery(params, index.byName);
  const { where, from } = joinPolicies(index, schema, options.caller);
  const planned = await planPage(udb, { from, ref: index.plan.ref, all: index.columns, tieBreak: index.plan.tieBreak }, query, where);
  const output = options.caller?.kind === "user" ? index.userOutput : index.output;
  const access = joinAccess(schema, options.caller);
  const compiled = planned.sql().compile(udb.db);
  const { body, headers } = await readPage({ udb, schema, compiled, query, keys: planned.keys, output, access, url: options.url });
  if (options.prefer && /\bcount=exact\b/.test(options.prefer)) {
    const counted = await scanRows(udb, countJoinSql(udb, { ...index.plan, from }, query.filters, where));
    headers["x-total-count"] = String(Number(counted[0]?.n ?? 0));
    headers["preference-applied"] = "count=exact";
  }
  return jsonText(200, body, headers);
};

/** A join path is a read-only collection: `/{join}/{id}` does not exist and only GET is served. */
export const serveJoin = async (udb: UserDb, schema: DatabaseSchema, join: JoinDef, req: JoinRequest, idText: string | undefined, caller?: Caller) => {
  if (req.method !== "GET" && (idText === undefined || idText === "_aggregate")) throw methodNotAllowed(["GET"]);
  if (idText === "_aggregate") return aggregateJoin({ udb, schema, join, query: req.query, caller });
  if (idText !== undefined) throw notFound(`Join "${join.name}" has no /{id} path; filter it with query parameters instead.`);
  const url = req.origin !== undefined && req.pathname !== undefined ? { origin: req.origin, pathname: req.pathname, query: req.query } : undefined;
  return listJoinRecords(udb, schema, join, req.query, { caller, prefer: req.header("prefer"), url });
};
