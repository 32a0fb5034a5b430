import { dropTableSql } from "../../ddl/apply-tables";
import { conflict } from "../../errors";
import { bumpMetaVersion, type Ctx } from "../context";
import { getDatabaseOrThrow } from "../databases/get-database-or-throw";
import { refuseIfJoinsUse } from "../joins/follow-schema-change";
import { refuseIfAuthUsesTable } from "../auth/follow-schema-change";
import { getTableOrThrow } from "./get-table-or-throw";

/** Drops a table with its rows; refused while another table references it (a self-reference does not count). */
export type DropTableInput = { instance: string; table: string };

export const dropTable = async (ctx: Ctx, { instance, table: tableName }: DropTableInput) => {
  const schema = await getDatabaseOrThrow(ctx, instance);
  const table = getTableOrThrow(schema, tableName);
  for (const other of schema.tables.values()) {
    const column = other.id === table.id ? undefined : other.columns.find((c) => c.references === table.name);
    if (column) {
      throw conflict(
        `Table "${table.name}" is referenced by column "${other.name}.${column.name}"; drop or change that column first.`,
      );
    }
  }
  refuseIfJoinsUse(schema, table.name);
  refuseIfAuthUsesTable(schema, table);
  const { app } = ctx;
  const udb = app.engine.userDb(schema.physical);
  await app.engine.meta.transaction().execute(async (trx) => {
    await bumpMetaVersion(trx, schema.id);
    await trx.deleteFrom("tables").where("id", "=", table.id).execute();
    try {
      await dropTableSql(udb, table.name).execute(udb.db);
    } finally {
      app.engine.clearStatements(schema.physical);
    }
  });
  app.events.publish({ kind: "schema", databaseId: schema.id, instance: schema.instance, physical: schema.physical });
};
