import { renameTableSql } from "../../ddl/rename-table-sql";
import type { z } from "zod";
import { conflict } from "../../errors";
import type { TableRename } from "../../contract/schemas/databases";
import type { DbCtx } from "../../meta/context";
import { checkNameFree } from "../joins/read-join-input";
import { commitAuditOnly } from "../../meta/commit-meta";
import { changeSchema } from "../../meta/schema-change/change-schema";
import { tableView } from "../../meta/serialize";
import { getTableOrThrow } from "./get-table-or-throw";
import { retargetColumns } from "../../meta/schema-change/references-dependent";

export type UpdateTableInput = { instance: string; table: string; body: z.output<typeof TableRename> };

/** PATCH `{name}` renames a table; reference columns pointing at it (its own included) and joins follow the new name. */
export const updateTable = async (ctx: DbCtx, { instance, table: tableName, body: { name } }: UpdateTableInput) => {
  const { schema } = ctx.database;
  const table = getTableOrThrow(schema, tableName);
  if (name === table.name) return commitAuditOnly(ctx).then(() => tableView(table));
  if (schema.joins?.has(name)) checkNameFree(schema, name);
  if (schema.tables.has(name)) throw conflict(`Table "${name}" already exists in database "${schema.instance}".`);
  await changeSchema(ctx, schema, { kind: "rename-table", table, to: name }, {
    metadata: async (trx) => void (await trx.updateTable("tables").set({ name }).where("id", "=", table.id).execute()),
    ddl: async (udb) => void (await renameTableSql(udb, table.name, name).execute(udb.db)),
  });
  return tableView({ ...table, name, columns: retargetColumns(table.columns, table.name, name) });
};
