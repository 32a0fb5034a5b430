// /auth/refresh and /auth/logout: rotate a refresh token, end one session or all of the user's.
import type { App } from "../app-type";
import { authenticate } from "../api/authenticate";
import { ApiError, invalidField } from "../errors";
import { type CoreRequest, type CoreResponse, json, noContent } from "../http/core-types";
import type { AuthDatabase } from "./auth-database";
import { bodyObject, NO_STORE } from "./auth-input";
import { endSession, endUserSessions, refreshSession } from "./sessions";

export const refresh = async (app: App, req: CoreRequest, database: AuthDatabase): Promise<CoreResponse> => {
  const { refresh_token: token } = bodyObject(req);
  if (typeof token !== "string" || token === "") throw invalidField("refresh_token", "required", '"refresh_token" is required');
  return json(200, await refreshSession(app, database, token), NO_STORE);
};

/** Needs the session's access token; `{"scope": "all"}` ends every session of its user. */
export const logout = async (app: App, req: CoreRequest, database: AuthDatabase): Promise<CoreResponse> => {
  const body = req.body === "" || req.body === undefined ? {} : bodyObject(req);
  const scope = body.scope ?? "session";
  if (scope !== "session" && scope !== "all") throw invalidField("scope", "invalid_value", '"scope" must be "session" or "all"');
  const caller = await authenticate(app, req, database);
  if (caller.kind !== "user") throw new ApiError("forbidden", "/auth/logout needs a user's token, not a secret key.");
  const sid = caller.claims.sid;
  if (scope === "all") await endUserSessions(app, database.schema.id, caller.userId, "logout_all");
  else if (typeof sid === "number") await endSession(app, database.schema.id, caller.userId, sid);
  else throw new ApiError("bad_request", 'This token belongs to no session (an impersonation token); use {"scope": "all"} or let it expire.');
  return noContent();
};
