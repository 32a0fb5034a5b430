import type { Ctx } from "../context";
import { getDatabaseOrThrow } from "../databases/get-database-or-throw";
import { tableView } from "../serialize";

export type ListTablesInput = { instance: string };

export const listTables = async (ctx: Ctx, { instance }: ListTablesInput) => {
  const schema = await getDatabaseOrThrow(ctx, instance);
  return [...schema.tables.values()].map(tableView);
};
