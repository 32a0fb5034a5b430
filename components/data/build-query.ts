import { TYPE_SPECS } from "@/lib/schema/column-types";
import { FILTER_OPERATORS, type FilterOp, filterParamName, splitFilterParam } from "@/lib/schema/filter-operators";
import type { Column, Table } from "../api/types";
import { draftKey } from "../schema/column-draft";
import { isSecret } from "@/lib/schema/type-traits";

export type Operator = FilterOp;
export type Filter = { key: string; column: string; op: Operator; value: string };
export type Sort = { column: string; desc: boolean };
/** An OR group (`_or=` in the data API): any of its filters matches. */
export type FilterGroup = { key: string; filters: Filter[] };
/** `search`: the quick search's group (quick-search.tsx), sent like the others but kept apart from the builder's. */
export type RecordsQuery = { filters: Filter[]; groups: FilterGroup[]; sorts: Sort[]; limit: number; offset: number; search?: FilterGroup };

export const PAGE_SIZES = [10, 25, 50, 100];
export const EMPTY_QUERY: RecordsQuery = { filters: [], groups: [], sorts: [], limit: 25, offset: 0 };

/** How many conditions the query applies: plain filters and OR groups (each group counts once). */
export const filterCount = (q: RecordsQuery) => q.filters.length + q.groups.length;

export type QueryColumn = Pick<Column, "name" | "type" | "options" | "references">;

/** Columns the API lets you filter and sort on: automatic ones and every non-password column. */
export const queryableColumns = (table: Table): QueryColumn[] => [
  { name: "id", type: "bigint" },
  ...table.columns.filter((c) => !isSecret(c)),
  { name: "created_at", type: "datetime" },
  { name: "updated_at", type: "datetime" },
];

/** The operators the API accepts on a column of this type, in the grammar's order. */
export const operatorsFor = (type: Column["type"]) => FILTER_OPERATORS.filter(({ op }) => TYPE_SPECS[type].ops.includes(op));

export const paramName = (f: Pick<Filter, "column" | "op">) => filterParamName(f.column, f.op);

// Commas and colons are legal in a query string; keeping them makes `_sort=-price,name` read as documented.
const encode = (value: string) => encodeURIComponent(value).replace(/%2C/gi, ",").replace(/%3A/gi, ":");

const filterParams = (filters: Filter[]) => filters.filter((f) => f.column).map((f) => `${encode(paramName(f))}=${encode(f.value)}`);

/** The exact query string the grid sends, in the data API's own grammar; a group's filters are one `_or` value. */
export const buildQueryString = (q: RecordsQuery) => {
  const parts = filterParams(q.filters);
  for (const group of q.search ? [...q.groups, q.search] : q.groups) {
    const inner = filterParams(group.filters).join("&");
    if (inner) parts.push(`_or=${encodeURIComponent(inner)}`);
  }
  if (q.sorts.length) parts.push(`_sort=${q.sorts.map((s) => `${s.desc ? "-" : ""}${encode(s.column)}`).join(",")}`);
  parts.push(`_limit=${q.limit}`, `_offset=${q.offset}`);
  return parts.join("&");
};

const wholeOr = (raw: string | null, fallback: number) => (raw !== null && /^\d{1,9}$/.test(raw) ? Number(raw) : fallback);

/**
 * The grid's query read back from a query string in the same grammar (the page URL keeps it, so a reload or a
 * shared link shows the same rows). Parameters naming no column are dropped here; the API would refuse them.
 */
export const parseQueryString = (text: string, columns: QueryColumn[]): RecordsQuery => {
  const params = new URLSearchParams(text);
  const names = new Set(columns.map((c) => c.name));
  const filtersOf = (entries: Iterable<[string, string]>) => {
    const filters: Filter[] = [];
    for (const [key, value] of entries) {
      const match = key.startsWith("_") ? undefined : splitFilterParam(key, (name) => names.has(name));
      if (match) filters.push({ key: draftKey(), column: match.column, op: match.op, value });
    }
    return filters;
  };
  const filters = filtersOf(params);
  const groups = params
    .getAll("_or")
    .map((inner) => ({ key: draftKey(), filters: filtersOf(new URLSearchParams(inner)) }))
    .filter((g) => g.filters.length);
  const sorts = (params.get("_sort") ?? "")
    .split(",")
    .filter(Boolean)
    .map((item) => ({ column: item.replace(/^-/, ""), desc: item.startsWith("-") }))
    .filter((s) => names.has(s.column));
  const limit = wholeOr(params.get("_limit"), EMPTY_QUERY.limit);
  return { filters, groups, sorts, limit: PAGE_SIZES.includes(limit) ? limit : EMPTY_QUERY.limit, offset: wholeOr(params.get("_offset"), 0) };
};

/** A header click: ascending, then descending, then back to no sort. */
export const nextSort = (sorts: Sort[], column: string): Sort[] => {
  const current = sorts.length === 1 && sorts[0].column === column ? sorts[0] : undefined;
  if (!current) return [{ column, desc: false }];
  return current.desc ? [] : [{ column, desc: true }];
};
