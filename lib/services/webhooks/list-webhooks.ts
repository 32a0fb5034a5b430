import type { DbCtx } from "../../meta/context";
import { getWebhookOrThrow } from "./get-webhook-or-throw";
import { webhookView } from "./webhook-view";

/** GET /databases/{instance}/webhooks. */
export const listWebhooks = async (ctx: DbCtx, { instance }: { instance: string }) => {
  const { schema } = ctx.database;
  const rows = await ctx.app.engine.meta.selectFrom("webhooks").selectAll().where("database_id", "=", schema.id).orderBy("id").execute();
  return rows.map((r) => webhookView(ctx.app, r));
};

/** GET /databases/{instance}/webhooks/{id}. */
export const getWebhook = async (ctx: DbCtx, { instance, webhook }: { instance: string; webhook: number }) =>
  webhookView(ctx.app, (await getWebhookOrThrow(ctx, instance, webhook)).row);
