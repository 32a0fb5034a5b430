import { dropTableSql } from "../../ddl/apply-tables";
import type { Ctx } from "../context";
import { getDatabaseOrThrow } from "../databases/get-database-or-throw";
import { changeSchema } from "../schema-change/change-schema";
import { getTableOrThrow } from "./get-table-or-throw";

export type DropTableInput = { instance: string; table: string };

/** Drops a table with its rows; refused while another table references it or a join or auth uses it. */
export const dropTable = async (ctx: Ctx, { instance, table: tableName }: DropTableInput) => {
  const schema = await getDatabaseOrThrow(ctx, instance);
  const table = getTableOrThrow(schema, tableName);
  await changeSchema(ctx, schema, { kind: "drop-table", table }, {
    // Its policies go with the row (foreign key, on delete cascade).
    metadata: async (trx) => void (await trx.deleteFrom("tables").where("id", "=", table.id).execute()),
    ddl: async (udb) => void (await dropTableSql(udb, table.name).execute(udb.db)),
  });
};
