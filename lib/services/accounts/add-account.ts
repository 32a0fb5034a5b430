import type { Ctx } from "../../meta/context";
import { accountView } from "./account-view";
import { createAccount } from "./create-account";

export type AddAccountInput = { body: unknown };

/** POST /api/v1/accounts: the operator adds an account (whatever the sign-up setting). */
export const addAccount = async (ctx: Ctx, { body: input }: AddAccountInput) => {
  const body = (typeof input === "object" && input !== null ? input : {}) as { email?: unknown; password?: unknown };
  const { account } = await createAccount(ctx.app, { email: body.email, password: body.password });
  return accountView(ctx.app.engine.meta, { ...account, is_operator: account.is_operator ? 1 : 0, disabled_at: null });
};
