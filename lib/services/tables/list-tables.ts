import type { DbCtx } from "../../meta/context";
import { tableView } from "../../meta/serialize";

export type ListTablesInput = { instance: string };

export const listTables = async (ctx: DbCtx, _input: ListTablesInput) => {
  const { schema } = ctx.database;
  return [...schema.tables.values()].map(tableView);
};
