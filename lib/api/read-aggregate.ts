import { type RawBuilder, sql } from "kysely";
import type { UserDb } from "../db/engine";
import { scanRows } from "../db/scan-rows";
import { methodNotAllowed } from "../errors";
import { type CoreResponse, json } from "../http/core-types";
import { type Access, FULL_ACCESS, predicatesFor } from "../rls/access";
import { TYPE_SPECS } from "../schema/column-types";
import type { DatabaseSchema, JoinDef } from "../schema/types";
import type { Caller } from "./authenticate";
import { aggregateSql } from "./aggregate-sql";
import type { ColumnRef } from "./build-sql";
import { type AggregateQuery, parseAggregateQuery } from "./parse-aggregate";
import { indexJoin, joinPolicies } from "./join-index";
import type { TableIndex } from "./table-index";
import { scaleOf } from "../schema/type-traits";

type Row = Record<string, unknown>;

/** A sum of decimals keeps the column's scale (SQLite adds REAL values, so 0.1 + 0.2 is rounded back). */
const sumOf = (v: unknown, scale?: number) => (v === null || v === undefined ? null : scale === undefined ? Number(v) : Number(Number(v).toFixed(scale)));

/** Rows as JSON: groups and min/max typed as their columns, counts as numbers, avg = the sum over its count. */
const toAggregateRecord = (q: AggregateQuery, row: Row): Row => {
  const record: Row = {};
  for (const g of q.group) record[g.name] = TYPE_SPECS[g.type].toJson(row[g.name]);
  q.aggregates.forEach((a, i) => {
    const v = row[a.name];
    const scale = a.column && scaleOf(a.column);
    if (a.fn === "count" || a.fn === "count_distinct") record[a.name] = Number(v ?? 0);
    else if (a.fn === "sum") record[a.name] = sumOf(v, scale);
    else if (a.fn === "avg") record[a.name] = Number(row[`_n${i}`] ?? 0) === 0 ? null : sumOf(v, scale)! / Number(row[`_n${i}`]);
    else record[a.name] = TYPE_SPECS[a.column!.type].toJson(v);
  });
  return record;
};

const runAggregate = async (udb: UserDb, source: { from: RawBuilder<unknown>; ref: ColumnRef }, q: AggregateQuery, extra: RawBuilder<unknown>[]) => {
  const rows = (await scanRows(udb, aggregateSql(udb, source, q, extra))) as Row[];
  return json(200, rows.map((row) => toAggregateRecord(q, row)));
};

/** GET /{table}/_aggregate: row policies filter what is counted, as they filter what is read. */
export const aggregateTable = async ({ udb, index, req, access = FULL_ACCESS }: { udb: UserDb; index: TableIndex; req: { method: string; query: URLSearchParams }; access?: Access }): Promise<CoreResponse> => {
  if (req.method !== "GET") throw methodNotAllowed(["GET"]);
  const visible = predicatesFor(access, index.table.name, "select");
  const q = parseAggregateQuery(req.query, index.byName);
  return runAggregate(udb, { from: udb.table(index.table.name), ref: (c) => sql.id(c.name) }, q, visible);
};

/** GET /{join}/_aggregate: over the join's output columns, with every table's policies as in a join read. */
export const aggregateJoin = async ({ udb, schema, join, query, caller }: { udb: UserDb; schema: DatabaseSchema; join: JoinDef; query: URLSearchParams; caller?: Caller }) => {
  const index = indexJoin(udb, schema, join);
  const q = parseAggregateQuery(query, index.byName);
  const { where, from } = joinPolicies(index, schema, caller);
  return runAggregate(udb, { from, ref: index.plan.ref }, q, where);
};
