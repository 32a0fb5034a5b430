import { z } from "zod";
import { createWebhook } from "../services/webhooks/create-webhook";
import { listDeliveries, redeliver } from "../services/webhooks/list-deliveries";
import { getWebhook, listWebhooks } from "../services/webhooks/list-webhooks";
import { testWebhook } from "../services/webhooks/test-webhook";
import { deleteWebhook, updateWebhook } from "../services/webhooks/update-webhook";
import { defineRoute } from "./route";
import { Delivery, DeliveryQuery, Webhook, WebhookCreate, WebhookUpdate } from "../contract/schemas/webhooks";

const BASE = "databases/:instance/webhooks";
const common = { permission: "database:admin", tag: "Webhooks" } as const;

export const WEBHOOK_ROUTES = [
  defineRoute({
    ...common, method: "GET", path: BASE, operationId: "listWebhooks",
    summary: "List webhooks", description: "The database's webhooks, with their secrets (admins only).",
    status: 200, response: z.array(Webhook),
    run: (ctx, { instance }) => listWebhooks(ctx, { instance }),
  }),
  defineRoute({
    ...common, method: "POST", path: BASE, operationId: "createWebhook",
    summary: "Create a webhook", description: "Change events from now on are POSTed to `url`, signed per Standard Webhooks with the generated `whsec_` secret; retried for about a day (5 s, 30 s, 2 min, 10 min, 1 h, 3 h, 6 h, 12 h).",
    body: WebhookCreate, status: 201, response: Webhook, quota: "webhooks",
    run: (ctx, { instance, body }) => createWebhook(ctx, { instance, body }),
  }),
  defineRoute({
    ...common, method: "GET", path: `${BASE}/:webhook`, operationId: "getWebhook",
    summary: "Get a webhook", description: "One webhook, with `failing_since` and `disabled_reason` when it fails.",
    status: 200, response: Webhook,
    run: (ctx, { instance, webhook }) => getWebhook(ctx, { instance, webhook }),
  }),
  defineRoute({
    ...common, method: "PATCH", path: `${BASE}/:webhook`, operationId: "updateWebhook",
    summary: "Change a webhook", description: "Changes the fields sent; `active: true` re-enables a disabled webhook.",
    body: WebhookUpdate, status: 200, response: Webhook,
    run: (ctx, { instance, webhook, body }) => updateWebhook(ctx, { instance, webhook, body }),
  }),
  defineRoute({
    ...common, method: "DELETE", path: `${BASE}/:webhook`, operationId: "deleteWebhook",
    summary: "Delete a webhook", description: "The webhook and its deliveries log.",
    status: 204,
    run: (ctx, { instance, webhook }) => deleteWebhook(ctx, { instance, webhook }),
  }),
  defineRoute({
    ...common, method: "POST", path: `${BASE}/:webhook/test`, operationId: "testWebhook",
    summary: "Send a test event", description: "One signed attempt now with an event whose action is `test`; answers its outcome (not retried).",
    status: 200, response: Delivery,
    run: (ctx, { instance, webhook }) => testWebhook(ctx, { instance, webhook }),
  }),
  defineRoute({
    ...common, method: "GET", path: `${BASE}/:webhook/deliveries`, operationId: "listWebhookDeliveries",
    summary: "Deliveries log", description: "Newest first: status, attempts, the last attempt's request and response (body truncated to 4 KiB).",
    query: DeliveryQuery, status: 200, response: z.array(Delivery),
    run: (ctx, { instance, webhook, query }) => listDeliveries(ctx, { instance, webhook, query }),
  }),
  defineRoute({
    ...common, method: "POST", path: `${BASE}/deliveries/:delivery/redeliver`, operationId: "redeliverWebhookDelivery",
    summary: "Redeliver", description: "Queues a delivered or failed delivery again now (same webhook-id), with a fresh retry schedule; one still queued is answered as it is.",
    status: 200, response: Delivery,
    run: (ctx, { instance, delivery }) => redeliver(ctx, { instance, delivery }),
  }),
];
