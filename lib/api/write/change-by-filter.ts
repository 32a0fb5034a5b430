// Changes by filter (PRODUCT "Query grammar, second edition"): PATCH /{table}?<filters> sets the body's columns
// on every matching row, DELETE /{table}?<filters> removes them. The filters are the read grammar's; the rows a
// JWT user's select and update/delete policies allow are the ones matched. One kernel transaction: the matched
// rows are locked, then each goes through the kernel's update or delete stage (hooks, policy check of the new
// row, events), so one refusal leaves every row as it was.
import { sql } from "kysely";
import type { UserDb } from "../../db/engine";
import { invalidField, validationFailed } from "../../errors";
import { type CoreResponse, json } from "../../http/core-types";
import { predicatesFor } from "../../rls/access";
import { countSql, whereSql } from "../build-sql";
import type { DataRequest } from "../data-request";
import { parseRecordBody } from "../parse-body";
import { type Filter, parseReadQuery } from "../parse-query";
import { hashPasswords } from "./passwords";
import { type Change, inKernelTransaction, prefixFor, STAGES } from "./run-write";

export const MAX_FILTER_ROWS = 10_000;

/** Read parameters that page or order a read: a write by filter takes every matching row, so they are refused. */
const READ_ONLY_PARAMS = ["_limit", "_offset", "_sort"];

/** The filters of the request, parsed as a read's; at least one is required (a write to every row is not one typo away). */
const parseWriteFilters = (request: DataRequest): Filter[] => {
  const refused = READ_ONLY_PARAMS.filter((name) => request.query.has(name));
  if (refused.length) throw validationFailed(refused.map((field) => ({ field, code: "unknown_parameter", message: `${field} does not apply to a write by filter` })));
  const { filters } = parseReadQuery(request.query, request.index.byName, { rows: false });
  if (filters.length === 0) throw invalidField("filter", "required", "a PATCH or DELETE on the table needs at least one filter, e.g. ?status=draft");
  return filters;
};

/** The body of a PATCH by filter, validated once before anything is locked (automatic columns are refused). */
const parseSetBody = (request: DataRequest) => {
  const { body } = request;
  if (typeof body === "object" && body !== null && !Array.isArray(body) && Object.keys(body).length === 0) {
    throw invalidField("body", "empty", "the body names no column to set");
  }
  const { errors } = parseRecordBody(request.index, body, "update");
  if (errors.length) throw validationFailed(errors);
};

/** Ids of the matched rows in id order, locked to COMMIT; past MAX_FILTER_ROWS a 422 naming how many match. */
const lockMatched = async (tx: UserDb, request: DataRequest, filters: Filter[], policy: ReturnType<typeof predicatesFor>) => {
  const { table } = request.index;
  const lock = sql.raw(tx.engine === "mysql" ? " FOR UPDATE" : "");
  const where = whereSql(tx, filters, policy);
  const { rows } = await sql<{ id: number }>`SELECT ${sql.id("id")} FROM ${tx.table(table.name)}${where} ORDER BY ${sql.id("id")} LIMIT ${MAX_FILTER_ROWS + 1}${lock}`.execute(tx.db);
  if (rows.length <= MAX_FILTER_ROWS) return rows.map((r) => Number(r.id));
  const { rows: counted } = await countSql(tx, table.name, filters, policy).execute(tx.db);
  const n = Number(counted[0]?.n ?? 0);
  throw invalidField("filter", "too_many_rows", `the filters match ${n} rows; at most ${MAX_FILTER_ROWS} per request, so nothing was changed`);
};

const wantsRows = (prefer: string | undefined) => /\breturn=representation\b/.test(prefer ?? "");

/** PATCH or DELETE /{table}?<filters> → 200 `{"affected": n}`, or the rows with `Prefer: return=representation`. */
export const changeByFilter = async (request: DataRequest, action: "update" | "delete"): Promise<CoreResponse> => {
  const { index, access } = request;
  const filters = parseWriteFilters(request);
  // Only the rows the caller may see and change are matched (403 when the table is closed to them).
  const policy = [...predicatesFor(access, index.table.name, "select"), ...predicatesFor(access, index.table.name, action)];
  if (action === "update") parseSetBody(request);
  const hashes = action === "update" ? await hashPasswords(request.app, index, [request.body], false) : [];
  const rows = await inKernelTransaction(request, action === "delete" ? "delete" : "write", async (tx) => {
    const change: Change = { action, records: [], old: [] };
    for (const id of await lockMatched(tx, request, filters, policy)) {
      const outcome = await STAGES[action](tx, { ...request, action, id }, { hashes, creates: [], prefix: prefixFor(false) });
      change.records.push(...outcome.records);
      change.old.push(...outcome.old);
    }
    return { result: action === "delete" ? change.old : change.records, changes: [change] };
  });
  if (!wantsRows(request.prefer)) return json(200, { affected: rows.length });
  return json(200, rows, { "preference-applied": "return=representation" });
};
