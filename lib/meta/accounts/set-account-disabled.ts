import { conflict } from "../../errors";
import { readAccount } from "../../plans/account-view";
import { bumpMetaVersion, type Ctx, nowIso } from "../context";
import { getAccountOrThrow } from "./get-account-or-throw";
import { metaTransaction } from "../../db/meta-transaction";

export type SetAccountDisabledInput = { account: string; disabled: boolean };

/**
 * POST /accounts/{id}/disable and /enable (operator). A disabled account cannot sign in, its sessions end at
 * their next request and its keys are refused (403) on both APIs; enabling restores all of it. The operator's
 * own account cannot be disabled (nobody could enable it again).
 */
export const setAccountDisabled = async (ctx: Ctx, { account, disabled }: SetAccountDisabledInput) => {
  const accountId = await metaTransaction(ctx.app.engine.meta, async (trx) => {
    const row = await getAccountOrThrow(trx, account);
    if (disabled && row.is_operator === 1) throw conflict("The operator's account cannot be disabled.");
    if ((row.disabled_at !== null) !== disabled) {
      await trx.updateTable("accounts").set({ disabled_at: disabled ? nowIso() : null }).where("id", "=", row.id).execute();
      await bumpMetaVersion(trx);
    }
    return row.id;
  });
  // The key cache holds the account's state: every process drops it (this one at once, others at their next sync).
  ctx.app.events.publish({ kind: "settings" });
  return readAccount(ctx.app.engine.meta, accountId);
};
