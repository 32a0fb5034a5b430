import { recountStorage } from "../../api/files/storage-usage";
import { dropColumnDdl } from "../../ddl/drop-column-ddl";
import { notFound } from "../../errors";
import type { DbCtx } from "../../meta/context";
import { changeSchema } from "../../meta/schema-change/change-schema";
import { getTableOrThrow } from "../tables/get-table-or-throw";
import { columnFileKeys, deleteKeys } from "../../api/files/drop-files";

export type DropColumnInput = { instance: string; table: string; column: string };

/** Drops a column and its values (with its unique index and foreign key; a file column's files after the commit); refused while a join, policy or auth uses it. */
export const dropColumn = async (ctx: DbCtx, { table: tableName, column: columnName }: DropColumnInput) => {
  const { schema } = ctx.database;
  const table = getTableOrThrow(schema, tableName);
  const column = table.columns.find((c) => c.name === columnName);
  if (!column) throw notFound(`Column "${columnName}" was not found in table "${table.name}".`);
  const columns = JSON.stringify(table.columns.filter((c) => c !== column));
  const files = await columnFileKeys(ctx.app.engine.userDb(schema.physical), schema, table, column);
  await changeSchema(ctx, schema, { kind: "drop-column", table, column }, {
    metadata: async (trx) => void (await trx.updateTable("tables").set({ columns }).where("id", "=", table.id).execute()),
    ddl: (udb) => dropColumnDdl(udb, schema.physical, table, column),
  });
  await deleteKeys(ctx.app, files);
  if (files.length) await recountStorage(ctx.app, schema.instance);
};
