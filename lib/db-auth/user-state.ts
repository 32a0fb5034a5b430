// A database user's state kept by the install beside its row: whether its email is verified, whether it is disabled.
import type { Kysely } from "kysely";
import type { App } from "../app-type";
import type { MetaDb } from "../db/meta-schema";
import { isUniqueViolation } from "../db/unique-violation";

export type UserState = { verified: boolean; disabled: boolean };

export const readUserState = async (app: App, databaseId: number, userId: number): Promise<UserState> => {
  const row = await app.engine.meta
    .selectFrom("auth_user_state")
    .select(["verified_at", "disabled_at"])
    .where("database_id", "=", databaseId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return { verified: !!row?.verified_at, disabled: !!row?.disabled_at };
};

/** Sets one field of the state (creating its row); `at` null clears it. */
const writeState = async (db: Kysely<MetaDb>, databaseId: number, userId: number, field: "verified_at" | "disabled_at", at: string | null) => {
  const updated = await db.updateTable("auth_user_state").set({ [field]: at }).where("database_id", "=", databaseId).where("user_id", "=", userId).executeTakeFirst();
  if (Number(updated.numUpdatedRows) > 0) return;
  try {
    await db.insertInto("auth_user_state").values({ database_id: databaseId, user_id: userId, verified_at: null, disabled_at: null, [field]: at }).execute();
  } catch (err) {
    // Another request made the row first: write over it.
    if (!isUniqueViolation(err)) throw err;
    await db.updateTable("auth_user_state").set({ [field]: at }).where("database_id", "=", databaseId).where("user_id", "=", userId).execute();
  }
};

export const markVerified = (db: Kysely<MetaDb>, databaseId: number, userId: number) => writeState(db, databaseId, userId, "verified_at", new Date().toISOString());

/** Disabling does not end sessions by itself: callers pair it with endUserSessions (lib/db-auth/sessions.ts). */
export const setDisabled = (db: Kysely<MetaDb>, databaseId: number, userId: number, disabled: boolean) =>
  writeState(db, databaseId, userId, "disabled_at", disabled ? new Date().toISOString() : null);
