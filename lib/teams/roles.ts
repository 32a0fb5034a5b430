import type { Kysely } from "kysely";
import type { App } from "../app-type";
import type { MetaDb } from "../db/meta-schema";
import type { DatabaseRole } from "./permissions";
import type { MemberRole } from "../plans/default-plans";

/** The account's role in an owner's workspace: `owner` for the owner, its member row's role, or undefined. */
export const workspaceRole = async (db: Kysely<MetaDb>, ownerId: number, accountId: number): Promise<DatabaseRole | undefined> => {
  if (ownerId === accountId) return "owner";
  const row = await db.selectFrom("members").select("role").where("owner_id", "=", ownerId).where("account_id", "=", accountId).executeTakeFirst();
  return row?.role as MemberRole | undefined;
};

/** Member roles remembered per process, by owner and account (least recently used go first). */
export const MAX_CACHED_ROLES = 10_000;

/**
 * The same for the data API's hot path, cached per process. A member change publishes a `team` event (to every
 * process through Redis) and bumps the metadata version (read per request without Redis): it holds at once.
 */
export const cachedWorkspaceRole = async (app: App, ownerId: number, accountId: number): Promise<DatabaseRole | undefined> => {
  if (ownerId === accountId) return "owner";
  const key = `${ownerId}:${accountId}`;
  const cached = app.memberRoles.get(key);
  if (cached !== undefined) return cached ?? undefined;
  const role = await workspaceRole(app.engine.meta, ownerId, accountId);
  app.memberRoles.set(key, role ?? null);
  return role;
};
