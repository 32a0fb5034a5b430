import { dropColumnDdl } from "../../ddl/drop-column-ddl";
import { notFound } from "../../errors";
import { bumpMetaVersion, type Ctx } from "../context";
import { getDatabaseOrThrow } from "../databases/get-database-or-throw";
import { refuseIfJoinsUse } from "../joins/follow-schema-change";
import { refuseIfAuthUsesColumn } from "../auth/follow-schema-change";
import { getTableOrThrow } from "../tables/get-table-or-throw";

/** Drops a column and its values (with its unique index and foreign key). */
export type DropColumnInput = { instance: string; table: string; column: string };

export const dropColumn = async (ctx: Ctx, { instance, table: tableName, column: columnName }: DropColumnInput) => {
  const schema = await getDatabaseOrThrow(ctx, instance);
  const table = getTableOrThrow(schema, tableName);
  const column = table.columns.find((c) => c.name === columnName);
  if (!column) throw notFound(`Column "${columnName}" was not found in table "${table.name}".`);
  refuseIfJoinsUse(schema, table.name, column.name);
  refuseIfAuthUsesColumn(schema, table, column.name);
  const { app } = ctx;
  const udb = app.engine.userDb(schema.physical);
  const columns = table.columns.filter((c) => c !== column);
  await app.engine.meta.transaction().execute(async (trx) => {
    await bumpMetaVersion(trx, schema.id);
    await trx.updateTable("tables").set({ columns: JSON.stringify(columns) }).where("id", "=", table.id).execute();
    try {
      await dropColumnDdl(udb, schema.physical, table, column);
    } finally {
      app.engine.clearStatements(schema.physical);
    }
  });
  app.events.publish({ kind: "schema", databaseId: schema.id, instance: schema.instance, physical: schema.physical });
};
