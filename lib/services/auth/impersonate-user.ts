import { commitAuditOnly } from "../../meta/commit-meta";
import { noteAudit } from "../../meta/audit/audit-slot";
import { selectByIdSql } from "../../api/build-sql";
import { indexTable } from "../../api/table-index";
import { publicUser } from "../../db-auth/auth-database";
import { signUserToken } from "../../db-auth/user-token";
import type { z } from "zod";
import { ApiError, notFound } from "../../errors";
import type { Impersonate } from "../../contract/schemas/auth";
import type { DbCtx } from "../../meta/context";

/** Lifetime of a "test as user" token: long enough to look around, short enough not to matter if it leaks. */
const IMPERSONATION_TTL = 300;

export type ImpersonateUserInput = { instance: string; body: z.output<typeof Impersonate> };

/** POST /databases/{instance}/auth/impersonate {user_id}: a short-lived JWT for that user (the dashboard's "test as user"). */
export const impersonateUser = async (ctx: DbCtx, { body: { user_id: userId } }: ImpersonateUserInput) => {
  const { schema, auth } = ctx.database;
  if (!auth?.enabled) throw new ApiError("conflict", "Database auth is not enabled for this database; turn it on first.");
  const index = indexTable(schema.tables.get(auth.users_table)!);
  const udb = ctx.app.engine.userDb(schema.physical);
  const { rows } = await selectByIdSql(udb, index.table.name, index.all, userId).execute(udb.db);
  if (!rows[0]) throw notFound(`No user with id ${userId} in ${index.table.name}.`);
  // Acting as a user stores nothing, but who did it and as whom is kept (never the token).
  noteAudit(ctx, { target: `${index.table.name}.${userId}` });
  await commitAuditOnly(ctx);
  return { ...(await signUserToken({ schema, auth }, userId, Math.min(IMPERSONATION_TTL, auth.token_ttl_seconds))), user: publicUser(index, rows[0] as Record<string, unknown>) };
};
