import bcrypt from "bcrypt";
import { invalidField } from "../../errors";
import type { Ctx } from "../../meta/context";
import { hashPassword } from "./password-rule";
import { bumpSessionVersion, renewCallerSession } from "../../auth/session-version";
import { commitRows } from "../../meta/commit-meta";

export type ChangeOwnPasswordInput = { body: { current_password: string; new_password: string } };

/**
 * PUT /account/password: the signed-in account changes its password; the current one must be given (422
 * otherwise). The account's other sessions end; the session that made the change gets a renewed cookie.
 */
export const changeOwnPassword = async (ctx: Ctx, { body }: ChangeOwnPasswordInput) => {
  const meta = ctx.app.engine.meta;
  const row = await meta.selectFrom("accounts").select(["id", "password_hash"]).where("id", "=", ctx.actor.accountId).executeTakeFirstOrThrow();
  if (!(await bcrypt.compare(body.current_password, row.password_hash))) {
    throw invalidField("current_password", "wrong_password", "current_password is not this account's password");
  }
  const hash = await hashPassword(ctx.app, body.new_password);
  const version = await commitRows(ctx, async (trx) => {
    await trx.updateTable("accounts").set({ password_hash: hash }).where("id", "=", row.id).execute();
    return bumpSessionVersion(trx, row.id);
  });
  await renewCallerSession(ctx, version);
};
