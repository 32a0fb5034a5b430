import { type RawBuilder, sql } from "kysely";
import type { UserDb } from "../db/engine";
import { readRows, scanRows } from "../db/scan-rows";
import { notFound } from "../errors";
import { type CoreResponse, json, jsonText } from "../http/core-types";
import { type Access, FULL_ACCESS, predicatesFor } from "../rls/access";
import type { CoreRequest } from "../http/core-types";
import { searchTableName } from "../schema/search";
import type { ColumnDef, DatabaseSchema, TableDef } from "../schema/types";
import { compiledByShape, countSql, pageParams, pageShape, searchDrivenPage, selectByIdSql } from "./build-sql";
import { afterParams, afterShape } from "./page-cursor";
import { pageColumns, type PageSource, planPage, readPage } from "./read-page";
import { type ColumnFilter, parseReadQuery, type ReadQuery } from "./parse-query";
import { type TableIndex, toRecord } from "./table-index";

export type ListRecords = {
  udb: UserDb;
  schema: DatabaseSchema;
  index: TableIndex;
  req: Pick<CoreRequest, "origin" | "pathname" | "query" | "header">;
  access?: Access;
};

/** `_like`/`_ilike` on a searchable column may use its trigram index (build-sql decides by the value). */
const withSearchIndexes = (query: ReadQuery, table: TableDef): ReadQuery => {
  const indexed = (f: ColumnFilter): ColumnFilter => (f.column.searchable ? { ...f, search: searchTableName(table.id, f.column.name) } : f);
  return { ...query, filters: query.filters.map((f) => ("or" in f ? { or: f.or.map(indexed) } : indexed(f))) };
};

/**
 * GET /{table}: filters, sort, projection, expansions and page from the query string; `Prefer: count=exact`
 * adds X-Total-Count; `Link: rel="next"` when another page follows.
 */
export const listRecords = async ({ udb, schema, index, req, access = FULL_ACCESS }: ListRecords): Promise<CoreResponse> => {
  const visible = predicatesFor(access, index.table.name, "select");
  const asked = withSearchIndexes(parseReadQuery(req.query, index.byName), index.table);
  // In id order, a search on a trigram index drives the read (build-sql.ts); `query` is then the rest of it.
  const searched = searchDrivenPage(udb, index.table.name, asked);
  const query = searched?.query ?? asked;
  const source: PageSource = searched
    ? { from: searched.from, ref: searched.ref, tieBreak: searched.tieBreak, all: index.all }
    : { from: udb.table(index.table.name), ref: (c: ColumnDef) => sql.id(c.name), all: index.all };
  // The policy predicate is ANDed with the filters in the page and in the count, so neither can reveal a hidden row.
  const planned = await planPage(udb, source, query, visible);
  const { values } = planned;
  const shape = `${searched ? `search@${searched.at}|` : ""}${pageShape(udb, query)}|${query.select ? pageColumns(index.all, query).map((c) => c.name).join(",") : "*"}|${values ? afterShape(values) : ""}`;
  // Bound in statement order: the index's phrase, the filters, the cursor's keyset, then LIMIT and OFFSET.
  const params = [...(searched ? [searched.phrase] : []), ...pageParams(udb, { ...query, limit: query.limit + 1 })];
  if (values) params.splice(params.length - 2, 0, ...afterParams(planned.keys, values));
  const compiled = visible.length === 0 ? compiledByShape(udb, index, shape, planned.sql, params) : planned.sql().compile(udb.db);
  const { body, headers } = await readPage({ udb, schema, compiled, query, keys: planned.keys, output: index.output, access, url: req });
  const prefer = req.header("prefer");
  if (prefer && /\bcount=exact\b/.test(prefer)) {
    const counted = await scanRows(udb, countSql(udb, index.table.name, asked.filters, visible));
    headers["x-total-count"] = String(Number(counted[0]?.n ?? 0));
    headers["preference-applied"] = "count=exact";
  }
  return jsonText(200, body, headers);
};

/** The record by id if the `visible` predicates show it; `lock` (inside a write transaction) holds the row until COMMIT. */
export const findRecord = async (udb: UserDb, index: TableIndex, id: number, visible: RawBuilder<unknown>[] = [], lock = false) => {
  const select = (at: number) => selectByIdSql(udb, index.table.name, index.all, at, visible, lock);
  if (visible.length) {
    const { rows } = await select(id).execute(udb.db);
    return rows[0] ? toRecord(index, rows[0] as Record<string, unknown>) : undefined;
  }
  const rows = await readRows(udb, compiledByShape(udb, index, lock ? "byIdLocked" : "byId", () => select(0), [id]));
  return rows[0] ? toRecord(index, rows[0] as Record<string, unknown>) : undefined;
};

/** The record if it exists and the `visible` predicates (the select policy) show it; else 404. */
export const findRecordOrThrow = async (udb: UserDb, index: TableIndex, id: number, visible: RawBuilder<unknown>[] = [], lock = false) => {
  const record = await findRecord(udb, index, id, visible, lock);
  if (!record) throw notFound(`No record with id ${id} in ${index.table.name}.`);
  return record;
};

/** GET /{table}/{id}; at once (no promise) when no policy applies and the connection is free (SQLite). */
export const getRecord = (udb: UserDb, index: TableIndex, id: number, access: Access = FULL_ACCESS): CoreResponse | Promise<CoreResponse> => {
  const visible = predicatesFor(access, index.table.name, "select");
  const rows = visible.length === 0 ? udb.readNow?.(compiledByShape(udb, index, "byId", () => selectByIdSql(udb, index.table.name, index.all, 0, [], false), [id])) : undefined;
  if (!rows) return findRecordOrThrow(udb, index, id, visible).then((record) => json(200, record));
  if (!rows[0]) throw notFound(`No record with id ${id} in ${index.table.name}.`);
  return json(200, toRecord(index, rows[0]));
};
