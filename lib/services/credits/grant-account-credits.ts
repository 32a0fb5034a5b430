import { creditGrantView } from "../../credits/credit-grant-view";
import { grantCredits } from "../../credits/ledger";
import type { CreditKind } from "../../credits/ledger-kinds";
import { pathId } from "../../http/path-id";
import type { Ctx } from "../../meta/context";

export type GrantAccountCreditsInput = { account: string; body: { kind: CreditKind; amount: number; source?: string; note?: string } };

/** POST /accounts/{id}/credits: the operator grants credits (a purchase outside the webhook, a gift, a refund). */
export const grantAccountCredits = async (ctx: Ctx, { account, body }: GrantAccountCreditsInput) => {
  const accountId = pathId(account, `Account ${account} was not found.`);
  const granted = await grantCredits(ctx.app, { accountId, ...body, actor: `account:${ctx.actor.accountId}` });
  return creditGrantView(ctx.app, granted);
};
