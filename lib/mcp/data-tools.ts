// The data tools of a database's MCP server: each one's arguments (zod, the one description; its JSON Schema
// is generated from it and completed per table from the live schema) and the data API request it becomes.
import { z } from "zod";
import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { DatabaseSchema } from "../schema/types";
import { MAX_BULK_ROWS, MAX_LIMIT } from "../api/limits";
import { invalidField } from "../errors";
import type { CoreCall } from "./call-core";
import { aggregateProperties, perTable, readProperties, readTargets, recordSchema } from "./data-tool-schemas";

type Json = Record<string, unknown>;

const Scalar = z.union([z.string(), z.number(), z.boolean()]);
const Names = z.union([z.array(z.string()), z.string()]);

const Table = z.string().min(1).meta({ description: "A table (or, for reads, a join) of this database." });
const Filters = z
  .record(z.string().regex(/^[^_]/, "a filter names a column (with its operator), not a parameter"), z.union([Scalar, z.array(Scalar)]))
  .meta({ description: "Filters of the read grammar, ANDed: `{\"status\": \"open\", \"price_lt\": 10, \"tags_in\": [\"a\", \"b\"], \"due_null\": true}`." });
const OrGroups = z
  .array(z.record(z.string(), z.union([Scalar, z.array(Scalar)])))
  .meta({ description: "OR groups: each object's filters are ORed; groups AND with each other and `filters`." });
const Id = z.int().min(1).meta({ description: "The record's id." });

const read = {
  table: Table,
  filters: Filters.optional(),
  _or: OrGroups.optional(),
};

export const DATA_ARGS = {
  list_tables: z.strictObject({}),
  describe_table: z.strictObject({ table: Table }),
  query_rows: z.strictObject({
    ...read,
    _select: Names.optional().meta({ description: "Columns to return (`id` always comes)." }),
    _expand: Names.optional().meta({ description: "Reference columns whose referenced record each row gains under `expand`." }),
    _sort: z.string().optional().meta({ description: "Comma-separated columns, `-` for descending: `-price,name`." }),
    _limit: z.int().min(1).max(MAX_LIMIT).optional().meta({ description: `Rows per page (1–${MAX_LIMIT}, default 50).` }),
    _offset: z.int().min(0).optional(),
    _after: z.string().optional().meta({ description: "The `next._after` cursor of the previous page." }),
    count: z.boolean().optional().meta({ description: "Also answer `total`, the number of matching rows." }),
  }),
  get_row: z.strictObject({ table: Table, id: Id }),
  aggregate: z.strictObject({
    ...read,
    _group: Names.optional().meta({ description: "Columns to group by (at most 5)." }),
    _agg: Names.optional().meta({ description: "`count`, `count:c`, `sum:c`, `avg:c`, `min:c`, `max:c`, `count_distinct:c` (default `count`)." }),
    _sort: z.string().optional().meta({ description: "Group columns or aggregate names, `-` for descending: `-count`." }),
    _limit: z.int().min(1).max(MAX_LIMIT).optional(),
    _offset: z.int().min(0).optional(),
  }),
  create_rows: z.strictObject({
    table: Table,
    rows: z.array(z.record(z.string(), z.unknown())).min(1).max(MAX_BULK_ROWS).meta({ description: "The records to insert, all or none." }),
    on_conflict: z.string().optional().meta({ description: "Upsert: `id` or a unique column; a row matching an existing one is merged into it." }),
  }),
  update_rows: z.strictObject({
    ...read,
    id: Id.optional().meta({ description: "One record by id; otherwise every row the filters match (filters required)." }),
    values: z.record(z.string(), z.unknown()).meta({ description: "The columns to set." }),
  }),
  delete_rows: z.strictObject({
    ...read,
    id: Id.optional().meta({ description: "One record by id; otherwise every row the filters match (filters required)." }),
    return_rows: z.boolean().optional().meta({ description: "Answer the deleted rows instead of their count." }),
  }),
};

export type DataToolName = keyof typeof DATA_ARGS;
export type DataArgs<N extends DataToolName> = z.output<(typeof DATA_ARGS)[N]>;

const READ: ToolAnnotations = { readOnlyHint: true, openWorldHint: false };

export const DATA_TOOLS: { name: DataToolName; title: string; description: string; annotations: ToolAnnotations }[] = [
  { name: "list_tables", title: "List tables", description: "The database's tables and joins, with their columns' names and types.", annotations: READ },
  { name: "describe_table", title: "Describe a table", description: "A table's (or join's) columns: types, nullability, defaults, dropdown options, references.", annotations: READ },
  { name: "query_rows", title: "Query rows", description: "Rows of a table or join with the data API's read grammar: filters, OR groups, _select, _expand, _sort, _limit, cursor pages (_after). Answers the rows, then `next` when more follow.", annotations: READ },
  { name: "get_row", title: "Get a row", description: "One record by id (for `_select` or `_expand`, query_rows with the filter `id`).", annotations: READ },
  { name: "aggregate", title: "Aggregate", description: "Counts, sums, averages, minimums and maximums over the filtered rows, optionally grouped.", annotations: READ },
  { name: "create_rows", title: "Create rows", description: "Inserts 1–1000 records in one transaction (all or none); with `on_conflict`, upserts.", annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false } },
  { name: "update_rows", title: "Update rows", description: "Sets columns on one record (`id`) or on every row the filters match; refuses without a filter.", annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false } },
  { name: "delete_rows", title: "Delete rows", description: "Deletes one record (`id`) or every row the filters match; refuses without a filter.", annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false } },
];

/** The tool's input JSON Schema: the zod envelope, `table` as an enum, and what each table takes. */
export const inputSchemaOf = (name: DataToolName, schema: DatabaseSchema): Json => {
  const { $schema: _s, ...base } = z.toJSONSchema(DATA_ARGS[name], { target: "draft-2020-12", io: "input" }) as Json;
  const properties = base.properties as Record<string, Json>;
  const reads = readTargets(schema);
  const tables = reads.filter((t) => t.table);
  const tableEnum = (targets: { name: string }[]) => (properties.table = { ...properties.table, enum: targets.map((t) => t.name) });
  switch (name) {
    case "describe_table":
      tableEnum(reads);
      return base;
    case "get_row":
      tableEnum(tables);
      return base;
    case "query_rows":
      tableEnum(reads);
      return { ...base, allOf: perTable(reads, readProperties) };
    case "aggregate":
      tableEnum(reads);
      return { ...base, allOf: perTable(reads, aggregateProperties) };
    case "create_rows":
      tableEnum(tables);
      return { ...base, allOf: perTable(tables, (t) => ({ rows: { items: recordSchema(t.table!, "create") } })) };
    case "update_rows":
      tableEnum(tables);
      return { ...base, allOf: perTable(tables, (t) => ({ values: recordSchema(t.table!, "patch"), filters: readProperties(t).filters })) };
    case "delete_rows":
      tableEnum(tables);
      return { ...base, allOf: perTable(tables, (t) => ({ filters: readProperties(t).filters })) };
    default:
      return base;
  }
};

const joinNames = (value: string[] | string | undefined) => (value === undefined ? undefined : Array.isArray(value) ? value.join(",") : value);

const filterValue = (value: z.output<typeof Scalar> | z.output<typeof Scalar>[]) => (Array.isArray(value) ? value.map(String).join(",") : String(value));

/** `filters` and `_or` as the data API's query string, then the named parameters that are set. */
const queryOf = (args: { filters?: Record<string, unknown>; _or?: Record<string, unknown>[] }, params: Record<string, string | number | undefined>) => {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(args.filters ?? {})) query.append(key, filterValue(value as z.output<typeof Scalar>));
  for (const group of args._or ?? []) {
    query.append("_or", new URLSearchParams(Object.entries(group).map(([k, v]) => [k, filterValue(v as z.output<typeof Scalar>)])).toString());
  }
  for (const [key, value] of Object.entries(params)) if (value !== undefined) query.set(key, String(value));
  return query;
};

const tablePath = (instance: string, table: string, id?: number | string) =>
  `/v1/${instance}/${encodeURIComponent(table)}${id === undefined ? "" : `/${id}`}`;

/** One record or the rows the filters match, never both: a filter beside an id would be ignored. */
const oneWay = (a: { id?: number; filters?: object; _or?: object[] }) => {
  if (a.id !== undefined && (a.filters !== undefined || a._or !== undefined)) throw invalidField("id", "id_with_filters", "give either id or filters, not both");
};

/** The data API request a data tool's call makes (list_tables and describe_table make none). */
export const dataCall = (instance: string, name: DataToolName, raw: unknown): CoreCall | undefined => {
  switch (name) {
    case "query_rows": {
      const a = raw as DataArgs<"query_rows">;
      const query = queryOf(a, { _select: joinNames(a._select), _expand: joinNames(a._expand), _sort: a._sort, _limit: a._limit, _offset: a._offset, _after: a._after });
      return { method: "GET", pathname: tablePath(instance, a.table), query, headers: a.count ? { prefer: "count=exact" } : {} };
    }
    case "get_row": {
      const a = raw as DataArgs<"get_row">;
      return { method: "GET", pathname: tablePath(instance, a.table, a.id) };
    }
    case "aggregate": {
      const a = raw as DataArgs<"aggregate">;
      const query = queryOf(a, { _group: joinNames(a._group), _agg: joinNames(a._agg), _sort: a._sort, _limit: a._limit, _offset: a._offset });
      return { method: "GET", pathname: tablePath(instance, a.table, "_aggregate"), query };
    }
    case "create_rows": {
      const a = raw as DataArgs<"create_rows">;
      if (a.on_conflict === undefined) return { method: "POST", pathname: tablePath(instance, a.table), body: a.rows };
      const query = new URLSearchParams({ _on_conflict: a.on_conflict });
      return { method: "POST", pathname: tablePath(instance, a.table), query, body: a.rows, headers: { prefer: "resolution=merge-duplicates" } };
    }
    case "update_rows": {
      const a = raw as DataArgs<"update_rows">;
      oneWay(a);
      if (a.id !== undefined) return { method: "PATCH", pathname: tablePath(instance, a.table, a.id), body: a.values };
      return { method: "PATCH", pathname: tablePath(instance, a.table), query: queryOf(a, {}), body: a.values };
    }
    case "delete_rows": {
      const a = raw as DataArgs<"delete_rows">;
      oneWay(a);
      if (a.id !== undefined) return { method: "DELETE", pathname: tablePath(instance, a.table, a.id) };
      return { method: "DELETE", pathname: tablePath(instance, a.table), query: queryOf(a, {}), headers: a.return_rows ? { prefer: "return=representation" } : {} };
    }
    default:
      return undefined;
  }
};
