import { renameTableSql } from "../../ddl/rename-table-sql";
import type { z } from "zod";
import { conflict } from "../../errors";
import type { TableUpdate } from "../../contract/schemas/databases";
import type { DbCtx } from "../../meta/context";
import type { TableDef } from "../../schema/types";
import { checkNameFree } from "../joins/read-join-input";
import { commitAuditOnly } from "../../meta/commit-meta";
import { changeSchema } from "../../meta/schema-change/change-schema";
import { tableView } from "../../meta/serialize";
import { getTableOrThrow } from "./get-table-or-throw";
import { retargetColumns } from "../../meta/schema-change/references-dependent";

export type UpdateTableInput = { instance: string; table: string; body: z.output<typeof TableUpdate> };

const withHistory = (table: TableDef, history: boolean): TableDef => {
  const { history: _, ...rest } = table;
  return history ? rest : { ...rest, history: false };
};

/**
 * PATCH `{name?, history?}`: a rename (reference columns pointing at the table, its own included, and joins follow
 * the new name) and/or record history turned on or off (metadata only: rows and events are not touched), as one change.
 */
export const updateTable = async (ctx: DbCtx, { table: tableName, body: { name, history } }: UpdateTableInput) => {
  const { schema } = ctx.database;
  const table = getTableOrThrow(schema, tableName);
  const historyChange = history !== undefined && (table.history !== false) !== history ? { history: history ? 1 : 0 } : {};
  const after = history === undefined ? table : withHistory(table, history);
  if (name === undefined || name === table.name) {
    if (!("history" in historyChange)) return commitAuditOnly(ctx).then(() => tableView(table));
    await changeSchema(ctx, schema, { kind: "history", table }, {
      metadata: async (trx) => void (await trx.updateTable("tables").set(historyChange).where("id", "=", table.id).execute()),
    });
    return tableView(after);
  }
  if (schema.joins?.has(name)) checkNameFree(schema, name);
  if (schema.tables.has(name)) throw conflict(`Table "${name}" already exists in database "${schema.instance}".`);
  await changeSchema(ctx, schema, { kind: "rename-table", table, to: name }, {
    metadata: async (trx) => void (await trx.updateTable("tables").set({ name, ...historyChange }).where("id", "=", table.id).execute()),
    ddl: async (udb) => void (await renameTableSql(udb, table.name, name).execute(udb.db)),
  });
  return tableView({ ...after, name, columns: retargetColumns(table.columns, table.name, name) });
};
