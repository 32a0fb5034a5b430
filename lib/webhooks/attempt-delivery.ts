// One claimed attempt: sign, POST, record the outcome. 2xx = delivered; otherwise the next attempt is
// scheduled (retry-schedule.ts) or, past the last, the delivery failed. A webhook failing for three days
// (scaled) is switched off with its reason.
import type { App } from "../app";
import { decryptKey } from "../keys/key-crypto";
import { nowIso } from "../meta/context";
import { eventsConfig } from "../events/events-config";
import type { Claimed } from "./claim-deliveries";
import { postWebhook } from "./post-webhook";
import { DISABLE_AFTER_SECONDS, nextAttemptAt } from "./retry-schedule";
import { webhookHeaders } from "./sign-payload";

const markWebhook = async (app: App, webhookId: number, ok: boolean, error: string) => {
  const meta = app.engine.meta;
  if (ok) {
    await meta.updateTable("webhooks").set({ failing_since: null }).where("id", "=", webhookId).where("failing_since", "is not", null).execute();
    return;
  }
  const now = nowIso();
  await meta.updateTable("webhooks").set({ failing_since: now }).where("id", "=", webhookId).where("failing_since", "is", null).execute();
  const cutoff = new Date(Date.now() - DISABLE_AFTER_SECONDS * 1000 * eventsConfig(app.config).retryScale).toISOString();
  await meta
    .updateTable("webhooks")
    .set({ active: 0, disabled_reason: `Disabled: every delivery failed for 3 days; last error: ${error}`.slice(0, 255), updated_at: now })
    .where("id", "=", webhookId)
    .where("active", "=", 1)
    .where("failing_since", "<", cutoff)
    .execute();
};

/** Sends one claimed attempt now; `retries` false for a one-off (test) that is not scheduled again. */
export const attemptDelivery = async (app: App, claimed: Claimed, retries = true) => {
  const config = eventsConfig(app.config);
  const meta = app.engine.meta;
  const hook = await meta.selectFrom("webhooks").select(["url", "secret", "active"]).where("id", "=", claimed.webhook_id).executeTakeFirst();
  if (!hook) return;
  const headers = webhookHeaders(decryptKey(app.secret, hook.secret), claimed.message_id, claimed.payload);
  const result = await postWebhook({ url: hook.url, headers, body: claimed.payload, timeoutMs: config.timeoutMs, allowPrivate: config.allowPrivate });
  const ok = result.status !== undefined && result.status >= 200 && result.status < 300;
  const error = ok ? null : (result.error ?? `answered ${result.status}`).slice(0, 255);
  const next = ok || !retries ? undefined : nextAttemptAt(claimed.attempts, config.retryScale);
  const now = nowIso();
  await meta
    .updateTable("webhook_deliveries")
    .set({
      status: ok ? "delivered" : next ? "pending" : "failed",
      next_attempt_at: next ?? now,
      claimed_until: null,
      request_headers: JSON.stringify(headers),
      response_status: result.status ?? null,
      response_body: result.body ?? null,
      duration_ms: result.durationMs,
      error,
      updated_at: now,
    })
    .where("id", "=", claimed.id)
    .where("attempts", "=", claimed.attempts) // a lease taken over by another process: its outcome wins
    .execute();
  await markWebhook(app, claimed.webhook_id, ok, error ?? "");
};
