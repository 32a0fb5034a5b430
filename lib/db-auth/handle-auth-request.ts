// /v1/{db}/auth/*: the way in for browser and mobile users (docs/auth.md). One table of paths, each with its verb.
import type { App } from "../app-type";
import { methodNotAllowed, notFound } from "../errors";
import type { CoreRequest, CoreResponse } from "../http/core-types";
import type { LoadedDatabase } from "../meta/schema-cache";
import { type AuthDatabase, requireAuth } from "./auth-database";
import { login, me, signup } from "./password-routes";
import { logout, refresh } from "./session-routes";

export { publicUser } from "./auth-database";

type AuthRoute = { verb: string; run: (app: App, req: CoreRequest, database: AuthDatabase) => Promise<CoreResponse> };

const ROUTES: Record<string, AuthRoute> = {
  login: { verb: "POST", run: login },
  signup: { verb: "POST", run: signup },
  me: { verb: "GET", run: me },
  refresh: { verb: "POST", run: refresh },
  logout: { verb: "POST", run: logout },
};

/** The verb of `/auth/{rest}`, or undefined for no such path (for preflights). */
export const authVerb = (rest: string[]) => ROUTES[rest.join("/")]?.verb;

/** Serves /auth/{path}; `rest` is the path after /auth. */
export const handleAuthRequest = async (app: App, req: CoreRequest, database: LoadedDatabase | undefined, rest: string[]): Promise<CoreResponse> => {
  const route = ROUTES[rest.join("/")];
  if (!route) throw notFound(`No such path; the auth paths are ${Object.keys(ROUTES).map((p) => `/auth/${p}`).join(", ")}.`);
  const enabled = requireAuth(database);
  if (req.method !== route.verb) throw methodNotAllowed([route.verb]);
  return route.run(app, req, enabled);
};
