import { type Ctx, requireAccountScope } from "../context";
import { getDatabaseOrThrow } from "../databases/get-database-or-throw";
import { tableView } from "../serialize";
import { getTableOrThrow } from "./get-table-or-throw";

export const getTable = async (ctx: Ctx, instance: string, table: string) => {
  requireAccountScope(ctx);
  const schema = await getDatabaseOrThrow(ctx, instance);
  return tableView(getTableOrThrow(schema, table));
};
