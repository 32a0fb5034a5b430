// The data API's filter grammar, `{column}{suffix}=value`, described once: the query parser, the OpenAPI
// parameters and the dashboard's filter builder all read this table. Which types allow which operator is
// the column-type table's `ops`.

export const FILTER_OPERATORS = [
  { op: "eq", suffix: "", label: "=", doc: "equals the value" },
  // NULL is not "not equal" to anything, as in SQL `<>` and PostgREST's `neq`: rows with NULL are left out.
  { op: "ne", suffix: "_ne", label: "≠", doc: "is not equal to the value (rows where it is NULL are not included)" },
  { op: "gt", suffix: "_gt", label: ">", doc: "is greater than the value" },
  { op: "gte", suffix: "_gte", label: "≥", doc: "is greater than or equal to the value" },
  { op: "lt", suffix: "_lt", label: "<", doc: "is less than the value" },
  { op: "lte", suffix: "_lte", label: "≤", doc: "is less than or equal to the value" },
  { op: "like", suffix: "_like", label: "contains", doc: "contains the text (case-sensitive; `%` and `_` are literal)" },
  { op: "ilike", suffix: "_ilike", label: "contains, any case", doc: "contains the text (case-insensitive; `%` and `_` are literal)" },
  { op: "in", suffix: "_in", label: "is one of (a,b)", doc: "is one of the comma-separated values (a value cannot contain a comma)" },
  { op: "null", suffix: "_null", label: "is null (true/false)", doc: "is NULL (`true`) or is not NULL (`false`)" },
] as const;

/** `_or=<filters>` groups: how many one read may carry, and how many filters one group may hold. */
export const MAX_OR_GROUPS = 10;
export const MAX_OR_FILTERS = 20;

export type FilterOp = (typeof FILTER_OPERATORS)[number]["op"];

const FILTER_SUFFIX = Object.fromEntries(FILTER_OPERATORS.map((o) => [o.op, o.suffix])) as Record<FilterOp, string>;

// Longest suffix first, so `_gte` wins over `_gt` and `_ilike` over `_like`.
const BY_SUFFIX_LENGTH = FILTER_OPERATORS.filter((o) => o.suffix).sort((a, b) => b.suffix.length - a.suffix.length);

/** The query parameter that filters `column` with `op`. */
export const filterParamName = (column: string, op: FilterOp) => `${column}${FILTER_SUFFIX[op]}`;

/**
 * How the server reads a parameter name: an exact column name wins, then the longest suffix whose stem is a
 * column. So a column named `price_gt` is filtered by `price_gt`, not read as `price` + `_gt`.
 */
export const splitFilterParam = (param: string, isColumn: (name: string) => boolean): { column: string; op: FilterOp } | undefined => {
  if (isColumn(param)) return { column: param, op: "eq" };
  for (const { suffix, op } of BY_SUFFIX_LENGTH) {
    if (param.endsWith(suffix) && isColumn(param.slice(0, -suffix.length))) return { column: param.slice(0, -suffix.length), op };
  }
  return undefined;
};
