// The drops a definition apply makes run last, each committing on its own, and a dropped value cannot be undone:
// so before the first drop runs, every schema dependent is asked about each of them, in order, on the schema as
// the drops before it leave it. A drop that would be refused (a table a kept reference column still points to)
// is refused before any value is gone.
import { SCHEMA_DEPENDENTS } from "../meta/schema-change/dependents";
import type { SchemaChange } from "../meta/schema-change/schema-change";
import type { LoadedDatabase } from "../meta/schema-cache";
import type { DatabaseSchema } from "../schema/types";
import type { Change } from "./plan-definition";

/** Throws the first dependent's refusal (a 409 naming it), as changeSchema would when that drop ran. */
export const refuseDrops = (loaded: LoadedDatabase, drops: Change[]) => {
  const beside = { hooks: loaded.hooks, auth: loaded.auth };
  let schema: DatabaseSchema = loaded.schema;
  for (const { drop } of drops) {
    const table = drop && schema.tables.get(drop.table);
    if (!table) continue;
    const column = drop.column === undefined ? undefined : table.columns.find((c) => c.name === drop.column);
    if (drop.column !== undefined && !column) continue;
    const change: SchemaChange = column ? { kind: "drop-column", table, column } : { kind: "drop-table", table };
    for (const dependent of SCHEMA_DEPENDENTS) dependent.refuse?.(schema, change, beside);
    const tables = new Map(schema.tables);
    if (column) tables.set(table.name, { ...table, columns: table.columns.filter((c) => c !== column) });
    else tables.delete(table.name);
    schema = { ...schema, tables };
  }
};
