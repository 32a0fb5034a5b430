import type { DbCtx } from "../../meta/context";
import { nowIso } from "../../meta/context";
import type { WebhookUpdate } from "../../contract/schemas/webhooks";
import { checkWebhookInput } from "./check-webhook-input";
import { getWebhookOrThrow } from "./get-webhook-or-throw";
import { webhookView } from "./webhook-view";
import { commitRows } from "../../meta/commit-meta";
import { noteAudit } from "../../meta/audit/audit-slot";

/** What the audit log keeps of a webhook before a change (never its secret). */
const webhookBefore = (row: { url: string; tables: string | null; actions: string | null; active: number }) => ({
  url: row.url,
  tables: row.tables && (JSON.parse(row.tables) as string[]),
  actions: row.actions && (JSON.parse(row.actions) as string[]),
  active: row.active === 1,
});

type Input = { instance: string; webhook: number; body: WebhookUpdate };

/** PATCH /databases/{instance}/webhooks/{id}: `active: true` re-enables (clears failing_since and the reason). */
export const updateWebhook = async (ctx: DbCtx, { instance, webhook, body }: Input) => {
  const { schema, row } = await getWebhookOrThrow(ctx, instance, webhook);
  await checkWebhookInput(ctx.app, schema, body);
  const changes = {
    ...(body.url !== undefined ? { url: body.url } : {}),
    ...(body.tables !== undefined ? { tables: body.tables ? JSON.stringify(body.tables) : null } : {}),
    ...(body.actions !== undefined ? { actions: body.actions ? JSON.stringify(body.actions) : null } : {}),
    ...(body.active !== undefined ? { active: body.active ? 1 : 0 } : {}),
    ...(body.active === true ? { failing_since: null, disabled_reason: null } : {}),
    updated_at: nowIso(),
  };
  noteAudit(ctx, { before: webhookBefore(row) });
  await commitRows(ctx, (trx) => trx.updateTable("webhooks").set(changes).where("id", "=", row.id).execute());
  return webhookView(ctx.app, { ...row, ...changes });
};

/** DELETE /databases/{instance}/webhooks/{id}: its deliveries go with it. */
export const deleteWebhook = async (ctx: DbCtx, { instance, webhook }: { instance: string; webhook: number }) => {
  const { row } = await getWebhookOrThrow(ctx, instance, webhook);
  noteAudit(ctx, { before: webhookBefore(row) });
  await commitRows(ctx, async (trx) => {
    await trx.deleteFrom("webhook_deliveries").where("webhook_id", "=", row.id).execute();
    await trx.deleteFrom("webhooks").where("id", "=", row.id).execute();
  });
};
