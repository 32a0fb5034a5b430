import type { ViewInput } from "../../contract/schemas/views";
import { type DbCtx, nowIso } from "../../meta/context";
import { commitRows } from "../../meta/commit-meta";
import { getTableOrThrow } from "../tables/get-table-or-throw";
import { assertMayShare, checkViewAgainstTable, toSavedView } from "./saved-view";

export type CreateViewInput = { instance: string; table: string; body: ViewInput };

export const createView = async (ctx: DbCtx, { table: name, body }: CreateViewInput) => {
  assertMayShare(ctx, body.shared);
  const table = getTableOrThrow(ctx.database.schema, name);
  const hidden = [...new Set(body.hidden_columns ?? [])];
  checkViewAgainstTable(table, { query: body.query ?? "", hidden_columns: hidden });
  const now = nowIso();
  const values = { table_id: table.id, account_id: ctx.actor.accountId, name: body.name, query: (body.query ?? "").replace(/^\?/, ""), hidden_columns: JSON.stringify(hidden), shared: body.shared ? 1 : 0, created_at: now, updated_at: now };
  const { insertId } = await commitRows(ctx, (trx) => trx.insertInto("saved_views").values(values).executeTakeFirstOrThrow());
  return toSavedView(ctx, { ...values, id: Number(insertId) });
};
