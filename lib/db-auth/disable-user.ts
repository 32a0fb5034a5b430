// Disabling a database user: it can no longer sign in or refresh, and every session it has ends at once.
// The users admin (and anything else that disables a user) goes through here.
import type { App } from "../app-type";
import { endUserSessions } from "./sessions";
import { setDisabled } from "./user-state";

export const setUserDisabled = async (app: App, databaseId: number, userId: number, disabled: boolean) => {
  await setDisabled(app.engine.meta, databaseId, userId, disabled);
  if (disabled) await endUserSessions(app, databaseId, userId, "disabled");
};
