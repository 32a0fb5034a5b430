import type { Ctx } from "../../meta/context";
import { accountView } from "./account-view";
import type { NewAccount } from "../../contract/schemas/accounts";
import { insertAccount } from "./create-account";

export type AddAccountInput = { body: NewAccount };

/** POST /api/v1/accounts: the operator adds an account (whatever the sign-up setting). */
export const addAccount = async (ctx: Ctx, { body }: AddAccountInput) => {
  const { account } = await insertAccount(ctx.app, body, ctx.audit);
  return accountView(ctx.app, { ...account, is_operator: account.is_operator ? 1 : 0, disabled_at: null });
};
