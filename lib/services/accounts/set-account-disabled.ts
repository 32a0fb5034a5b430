import { conflict } from "../../errors";
import { readAccount } from "./account-view";
import { type Ctx, nowIso } from "../../meta/context";
import { commitMeta } from "../../meta/commit-meta";
import { getAccountOrThrow } from "./get-account-or-throw";
import { bumpSessionVersion } from "../../auth/session-version";

export type SetAccountDisabledInput = { account: number; disabled: boolean };

/**
 * POST /accounts/{id}/disable and /enable (operator). A disabled account cannot sign in, its sessions end at
 * their next request and its keys are refused (403) on both APIs; enabling restores all of it. The operator's
 * own account cannot be disabled (nobody could enable it again).
 */
export const setAccountDisabled = async (ctx: Ctx, { account, disabled }: SetAccountDisabledInput) => {
  // The key cache holds the account's state: every process drops it (this one at once, others at their next sync).
  const settings = { kind: "settings" as const };
  const { accountId } = await commitMeta<{ accountId: number; changed: boolean }>(ctx, ({ changed }) => (changed ? settings : undefined), async (trx) => {
    const row = await getAccountOrThrow(trx, account);
    if (disabled && row.is_operator === 1) throw conflict("The operator's account cannot be disabled.");
    const changed = (row.disabled_at !== null) !== disabled;
    if (changed) {
      await trx.updateTable("accounts").set({ disabled_at: disabled ? nowIso() : null }).where("id", "=", row.id).execute();
      // Enabling again does not bring back the sessions the disable ended.
      if (disabled) await bumpSessionVersion(trx, row.id);
    }
    return { accountId: row.id, changed };
  });
  return readAccount(ctx.app, accountId);
};
