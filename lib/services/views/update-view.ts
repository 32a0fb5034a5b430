import type { ViewPatch } from "../../contract/schemas/views";
import { type DbCtx, nowIso } from "../../meta/context";
import { commitRows } from "../../meta/commit-meta";
import { noteAudit } from "../../meta/audit/audit-slot";
import { getTableOrThrow } from "../tables/get-table-or-throw";
import { getViewOrThrow } from "./get-view-or-throw";
import { assertMayChange, assertMayShare, checkViewAgainstTable, toSavedView } from "./saved-view";

export type UpdateViewInput = { instance: string; table: string; view: number; body: ViewPatch };

export const updateView = async (ctx: DbCtx, { table: name, view, body }: UpdateViewInput) => {
  const table = getTableOrThrow(ctx.database.schema, name);
  const hidden = body.hidden_columns && [...new Set(body.hidden_columns)];
  checkViewAgainstTable(table, { query: body.query, hidden_columns: hidden });
  return commitRows(ctx, async (trx) => {
    const row = await getViewOrThrow(ctx, trx, table, view);
    noteAudit(ctx, { before: toSavedView(ctx, row) });
    assertMayChange(ctx, row);
    assertMayShare(ctx, body.shared);
    const changes = {
      ...(body.name !== undefined && { name: body.name }),
      ...(body.query !== undefined && { query: body.query.replace(/^\?/, "") }),
      ...(hidden && { hidden_columns: JSON.stringify(hidden) }),
      ...(body.shared !== undefined && { shared: body.shared ? 1 : 0 }),
      updated_at: nowIso(),
    };
    await trx.updateTable("saved_views").set(changes).where("id", "=", row.id).execute();
    return toSavedView(ctx, { ...row, ...changes });
  });
};
