import type { Ctx } from "../../meta/context";
import { ACCOUNT_COLUMNS, accountView } from "./account-view";

export type GetCurrentAccountInput = Record<string, never>;

/** GET /api/v1/account: who is signed in (or whose key this is), with plan, usage and credits. */
export const getCurrentAccount = async (ctx: Ctx, _input: GetCurrentAccountInput) => {
  const meta = ctx.app.engine.meta;
  const row = await meta.selectFrom("accounts").select(ACCOUNT_COLUMNS).where("id", "=", ctx.actor.accountId).executeTakeFirstOrThrow();
  return accountView(ctx.app, row);
};
