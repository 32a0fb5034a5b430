import { commitRows } from "../../meta/commit-meta";
import type { AuditSlot } from "../../meta/audit/audit-slot";
import type { App } from "../../app-type";
import { conflict } from "../../errors";
import { nowIso } from "../../meta/context";
import { insertKey } from "../keys/create-key";
import { hashPassword } from "./password-rule";
import { AccountCreate, type NewAccount } from "../../contract/schemas/accounts";
import { parseWith } from "../../contract/parse-input";

/**
 * Creates an account from input no route has parsed (`npx tabula create-account`, dashboard sign-up): it is
 * held to the schema of POST /api/v1/accounts, so the three ways in refuse the same input with the same 422.
 */
export const createAccount = async (app: App, input: { email: unknown; password: unknown }) => insertAccount(app, parseWith(AccountCreate, input));

/** Creates an account and its first account-wide secret key. The first account of an install is the operator. */
export const insertAccount = async (app: App, { email, password }: NewAccount, audit?: AuditSlot) => {
  const meta = app.engine.meta;
  if (await meta.selectFrom("accounts").select("id").where("email", "=", email).executeTakeFirst()) {
    throw conflict(`An account with email ${email} already exists.`, [{ field: "email", code: "duplicate", message: "email is taken" }]);
  }
  const passwordHash = await hashPassword(app, password);
  const accountId = await commitRows({ app, audit }, async (trx) => {
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
