import { createHmac, timingSafeEqual } from "node:crypto";
import type { App } from "../app-type";
import { grantCredits } from "../credits/ledger";
import { notFound, unauthorized } from "../errors";
import type { CoreRequest } from "../http/core-types";
import type { Actor, Ctx } from "../meta/context";
import { creditGrantView } from "../credits/credit-grant-view";
import type { CreditKind } from "../credits/ledger-kinds";

const SIGNATURE_HEADER = "x-tabula-signature";

/** The webhook acts for no account: what it may do is decided by its body, once the signature holds. */
const BILLING_ACTOR: Actor = { accountId: 0, isOperator: false, keyDatabaseId: null };

/** The hex HMAC-SHA256 of a body, as the payment side signs it (`X-Tabula-Signature: sha256=<this>`). */
export const signBillingBody = (secret: string, body: string) => createHmac("sha256", secret).update(body).digest("hex");

/**
 * The billing webhook's authentication: the raw body's HMAC-SHA256 with BILLING_WEBHOOK_SECRET, compared in
 * constant time. A missing secret, header or match is 401 and nothing is read from the body.
 */
export const billingActor = (app: App, req: CoreRequest): Actor => {
  const secret = app.config.billingWebhookSecret;
  if (!secret) throw unauthorized("The billing webhook is off: BILLING_WEBHOOK_SECRET is not set on this server.");
  const match = /^sha256=([0-9a-f]{64})$/i.exec((req.header(SIGNATURE_HEADER) ?? "").trim());
  if (!match) throw unauthorized("Send X-Tabula-Signature: sha256=<hex HMAC-SHA256 of the body with BILLING_WEBHOOK_SECRET>.");
  const expected = Buffer.from(signBillingBody(secret, req.body ?? ""), "hex");
  if (!timingSafeEqual(expected, Buffer.from(match[1], "hex"))) throw unauthorized("X-Tabula-Signature does not match the body.");
  return BILLING_ACTOR;
};

export type BillingGrantInput = { body: { account: number | string; kind: CreditKind; amount: number; source: string; note?: string } };

/** POST /billing/webhook: a purchase grants credits to the account named by id or email; a replay grants once. */
export const receiveBillingWebhook = async (ctx: Ctx, { body }: BillingGrantInput) => {
  const meta = ctx.app.engine.meta;
  const query = meta.selectFrom("accounts").select("id");
  const account = await (typeof body.account === "number" ? query.where("id", "=", body.account) : query.where("email", "=", body.account.trim().toLowerCase())).executeTakeFirst();
  if (!account) throw notFound(`No account ${typeof body.account === "number" ? "with id" : "with email"} ${body.account}.`);
  const granted = await grantCredits(ctx.app, { accountId: account.id, kind: body.kind, amount: body.amount, source: body.source, note: body.note, actor: "webhook", audit: ctx.audit });
  return creditGrantView(ctx.app, granted);
};
