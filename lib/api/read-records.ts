import { CompiledQuery, type RawBuilder } from "kysely";
import type { UserDb } from "../db/engine";
import { scanRows } from "../db/scan-rows";
import { notFound } from "../errors";
import { type CoreResponse, json } from "../http/core-types";
import { type Access, FULL_ACCESS, predicatesFor } from "../rls/access";
import { countSql, selectByIdSql, selectPageSql } from "./build-sql";
import { parseReadQuery } from "./parse-query";
import { type TableIndex, toRecord } from "./table-index";

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
  const rows = await scanRows(udb, selectPageSql(udb, index.table.name, index.all, query, visible));
  const headers: Record<string, string> = {};
  if (prefer && /\bcount=exact\b/.test(prefer)) {
    const counted = await scanRows(udb, countSql(udb, index.table.name, query.filters, visible));
    headers["x-total-count"] = String(Number(counted[0]?.n ?? 0));
    headers["preference-applied"] = "count=exact";
  }
  return json(200, (rows as Record<string, unknown>[]).map((r) => toRecord(index, r)), headers);
};

export const findRecord = async (udb: UserDb, index: TableIndex, id: number, visible: RawBuilder<unknown>[] = []) => {
  if (visible.length) {
    const { rows } = await selectByIdSql(udb, index.table.name, index.all, id, visible).execute(udb.db);
    return rows[0] ? toRecord(index, rows[0] as Record<string, unknown>) : undefined;
  }
  let text = index.sqlText.get("byId");
  if (!text) {
    text = selectByIdSql(udb, index.table.name, index.all, 0).compile(udb.db).sql;
    index.sqlText.set("byId", text);
  }
  const { rows } = await udb.db.executeQuery(CompiledQuery.raw(text, [id]));
  return rows[0] ? toRecord(index, rows[0] as Record<string, unknown>) : undefined;
};

/** The record if it exists and the `visible` predicates (the select policy) show it; else 404. */
export const findRecordOrThrow = async (udb: UserDb, index: TableIndex, id: number, visible: RawBuilder<unknown>[] = []) => {
  const record = await findRecord(udb, index, id, visible);
  if (!record) throw notFound(`No record with id ${id} in ${index.table.name}.`);
  return record;
};

/** GET /{table}/{id} */
export const getRecord = async (udb: UserDb, index: TableIndex, id: number, access: Access = FULL_ACCESS): Promise<CoreResponse> =>
  json(200, await findRecordOrThrow(udb, index, id, predicatesFor(access, index.table.name, "select")));
