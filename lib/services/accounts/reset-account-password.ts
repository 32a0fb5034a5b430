import { randomInt } from "node:crypto";
import { readAccount } from "./account-view";
import type { Ctx } from "../../meta/context";
import { getAccountOrThrow } from "./get-account-or-throw";
import { hashPassword } from "./password-rule";
import { bumpSessionVersion } from "../../auth/session-version";
import { commitRows } from "../../meta/commit-meta";

export type ResetAccountPasswordInput = { account: number; body: { password?: string } };

// No look-alikes (0/O, 1/l/I): the password is read off a screen and typed elsewhere.
const ALPHABET = "abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/** Four groups of four characters (about 92 bits): easy to read out, hard to guess. */
const generatePassword = () =>
  Array.from({ length: 4 }, () => Array.from({ length: 4 }, () => ALPHABET[randomInt(ALPHABET.length)]).join("")).join("-");

/**
 * POST /accounts/{id}/password (operator): sets the password the operator typed, or a generated one returned
 * once. Every session of the account ends, the operator's own included when it resets itself.
 */
export const resetAccountPassword = async (ctx: Ctx, { account, body }: ResetAccountPasswordInput) => {
  const row = await getAccountOrThrow(ctx.app.engine.meta, account);
  const generated = body.password === undefined ? generatePassword() : null;
  const password = body.password ?? generated!;
  const hash = await hashPassword(ctx.app, password);
  await commitRows(ctx, async (trx) => {
    await trx.updateTable("accounts").set({ password_hash: hash }).where("id", "=", row.id).execute();
    await bumpSessionVersion(trx, row.id);
  });
  return { account: await readAccount(ctx.app, row.id), generated_password: generated };
};
