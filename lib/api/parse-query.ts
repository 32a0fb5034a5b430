import { ApiError, type FieldError, validationFailed } from "../errors";
import { type FilterOp, TYPE_SPECS } from "../schema/column-types";
import { MAX_OR_FILTERS, MAX_OR_GROUPS, splitFilterParam } from "../schema/filter-operators";
import { parseExpand, parseSelect } from "./parse-projection";
import type { ColumnDef } from "../schema/types";
import { choicesOf, isSecret } from "../schema/type-traits";

/** One `{column}[_op]=value` condition; `search`: the column's trigram index (lib/schema/search.ts), set by table reads of a searchable column. */
export type ColumnFilter = { column: ColumnDef; op: FilterOp; value: unknown; search?: string };
/** An `_or` group: its filters ORed together (ANDed, as one condition, with everything else). */
export type OrGroup = { or: ColumnFilter[] };
/** What a read's WHERE ANDs together: plain filters and `_or` groups. */
export type Filter = ColumnFilter | OrGroup;
export type Sort = { column: ColumnDef; desc: boolean };
/**
 * A parsed read. `select`: output column names (undefined = all); `expand`: reference columns to expand;
 * `after`: the `_after` cursor text (checked against the order when the page is planned).
 */
export type ReadQuery = { filters: Filter[]; sort: Sort[]; limit: number; offset: number; select?: Set<string>; expand?: ColumnDef[]; after?: string };

/**
 * `rows`: the collection-read parameters (_select, _expand, _after); off for aggregates, where they are unknown.
 * `limit`: the page size without `_limit` (DEFAULT_LIMIT unless said).
 */
export type ReadOptions = { rows?: boolean; limit?: number };

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 1000;

type Fail = (field: string, code: string, message: string) => void;

const splitParam = (key: string, columns: Map<string, ColumnDef>): [ColumnDef, FilterOp] | undefined => {
  const match = splitFilterParam(key, (name) => columns.has(name));
  return match && [columns.get(match.column)!, match.op];
};

const parseOne = (column: ColumnDef, raw: string): { value?: unknown; error?: string } => {
  const check = TYPE_SPECS[column.type].fromQuery(raw, column);
  if (!check.ok) return { error: check.message };
  const choices = choicesOf(column);
  if (choices && !choices.includes(raw)) return { error: `must be one of: ${choices.join(", ")}` };
  return { value: check.value };
};

const parseFilterValue = (column: ColumnDef, op: FilterOp, raw: string): { value?: unknown; error?: string } => {
  if (op === "null") return raw === "true" || raw === "false" ? { value: raw === "true" } : { error: "must be true or false" };
  if (op === "like" || op === "ilike") return raw === "" ? { error: "must not be empty" } : { value: raw };
  if (op !== "in") return parseOne(column, raw);
  const values: unknown[] = [];
  for (const item of raw.split(",")) {
    const one = parseOne(column, item);
    if (one.error) return { error: `"${item}" ${one.error}` };
    values.push(one.value);
  }
  return { value: values };
};

// Up to 15 digits: every such number is a safe integer, so `_offset=10000000` is a whole number like any other.
const parseWhole = (raw: string, min: number, max: number) => (/^\d{1,15}$/.test(raw) && +raw >= min && +raw <= max ? +raw : undefined);

/** One `{column}[_op]=value` filter; `field` is how a 422 names it (`price_lt`, or `_or[0].price_lt` inside a group). */
const parseFilter = (key: string, raw: string, columns: Map<string, ColumnDef>, field: string, fail: Fail): ColumnFilter | undefined => {
  const match = splitParam(key, columns);
  if (!match) {
    fail(field, key.startsWith("_") ? "unknown_parameter" : "unknown_column", `"${key}" is not a column of this table or a known parameter`);
    return undefined;
  }
  const [column, op] = match;
  if (!TYPE_SPECS[column.type].ops.includes(op)) {
    fail(field, "unsupported_filter", isSecret(column)
      ? `"${column.name}" is a password column (bcrypt hashes) and cannot be filtered`
      : `${column.type} columns do not support ${op === "eq" ? "exact match" : `_${op}`}`);
    return undefined;
  }
  const parsed = parseFilterValue(column, op, raw);
  if (parsed.error) {
    fail(field, "invalid_value", `${key} ${parsed.error}`);
    return undefined;
  }
  return { column, op, value: parsed.value };
};

/**
 * `_or=<query string>`: the inner string (URL-encoded once more) holds ordinary filters, ORed together. Only
 * filters: a parameter such as `_limit` or a nested `_or` inside a group is a 422 like any unknown column.
 */
const parseOrGroup = (raw: string, columns: Map<string, ColumnDef>, at: string, fail: Fail): OrGroup | undefined => {
  const entries = [...new URLSearchParams(raw)];
  if (!entries.length) return void fail(at, "empty_group", `${at} must hold at least one filter, e.g. _or=price_lt%3D10%26stock_eq%3D0`);
  if (entries.length > MAX_OR_FILTERS) return void fail(at, "too_many_filters", `${at} holds ${entries.length} filters; at most ${MAX_OR_FILTERS} are allowed in one group`);
  const or = entries.map(([key, value]) => parseFilter(key, value, columns, `${at}.${key}`, fail));
  return or.every((f) => f !== undefined) ? { or: or as ColumnFilter[] } : undefined;
};

/** Reads `_limit`, `_offset`, `_sort`, `{column}[_op]` filters and `_or` groups; every unknown or bad parameter is a 422. */
export const parseReadQuery = (params: URLSearchParams, columns: Map<string, ColumnDef>, { rows = true, limit = DEFAULT_LIMIT }: ReadOptions = {}): ReadQuery => {
  const query: ReadQuery = { filters: [], sort: [], limit, offset: 0, expand: [] };
  const errors: FieldError[] = [];
  const fail: Fail = (field, code, message) => void errors.push({ field, code, message });
  let orGroups = 0;
  for (const [key, raw] of params) {
    if (rows && key === "_select") query.select = parseSelect(raw, columns, fail);
    else if (rows && key === "_expand") query.expand = parseExpand(raw, columns, fail);
    else if (rows && key === "_after") {
      if (raw === "") fail(key, "invalid_cursor", "_after must be the cursor of this read's Link header");
      else query.after = raw;
    } else if (key === "_limit") {
      const n = parseWhole(raw, 1, MAX_LIMIT);
      if (n === undefined) fail(key, "out_of_range", `_limit must be a whole number from 1 to ${MAX_LIMIT}`);
      else query.limit = n;
    } else if (key === "_offset") {
      const n = parseWhole(raw, 0, Number.MAX_SAFE_INTEGER);
      if (n === undefined) fail(key, "out_of_range", "_offset must be a whole number of 0 or more");
      else query.offset = n;
    } else if (key === "_sort") {
      for (const item of raw.split(",")) {
        const desc = item.startsWith("-");
        const name = desc ? item.slice(1) : item;
        const column = columns.get(name);
        if (!column) fail(key, "unknown_column", `cannot sort by "${name}": no such column`);
        else if (TYPE_SPECS[column.type].sort === "none") fail(key, "not_sortable", `cannot sort by "${name}": ${column.type} columns are not sortable`);
        else query.sort.push({ column, desc });
      }
    } else if (key === "_or") {
      const group = parseOrGroup(raw, columns, `_or[${orGroups++}]`, fail);
      if (group) query.filters.push(group);
    } else {
      const filter = parseFilter(key, raw, columns, key, fail);
      if (filter) query.filters.push(filter);
    }
  }
  if (orGroups > MAX_OR_GROUPS) fail("_or", "too_many_groups", `at most ${MAX_OR_GROUPS} _or groups are allowed in one read (${orGroups} given)`);
  if (query.after !== undefined && params.has("_offset")) fail("_after", "conflicting_parameters", "_after and _offset cannot be combined; a cursor already says where the page starts");
  if (errors.length) throw validationFailed(errors);
  return query;
};

/**
 * A data API query string carried as one field of a management body (a saved view's `query`, test as user's):
 * read as a GET of the table would read it, with every problem named by that field.
 */
export const parseQueryField = (text: string, columns: Map<string, ColumnDef>, field: string, options?: ReadOptions): { query?: ReadQuery; errors: FieldError[] } => {
  try {
    return { query: parseReadQuery(new URLSearchParams(text.replace(/^\?/, "")), columns, options), errors: [] };
  } catch (err) {
    if (!(err instanceof ApiError) || !err.errors) throw err;
    return { errors: err.errors.map((e) => ({ field, code: e.code, message: `${field}: ${e.message}` })) };
  }
};
