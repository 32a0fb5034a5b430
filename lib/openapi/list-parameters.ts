// Query parameters of a table's list operation: `_sort` and one filter per column and allowed operator.
import { type FilterOp, TYPE_SPECS } from "../schema/column-types";
import { type ColumnDef, recordColumns, type TableDef } from "../schema/types";
import { typeSchema } from "./table-schemas";

type Json = Record<string, unknown>;

const SUFFIX: Record<FilterOp, string> = {
  eq: "",
  gt: "_gt",
  gte: "_gte",
  lt: "_lt",
  lte: "_lte",
  like: "_like",
  ilike: "_ilike",
  in: "_in",
  null: "_null",
};

// The query parser's order: an exact column name wins, then the longest suffix.
const PARSE_ORDER: FilterOp[] = ["ilike", "like", "null", "gte", "lte", "gt", "lt", "in"];

/** The column and operator the server reads a parameter as, so a name two filters share is listed once. */
const resolveParam = (param: string, names: Set<string>): string | undefined => {
  if (names.has(param)) return `${param}:eq`;
  for (const op of PARSE_ORDER) {
    const column = param.slice(0, -SUFFIX[op].length);
    if (param.endsWith(SUFFIX[op]) && names.has(column)) return `${column}:${op}`;
  }
  return undefined;
};

const OP_TEXT: Record<FilterOp, string> = {
  eq: "equals the value",
  gt: "is greater than the value",
  gte: "is greater than or equal to the value",
  lt: "is less than the value",
  lte: "is less than or equal to the value",
  like: "contains the text (case-sensitive; `%` and `_` are literal)",
  ilike: "contains the text (case-insensitive; `%` and `_` are literal)",
  in: "is one of the comma-separated values (a value cannot contain a comma)",
  null: "is NULL (`true`) or is not NULL (`false`)",
};

const valueSchema = (col: ColumnDef): Json => {
  // A datetime filter also takes a plain date (midnight UTC), so it is only a string here.
  if (col.type === "datetime") return { type: "string" };
  const { description: _ignored, ...schema } = typeSchema(col);
  return schema;
};

const filterParameter = (col: ColumnDef, op: FilterOp): Json => {
  const name = `${col.name}${SUFFIX[op]}`;
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

/** A table's list parameters; a join passes its output columns instead. */
export const listParameters = (table: TableDef | undefined, columns: ColumnDef[] = recordColumns(table!)): Json[] => {
  const names = new Set(columns.map((c) => c.name));
  const filters = columns.flatMap((col) =>
    TYPE_SPECS[col.type].ops
      .filter((op) => resolveParam(`${col.name}${SUFFIX[op]}`, names) === `${col.name}:${op}`)
      .map((op) => filterParameter(col, op)),
  );
  return [
    { $ref: "#/components/parameters/Limit" },
    { $ref: "#/components/parameters/Offset" },
    sortParameter(columns),
    { $ref: "#/components/parameters/Prefer" },
    ...filters,
  ];
};

export const LIST_PARAMETERS: Record<string, Json> = {
  Limit: {
    name: "_limit",
    in: "query",
    required: false,
    description: "Maximum number of records to return (1 to 1000).",
    schema: { type: "integer", minimum: 1, maximum: 1000, default: 50 },
  },
  Offset: {
    name: "_offset",
    in: "query",
    required: false,
    description: "Number of records to skip; page n of size s is `_offset=(n-1)*s`.",
    schema: { type: "integer", minimum: 0, default: 0 },
  },
  Prefer: {
    name: "Prefer",
    in: "header",
    required: false,
    description: "`count=exact` adds the `X-Total-Count` header: the number of matching records, ignoring paging.",
    schema: { type: "string", enum: ["count=exact"] },
  },
};
