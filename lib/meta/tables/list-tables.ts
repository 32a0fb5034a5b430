import { type Ctx, requireAccountScope } from "../context";
import { getDatabaseOrThrow } from "../databases/get-database-or-throw";
import { tableView } from "../serialize";

export const listTables = async (ctx: Ctx, instance: string) => {
  requireAccountScope(ctx);
  const schema = await getDatabaseOrThrow(ctx, instance);
  return [...schema.tables.values()].map(tableView);
};
