import type { App } from "../app-type";
import { creditBalances, type GrantResult } from "./ledger";

/** A grant as the API answers it: the entry, whether it was a replay, and the account's balances after it. */
export const creditGrantView = async (app: App, { accountId, entry, duplicate }: GrantResult) => ({
  account: accountId,
  entry,
  duplicate,
  balances: await creditBalances(app.engine.meta, accountId),
});
