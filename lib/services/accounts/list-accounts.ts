import type { Ctx } from "../../meta/context";
import { ACCOUNT_COLUMNS, accountView } from "./account-view";

export type ListAccountsInput = Record<string, never>;

/** GET /api/v1/accounts: every account of this install with its plan, usage and credits, for the operator. */
export const listAccounts = async (ctx: Ctx, _input: ListAccountsInput) => {
  const meta = ctx.app.engine.meta;
  const rows = await meta.selectFrom("accounts").select(ACCOUNT_COLUMNS).orderBy("id").execute();
  return Promise.all(rows.map((r) => accountView(ctx.app, r)));
};
