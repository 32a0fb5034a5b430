// Query parameters of a table's list operation: `_sort` and one filter per column and allowed operator.
import { type FilterOp, TYPE_SPECS } from "../schema/column-types";
import { FILTER_OPERATORS, filterParamName, splitFilterParam } from "../schema/filter-operators";
import { type ColumnDef, recordColumns, type TableDef } from "../schema/types";
import { typeSchema } from "./table-schemas";

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

/** A table's list parameters; a join passes its output columns instead. */
export const listParameters = (table: TableDef | undefined, columns: ColumnDef[] = recordColumns(table!)): Json[] => {
  const names = new Set(columns.map((c) => c.name));
  const filters = columns.flatMap((col) =>
    TYPE_SPECS[col.type].ops
      .filter((op) => isReadAs(col, op, names))
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
    description:
      "Number of records to skip; page n of size s is `_offset=(n-1)*s`. The database still reads every skipped row, so a deep page costs in proportion to its depth: past a few thousand rows, page by key instead (`_sort=id&id_gt=<last id of the previous page>`), which seeks straight to the page.",
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
