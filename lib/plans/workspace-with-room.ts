// A 402 on creating a database names another workspace where the caller could create it now: its own, or one
// where it is an editor or admin, whose owner's plan (with the credits already spent or still held) has room.
// Read without locks: a hint for where to go next, checked again by that create's own quota.
import type { Kysely } from "kysely";
import type { MetaDb } from "../db/meta-schema";
import { ApiError } from "../errors";
import { creditBalances, directSpends } from "../credits/ledger";
import { roleAllows } from "../teams/permissions";
import type { DatabaseRole } from "../teams/permissions";
import { effectivePlan } from "./effective-plan";
import { QUOTAS } from "./quotas";

export type WorkspaceWithRoom = { id: number; owner: string; role: DatabaseRole };

const hasRoomForDatabase = async (db: Kysely<MetaDb>, ownerId: number) => {
  const base = (await effectivePlan(db, ownerId)).max_databases;
  if (base === null) return true;
  const used = await QUOTAS.databases.used(db, ownerId);
  if (used + 1 <= base + (await directSpends(db, ownerId, "databases"))) return true;
  return (await creditBalances(db, ownerId)).databases > 0;
};

/** The first workspace, own first then by joining order, other than `full`, where `accountId` may create a database that fits. */
export const workspaceWithRoom = async (db: Kysely<MetaDb>, accountId: number, full: number): Promise<WorkspaceWithRoom | undefined> => {
  const own = await db.selectFrom("accounts").select("email").where("id", "=", accountId).executeTakeFirst();
  const memberships = await db
    .selectFrom("members")
    .innerJoin("accounts", "accounts.id", "members.owner_id")
    .select(["members.owner_id", "accounts.email", "members.role"])
    .where("members.account_id", "=", accountId)
    .orderBy("members.joined_at")
    .execute();
  const candidates: WorkspaceWithRoom[] = [
    ...(own ? [{ id: accountId, owner: own.email, role: "owner" as const }] : []),
    ...memberships.map((m) => ({ id: m.owner_id, owner: m.email, role: m.role as DatabaseRole })),
  ];
  for (const w of candidates) {
    if (w.id === full || !roleAllows(w.role, "workspace:write")) continue;
    if (await hasRoomForDatabase(db, w.id)) return w;
  }
  return undefined;
};

/** The same 402 with `workspace_with_room` and a sentence naming it, when there is one. */
export const withWorkspaceWithRoom = (err: ApiError, room: WorkspaceWithRoom, own: boolean): ApiError => {
  const where = own ? "your own workspace" : `${room.owner}’s workspace, where you are ${room.role === "admin" ? "an admin" : "an editor"}`;
  return new ApiError(err.code, `${err.message} There is room in ${where}: create it there.`, {
    errors: err.errors,
    headers: err.headers,
    quota: err.quota,
    extra: { ...err.extra, workspace_with_room: { id: room.id, owner: room.owner } },
  });
};
