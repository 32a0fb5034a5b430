// Disabling a database user: it can no longer sign in or refresh, and every session it has ends at once.
// The users admin (and anything else that disables a user) goes through here.
import type { Kysely } from "kysely";
import type { App } from "../app-type";
import type { MetaDb } from "../db/meta-schema";
import { endUserSessions } from "./sessions";
import { setDisabled } from "./user-state";

/** Pass a transaction to join it (the users admin writes its audit entry in the same one). */
export const setUserDisabled = async (app: App, databaseId: number, userId: number, disabled: boolean, db: Kysely<MetaDb> = app.engine.meta) => {
  await setDisabled(db, databaseId, userId, disabled);
  if (disabled) await endUserSessions(app, databaseId, userId, "disabled", db);
};
