import type { DbCtx } from "../../meta/context";
import { getTableOrThrow } from "../tables/get-table-or-throw";
import { toSavedView } from "./saved-view";

export type ListViewsInput = { instance: string; table: string };

/** The table's shared views and the caller's private ones, by name. */
export const listViews = async (ctx: DbCtx, { table: name }: ListViewsInput) => {
  const table = getTableOrThrow(ctx.database.schema, name);
  const rows = await ctx.app.engine.meta
    .selectFrom("saved_views")
    .selectAll()
    .where("table_id", "=", table.id)
    .where((eb) => eb.or([eb("shared", "=", 1), eb("account_id", "=", ctx.actor.accountId)]))
    .orderBy("name")
    .orderBy("id")
    .execute();
  return rows.map((row) => toSavedView(ctx, row));
};
