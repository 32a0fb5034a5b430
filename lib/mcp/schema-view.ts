// What a data MCP caller is shown of its database's schema (tools, list_tables, describe_table, the schema
// resource). A secret key sees every table and join; a JWT user those its row policies open to it, as the
// data API refuses it the rest (and the OpenAPI document altogether).
import type { Caller } from "../api/authenticate";
import { columnView, tableView } from "../meta/serialize";
import type { DatabaseSchema, JoinDef, TableDef } from "../schema/types";
import { outputColumns, resolvableJoins } from "../joins/output-columns";

const hasPolicy = (table: TableDef | undefined) => Object.values(table?.policies ?? {}).some((p) => typeof p === "string");

const joinOpen = (schema: DatabaseSchema, join: JoinDef) =>
  [join.base, ...join.joins.map((j) => j.table)].every((name) => typeof schema.tables.get(name)?.policies?.select === "string");

/** The schema as this caller may see it: the same object for keys, fewer tables and joins for JWT users. */
export const visibleSchema = (schema: DatabaseSchema, caller: Caller): DatabaseSchema => {
  if (caller.kind === "key") return schema;
  return {
    ...schema,
    tables: new Map([...schema.tables].filter(([, t]) => hasPolicy(t))),
    joins: new Map([...(schema.joins ?? new Map<string, JoinDef>())].filter(([, j]) => joinOpen(schema, j))),
  };
};

const required = (t: TableDef) => t.columns.filter((c) => !c.nullable && (c.default === undefined || c.default === null)).map((c) => c.name);

/** One table as describe_table answers it: its columns as the management API shows them, and what a create needs. */
export const describeTable = (t: TableDef) => ({ kind: "table", ...tableView(t), required_on_create: required(t) });

export const describeJoin = (schema: DatabaseSchema, j: JoinDef) => ({
  kind: "join",
  name: j.name,
  base: j.base,
  joins: j.joins,
  columns: outputColumns(schema, j).map(columnView),
  read_only: true,
});

/** list_tables: names, kinds and each column's name and type. */
export const listTables = (schema: DatabaseSchema) => [
  ...[...schema.tables.values()].map((t) => ({ name: t.name, kind: "table", columns: t.columns.map((c) => ({ name: c.name, type: c.type })) })),
  ...resolvableJoins(schema).map((j) => ({ name: j.name, kind: "join", columns: outputColumns(schema, j).map((c) => ({ name: c.name, type: c.type })) })),
];

/** The schema resource: every visible table and join, described. */
export const schemaDocument = (schema: DatabaseSchema) => ({
  instance: schema.instance,
  name: schema.name,
  api_base: `/v1/${schema.instance}`,
  tables: [...schema.tables.values()].map(describeTable),
  joins: resolvableJoins(schema).map((j) => describeJoin(schema, j)),
});
