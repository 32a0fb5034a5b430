import type { Ctx } from "../context";
import { getDatabaseOrThrow } from "../databases/get-database-or-throw";
import { tableView } from "../serialize";
import { getTableOrThrow } from "./get-table-or-throw";

export type GetTableInput = { instance: string; table: string };

export const getTable = async (ctx: Ctx, { instance, table }: GetTableInput) => {
  const schema = await getDatabaseOrThrow(ctx, instance);
  return tableView(getTableOrThrow(schema, table));
};
