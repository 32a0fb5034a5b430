import type { DbCtx } from "../../meta/context";
import { commitRows } from "../../meta/commit-meta";
import { getTableOrThrow } from "../tables/get-table-or-throw";
import { getViewOrThrow } from "./get-view-or-throw";
import { assertMayChange } from "./saved-view";

export type DeleteViewInput = { instance: string; table: string; view: number };

export const deleteView = async (ctx: DbCtx, { table: name, view }: DeleteViewInput) => {
  const table = getTableOrThrow(ctx.database.schema, name);
  await commitRows(ctx, async (trx) => {
    const row = await getViewOrThrow(ctx, trx, table, view);
    assertMayChange(ctx, row);
    await trx.deleteFrom("saved_views").where("id", "=", row.id).execute();
  });
};
