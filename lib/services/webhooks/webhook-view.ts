import type { App } from "../../app-type";
import type { WebhookAttemptsTable, WebhookDeliveriesTable, WebhooksTable } from "../../db/meta-schema";
import { decryptKey } from "../../keys/key-crypto";

type Row<T> = { [K in keyof T]: T[K] extends import("kysely").Generated<infer U> ? U : T[K] };

export const webhookView = (app: App, row: Row<WebhooksTable>) => ({
  id: Number(row.id),
  url: row.url,
  tables: row.tables ? (JSON.parse(row.tables) as string[]) : null,
  actions: row.actions ? (JSON.parse(row.actions) as ("insert" | "update" | "delete")[]) : null,
  active: !!row.active,
  secret: decryptKey(app.secret, row.secret),
  failing_since: row.failing_since,
  disabled_reason: row.disabled_reason,
  created_at: row.created_at,
  updated_at: row.updated_at,
});

export const attemptView = (row: Row<WebhookAttemptsTable>) => ({
  attempt: Number(row.attempt),
  ok: !!row.ok,
  response_status: row.response_status === null ? null : Number(row.response_status),
  response_body: row.response_body,
  duration_ms: row.duration_ms === null ? null : Number(row.duration_ms),
  error: row.error,
  at: row.created_at,
});
export type AttemptView = ReturnType<typeof attemptView>;

/** A delivery with its last attempt's request and response, and every attempt made (`attempt_log`). */
export const deliveryView = (row: Row<WebhookDeliveriesTable>, attempts: AttemptView[] = []) => ({
  id: Number(row.id),
  webhook_id: Number(row.webhook_id),
  event_id: row.event_id === null ? null : Number(row.event_id),
  status: row.status,
  attempts: Number(row.attempts),
  response_status: row.response_status,
  duration_ms: row.duration_ms === null ? null : Number(row.duration_ms),
  next_attempt_at: row.status === "pending" ? row.next_attempt_at : null,
  error: row.error,
  request: { headers: row.request_headers ? (JSON.parse(row.request_headers) as Record<string, string>) : null, body: row.payload },
  response: { status: row.response_status, body: row.response_body },
  attempt_log: attempts,
  created_at: row.created_at,
  updated_at: row.updated_at,
});
