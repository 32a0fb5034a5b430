import { selectByIdSql } from "../../api/build-sql";
import { indexTable } from "../../api/table-index";
import { publicUser } from "../../db-auth/handle-auth-request";
import { signUserToken } from "../../db-auth/user-token";
import { ApiError, invalidField, notFound } from "../../errors";
import type { DbCtx } from "../../meta/context";

/** Lifetime of a "test as user" token: long enough to look around, short enough not to matter if it leaks. */
export const IMPERSONATION_TTL = 300;

export type ImpersonateUserInput = { instance: string; body: unknown };

/** POST /databases/{instance}/auth/impersonate {user_id}: a short-lived JWT for that user (the dashboard's "test as user"). */
export const impersonateUser = async (ctx: DbCtx, { instance, body: input }: ImpersonateUserInput) => {
  const schema = ctx.database;
  const auth = schema.auth;
  if (!auth?.enabled) throw new ApiError("conflict", "Database auth is not enabled for this database; turn it on first.");
  const userId = (input as { user_id?: unknown } | null)?.user_id;
  if (!Number.isSafeInteger(userId) || (userId as number) < 1) throw invalidField("user_id", "invalid_type", "user_id must be the id of a row of the users table");
  const index = indexTable(schema.tables.get(auth.users_table)!);
  const udb = ctx.app.engine.userDb(schema.physical);
  const { rows } = await selectByIdSql(udb, index.table.name, index.all, userId as number).execute(udb.db);
  if (!rows[0]) throw notFound(`No user with id ${userId} in ${index.table.name}.`);
  return { ...(await signUserToken(schema, userId as number, Math.min(IMPERSONATION_TTL, auth.token_ttl_seconds))), user: publicUser(index, rows[0] as Record<string, unknown>) };
};
