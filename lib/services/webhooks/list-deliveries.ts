import { commitAuditOnly, commitRows } from "../../meta/commit-meta";
import { notFound } from "../../errors";
import type { DbCtx } from "../../meta/context";
import { nowIso } from "../../meta/context";
import { getWebhookOrThrow } from "./get-webhook-or-throw";
import { loadAttempts } from "./load-attempts";
import { deliveryView } from "./webhook-view";

type Query = { status?: "pending" | "delivering" | "delivered" | "failed"; limit?: number };

/** GET /databases/{instance}/webhooks/{id}/deliveries: newest first. */
export const listDeliveries = async (ctx: DbCtx, { instance, webhook, query }: { instance: string; webhook: number; query: Query }) => {
  const { row } = await getWebhookOrThrow(ctx, instance, webhook);
  let select = ctx.app.engine.meta.selectFrom("webhook_deliveries").selectAll().where("webhook_id", "=", row.id);
  if (query.status) select = select.where("status", "=", query.status);
  const rows = await select.orderBy("id", "desc").limit(query.limit ?? 50).execute();
  const attempts = await loadAttempts(ctx.app, rows.map((r) => Number(r.id)));
  return rows.map((r) => deliveryView(r, attempts.get(Number(r.id))));
};

/** POST /databases/{instance}/webhooks/deliveries/{id}/redeliver: queued again now, with a fresh retry schedule (a queued one stays as it is). */
export const redeliver = async (ctx: DbCtx, { instance, delivery }: { instance: string; delivery: number }) => {
  const { schema } = ctx.database;
  const missing = `No webhook delivery ${delivery} in database "${instance}".`;
  const meta = ctx.app.engine.meta;
  const row = await meta
    .selectFrom("webhook_deliveries")
    .innerJoin("webhooks", "webhooks.id", "webhook_deliveries.webhook_id")
    .selectAll("webhook_deliveries")
    .where("webhook_deliveries.id", "=", delivery)
    .where("webhooks.database_id", "=", schema.id)
    .executeTakeFirst();
  if (!row) throw notFound(missing);
  const attempts = (await loadAttempts(ctx.app, [Number(row.id)])).get(Number(row.id));
  if (row.status === "pending" || row.status === "delivering") return commitAuditOnly(ctx).then(() => deliveryView(row, attempts)); // already queued: nothing to change
  const now = nowIso();
  const changes = { status: "pending" as const, attempts: 0, next_attempt_at: now, claimed_until: null, updated_at: now };
  await commitRows(ctx, (trx) => trx.updateTable("webhook_deliveries").set(changes).where("id", "=", row.id).execute());
  ctx.app.changeEvents?.kickWebhooks();
  return deliveryView({ ...row, ...changes }, attempts);
};
