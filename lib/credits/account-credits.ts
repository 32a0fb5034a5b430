import type { App } from "../app";
import type { Ctx } from "../meta/context";
import { creditBalances, type GrantResult, grantCredits, readLedger } from "./ledger";
import type { CreditKind } from "./ledger-kinds";
import { pathId } from "../http/path-id";

export const creditGrantView = async (app: App, { accountId, entry, duplicate }: GrantResult) => ({
  account: accountId,
  entry,
  duplicate,
  balances: await creditBalances(app.engine.meta, accountId),
});

export type GrantAccountCreditsInput = { account: string; body: { kind: CreditKind; amount: number; source?: string; note?: string } };

/** POST /accounts/{id}/credits: the operator grants credits (a purchase outside the webhook, a gift, a refund). */
export const grantAccountCredits = async (ctx: Ctx, { account, body }: GrantAccountCreditsInput) => {
  const accountId = pathId(account, `Account ${account} was not found.`);
  const granted = await grantCredits(ctx.app, { accountId, ...body, actor: `account:${ctx.actor.accountId}` });
  return creditGrantView(ctx.app, granted);
};

/** GET /account/credits: the caller's ledger, newest first, with its balances. */
export const readAccountCredits = (ctx: Ctx, _input: Record<string, never>) => readLedger(ctx.app.engine.meta, ctx.actor.accountId);
