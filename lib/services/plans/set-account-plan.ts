import { invalidField, notFound } from "../../errors";
import type { Ctx } from "../../meta/context";
import { commitMeta } from "../../meta/commit-meta";
import { planExists } from "../../plans/effective-plan";
import { readAccount } from "../accounts/account-view";

export type SetAccountPlanInput = { account: number; body: { plan: string } };

/** PATCH /accounts/{id}: moves an account to another plan (operator); returns the account as the API shows it. */
export const setAccountPlan = async (ctx: Ctx, { account: accountId, body }: SetAccountPlanInput) => {
  await commitMeta(ctx, { kind: "plans" }, async (trx) => {
    if (!(await planExists(trx, body.plan))) throw invalidField("plan", "unknown_plan", `there is no plan "${body.plan}"`);
    const exists = await trx.selectFrom("accounts").select("id").where("id", "=", accountId).executeTakeFirst();
    if (!exists) throw notFound(`Account ${accountId} was not found.`);
    await trx.updateTable("accounts").set({ plan: body.plan }).where("id", "=", accountId).execute();
  });
  return readAccount(ctx.app, accountId);
};
