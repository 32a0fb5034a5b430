import type { DbCtx } from "../../meta/context";
import { nowIso } from "../../meta/context";
import { commitRows } from "../../meta/commit-meta";
import { encryptKey } from "../../keys/key-crypto";
import type { WebhookCreate } from "../../contract/schemas/webhooks";
import { ensureOutbox } from "../../events/outbox/outbox-table";
import { outboxBounds } from "../../events/outbox/read-events";
import { checkWebhookInput } from "./check-webhook-input";
import { generateWebhookSecret } from "../../webhooks/sign-payload";
import { webhookView } from "./webhook-view";

/** POST /databases/{instance}/webhooks: events from now on (the cursor starts at the outbox's last id). */
export const createWebhook = async (ctx: DbCtx, { instance, body }: { instance: string; body: WebhookCreate }) => {
  const { app } = ctx;
  const { schema } = ctx.database;
  await checkWebhookInput(app, schema, body);
  await ensureOutbox(app.engine, schema.physical);
  const { high } = await outboxBounds(app.engine.userDb(schema.physical));
  const now = nowIso();
  const row = {
    database_id: schema.id,
    url: body.url,
    tables: body.tables ? JSON.stringify(body.tables) : null,
    actions: body.actions ? JSON.stringify(body.actions) : null,
    active: body.active === false ? 0 : 1,
    secret: encryptKey(app.secret, generateWebhookSecret()),
    cursor: high,
    failing_since: null,
    disabled_reason: null,
    created_at: now,
    updated_at: now,
  };
  // In the transaction that checks the plan's webhook cap (the route's quota), so two creates cannot pass it together.
  const { insertId } = await commitRows(ctx, (trx) => trx.insertInto("webhooks").values(row).executeTakeFirstOrThrow());
  return webhookView(app, { ...row, id: Number(insertId) });
};
