// Query parameters of a table's list operation: `_sort`, `_or` groups and one filter per column and allowed operator.
import { type FilterOp, TYPE_SPECS } from "../schema/column-types";
import { DEFAULT_LIMIT, MAX_EXPAND, MAX_LIMIT, MAX_OR_FILTERS, MAX_OR_GROUPS } from "../api/limits";
import { FILTER_OPERATORS, filterParamName, splitFilterParam } from "../schema/filter-operators";
import { type ColumnDef, recordColumns, type TableDef } from "../schema/types";
import { typeSchema } from "./table-schemas";
import { isReference } from "../schema/type-traits";

type Json = Record<string, unknown>;

const OP_TEXT = Object.fromEntries(FILTER_OPERATORS.map((o) => [o.op, o.doc])) as Record<FilterOp, string>;

/** Lists a filter only where the server reads its name as that filter (a name two filters share is listed once). */
const isReadAs = (col: ColumnDef, op: FilterOp, names: Set<string>) => {
  const match = splitFilterParam(filterParamName(col.name, op), (name) => names.has(name));
  return match?.column === col.name && match.op === op;
};

const valueSchema = (col: ColumnDef): Json => {
  // A datetime filter also takes a plain date (midnight UTC), so it is only a string here.
  if (col.type === "datetime") return { type: "string" };
  const { description: _ignored, ...schema } = typeSchema(col);
  return schema;
};

const filterParameter = (col: ColumnDef, op: FilterOp): Json => {
  const name = filterParamName(col.name, op);
  const exact = op === "eq" && TYPE_SPECS[col.type].sort === "text" ? " (case-sensitive)" : "";
  const when = col.type === "datetime" && op !== "null" ? " Values: ISO-8601 with `Z` or an offset, or `YYYY-MM-DD`." : "";
  const param: Json = { name, in: "query", required: false, description: `\`${col.name}\` ${OP_TEXT[op]}${exact}.${when}` };
  if (op === "null") return { ...param, schema: { type: "boolean" } };
  if (op === "like" || op === "ilike") return { ...param, schema: { type: "string", minLength: 1 } };
  if (op === "in") return { ...param, style: "form", explode: false, schema: { type: "array", items: valueSchema(col) } };
  return { ...param, schema: valueSchema(col) };
};

const sortParameter = (columns: ColumnDef[]): Json => {
  const sortable = columns
    .filter((c) => TYPE_SPECS[c.type].sort !== "none")
    .map((c) => c.name);
  const one = `-?(?:${sortable.join("|")})`;
  return {
    name: "_sort",
    in: "query",
    required: false,
    description:
      "Comma-separated columns to sort by; a leading `-` sorts descending (e.g. `-created_at,id`). " +
      `Sortable columns: ${sortable.map((n) => `\`${n}\``).join(", ")}. ` +
      "Without it the order is `id` ascending; `id` always breaks ties. Text sorts case-insensitively; NULLs come " +
      "first ascending, last descending.",
    schema: { type: "string", pattern: `^${one}(?:,${one})*$` },
  };
};

/** `_or`, then one filter parameter per column and operator the server reads (reads and aggregates alike). */
export const filterParameters = (columns: ColumnDef[]): Json[] => {
  const names = new Set(columns.map((c) => c.name));
  const perColumn = columns.flatMap((col) =>
    TYPE_SPECS[col.type].ops
      .filter((op) => isReadAs(col, op, names))
      .map((op) => filterParameter(col, op)),
  );
  return [{ $ref: "#/components/parameters/Or" }, ...perColumn];
};

/** `_select` and `_expand`: comma-separated names of this collection's columns (reference columns for `_expand`). */
const projectionParameters = (columns: ColumnDef[]): Json[] => {
  const refs = columns.filter((c) => isReference(c) && c.references);
  const select: Json = {
    name: "_select",
    in: "query",
    required: false,
    description: "Comma-separated columns to return (e.g. `_select=title,price`); `id` is always included when there is one. An unknown column is a 422.",
    style: "form",
    explode: false,
    schema: { type: "array", items: { type: "string", enum: columns.map((c) => c.name) } },
  };
  if (refs.length === 0) return [select];
  const expand: Json = {
    name: "_expand",
    in: "query",
    required: false,
    description:
      `Comma-separated reference columns (at most ${MAX_EXPAND}): each record gains \`expand: {column: {…referenced record…} | null}\`, one level deep. ` +
      "The referenced table's select policy applies to JWT users (a hidden row is `null`); password columns never appear.",
    style: "form",
    explode: false,
    schema: { type: "array", maxItems: MAX_EXPAND, items: { type: "string", enum: refs.map((c) => c.name) } },
  };
  return [select, expand];
};

/** A table's list parameters; a join passes its output columns instead. */
export const listParameters = (table: TableDef | undefined, columns: ColumnDef[] = recordColumns(table!)): Json[] => [
  { $ref: "#/components/parameters/Limit" },
  { $ref: "#/components/parameters/Offset" },
  { $ref: "#/components/parameters/After" },
  sortParameter(columns),
  ...projectionParameters(columns),
  { $ref: "#/components/parameters/Prefer" },
  ...filterParameters(columns),
];

/** The Link header of every collection read (tables and joins). */
export const LINK_HEADER: Json = {
  description: 'Present while more records follow: `<url>; rel="next"`, this request with `_after` set to the next page\'s cursor (and `_offset` dropped). Absent on the last page.',
  schema: { type: "string" },
};

export const LIST_PARAMETERS: Record<string, Json> = {
  Limit: {
    name: "_limit",
    in: "query",
    required: false,
    description: `Maximum number of records to return (1 to ${MAX_LIMIT}).`,
    schema: { type: "integer", minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT },
  },
  Offset: {
    name: "_offset",
    in: "query",
    required: false,
    description:
      "Number of records to skip; page n of size s is `_offset=(n-1)*s`. The database still reads every skipped row, so a deep page costs in proportion to its depth: past a few thousand rows, follow the `Link` header (`_after`), which seeks straight to the page. Not with `_after`.",
    schema: { type: "integer", minimum: 0, default: 0 },
  },
  After: {
    name: "_after",
    in: "query",
    required: false,
    description:
      "An opaque cursor from the `Link: <…>; rel=\"next\"` header of the previous page: the records after that page's last one in the same `_sort` order, at the same cost however deep. Not with `_offset`; a cursor of another `_sort` is a 422.",
    schema: { type: "string", pattern: "^[A-Za-z0-9_-]+$" },
  },
  Or: {
    name: "_or",
    in: "query",
    required: false,
    description:
      "An OR group: filters of this operation's grammar as one URL-encoded query string, at least one of which must match " +
      "(e.g. `price_lt=10&stock=0`, sent as `_or=price_lt%3D10%26stock%3D0`). Repeat `_or` for more groups (at most " +
      `${MAX_OR_GROUPS}, each of at most ${MAX_OR_FILTERS} filters); groups AND with each other and with the other filters. ` +
      "A bad inner filter is a 422 naming it as `_or[i].<filter>`. Row policies still apply.",
    style: "form",
    explode: true,
    schema: { type: "array", maxItems: MAX_OR_GROUPS, items: { type: "string", minLength: 1 } },
  },
  Prefer: {
    name: "Prefer",
    in: "header",
    required: false,
    description: "`count=exact` adds the `X-Total-Count` header: the number of matching records, ignoring paging.",
    schema: { type: "string", enum: ["count=exact"] },
  },
};
