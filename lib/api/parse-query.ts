import { type FieldError, validationFailed } from "../errors";
import { type FilterOp, TYPE_SPECS } from "../schema/column-types";
import { splitFilterParam } from "../schema/filter-operators";
import { parseExpand, parseSelect } from "./parse-projection";
import type { ColumnDef } from "../schema/types";

/** `search`: the column's trigram index (lib/schema/search.ts), set by table reads of a searchable column. */
export type Filter = { column: ColumnDef; op: FilterOp; value: unknown; search?: string };
export type Sort = { column: ColumnDef; desc: boolean };
/**
 * A parsed read. `select`: output column names (undefined = all); `expand`: reference columns to expand;
 * `after`: the `_after` cursor text (checked against the order when the page is planned).
 */
export type ReadQuery = { filters: Filter[]; sort: Sort[]; limit: number; offset: number; select?: Set<string>; expand?: ColumnDef[]; after?: string };

/** `rows`: the collection-read parameters (_select, _expand, _after); off for aggregates, where they are unknown. */
export type ReadOptions = { rows?: boolean };

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 1000;

const splitParam = (key: string, columns: Map<string, ColumnDef>): [ColumnDef, FilterOp] | undefined => {
  const match = splitFilterParam(key, (name) => columns.has(name));
  return match && [columns.get(match.column)!, match.op];
};

const parseOne = (column: ColumnDef, raw: string): { value?: unknown; error?: string } => {
  const check = TYPE_SPECS[column.type].fromQuery(raw, column);
  if (!check.ok) return { error: check.message };
  if (column.type === "dropdown" && !(column.options ?? []).includes(raw)) {
    return { error: `must be one of: ${(column.options ?? []).join(", ")}` };
  }
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

/** Reads `_limit`, `_offset`, `_sort` and `{column}[_op]` filters; every unknown or bad parameter is a 422. */
export const parseReadQuery = (params: URLSearchParams, columns: Map<string, ColumnDef>, { rows = true }: ReadOptions = {}): ReadQuery => {
  const query: ReadQuery = { filters: [], sort: [], limit: DEFAULT_LIMIT, offset: 0, expand: [] };
  const errors: FieldError[] = [];
  const fail = (field: string, code: string, message: string) => void errors.push({ field, code, message });
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
    } else {
      const match = splitParam(key, columns);
      if (!match) {
        fail(key, key.startsWith("_") ? "unknown_parameter" : "unknown_column", `"${key}" is not a column of this table or a known parameter`);
        continue;
      }
      const [column, op] = match;
      if (!TYPE_SPECS[column.type].ops.includes(op)) {
        fail(key, "unsupported_filter", column.type === "password"
          ? `"${column.name}" is a password column (bcrypt hashes) and cannot be filtered`
          : `${column.type} columns do not support ${op === "eq" ? "exact match" : `_${op}`}`);
        continue;
      }
      const parsed = parseFilterValue(column, op, raw);
      if (parsed.error) fail(key, "invalid_value", `${key} ${parsed.error}`);
      else query.filters.push({ column, op, value: parsed.value });
    }
  }
  if (query.after !== undefined && params.has("_offset")) fail("_after", "conflicting_parameters", "_after and _offset cannot be combined; a cursor already says where the page starts");
  if (errors.length) throw validationFailed(errors);
  return query;
};
