import { recountStorage } from "../../api/files/storage-usage";
import { fileColumnsOf } from "../../api/files/file-scope";
import { dropTableSql } from "../../ddl/apply-tables";
import type { DbCtx } from "../../meta/context";
import { changeSchema } from "../../meta/schema-change/change-schema";
import { getTableOrThrow } from "./get-table-or-throw";
import { deleteTableFiles } from "../../api/files/drop-files";

export type DropTableInput = { instance: string; table: string };

/** Drops a table with its rows (and, after the commit, its files); refused while another table references it or a join or auth uses it. */
export const dropTable = async (ctx: DbCtx, { table: tableName }: DropTableInput) => {
  const { schema } = ctx.database;
  const table = getTableOrThrow(schema, tableName);
  await changeSchema(ctx, schema, { kind: "drop-table", table }, {
    // Its policies go with the row (foreign key, on delete cascade).
    metadata: async (trx) => void (await trx.deleteFrom("tables").where("id", "=", table.id).execute()),
    ddl: async (udb) => void (await dropTableSql(udb, table.name).execute(udb.db)),
  });
  await deleteTableFiles(ctx.app, schema, table);
  if (fileColumnsOf(table).length) await recountStorage(ctx.app, schema.instance);
};
