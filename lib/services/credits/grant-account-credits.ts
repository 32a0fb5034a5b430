import { creditGrantView } from "../../credits/credit-grant-view";
import { grantCredits } from "../../credits/ledger";
import type { CreditKind } from "../../credits/ledger-kinds";
import type { Ctx } from "../../meta/context";

export type GrantAccountCreditsInput = { account: number; body: { kind: CreditKind; amount: number; source?: string; note?: string } };

/** POST /accounts/{id}/credits: the operator grants credits (a purchase outside the webhook, a gift, a refund). */
export const grantAccountCredits = async (ctx: Ctx, { account: accountId, body }: GrantAccountCreditsInput) => {
  const granted = await grantCredits(ctx.app, { accountId, ...body, actor: `account:${ctx.actor.accountId}`, audit: ctx.audit });
  return creditGrantView(ctx.app, granted);
};
