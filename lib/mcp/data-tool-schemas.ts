// The per-table parts of the data tools' input JSON Schemas, from the live schema: which filters each table
// reads (with its dropdowns' options as enums), which columns it selects, expands and groups by, and the
// record a create or update takes (types, required columns). The OpenAPI document is built from the same parts.
import type { DatabaseSchema, TableDef, ColumnDef } from "../schema/types";
import { recordColumns } from "../schema/types";
import { filterParameters } from "../openapi/list-parameters";
import { schemaNames, tableSchemas } from "../openapi/table-schemas";
import { outputColumns, resolvableJoins } from "../joins/output-columns";
import { isJson, isOrderable, isReference, isSecret } from "../schema/type-traits";

type Json = Record<string, unknown>;

/** A table or a join, as the read tools see it: a name and the columns a read can name. */
export type ReadTarget = { name: string; columns: ColumnDef[]; table?: TableDef };

export const readTargets = (schema: DatabaseSchema): ReadTarget[] => [
  ...[...schema.tables.values()].map((table) => ({ name: table.name, columns: recordColumns(table), table })),
  ...resolvableJoins(schema).map((join) => ({ name: join.name, columns: outputColumns(schema, join) })),
];

/** `{filter name: value schema}` for every filter the data API reads on these columns. */
const filterProperties = (columns: ColumnDef[]): Json =>
  Object.fromEntries(
    filterParameters(columns)
      .filter((p) => typeof p.name === "string")
      .map((p) => {
        const schema = p.schema as Json;
        // `_in` takes a list; a comma-separated string works too.
        const value = schema.type === "array" ? { anyOf: [schema, { type: "string" }] } : schema;
        return [p.name as string, { ...value, description: p.description }];
      }),
  );

const names = (values: string[]) => ({ anyOf: [{ type: "array", items: { type: "string", enum: values } }, { type: "string" }] });

/** What a read of this target may name: filters, `_select`, `_expand`, `_sort`'s columns. */
export const readProperties = (target: ReadTarget): Json => {
  const visible = target.columns.filter((c) => !isSecret(c));
  const refs = target.columns.filter((c) => isReference(c) && c.references).map((c) => c.name);
  return {
    filters: { type: "object", properties: filterProperties(target.columns), additionalProperties: false },
    _select: names(target.columns.map((c) => c.name)),
    ...(refs.length ? { _expand: names(refs) } : {}),
    _sort: { type: "string", description: `Sortable: ${visible.filter(isOrderable).map((c) => c.name).join(", ")}.` },
  };
};

export const aggregateProperties = (target: ReadTarget): Json => ({
  filters: { type: "object", properties: filterProperties(target.columns), additionalProperties: false },
  _group: names(target.columns.filter((c) => isOrderable(c) && !isJson(c) && !isSecret(c)).map((c) => c.name)),
});

/** The record a create (`create`) or an update (`patch`) takes: the OpenAPI document's own schemas. */
export const recordSchema = (table: TableDef, kind: "create" | "patch"): Json => {
  const { example: _example, ...schema } = tableSchemas(table)[schemaNames(table.name)[kind]];
  return schema;
};

/**
 * The argument schema per table: `if table is T then these properties`. A client that reads JSON Schema sees
 * exactly what each table takes; the envelope (the properties every table shares) stays at the root.
 */
export const perTable = <T extends { name: string }>(targets: T[], properties: (target: T) => Json): Json[] =>
  targets.map((target) => ({
    if: { properties: { table: { const: target.name } }, required: ["table"] },
    then: { properties: properties(target) },
  }));
