// The users admin's writes on one database user: mark verified, disable (its sessions end), enable, mail a
// password reset through the same flow as /auth/password/forgot, end its sessions, remove its authenticator. Each change and its audit
// entry commit in one transaction; every answer is the user as the list shows it.
import { logger } from "../../ops/logger";
import { setUserDisabled } from "../../db-auth/disable-user";
import { type AuthDatabase, emailColumn } from "../../db-auth/auth-database";
import { linkBase, sendAuthMail } from "../../db-auth/auth-mails";
import { newMailToken, saveMailToken } from "../../db-auth/mail-tokens";
import { endUserSessions } from "../../db-auth/sessions";
import { markVerified } from "../../db-auth/user-state";
import { removeFactor } from "../../db-auth/mfa/totp-factor";
import { ApiError } from "../../errors";
import { noteAudit } from "../../meta/audit/audit-slot";
import { commitAuditOnly, commitRows } from "../../meta/commit-meta";
import type { DbCtx } from "../../meta/context";
import { authDatabaseOf, describeUsers, getAuthUserRowOrThrow } from "./describe-users";

export type AuthUserInput = { instance: string; user: number };

/** Finds the user (404), notes it as the audit target, runs `change` in the audited transaction, answers the user. */
const onUser = async (ctx: DbCtx, userId: number, change: (database: AuthDatabase, userId: number, trx: Parameters<Parameters<typeof commitRows>[1]>[0]) => Promise<unknown>) => {
  const database = authDatabaseOf(ctx);
  const row = await getAuthUserRowOrThrow(ctx.app, database, userId);
  noteAudit(ctx, { target: `${database.auth.users_table}.${userId}` });
  await commitRows(ctx, (trx) => change(database, userId, trx));
  const [user] = await describeUsers(ctx.app.engine.meta, database, [row]);
  return { user };
};

export const verifyAuthUser = (ctx: DbCtx, { user }: AuthUserInput) => onUser(ctx, user, (database, userId, trx) => markVerified(trx, database.schema.id, userId));

export const disableAuthUser = (ctx: DbCtx, { user }: AuthUserInput) => onUser(ctx, user, (database, userId, trx) => setUserDisabled(ctx.app, database.schema.id, userId, true, trx));

export const enableAuthUser = (ctx: DbCtx, { user }: AuthUserInput) => onUser(ctx, user, (database, userId, trx) => setUserDisabled(ctx.app, database.schema.id, userId, false, trx));

export const endAuthUserSessions = (ctx: DbCtx, { user }: AuthUserInput) => onUser(ctx, user, (database, userId, trx) => endUserSessions(ctx.app, database.schema.id, userId, "admin", trx));

/** Removes the user's authenticator and recovery codes (a user who lost both); with `mfa: "required"` it enrols again at its next sign-in. */
export const resetAuthUserMfa = (ctx: DbCtx, { user }: AuthUserInput) => onUser(ctx, user, (database, userId, trx) => removeFactor(trx, database.schema.id, userId));

/** A reset mail, as the user would get from "forgot password" (link to the first redirect URL, or the API's reset path); 409 for a disabled user. */
export const sendAuthUserReset = async (ctx: DbCtx, { user: userId }: AuthUserInput) => {
  const database = authDatabaseOf(ctx);
  const row = await getAuthUserRowOrThrow(ctx.app, database, userId);
  const [before] = await describeUsers(ctx.app.engine.meta, database, [row]);
  if (before.disabled) throw new ApiError("conflict", "This user is disabled: enable it before sending a reset.");
  const to = before.email;
  if (!to) throw new ApiError("conflict", `This user has no address in "${emailColumn(database)}".`);
  const base = linkBase({ origin: ctx.origin ?? "" }, database, "reset", undefined);
  const made = newMailToken(ctx.app, "reset");
  noteAudit(ctx, { target: `${database.auth.users_table}.${userId}` });
  // The token lives in the meta store beside the mailbox row; the audit entry records that an admin sent it.
  await saveMailToken(ctx.app, database, userId, "reset", made);
  await sendAuthMail(ctx.app, database, { kind: "reset", to, base, token: made.token }, true).catch((err) => {
    logger.warn({ database: database.schema.instance, err: (err as Error).message }, "reset mail not written");
    throw err;
  });
  await commitAuditOnly(ctx);
  return { user: before };
};
