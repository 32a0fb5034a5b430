import { type RawBuilder, sql } from "kysely";
import type { UserDb } from "../db/engine";
import { scanRows } from "../db/scan-rows";
import { ApiError, methodNotAllowed, notFound } from "../errors";
import { type CoreResponse, json } from "../http/core-types";
import { refColumn, refTable, resolveJoinRef } from "../joins/join-refs";
import { rowFilter } from "../rls/row-filter";
import { TYPE_SPECS } from "../schema/column-types";
import type { ColumnDef, DatabaseSchema, JoinDef } from "../schema/types";
import type { Caller } from "./authenticate";
import { countJoinSql, type JoinPlan, selectJoinPageSql } from "./build-sql";
import { parseReadQuery } from "./parse-query";

/** A join planned once per cached definition: its output columns (typed like their sources) and its SQL plan. */
export type JoinIndex = {
  join: JoinDef;
  /** Output columns: the source column's definition under the output name. */
  columns: ColumnDef[];
  byName: Map<string, ColumnDef>;
  aliases: { table: string; alias: string }[];
  plan: JoinPlan;
  output: [string, (v: unknown) => unknown][];
  /** What JWT users get: password columns (bcrypt hashes) never reach a browser, as on table reads. */
  userOutput: [string, (v: unknown) => unknown][];
};

const cache = new WeakMap<JoinDef, JoinIndex>();

/**
 * A joined table keyed on its id (or a unique column) adds at most one row per row before it, so its id
 * cannot break a tie and is left out of ORDER BY: the page then follows the base table's primary key.
 */
const matchesAtMostOne = (schema: DatabaseSchema, j: JoinDef["joins"][number]) =>
  j.on.some(([, own]) => {
    const column = resolveJoinRef(schema, own)?.column;
    return column !== undefined && (column.name === "id" || column.unique);
  });

export const indexJoin = (udb: UserDb, schema: DatabaseSchema, join: JoinDef): JoinIndex => {
  const cached = cache.get(join);
  if (cached) return cached;
  const aliases = [join.base, ...join.joins.map((j) => j.table)].map((table, i) => ({ table, alias: `t${i}` }));
  const aliasOf = new Map(aliases.map((a) => [a.table, a.alias]));
  const qualified = (ref: string) => sql.id(aliasOf.get(refTable(ref))!, refColumn(ref));
  const refs = new Map<ColumnDef, RawBuilder<unknown>>();
  const columns = join.columns.map(({ column, as }) => {
    const def: ColumnDef = { ...resolveJoinRef(schema, column)!.column, name: as };
    refs.set(def, qualified(column));
    return def;
  });
  const joined = join.joins.map(
    (j) => sql` INNER JOIN ${udb.table(j.table)} AS ${sql.id(aliasOf.get(j.table)!)} ON ${sql.join(j.on.map(([a, b]) => sql`${qualified(a)} = ${qualified(b)}`), sql` AND `)}`,
  );
  const index: JoinIndex = {
    join,
    columns,
    byName: new Map(columns.map((c) => [c.name, c])),
    aliases,
    plan: {
      select: sql.join(columns.map((c) => sql`${refs.get(c)!} AS ${sql.id(c.name)}`)),
      from: sql`${udb.table(join.base)} AS ${sql.id("t0")}${sql.join(joined, sql``)}`,
      ref: (c) => refs.get(c) ?? sql.id(c.name),
      tieBreak: [sql.id("t0", "id"), ...join.joins.filter((j) => !matchesAtMostOne(schema, j)).map((j) => sql.id(aliasOf.get(j.table)!, "id"))],
    },
    output: columns.map((c) => [c.name, (v: unknown) => TYPE_SPECS[c.type].toJson(v, c)]),
    userOutput: [],
  };
  index.userOutput = index.output.filter(([name]) => index.byName.get(name)!.type !== "password");
  cache.set(join, index);
  return index;
};

/** Row policies of every table in the join (RLS): one closed table closes the join. No caller = the owner. */
const policyPredicates = (index: JoinIndex, schema: DatabaseSchema, caller?: Caller) => {
  if (!caller) return [];
  const predicates: RawBuilder<unknown>[] = [];
  for (const { table, alias } of index.aliases) {
    const filter = rowFilter(caller, schema, table, "select", alias);
    if (filter === "deny") throw new ApiError("forbidden", `Table "${table}" in join "${index.join.name}" is not readable for you (no select policy).`);
    if (filter) predicates.push(filter);
  }
  return predicates;
};

/** GET /{join}: the same query grammar as a table read, over the join's output columns. */
export const listJoinRecords = async (
  udb: UserDb,
  schema: DatabaseSchema,
  join: JoinDef,
  params: URLSearchParams,
  options: { caller?: Caller; prefer?: string } = {},
): Promise<CoreResponse> => {
  const index = indexJoin(udb, schema, join);
  const query = parseReadQuery(params, index.byName);
  const extra = policyPredicates(index, schema, options.caller);
  const rows = await scanRows(udb, selectJoinPageSql(udb, index.plan, query, extra));
  const headers: Record<string, string> = {};
  if (options.prefer && /\bcount=exact\b/.test(options.prefer)) {
    const counted = await scanRows(udb, countJoinSql(udb, index.plan, query.filters, extra));
    headers["x-total-count"] = String(Number(counted[0]?.n ?? 0));
    headers["preference-applied"] = "count=exact";
  }
  const output = options.caller?.kind === "user" ? index.userOutput : index.output;
  const records = (rows as Record<string, unknown>[]).map((row) => {
    const record: Record<string, unknown> = {};
    for (const [name, toJson] of output) record[name] = toJson(row[name]);
    return record;
  });
  return json(200, records, headers);
};

/** A join path is a read-only collection: `/{join}/{id}` does not exist and only GET is served. */
export const serveJoin = async (
  udb: UserDb,
  schema: DatabaseSchema,
  join: JoinDef,
  req: { method: string; query: URLSearchParams; header: (name: string) => string | undefined },
  idText: string | undefined,
  caller?: Caller,
) => {
  if (idText !== undefined) throw notFound(`Join "${join.name}" has no /{id} path; filter it with query parameters instead.`);
  if (req.method !== "GET") throw methodNotAllowed(["GET"]);
  return listJoinRecords(udb, schema, join, req.query, { caller, prefer: req.header("prefer") });
};
