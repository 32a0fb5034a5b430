import { z } from "zod";
import { component, Timestamp } from "./common";

const Action = z.enum(["insert", "update", "delete"]);
const Tables = z.array(z.string()).min(1).max(100).nullable().meta({ description: "Table names whose events are sent; null = every table." });
const Actions = z.array(Action).min(1).nullable().meta({ description: "Actions sent; null = every action." });
const Url = z.string().max(2048).meta({ description: "http(s) URL the events are POSTed to. Private and loopback addresses are refused unless WEBHOOK_ALLOW_PRIVATE=1; link-local ones always." });

export const WebhookCreate = component(
  "WebhookCreate",
  z
    .strictObject({ url: Url, tables: Tables.optional(), actions: Actions.optional(), active: z.boolean().optional().meta({ default: true }) })
    .meta({ example: { url: "https://example.com/hooks/tabula", tables: ["orders"], actions: ["insert", "update"] } }),
);

export const WebhookUpdate = component(
  "WebhookUpdate",
  z
    .strictObject({ url: Url.optional(), tables: Tables.optional(), actions: Actions.optional(), active: z.boolean().optional().meta({ description: "true re-enables a disabled webhook (clears the reason)." }) })
    .meta({ example: { active: true } }),
);

export const Webhook = component(
  "Webhook",
  z.object({
    id: z.int(),
    url: z.string(),
    tables: z.array(z.string()).nullable(),
    actions: z.array(Action).nullable(),
    active: z.boolean(),
    secret: z.string().meta({ description: "The signing secret (`whsec_…`), for Standard Webhooks verification; shown to admins." }),
    failing_since: Timestamp.nullable().meta({ description: "Since when every attempt has failed; null while deliveries succeed." }),
    disabled_reason: z.string().nullable().meta({ description: "Why the webhook was switched off (failing for 3 days)." }),
    created_at: Timestamp,
    updated_at: Timestamp,
  }),
);

export const Delivery = component(
  "WebhookDelivery",
  z.object({
    id: z.int(),
    webhook_id: z.int(),
    event_id: z.int().nullable().meta({ description: "The change event's id; null for a test delivery." }),
    status: z.enum(["pending", "delivering", "delivered", "failed"]),
    attempts: z.int(),
    response_status: z.int().nullable(),
    duration_ms: z.number().nullable(),
    next_attempt_at: Timestamp.nullable().meta({ description: "When the next attempt is due (pending only)." }),
    error: z.string().nullable(),
    request: z.object({ headers: z.record(z.string(), z.string()).nullable(), body: z.string() }),
    response: z.object({ status: z.int().nullable(), body: z.string().nullable().meta({ description: "At most 4 KiB." }) }),
    attempt_log: z
      .array(
        z.object({
          attempt: z.int().meta({ description: "1 for the first attempt; a redelivery counts from 1 again." }),
          ok: z.boolean().meta({ description: "The receiver answered 2xx." }),
          response_status: z.int().nullable(),
          response_body: z.string().nullable().meta({ description: "At most 4 KiB." }),
          duration_ms: z.number().nullable(),
          error: z.string().nullable(),
          at: Timestamp,
        }),
      )
      .meta({ description: "Every attempt made, oldest first, each with its own outcome; `request`/`response` are the last one's." }),
    created_at: Timestamp,
    updated_at: Timestamp,
  }),
);

export const DeliveryQuery = z.object({
  status: z.enum(["pending", "delivering", "delivered", "failed"]).optional(),
  limit: z.coerce.number().int().min(1).max(200).optional().meta({ default: 50 }),
});

export type WebhookCreate = z.output<typeof WebhookCreate>;
export type WebhookUpdate = z.output<typeof WebhookUpdate>;
