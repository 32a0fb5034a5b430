// One claimed attempt: sign, POST, record the outcome. 2xx = delivered; otherwise the next attempt is
// scheduled (retry-schedule.ts) or, past the last, the delivery failed. A webhook failing for three days
// (scaled) is switched off with its reason.
import { sql } from "kysely";
import type { App } from "../app-type";
import { decryptKey } from "../keys/key-crypto";
import { nowIso } from "../meta/context";
import { metaTransaction } from "../db/meta-transaction";
import { eventsConfig } from "../events/events-config";
import type { Claimed } from "./claim-deliveries";
import { postWebhook } from "./post-webhook";
import { DISABLE_AFTER_SECONDS, nextAttemptAt } from "./retry-schedule";
import { webhookHeaders } from "./sign-payload";

/** What an attempt needs of its webhook; loaded once per batch of claims (lookup-webhooks below). */
export type Target = { url: string; secret: string; failing: boolean };

/** The targets of a batch's webhooks, secrets decrypted once. */
export const lookupWebhooks = async (app: App, ids: number[]): Promise<Map<number, Target>> => {
  if (ids.length === 0) return new Map();
  const rows = await app.engine.meta.selectFrom("webhooks").select(["id", "url", "secret", "failing_since"]).where("id", "in", [...new Set(ids)]).execute();
  return new Map(rows.map((r) => [Number(r.id), { url: r.url, secret: decryptKey(app.secret, r.secret), failing: r.failing_since !== null }]));
};

/** Only a change of state writes: the first failure, a recovery, or the disable check while failing. */
const markWebhook = async (app: App, webhookId: number, target: Target, ok: boolean, error: string) => {
  const meta = app.engine.meta;
  if (ok) {
    if (target.failing) await meta.updateTable("webhooks").set({ failing_since: null }).where("id", "=", webhookId).execute();
    target.failing = false;
    return;
  }
  const now = nowIso();
  if (!target.failing) await meta.updateTable("webhooks").set({ failing_since: now }).where("id", "=", webhookId).where("failing_since", "is", null).execute();
  target.failing = true;
  const cutoff = new Date(Date.now() - DISABLE_AFTER_SECONDS * 1000 * eventsConfig(app.config).retryScale).toISOString();
  await meta
    .updateTable("webhooks")
    .set({ active: 0, disabled_reason: `Disabled: every delivery failed for 3 days; last error: ${error}`.slice(0, 255), updated_at: now })
    .where("id", "=", webhookId)
    .where("active", "=", 1)
    .where("failing_since", "<", cutoff)
    .execute();
};

/** The delivery columns an attempt's outcome sets. */
const OUTCOME_COLUMNS = ["status", "next_attempt_at", "claimed_until", "request_headers", "response_status", "response_body", "duration_ms", "error", "updated_at"] as const;
type OutcomeValues = Record<(typeof OUTCOME_COLUMNS)[number], string | number | null>;

/** One attempt's result, recorded with the rest of its batch (recordOutcomes); no values when it could not be made. */
export type Outcome = { claimed: Claimed; ok: boolean; error: string | null; values?: OutcomeValues };

/** Sends one claimed attempt now; `retries` false for a one-off (test) that is not scheduled again. */
export const sendAttempt = async (app: App, claimed: Claimed, target: Target, retries = true): Promise<Outcome> => {
  const config = eventsConfig(app.config);
  const headers = webhookHeaders(target.secret, claimed.message_id, claimed.payload);
  const result = await postWebhook({ url: target.url, headers, body: claimed.payload, timeoutMs: config.timeoutMs, allowPrivate: config.allowPrivate });
  const ok = result.status !== undefined && result.status >= 200 && result.status < 300;
  const error = ok ? null : (result.error ?? `answered ${result.status}`).slice(0, 255);
  const next = ok || !retries ? undefined : nextAttemptAt(claimed.attempts, config.retryScale);
  const now = nowIso();
  const values: OutcomeValues = {
    status: ok ? "delivered" : next ? "pending" : "failed",
    next_attempt_at: next ?? now,
    claimed_until: null,
    request_headers: JSON.stringify(headers),
    response_status: result.status ?? null,
    response_body: result.body ?? null,
    duration_ms: result.durationMs,
    error,
    updated_at: now,
  };
  return { claimed, ok, error, values };
};

/**
 * A batch's outcomes as one UPDATE joined to the rows of new values, and each attempt's line in the attempt log
 * (two statements and one commit, not one per delivery). A lease taken over by another process (attempts moved on) is left alone: its outcome wins.
 */
const writeOutcomes = async (app: App, outcomes: Required<Outcome>[]) => {
  const names = ["id", "attempts", ...OUTCOME_COLUMNS];
  const rows = outcomes.map(({ claimed, values }, i) => {
    const cells = [claimed.id, claimed.attempts, ...OUTCOME_COLUMNS.map((c) => values[c])];
    return sql`SELECT ${i === 0 ? sql.join(cells.map((v, j) => sql`${v} AS ${sql.id(names[j])}`)) : sql.join(cells)}`;
  });
  const given = sql`(${sql.join(rows, sql` UNION ALL `)}) AS ${sql.id("v")}`;
  const d = sql.id("webhook_deliveries");
  const from = (c: string) => sql.ref(`v.${c}`);
  const statement =
    app.engine.kind === "mysql"
      ? sql`UPDATE ${d} JOIN ${given} ON ${sql.ref("webhook_deliveries.id")} = ${from("id")} AND ${sql.ref("webhook_deliveries.attempts")} = ${from("attempts")}
          SET ${sql.join(OUTCOME_COLUMNS.map((c) => sql`${sql.ref(`webhook_deliveries.${c}`)} = ${from(c)}`))}`
      : sql`UPDATE ${d} SET ${sql.join(OUTCOME_COLUMNS.map((c) => sql`${sql.id(c)} = ${from(c)}`))} FROM ${given}
          WHERE ${sql.ref("webhook_deliveries.id")} = ${from("id")} AND ${sql.ref("webhook_deliveries.attempts")} = ${from("attempts")}`;
  // Every attempt made is logged, a taken-over one too: its request went out and its receiver answered.
  const attempts = outcomes.map(({ claimed, ok, values }) => ({
    delivery_id: claimed.id,
    attempt: claimed.attempts,
    ok: ok ? 1 : 0,
    response_status: values.response_status as number | null,
    response_body: values.response_body as string | null,
    duration_ms: values.duration_ms as number | null,
    error: values.error as string | null,
    created_at: values.updated_at as string,
  }));
  // Beside another process's claim (FOR UPDATE on the same rows) this can lose a deadlock: run again, or the
  // attempts stay leased, unrecorded, until the lease runs out.
  await metaTransaction(app.engine.meta, async (trx) => {
    await statement.execute(trx);
    await trx.insertInto("webhook_attempts").values(attempts).execute();
  });
};

/**
 * Writes a batch's outcomes (those attempts that were made), then each webhook's state once: recovered if any
 * attempt succeeded, else failing (and maybe disabled).
 */
export const recordOutcomes = async (app: App, outcomes: Outcome[], targets: Map<number, Target>) => {
  const made = outcomes.filter((o): o is Required<Outcome> => o.values !== undefined);
  if (made.length === 0) return;
  await writeOutcomes(app, made);
  const byWebhook = new Map<number, Outcome[]>();
  for (const o of made) byWebhook.set(o.claimed.webhook_id, [...(byWebhook.get(o.claimed.webhook_id) ?? []), o]);
  for (const [id, list] of byWebhook) {
    const target = targets.get(id);
    const ok = list.some((o) => o.ok);
    if (target) await markWebhook(app, id, target, ok, list.find((o) => !o.ok)?.error ?? "");
  }
};
