// /v1/{db}/auth/*: the way in for browser and mobile users (docs/auth.md). One table of paths, each with its verb.
import type { App } from "../app-type";
import { methodNotAllowed, notFound } from "../errors";
import type { CoreRequest, CoreResponse } from "../http/core-types";
import type { LoadedDatabase } from "../meta/schema-cache";
import { type AuthDatabase, requireAuth } from "./auth-database";
import { login, me } from "./password-routes";
import { signup } from "./signup";
import { logout, refresh } from "./session-routes";
import { forgotPassword, requestOtp, resendVerification, resetPassword, verify, verifyOtp } from "./mail-routes";
import { handleMfaRequest, MFA_PATHS } from "./mfa/handle-mfa-request";
import { handleOAuthRequest } from "./oauth/handle-oauth-request";

export { publicUser } from "./auth-database";

type AuthRoute = { verb: string; run: (app: App, req: CoreRequest, database: AuthDatabase) => Promise<CoreResponse> };

const ROUTES: Record<string, AuthRoute> = {
  login: { verb: "POST", run: login },
  signup: { verb: "POST", run: signup },
  me: { verb: "GET", run: me },
  refresh: { verb: "POST", run: refresh },
  logout: { verb: "POST", run: logout },
  verify: { verb: "POST", run: verify },
  "verify/resend": { verb: "POST", run: resendVerification },
  "password/forgot": { verb: "POST", run: forgotPassword },
  "password/reset": { verb: "POST", run: resetPassword },
  otp: { verb: "POST", run: requestOtp },
  "otp/verify": { verb: "POST", run: verifyOtp },
};

/** The verb of `/auth/{rest}`, or undefined for no such path (for preflights). */
export const authVerb = (rest: string[]) => {
  if (rest[0] === "mfa") return MFA_PATHS.includes(rest.slice(1).join("/")) ? "POST" : undefined;
  if (rest[0] === "oauth") return rest[1] === "exchange" ? "POST" : rest.length === 2 || rest[2] === "callback" ? "GET" : undefined;
  return ROUTES[rest.join("/")]?.verb;
};

/** Serves /auth/{path}; `rest` is the path after /auth. */
export const handleAuthRequest = async (app: App, req: CoreRequest, database: LoadedDatabase | undefined, rest: string[]): Promise<CoreResponse> => {
  // Sign-in with providers and the second factor have paths of their own (a provider's name is a path segment).
  if (rest[0] === "oauth") return handleOAuthRequest(app, req, requireAuth(database), rest.slice(1));
  if (rest[0] === "mfa") return handleMfaRequest(app, req, requireAuth(database), rest.slice(1));
  const route = ROUTES[rest.join("/")];
  if (!route) throw notFound(`No such path; the auth paths are ${Object.keys(ROUTES).map((p) => `/auth/${p}`).join(", ")}.`);
  const enabled = requireAuth(database);
  if (req.method !== route.verb) throw methodNotAllowed([route.verb]);
  return route.run(app, req, enabled);
};
