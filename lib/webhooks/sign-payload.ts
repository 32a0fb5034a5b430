// Standard Webhooks signatures (standardwebhooks.com): HMAC-SHA256 over `{id}.{timestamp}.{body}` with the
// base64 key after `whsec_`, sent as `v1,<base64>`; receivers verify with any Standard Webhooks library.
import { createHmac, randomBytes } from "node:crypto";

export const generateWebhookSecret = () => `whsec_${randomBytes(24).toString("base64")}`;

const signPayload = (secret: string, messageId: string, timestamp: number, body: string) =>
  `v1,${createHmac("sha256", Buffer.from(secret.slice("whsec_".length), "base64")).update(`${messageId}.${timestamp}.${body}`).digest("base64")}`;

/** The headers of one attempt; the timestamp is the attempt's, so a retry is signed afresh. */
export const webhookHeaders = (secret: string, messageId: string, body: string, now = Date.now()) => {
  const timestamp = Math.floor(now / 1000);
  return {
    "content-type": "application/json",
    "user-agent": "Tabula-Webhooks/1",
    "webhook-id": messageId,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": signPayload(secret, messageId, timestamp, body),
  };
};
