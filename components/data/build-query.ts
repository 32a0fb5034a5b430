import type { Column, Table } from "../api/types";

/** The data API's filter operators, as its query grammar spells them (`col`, `col_gt`, …). */
export const OPERATORS = [
  { op: "eq", suffix: "", label: "=" },
  { op: "gt", suffix: "_gt", label: ">" },
  { op: "gte", suffix: "_gte", label: "≥" },
  { op: "lt", suffix: "_lt", label: "<" },
  { op: "lte", suffix: "_lte", label: "≤" },
  { op: "like", suffix: "_like", label: "contains" },
  { op: "ilike", suffix: "_ilike", label: "contains, any case" },
  { op: "in", suffix: "_in", label: "is one of (a,b)" },
  { op: "null", suffix: "_null", label: "is null (true/false)" },
] as const;

export type Operator = (typeof OPERATORS)[number]["op"];
export type Filter = { key: string; column: string; op: Operator; value: string };
export type Sort = { column: string; desc: boolean };
export type RecordsQuery = { filters: Filter[]; sorts: Sort[]; limit: number; offset: number };

export const PAGE_SIZES = [10, 25, 50, 100];
export const EMPTY_QUERY: RecordsQuery = { filters: [], sorts: [], limit: 25, offset: 0 };

export type QueryColumn = Pick<Column, "name" | "type" | "options">;

/** Columns the API lets you filter and sort on: automatic ones and every non-password column. */
export const queryableColumns = (table: Table): QueryColumn[] => [
  { name: "id", type: "bigint" },
  ...table.columns.filter((c) => c.type !== "password"),
  { name: "created_at", type: "datetime" },
  { name: "updated_at", type: "datetime" },
];

/** Operators that make sense for a column type (the API refuses the rest with a 422 anyway). */
export const operatorsFor = (type: Column["type"]) =>
  OPERATORS.filter(({ op }) => {
    if (type === "json") return op === "null";
    if (type === "boolean") return op === "eq" || op === "null";
    if (op === "like" || op === "ilike") return ["varchar", "text", "dropdown"].includes(type);
    return true;
  });

export const paramName = (f: Pick<Filter, "column" | "op">) => `${f.column}${OPERATORS.find((o) => o.op === f.op)!.suffix}`;

// Commas and colons are legal in a query string; keeping them makes `_sort=-price,name` read as documented.
const encode = (value: string) => encodeURIComponent(value).replace(/%2C/gi, ",").replace(/%3A/gi, ":");

/** The exact query string the grid sends, in the data API's own grammar. */
export const buildQueryString = (q: RecordsQuery) => {
  const parts = q.filters.filter((f) => f.column).map((f) => `${encode(paramName(f))}=${encode(f.value)}`);
  if (q.sorts.length) parts.push(`_sort=${q.sorts.map((s) => `${s.desc ? "-" : ""}${encode(s.column)}`).join(",")}`);
  parts.push(`_limit=${q.limit}`, `_offset=${q.offset}`);
  return parts.join("&");
};
