import { randomUUID } from "node:crypto";
import type { DbCtx } from "../../meta/context";
import { nowIso } from "../../meta/context";
import { commitRows } from "../../meta/commit-meta";
import { lookupWebhooks, recordOutcomes, sendAttempt } from "../../webhooks/attempt-delivery";
import { getWebhookOrThrow } from "./get-webhook-or-throw";
import { loadAttempts } from "./load-attempts";
import { deliveryView } from "./webhook-view";

/**
 * POST /databases/{instance}/webhooks/{id}/test: one signed attempt now, with a `test` event, answered with
 * its outcome; not retried. Logged with the deliveries.
 */
export const testWebhook = async (ctx: DbCtx, { instance, webhook }: { instance: string; webhook: number }) => {
  const { app } = ctx;
  const { schema, row } = await getWebhookOrThrow(ctx, instance, webhook);
  const now = nowIso();
  const payload = JSON.stringify({ id: null, db: schema.instance, table: null, action: "test", record: { message: "A test delivery from Tabula." }, at: now });
  const delivery = { webhook_id: row.id, event_id: null, message_id: `test_${randomUUID()}`, payload, status: "delivering" as const, attempts: 1, next_attempt_at: now, created_at: now, updated_at: now };
  const { insertId } = await commitRows(ctx, (trx) => trx.insertInto("webhook_deliveries").values(delivery).executeTakeFirstOrThrow());
  const id = Number(insertId);
  const targets = await lookupWebhooks(app, [row.id]);
  const outcome = await sendAttempt(app, { id, webhook_id: row.id, message_id: delivery.message_id, payload, attempts: 1 }, targets.get(row.id)!, false);
  await recordOutcomes(app, [outcome], targets);
  const attempts = (await loadAttempts(app, [id])).get(id);
  return deliveryView(await app.engine.meta.selectFrom("webhook_deliveries").selectAll().where("id", "=", id).executeTakeFirstOrThrow(), attempts);
};
