import { ApiError, type FieldError, validationFailed } from "../errors";
import { TYPE_SPECS } from "../schema/column-types";
import { isNumeric } from "../schema/type-traits";
import type { ColumnDef } from "../schema/types";
import { type Filter, parseReadQuery } from "./parse-query";

const AGG_FUNCTIONS = ["count", "sum", "avg", "min", "max", "count_distinct"] as const;
export type AggFunction = (typeof AGG_FUNCTIONS)[number];

/** One output value: `count` (rows), or `fn_column` of a column. */
export type Aggregate = { fn: AggFunction; column?: ColumnDef; name: string };
export type AggregateSort = { name: string; desc: boolean };
export type AggregateQuery = { filters: Filter[]; group: ColumnDef[]; aggregates: Aggregate[]; sort: AggregateSort[]; limit: number; offset: number };

export const MAX_GROUP = 5;
export const MAX_AGGREGATES = 20;

/** Which columns a function takes: sums and averages numbers; min and max anything sortable; counts anything comparable. */
const accepts = (fn: AggFunction, column: ColumnDef): string | undefined => {
  if ((fn === "sum" || fn === "avg") && !isNumeric(column)) return `${fn} needs a number column (${column.name} is ${column.type})`;
  if (TYPE_SPECS[column.type].sort === "none") return `${column.type} columns cannot be aggregated`;
  return undefined;
};

const readAggregate = (item: string, columns: Map<string, ColumnDef>): Aggregate | string => {
  const [fn, name, ...rest] = item.split(":");
  if (!AGG_FUNCTIONS.includes(fn as AggFunction) || rest.length) return `"${item}" is not one of ${AGG_FUNCTIONS.join(", ")} (as fn or fn:column)`;
  if (name === undefined) return fn === "count" ? { fn: "count", name: "count" } : `${fn} needs a column, e.g. ${fn}:price`;
  const column = columns.get(name);
  if (!column) return `cannot aggregate "${name}": no such column`;
  return accepts(fn as AggFunction, column) ?? { fn: fn as AggFunction, column, name: `${fn}_${name}` };
};

/**
 * `GET /{table}/_aggregate`: `_group=a,b`, `_agg=count,sum:c,…` (default `count`), `_sort` over group and
 * aggregate names, plus the filters, `_limit` and `_offset` of reads. Every problem is listed in one 422.
 */
export const parseAggregateQuery = (params: URLSearchParams, columns: Map<string, ColumnDef>): AggregateQuery => {
  const errors: FieldError[] = [];
  const fail = (field: string, code: string, message: string) => void errors.push({ field, code, message });
  const group: ColumnDef[] = [];
  for (const name of (params.get("_group") ?? "").split(",").filter((n, i, all) => n !== "" || all.length > 1)) {
    const column = columns.get(name);
    if (!column) fail("_group", "unknown_column", `cannot group by "${name}": no such column`);
    else if (TYPE_SPECS[column.type].sort === "none") fail("_group", "not_groupable", `cannot group by "${name}": ${column.type} columns are not groupable`);
    else if (!group.includes(column)) group.push(column);
  }
  if (group.length > MAX_GROUP) fail("_group", "too_many", `_group takes at most ${MAX_GROUP} columns`);
  const aggregates: Aggregate[] = [];
  for (const item of (params.get("_agg") ?? "count").split(",")) {
    const read = readAggregate(item, columns);
    if (typeof read === "string") fail("_agg", "invalid_aggregate", read);
    else if (group.some((g) => g.name === read.name)) fail("_agg", "duplicate_name", `"${read.name}" is also a _group column; rename the column or drop the aggregate`);
    else if (!aggregates.some((a) => a.name === read.name)) aggregates.push(read);
  }
  if (aggregates.length > MAX_AGGREGATES) fail("_agg", "too_many", `_agg takes at most ${MAX_AGGREGATES} aggregates`);
  const names = new Set([...group.map((g) => g.name), ...aggregates.map((a) => a.name)]);
  const sort: AggregateSort[] = [];
  for (const item of params.get("_sort")?.split(",") ?? []) {
    const desc = item.startsWith("-");
    const name = desc ? item.slice(1) : item;
    if (!names.has(name)) fail("_sort", "unknown_column", `cannot sort by "${name}": sort by a _group column or an _agg name (${[...names].join(", ")})`);
    else sort.push({ name, desc });
  }
  for (const key of ["_group", "_agg", "_sort"]) if (params.getAll(key).length > 1) fail(key, "duplicate_parameter", `${key} may be given once`);
  const rest = new URLSearchParams([...params].filter(([key]) => !["_group", "_agg", "_sort"].includes(key)));
  let read = { filters: [] as Filter[], limit: 0, offset: 0 };
  try {
    read = parseReadQuery(rest, columns, { rows: false });
  } catch (err) {
    if (!(err instanceof ApiError) || !err.errors) throw err;
    errors.push(...err.errors);
  }
  if (errors.length) throw validationFailed(errors);
  return { filters: read.filters, group, aggregates, sort, limit: read.limit, offset: read.offset };
};
