import { decode } from "next-auth/jwt";
import type { App } from "../app-type";
import type { CoreRequest } from "../http/core-types";
import type { SessionResolver } from "../mgmt/handle-management-request";
import { unauthorized } from "../errors";
import { authSecret } from "./auth-secret";
import { sessionVersionOf } from "./session-version";

export const ACCOUNT_DISABLED_SESSION = "This account is disabled; ask the operator of this install to enable it again.";

const COOKIE_NAMES = ["__Secure-next-auth.session-token", "next-auth.session-token"];
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

const parseCookies = (header: string | undefined) => {
  const cookies = new Map<string, string>();
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0) cookies.set(part.slice(0, eq).trim(), decodeURIComponent(part.slice(eq + 1).trim()));
  }
  return cookies;
};

/** The session token and its cookie's name, joined from next-auth's chunks (`name.0`, `name.1`, …) when it was split. */
const readSessionToken = (cookies: Map<string, string>) => {
  for (const name of COOKIE_NAMES) {
    if (cookies.has(name)) return { name, token: cookies.get(name)! };
    const chunks: string[] = [];
    for (let i = 0; cookies.has(`${name}.${i}`); i++) chunks.push(cookies.get(`${name}.${i}`)!);
    if (chunks.length) return { name, token: chunks.join("") };
  }
  return undefined;
};

/** A cookie-authenticated write must come from this site's own pages (defence against CSRF beside SameSite=Lax). */
const isSameOrigin = (req: CoreRequest) => {
  if (SAFE_METHODS.has(req.method)) return true;
  const origin = req.header("origin");
  if (!origin) return req.header("sec-fetch-site") === undefined || req.header("sec-fetch-site") === "same-origin";
  try {
    return new URL(origin).host === (req.header("x-forwarded-host") ?? req.header("host"));
  } catch {
    return false;
  }
};

/**
 * The management API's dashboard session: the next-auth JWT cookie, decoded with the install's auth secret,
 * mapped to the account it names (which must still exist) and signed with its current session version.
 * Anything invalid or ended is simply "no session"; a disabled account's session is a 401 that says so.
 */
export const createSessionResolver =
  (app: App): SessionResolver =>
  async (req) => {
    const cookie = readSessionToken(parseCookies(req.header("cookie")));
    if (!cookie || !isSameOrigin(req)) return undefined;
    const claims = await decode({ token: cookie.token, secret: authSecret(app) }).catch(() => null);
    const accountId = Number(claims?.sub);
    if (!Number.isInteger(accountId) || accountId <= 0) return undefined;
    const account = await app.engine.meta.selectFrom("accounts").select(["id", "is_operator", "disabled_at", "session_version"]).where("id", "=", accountId).executeTakeFirst();
    if (!account) return undefined;
    // A 401 ends the dashboard's session (it signs out); the sign-in page then says the account is disabled.
    if (account.disabled_at !== null) throw unauthorized(ACCOUNT_DISABLED_SESSION);
    if (sessionVersionOf(claims!) !== account.session_version) return undefined;
    return { accountId: account.id, isOperator: account.is_operator === 1, keyDatabaseId: null, session: { cookieName: cookie.name, claims: claims! } };
  };
