// The one SQL builder of the data API: identifiers only through sql.id / udb.table, values only as bound
// parameters. Engine differences (case rules, LIKE) live here and nowhere else.
import { CompiledQuery, type RawBuilder, sql } from "kysely";
import type { UserDb } from "../db/engine";
import { TYPE_SPECS } from "../schema/column-types";
import { SEARCH_MIN_CHARS } from "../schema/search";
import type { ColumnDef } from "../schema/types";
import type { ColumnFilter, Filter, ReadQuery, Sort } from "./parse-query";
import type { TableIndex } from "./table-index";

type Fragment = RawBuilder<unknown>;

// Distinct statement shapes kept per table; past this (a client varying `_in` lengths, say) they are built each time.
const MAX_SHAPES = 100;

/**
 * A statement whose text depends only on `shape`: compiled once per table definition, then bound to `params`
 * (the values it binds, in order), so the hot path skips query building and reuses the prepared statement.
 */
export const compiledByShape = (udb: UserDb, index: TableIndex, shape: string, build: () => RawBuilder<unknown>, params: unknown[]): CompiledQuery => {
  let compiled = index.sqlText.get(shape);
  if (!compiled) {
    compiled = CompiledQuery.raw(build().compile(udb.db).sql);
    if (index.sqlText.size < MAX_SHAPES) index.sqlText.set(shape, compiled);
  }
  // The statement's text, node and id are shared by every use of the shape; only the values are this call's.
  return { sql: compiled.sql, query: compiled.query, parameters: params, queryId: compiled.queryId };
};

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

// SQLite refuses LIKE patterns over 50,000 bytes (SQLITE_MAX_LIKE_PATTERN_LENGTH) and stops one at a NUL.
const LIKE_PATTERN_MAX = 50_000;

/**
 * How SQLite runs an `_ilike`. Its LIKE folds ASCII letters and compares every other character exactly, which is
 * what `lower()` on both sides did, so a pure-ASCII value (no NUL) is a LIKE with no function per row: "plain" when
 * the value holds none of `%`, `_` and the escape character (the pattern is then the value between two `%`, and
 * LIKE without ESCAPE scans about 4% faster), "like" with ESCAPE otherwise. Other text goes through the
 * Unicode-aware `unicode_lower`.
 */
const sqliteIlike = (value: string) =>
  /[^\x01-\x7f]/.test(value) ? "unicode"
  : value.includes("\x00") || escapeLike(value).length > LIKE_PATTERN_MAX ? "lower"
  : /[!%_]/.test(value) ? "like"
  : "plain";

/** Whether an `_ilike` value runs as SQLite's own LIKE (ASCII folding), with or without ESCAPE. */
const sqliteLikeMode = (mode: ReturnType<typeof sqliteIlike>) => mode === "like" || mode === "plain";

/**
 * Whether a `_like`/`_ilike` asks the column's trigram index (`search`, SQLite) for candidate rows, which the
 * scan's own predicate then rechecks. The index must find every row the scan would: the value needs 3 code points
 * and no NUL, and an `_ilike` pure ASCII (the index folds case by its own Unicode tables, LIKE folds only ASCII
 * letters; other text folds through `unicode_lower` and scans).
 */
const usesSearch = (udb: UserDb, { op, value, search }: ColumnFilter) => {
  if (udb.engine !== "sqlite" || search === undefined || (op !== "like" && op !== "ilike")) return false;
  const text = String(value);
  return [...text].length >= SEARCH_MIN_CHARS && !text.includes("\x00") && (op === "like" || sqliteLikeMode(sqliteIlike(text)));
};

/** The value as one FTS5 phrase: the trigrams of the whole text, in order. */
const searchPhrase = (value: unknown) => `"${String(value).replaceAll('"', '""')}"`;

/**
 * A table page in `id` order with a top-level `_like`/`_ilike` that uses a trigram index reads that index as its
 * driving table: `(SELECT rowid AS __sid FROM <index> WHERE <index> MATCH …) AS __s JOIN <table> ON id = __s.__sid`,
 * ordered by `__s.__sid`. SQLite then walks the index's matches in rowid order and stops at the page's LIMIT, where
 * `id IN (SELECT rowid …)` collects every match first (a common value: all of them). The filter keeps its recheck
 * in WHERE; `id` is read as `__s.__sid` (equal by the join), so ORDER BY, `_after` and `id` filters use the
 * index's rowid. `at` is the filter's position (it names the statement's shape); `phrase` binds first.
 */
export const searchDrivenPage = (udb: UserDb, table: string, query: ReadQuery) => {
  if (query.sort.some((s) => s.column.name !== "id")) return undefined;
  const at = query.filters.findIndex((f) => !("or" in f) && usesSearch(udb, f));
  if (at === -1) return undefined;
  const driving = query.filters[at] as ColumnFilter;
  const fts = sql.id(driving.search!);
  const sid = sql.id("__s", "__sid");
  const phrase = searchPhrase(driving.value);
  return {
    at,
    phrase,
    query: { ...query, filters: query.filters.map((f, i) => (i === at ? { ...driving, search: undefined } : f)) },
    from: sql`(SELECT rowid AS ${sql.id("__sid")} FROM ${fts} WHERE ${fts} MATCH ${phrase}) AS ${sql.id("__s")} INNER JOIN ${udb.table(table)} ON ${sql.id("id")} = ${sid}`,
    ref: (c: ColumnDef) => (c.name === "id" ? sid : sql.id(c.name)),
    tieBreak: [sid],
  };
};

/**
 * What a filter binds, in the order its SQL names them. `conditionSql` builds the SQL from these values, so a
 * statement compiled once per shape (see `filterShape`) can run again with another request's values.
 */
export const filterParams = (udb: UserDb, filter: Filter): unknown[] =>
  "or" in filter ? filter.or.flatMap((f) => columnFilterParams(udb, f)) : columnFilterParams(udb, filter);

const columnFilterParams = (udb: UserDb, filter: ColumnFilter): unknown[] =>
  usesSearch(udb, filter) ? [searchPhrase(filter.value), ...predicateParams(udb, filter)] : predicateParams(udb, filter);

const predicateParams = (udb: UserDb, { column, op, value }: ColumnFilter): unknown[] => {
  switch (op) {
    case "eq":
    case "ne":
      return exactText(udb, column) ? [value, value] : [value];
    case "in":
      return exactText(udb, column) ? [...(value as unknown[]), ...(value as unknown[])] : (value as unknown[]);
    case "null":
      return [];
    case "like":
      return [udb.engine === "mysql" ? escapeLike(String(value)) : value];
    case "ilike": {
      const text = String(value);
      if (udb.engine === "mysql") return [escapeLike(text)];
      const mode = sqliteIlike(text);
      return [sqliteLikeMode(mode) ? escapeLike(text) : mode === "unicode" ? text.toLowerCase() : text];
    }
    default:
      return [value];
  }
};

/** Everything about a filter that changes its SQL text (not its values). */
const filterShape = (udb: UserDb, filter: Filter): string =>
  "or" in filter ? `or(${filter.or.map((f) => columnFilterShape(udb, f)).join("|")})` : columnFilterShape(udb, filter);

const columnFilterShape = (udb: UserDb, filter: ColumnFilter) => `${predicateShape(udb, filter)}${usesSearch(udb, filter) ? ":search" : ""}`;

const predicateShape = (udb: UserDb, { column, op, value }: ColumnFilter) =>
  op === "in" ? `${column.name}:in:${(value as unknown[]).length}`
  : op === "null" ? `${column.name}:null:${value}`
  : op === "ilike" && udb.engine === "sqlite" ? `${column.name}:ilike:${sqliteIlike(String(value))}`
  : `${column.name}:${op}`;

const equals = (udb: UserDb, column: ColumnDef, col: Fragment, p: unknown[]) =>
  exactText(udb, column) ? sql`(${col} = ${p[0]} AND BINARY ${col} = ${p[1]})` : sql`${col} = ${p[0]}`;

const conditionSql = (udb: UserDb, filter: ColumnFilter, col: Fragment, p: unknown[]): Fragment => {
  const { column, op, value } = filter;
  switch (op) {
    case "eq":
      return equals(udb, column, col, p);
    // NOT of a NULL comparison is NULL, so rows holding NULL stay out (SQL `<>`, PostgREST `neq`).
    case "ne":
      return sql`NOT (${equals(udb, column, col, p)})`;
    case "gt":
      return sql`${col} > ${p[0]}`;
    case "gte":
      return sql`${col} >= ${p[0]}`;
    case "lt":
      return sql`${col} < ${p[0]}`;
    case "lte":
      return sql`${col} <= ${p[0]}`;
    case "in": {
      if (!exactText(udb, column)) return sql`${col} IN (${sql.join(p)})`;
      const half = p.length / 2;
      return sql`(${col} IN (${sql.join(p.slice(0, half))}) AND BINARY ${col} IN (${sql.join(p.slice(half))}))`;
    }
    case "null":
      return value ? sql`${col} IS NULL` : sql`${col} IS NOT NULL`;
    // Substring matches: `%` and `_` in the value are literal. MySQL user schemas use utf8mb4_bin, so LIKE is
    // case-sensitive there; SQLite's LIKE is not, so `_like` uses instr() (byte-exact, no folding).
    case "like":
      return udb.engine === "mysql" ? sql`${col} LIKE ${p[0]} ESCAPE '!'` : sql`instr(${col}, ${p[0]}) > 0`;
    // MariaDB's case-insensitive collations fold more than case (general_ci: "é" = "e"; uca1400_as_ci: a
    // full-width "ａ" = "a"), so a collation-aware LIKE would change the answer: it keeps LOWER() on both sides.
    case "ilike": {
      if (udb.engine === "mysql") return sql`LOWER(${col}) LIKE LOWER(${p[0]}) ESCAPE '!'`;
      const mode = sqliteIlike(String(value));
      if (mode === "plain") return sql`${col} LIKE ${p[0]}`;
      if (mode === "like") return sql`${col} LIKE ${p[0]} ESCAPE '!'`;
      return mode === "lower" ? sql`instr(lower(${col}), lower(${p[0]})) > 0` : sql`instr(unicode_lower(${col}), ${p[0]}) > 0`;
    }
  }
};

const columnCondition = (udb: UserDb, filter: ColumnFilter, ref: ColumnRef): Fragment => {
  const p = columnFilterParams(udb, filter);
  if (!usesSearch(udb, filter)) return conditionSql(udb, filter, ref(filter.column), p);
  const fts = sql.id(filter.search!);
  return sql`(${sql.id("id")} IN (SELECT rowid FROM ${fts} WHERE ${fts} MATCH ${p[0]}) AND ${conditionSql(udb, filter, ref(filter.column), p.slice(1))})`;
};

/**
 * An `_or` group is one parenthesised condition ANDed with the rest, so it narrows the read like any filter and
 * never widens what a row policy (ANDed after it) lets through.
 */
const condition = (udb: UserDb, filter: Filter, ref: ColumnRef): Fragment =>
  "or" in filter ? sql`(${sql.join(filter.or.map((f) => columnCondition(udb, f, ref)), sql` OR `)})` : columnCondition(udb, filter, ref);

/** WHERE clause from the filters ANDed with the extra predicates (row policies, from the plan stage). */
export const whereSql = (udb: UserDb, filters: Filter[], extra: Fragment[] = [], ref: ColumnRef = byName): Fragment => {
  const parts = [...filters.map((f) => condition(udb, f, ref)), ...extra];
  return parts.length ? sql` WHERE ${sql.join(parts, sql` AND `)}` : sql``;
};

// MySQL sorts by a key's first 1,024 bytes (2 a character here): text that may be longer sorts by its first 500
// characters, in ORDER BY and in a cursor's keyset alike, so the two agree; rows alike that far follow by id.
const MYSQL_SORT_CHARACTERS = 500;

/** MySQL's text sort key of `value` (a column, or a bound value converted to utf8mb4) for `column`'s type. */
export const mysqlTextKey = (column: ColumnDef, value: Fragment): Fragment =>
  column.type === "text" || (column.type === "varchar" && (column.length ?? 255) > MYSQL_SORT_CHARACTERS)
    ? sql`LEFT(${value}, ${sql.lit(MYSQL_SORT_CHARACTERS)}) COLLATE utf8mb4_general_ci`
    : sql`${value} COLLATE utf8mb4_general_ci`;

/** Text sorts case-insensitively on both engines; a dropdown sorts by its text, not MySQL's enum index. */
export const sortKey = (udb: UserDb, column: ColumnDef, ref: ColumnRef): Fragment => {
  const col = ref(column);
  const kind = TYPE_SPECS[column.type].sort;
  // SQLite sorts by upper() because utf8mb4_general_ci weighs letters as capitals: "a_b" then sorts after
  // "apple" on both engines ("_" lies between "Z" and "a").
  if (kind === "text") return udb.engine === "mysql" ? mysqlTextKey(column, col) : sql`upper(${col})`;
  if (kind === "enum") return udb.engine === "mysql" ? sql`CAST(${col} AS CHAR) COLLATE utf8mb4_general_ci` : sql`upper(${col})`;
  return col;
};

/** One ORDER BY term: the column as stored (`expr`, what a cursor records), what is compared (`key`), its direction. */
export type OrderKey = { expr: Fragment; key: Fragment; desc: boolean; column?: ColumnDef };

/** The page order: the requested columns, then the tie-breaking ids (the table's id unless sorted by it). */
export const orderKeys = (udb: UserDb, sort: Sort[], ref: ColumnRef = byName, tieBreak?: Fragment[]): OrderKey[] => {
  const keys: OrderKey[] = sort.map((s) => ({ expr: ref(s.column), key: sortKey(udb, s.column, ref), desc: s.desc, column: s.column }));
  const ties = tieBreak ?? (sort.some((s) => s.column.name === "id") ? [] : [sql.id("id")]);
  return [...keys, ...ties.map((t) => ({ expr: t, key: t, desc: false }))];
};

/** ORDER BY the requested columns, always ending with id so pages are stable. */
const orderSql = (udb: UserDb, sort: Sort[], ref: ColumnRef = byName, tieBreak?: Fragment[]): Fragment =>
  orderByKeys(orderKeys(udb, sort, ref, tieBreak));

const orderByKeys = (keys: OrderKey[]): Fragment =>
  sql` ORDER BY ${sql.join(keys.map((k) => sql`${k.key} ${sql.raw(k.desc ? "DESC" : "ASC")}`))}`;

/**
 * A join read as the SQL builder sees it: the select list, `base AS t0 INNER JOIN … AS t1 ON …`, how output
 * columns map to qualified source columns, and the ids (t0.id, t1.id, …) that make every page stable.
 */
export type JoinPlan = { select: Fragment; from: Fragment; ref: ColumnRef; tieBreak: Fragment[] };

/**
 * A page of rows: `select` (the output columns), `keys` (the order, each also selected as `_k0`, `_k1`, … so the
 * last row gives the next cursor), `after` (the keyset predicate of `_after`, ANDed like a filter).
 */
export type PageSpec = { select: Fragment; from: Fragment; where: Fragment; keys: OrderKey[]; limit: number; offset: number };

export const pageSql = ({ select, from, where, keys, limit, offset }: PageSpec) => {
  const keyList = keys.map((k, i) => sql`${k.expr} AS ${sql.id(`_k${i}`)}`);
  return sql`SELECT ${sql.join([select, ...keyList])} FROM ${from}${where}${orderByKeys(keys)} LIMIT ${limit} OFFSET ${offset}`;
};

export const countJoinSql = (udb: UserDb, plan: JoinPlan, filters: Filter[], extra: Fragment[] = []) =>
  sql<{ n: number }>`SELECT COUNT(*) AS n FROM ${plan.from}${whereSql(udb, filters, extra, plan.ref)}`;

export const columnList = (columns: ColumnDef[]) => sql.join(columns.map((c) => sql.id(c.name)));

export const selectPageSql = (udb: UserDb, table: string, columns: ColumnDef[], q: ReadQuery, extra: Fragment[] = []) =>
  sql`SELECT ${columnList(columns)} FROM ${udb.table(table)}${whereSql(udb, q.filters, extra)}${orderSql(udb, q.sort)} LIMIT ${q.limit} OFFSET ${q.offset}`;

/** What makes a page's SQL text differ between requests: its filters' shapes and its sort (values are bound). */
export const pageShape = (udb: UserDb, q: ReadQuery) =>
  `page|${q.filters.map((f) => filterShape(udb, f)).join("&")}|${q.sort.map((s) => `${s.desc ? "-" : ""}${s.column.name}`).join(",")}`;

/** The values `selectPageSql` binds, in order, without building it. */
export const pageParams = (udb: UserDb, q: ReadQuery) => [...q.filters.flatMap((f) => filterParams(udb, f)), q.limit, q.offset];

export const countSql = (udb: UserDb, table: string, filters: Filter[], extra: Fragment[] = []) =>
  sql<{ n: number }>`SELECT COUNT(*) AS n FROM ${udb.table(table)}${whereSql(udb, filters, extra)}`;

/** `extra`: row-policy predicates ANDed after the id match (a hidden row reads as absent). */
const andExtra = (extra: Fragment[]) => (extra.length ? sql` AND ${sql.join(extra, sql` AND `)}` : sql``);

/** `lock`: FOR UPDATE on MySQL, so a write's read of its row holds it to COMMIT (SQLite's BEGIN IMMEDIATE already does). */
export const selectByIdSql = (udb: UserDb, table: string, columns: ColumnDef[], id: number, extra: Fragment[] = [], lock = false) =>
  sql`SELECT ${columnList(columns)} FROM ${udb.table(table)} WHERE ${sql.id("id")} = ${id}${andExtra(extra)}${sql.raw(lock && udb.engine === "mysql" ? " FOR UPDATE" : "")}`;

export const selectByIdsSql = (udb: UserDb, table: string, columns: ColumnDef[], ids: number[], extra: Fragment[] = []) =>
  sql`SELECT ${columnList(columns)} FROM ${udb.table(table)} WHERE ${sql.id("id")} IN (${sql.join(ids)})${andExtra(extra)} ORDER BY ${sql.id("id")}`;

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
