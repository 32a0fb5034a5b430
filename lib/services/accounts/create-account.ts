import type { App } from "../../app-type";
import { conflict, type FieldError, validationFailed } from "../../errors";
import { nowIso } from "../../meta/context";
import { insertKey } from "../keys/create-key";
import { hashPassword, passwordProblem } from "./password-rule";
import { metaTransaction } from "../../db/meta-transaction";

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Creates an account and its first account-wide secret key. The first account of an install is the operator.
 * Used by `npx tabula create-account` and, later, by dashboard sign-up.
 */
export const createAccount = async (app: App, input: { email: unknown; password: unknown }) => {
  const errors: FieldError[] = [];
  const email = typeof input.email === "string" ? input.email.trim().toLowerCase() : "";
  if (!EMAIL_RE.test(email) || email.length > 255) errors.push({ field: "email", code: "invalid_email", message: "email must be an email address" });
  const passwordError = passwordProblem("password", input.password);
  if (passwordError) errors.push(passwordError);
  if (errors.length) throw validationFailed(errors);
  const meta = app.engine.meta;
  if (await meta.selectFrom("accounts").select("id").where("email", "=", email).executeTakeFirst()) {
    throw conflict(`An account with email ${email} already exists.`, [{ field: "email", code: "duplicate", message: "email is taken" }]);
  }
  const passwordHash = await hashPassword(app, input.password as string);
  const accountId = await metaTransaction(meta, async (trx) => {
    const first = !(await trx.selectFrom("accounts").select("id").limit(1).executeTakeFirst());
    const result = await trx
      .insertInto("accounts")
      .values({ email, password_hash: passwordHash, is_operator: first ? 1 : 0, plan: app.config.defaultPlan ?? "free", created_at: nowIso() })
      .executeTakeFirstOrThrow();
    return Number(result.insertId);
  });
  const account = await meta.selectFrom("accounts").select(["id", "email", "is_operator", "created_at"]).where("id", "=", accountId).executeTakeFirstOrThrow();
  const actor = { accountId, isOperator: account.is_operator === 1, keyDatabaseId: null };
  const key = await insertKey({ app, actor }, { name: "Default key", databaseId: null, instance: null });
  return { account: { id: account.id, email: account.email, is_operator: account.is_operator === 1, created_at: account.created_at }, key };
};
