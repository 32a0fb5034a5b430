import { CompiledQuery, type RawBuilder } from "kysely";
import type { UserDb } from "../db/engine";
import { scanRows } from "../db/scan-rows";
import { notFound } from "../errors";
import { type CoreResponse, json } from "../http/core-types";
import { type Access, FULL_ACCESS, predicatesFor } from "../rls/access";
import { countSql, pageParams, pageShape, selectByIdSql, selectPageSql } from "./build-sql";
import { parseReadQuery } from "./parse-query";
import { type TableIndex, toRecord } from "./table-index";

// Distinct statement shapes kept per table; past this (a client varying `_in` lengths, say) they are built each time.
const MAX_SHAPES = 100;

/**
 * A statement whose text depends only on `shape`: compiled once per table definition, then bound to `params`
 * (the values it binds, in order), so the hot path skips query building and reuses the prepared statement.
 */
const compiledByShape = (udb: UserDb, index: TableIndex, shape: string, build: () => RawBuilder<unknown>, params: unknown[]) => {
  let text = index.sqlText.get(shape);
  if (!text) {
    text = build().compile(udb.db).sql;
    if (index.sqlText.size < MAX_SHAPES) index.sqlText.set(shape, text);
  }
  return CompiledQuery.raw(text, params);
};

/** GET /{table}: filters, sort and page from the query string; `Prefer: count=exact` adds X-Total-Count. */
export const listRecords = async (
  udb: UserDb,
  index: TableIndex,
  params: URLSearchParams,
  prefer?: string,
  access: Access = FULL_ACCESS,
): Promise<CoreResponse> => {
  const visible = predicatesFor(access, index.table.name, "select");
  const query = parseReadQuery(params, index.byName);
  // The policy predicate is ANDed with the filters in the page and in the count, so neither can reveal a hidden row.
  const page = () => selectPageSql(udb, index.table.name, index.all, query, visible);
  const rows = await scanRows(udb, visible.length ? page() : compiledByShape(udb, index, pageShape(udb, query), page, pageParams(udb, query)));
  const headers: Record<string, string> = {};
  if (prefer && /\bcount=exact\b/.test(prefer)) {
    const counted = await scanRows(udb, countSql(udb, index.table.name, query.filters, visible));
    headers["x-total-count"] = String(Number(counted[0]?.n ?? 0));
    headers["preference-applied"] = "count=exact";
  }
  return json(200, (rows as Record<string, unknown>[]).map((r) => toRecord(index, r)), headers);
};

/** The record by id if the `visible` predicates show it; `lock` (inside a write transaction) holds the row until COMMIT. */
export const findRecord = async (udb: UserDb, index: TableIndex, id: number, visible: RawBuilder<unknown>[] = [], lock = false) => {
  const select = (at: number) => selectByIdSql(udb, index.table.name, index.all, at, visible, lock);
  if (visible.length) {
    const { rows } = await select(id).execute(udb.db);
    return rows[0] ? toRecord(index, rows[0] as Record<string, unknown>) : undefined;
  }
  const { rows } = await udb.db.executeQuery(compiledByShape(udb, index, lock ? "byIdLocked" : "byId", () => select(0), [id]));
  return rows[0] ? toRecord(index, rows[0] as Record<string, unknown>) : undefined;
};

/** The record if it exists and the `visible` predicates (the select policy) show it; else 404. */
export const findRecordOrThrow = async (udb: UserDb, index: TableIndex, id: number, visible: RawBuilder<unknown>[] = [], lock = false) => {
  const record = await findRecord(udb, index, id, visible, lock);
  if (!record) throw notFound(`No record with id ${id} in ${index.table.name}.`);
  return record;
};

/** GET /{table}/{id} */
export const getRecord = async (udb: UserDb, index: TableIndex, id: number, access: Access = FULL_ACCESS): Promise<CoreResponse> =>
  json(200, await findRecordOrThrow(udb, index, id, predicatesFor(access, index.table.name, "select")));
