// The one SQL builder of the data API: identifiers only through sql.id / udb.table, values only as bound
// parameters. Engine differences (case rules, LIKE) live here and nowhere else.
import { type RawBuilder, sql } from "kysely";
import type { UserDb } from "../db/engine";
import { TYPE_SPECS } from "../schema/column-types";
import type { ColumnDef } from "../schema/types";
import type { Filter, ReadQuery, Sort } from "./parse-query";

type Fragment = RawBuilder<unknown>;

/** How a filter or sort names its column: a bare name on a table read, an alias-qualified one in a join. */
export type ColumnRef = (column: ColumnDef) => Fragment;
const byName: ColumnRef = (column) => sql.id(column.name);

const escapeLike = (value: string) => `%${value.replace(/[!%_]/g, (c) => `!${c}`)}%`;

/**
 * MariaDB/MySQL PAD SPACE collations (utf8mb4_bin included) ignore trailing spaces in `=` and `IN`, so
 * `name=pad` would also match "pad ". Exact match is exact: text columns add a byte-wise (BINARY) check,
 * keeping the plain comparison first so an index on the column still serves it.
 */
const exactText = (udb: UserDb, column: ColumnDef) => udb.engine === "mysql" && TYPE_SPECS[column.type].sort === "text";

const equals = (udb: UserDb, column: ColumnDef, col: Fragment, value: unknown) =>
  exactText(udb, column) ? sql`(${col} = ${value} AND BINARY ${col} = ${value})` : sql`${col} = ${value}`;

const condition = (udb: UserDb, { column, op, value }: Filter, ref: ColumnRef): Fragment => {
  const col = ref(column);
  switch (op) {
    case "eq":
      return equals(udb, column, col, value);
    // NOT of a NULL comparison is NULL, so rows holding NULL stay out (SQL `<>`, PostgREST `neq`).
    case "ne":
      return sql`NOT (${equals(udb, column, col, value)})`;
    case "gt":
      return sql`${col} > ${value}`;
    case "gte":
      return sql`${col} >= ${value}`;
    case "lt":
      return sql`${col} < ${value}`;
    case "lte":
      return sql`${col} <= ${value}`;
    case "in":
      return exactText(udb, column)
        ? sql`(${col} IN (${sql.join(value as unknown[])}) AND BINARY ${col} IN (${sql.join(value as unknown[])}))`
        : sql`${col} IN (${sql.join(value as unknown[])})`;
    case "null":
      return value ? sql`${col} IS NULL` : sql`${col} IS NOT NULL`;
    // Substring matches: `%` and `_` in the value are literal. MySQL user schemas use utf8mb4_bin, so LIKE is
    // case-sensitive there; SQLite's LIKE is not, so it uses instr().
    case "like":
      return udb.engine === "mysql" ? sql`${col} LIKE ${escapeLike(String(value))} ESCAPE '!'` : sql`instr(${col}, ${value}) > 0`;
    case "ilike":
      return udb.engine === "mysql"
        ? sql`LOWER(${col}) LIKE LOWER(${escapeLike(String(value))}) ESCAPE '!'`
        : /^[\x00-\x7f]*$/.test(String(value))
          ? sql`instr(lower(${col}), lower(${value})) > 0`
          : sql`instr(unicode_lower(${col}), ${String(value).toLowerCase()}) > 0`;
  }
};

/** WHERE clause from the filters ANDed with the extra predicates (row policies, from the plan stage). */
export const whereSql = (udb: UserDb, filters: Filter[], extra: Fragment[] = [], ref: ColumnRef = byName): Fragment => {
  const parts = [...filters.map((f) => condition(udb, f, ref)), ...extra];
  return parts.length ? sql` WHERE ${sql.join(parts, sql` AND `)}` : sql``;
};

/** Text sorts case-insensitively on both engines; a dropdown sorts by its text, not MySQL's enum index. */
const sortKey = (udb: UserDb, column: ColumnDef, ref: ColumnRef): Fragment => {
  const col = ref(column);
  const kind = TYPE_SPECS[column.type].sort;
  // SQLite sorts by upper() because utf8mb4_general_ci weighs letters as capitals: "a_b" then sorts after
  // "apple" on both engines ("_" lies between "Z" and "a").
  if (kind === "text") return udb.engine === "mysql" ? sql`${col} COLLATE utf8mb4_general_ci` : sql`upper(${col})`;
  if (kind === "enum") return udb.engine === "mysql" ? sql`CAST(${col} AS CHAR) COLLATE utf8mb4_general_ci` : sql`upper(${col})`;
  return col;
};

/** ORDER BY the requested columns, always ending with id so pages are stable. */
export const orderSql = (udb: UserDb, sort: Sort[], ref: ColumnRef = byName, tieBreak?: Fragment[]): Fragment => {
  const parts = sort.map((s) => sql`${sortKey(udb, s.column, ref)} ${sql.raw(s.desc ? "DESC" : "ASC")}`);
  if (tieBreak) parts.push(...tieBreak.map((t) => sql`${t} ASC`));
  else if (!sort.some((s) => s.column.name === "id")) parts.push(sql`${sql.id("id")} ASC`);
  return sql` ORDER BY ${sql.join(parts)}`;
};

/**
 * A join read as the SQL builder sees it: the select list, `base AS t0 INNER JOIN … AS t1 ON …`, how output
 * columns map to qualified source columns, and the ids (t0.id, t1.id, …) that make every page stable.
 */
export type JoinPlan = { select: Fragment; from: Fragment; ref: ColumnRef; tieBreak: Fragment[] };

export const selectJoinPageSql = (udb: UserDb, plan: JoinPlan, q: ReadQuery, extra: Fragment[] = []) =>
  sql`SELECT ${plan.select} FROM ${plan.from}${whereSql(udb, q.filters, extra, plan.ref)}${orderSql(udb, q.sort, plan.ref, plan.tieBreak)} LIMIT ${q.limit} OFFSET ${q.offset}`;

export const countJoinSql = (udb: UserDb, plan: JoinPlan, filters: Filter[], extra: Fragment[] = []) =>
  sql<{ n: number }>`SELECT COUNT(*) AS n FROM ${plan.from}${whereSql(udb, filters, extra, plan.ref)}`;

const columnList = (columns: ColumnDef[]) => sql.join(columns.map((c) => sql.id(c.name)));

export const selectPageSql = (udb: UserDb, table: string, columns: ColumnDef[], q: ReadQuery, extra: Fragment[] = []) =>
  sql`SELECT ${columnList(columns)} FROM ${udb.table(table)}${whereSql(udb, q.filters, extra)}${orderSql(udb, q.sort)} LIMIT ${q.limit} OFFSET ${q.offset}`;

export const countSql = (udb: UserDb, table: string, filters: Filter[], extra: Fragment[] = []) =>
  sql<{ n: number }>`SELECT COUNT(*) AS n FROM ${udb.table(table)}${whereSql(udb, filters, extra)}`;

/** `extra`: row-policy predicates ANDed after the id match (a hidden row reads as absent). */
const andExtra = (extra: Fragment[]) => (extra.length ? sql` AND ${sql.join(extra, sql` AND `)}` : sql``);

export const selectByIdSql = (udb: UserDb, table: string, columns: ColumnDef[], id: number, extra: Fragment[] = []) =>
  sql`SELECT ${columnList(columns)} FROM ${udb.table(table)} WHERE ${sql.id("id")} = ${id}${andExtra(extra)}`;

export const selectByIdsSql = (udb: UserDb, table: string, columns: ColumnDef[], ids: number[]) =>
  sql`SELECT ${columnList(columns)} FROM ${udb.table(table)} WHERE ${sql.id("id")} IN (${sql.join(ids)}) ORDER BY ${sql.id("id")}`;

export const insertSql = (udb: UserDb, table: string, values: Record<string, unknown>) => {
  const names = Object.keys(values);
  return sql`INSERT INTO ${udb.table(table)} (${sql.join(names.map((n) => sql.id(n)))}) VALUES (${sql.join(names.map((n) => values[n]))})`;
};

export const updateSql = (udb: UserDb, table: string, id: number, values: Record<string, unknown>, extra: Fragment[] = []) => {
  const sets = Object.entries(values).map(([n, v]) => sql`${sql.id(n)} = ${v}`);
  return sql`UPDATE ${udb.table(table)} SET ${sql.join(sets)} WHERE ${sql.id("id")} = ${id}${andExtra(extra)}`;
};

export const deleteSql = (udb: UserDb, table: string, id: number, extra: Fragment[] = []) =>
  sql`DELETE FROM ${udb.table(table)} WHERE ${sql.id("id")} = ${id}${andExtra(extra)}`;

/** Ids among `ids` that exist in `table` and meet `extra` (reference checks, row-policy checks after a write). */
export const existingIdsSql = (udb: UserDb, table: string, ids: number[], extra: Fragment[] = []) =>
  sql<{ id: number }>`SELECT ${sql.id("id")} FROM ${udb.table(table)} WHERE ${sql.id("id")} IN (${sql.join(ids)})${andExtra(extra)}`;
