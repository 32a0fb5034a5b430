import type { DbCtx } from "../../meta/context";
import { tableView } from "../../meta/serialize";
import { getTableOrThrow } from "./get-table-or-throw";

export type GetTableInput = { instance: string; table: string };

export const getTable = async (ctx: DbCtx, { table }: GetTableInput) => {
  const { schema } = ctx.database;
  return tableView(getTableOrThrow(schema, table));
};
