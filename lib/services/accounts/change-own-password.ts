import bcrypt from "bcrypt";
import { type FieldError, validationFailed } from "../../errors";
import type { Ctx } from "../../meta/context";
import { hashPassword, passwordProblem } from "./password-rule";
import { bumpSessionVersion, renewCallerSession } from "../../auth/session-version";
import { metaTransaction } from "../../db/meta-transaction";

export type ChangeOwnPasswordInput = { body: { current_password: string; new_password: string } };

/**
 * PUT /account/password: the signed-in account changes its password; the current one must be given (422
 * otherwise). The account's other sessions end; the session that made the change gets a renewed cookie.
 */
export const changeOwnPassword = async (ctx: Ctx, { body }: ChangeOwnPasswordInput) => {
  const meta = ctx.app.engine.meta;
  const row = await meta.selectFrom("accounts").select(["id", "password_hash"]).where("id", "=", ctx.actor.accountId).executeTakeFirstOrThrow();
  const errors: FieldError[] = [];
  if (!(await bcrypt.compare(body.current_password, row.password_hash))) {
    errors.push({ field: "current_password", code: "wrong_password", message: "current_password is not this account's password" });
  }
  const problem = passwordProblem("new_password", body.new_password);
  if (problem) errors.push(problem);
  if (errors.length) throw validationFailed(errors);
  const hash = await hashPassword(ctx.app, body.new_password);
  const version = await metaTransaction(meta, async (trx) => {
    await trx.updateTable("accounts").set({ password_hash: hash }).where("id", "=", row.id).execute();
    return bumpSessionVersion(trx, row.id);
  });
  await renewCallerSession(ctx, version);
};
