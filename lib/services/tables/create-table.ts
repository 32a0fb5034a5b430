import { applyTables, dropTableSql } from "../../ddl/apply-tables";
import { conflict, validationFailed } from "../../errors";
import type { z } from "zod";
import type { TableInput } from "../../contract/schemas/databases";
import { toNewTable, unknownReferences } from "../../contract/schemas/table-rules";
import { problemErrors } from "../../contract/field-errors";
import { type DbCtx, nowIso } from "../../meta/context";
import { checkNameFree } from "../joins/read-join-input";
import { changeSchema } from "../../meta/schema-change/change-schema";
import { storedIndexes, tableView } from "../../meta/serialize";

export type CreateTableInput = { instance: string; body: z.output<typeof TableInput> };

/** Creates one table `{name, columns}`; its references may point at existing tables or at itself. */
export const createTable = async (ctx: DbCtx, { instance, body: input }: CreateTableInput) => {
  const { schema } = ctx.database;
  const unknown = unknownReferences([input], (name) => schema.tables.has(name) || name === input.name);
  if (unknown.length) throw validationFailed(problemErrors(unknown));
  const table = toNewTable(input);
  if (schema.joins?.has(table.name)) checkNameFree(schema, table.name);
  if (schema.tables.has(table.name)) throw conflict(`Table "${table.name}" already exists in database "${schema.instance}".`);
  const id = await changeSchema(ctx, schema, { kind: "create-table", table }, {
    metadata: async (trx) => {
      const values = { database_id: schema.id, name: table.name, columns: JSON.stringify(table.columns), indexes: storedIndexes(table.indexes), history: table.history === false ? 0 : 1, created_at: nowIso() };
      return Number((await trx.insertInto("tables").values(values).executeTakeFirstOrThrow()).insertId);
    },
    ddl: async (udb, id) => {
      // A table left by an earlier run whose metadata commit lost a race has no metadata, so no rows: start over.
      await dropTableSql(udb, table.name).execute(udb.db);
      try {
        await applyTables(udb, [{ id, ...table }]);
      } catch (err) {
        // MySQL DDL commits on its own: take back a table whose foreign keys failed.
        if (udb.engine === "mysql") await dropTableSql(udb, table.name).execute(udb.db).catch(() => undefined);
        throw err;
      }
    },
  });
  return tableView({ id, ...table });
};
