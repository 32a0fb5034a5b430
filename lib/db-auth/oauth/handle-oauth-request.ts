// /v1/{db}/auth/oauth/{provider} (to the provider), /auth/oauth/{provider}/callback (back from it) and
// /auth/oauth/exchange (the one-time code for a session), docs/auth.md "Sign in with Google, GitHub or OpenID
// Connect". The flow's state, nonce and PKCE verifier stay on the server in a single-use ticket; a cookie
// ties the callback to the browser that started it, so a callback link sent to someone else signs nobody in.
import { createHash } from "node:crypto";
import * as oidc from "openid-client";
import type { App } from "../../app-type";
import { type SignInAttempt, signInLimited } from "../../auth/sign-in-limiter";
import { oauthConfig } from "../../config";
import { ApiError, methodNotAllowed, notFound, validationFailed } from "../../errors";
import { type CoreRequest, type CoreResponse, json } from "../../http/core-types";
import { parseJsonBody } from "../../http/parse-json-body";
import { type AuthDatabase, findUserById } from "../auth-database";
import { claimTicket, createTicket, randomToken } from "../auth-tickets";
import { finishSignIn } from "../mfa/finish-sign-in";
import { readUserState } from "../user-state";
import { allowedRedirect, withParam } from "./allowed-redirect";
import { userForProfile } from "./link-identity";
import { readProfile } from "./provider-profile";
import { resolveProvider, scopeOf } from "./providers";

/** How long a started sign-in waits for the provider, and a one-time code for its exchange. */
export const FLOW_TTL_SECONDS = 600;
export const CODE_TTL_SECONDS = 60;

const NO_STORE = { "cache-control": "no-store" };
const STALE_FLOW = "This sign-in is unknown, expired or already finished; start it again.";
const BAD_CODE = "The code is unknown, expired or already used; sign in again.";

type FlowPayload = { provider: string; verifier: string; nonce: string; redirect_to: string; callback: string; browser: string; address?: string };

/**
 * Starts and callbacks count against the sign-in limits of the client's address (no account is known yet); a
 * sign-in that comes back gives both attempts back, so only abandoned or refused flows use up the limit.
 */
const oauthAttempt = (database: AuthDatabase, address: string | undefined): SignInAttempt => ({ realm: `db:${database.schema.id}`, login: `oauth:${address ?? "unknown"}`, address });
const countAttempt = async (app: App, attempt: SignInAttempt) => {
  const wait = await app.signInLimiter.count(attempt);
  if (wait) throw signInLimited(wait);
};

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const cookieName = (database: AuthDatabase) => `tabula_oauth_${database.schema.instance}`;
const cookiePath = (database: AuthDatabase) => `/v1/${database.schema.instance}/auth/oauth`;

const readCookie = (req: CoreRequest, name: string) => {
  for (const part of (req.header("cookie") ?? "").split(";")) {
    const [key, ...value] = part.trim().split("=");
    if (key === name) return value.join("=");
  }
  return undefined;
};

/** GET /auth/oauth/{provider}?redirect_to=…: 302 to the provider, with PKCE, state and nonce. */
const start = async (app: App, req: CoreRequest, database: AuthDatabase, name: string): Promise<CoreResponse> => {
  const redirectTo = allowedRedirect(req.query.get("redirect_to"), database.auth.redirect_urls);
  await countAttempt(app, oauthAttempt(database, req.clientAddress));
  const provider = await resolveProvider(app, database.auth.providers, name);
  const base = oauthConfig(app.config).publicUrl ?? req.origin;
  const callback = `${base}/v1/${database.schema.instance}/auth/oauth/${name}/callback`;
  const [verifier, nonce, browser] = [oidc.randomPKCECodeVerifier(), oidc.randomNonce(), randomToken()];
  const payload: FlowPayload = { provider: name, verifier, nonce, redirect_to: redirectTo, callback, browser: sha256(browser), address: req.clientAddress };
  const state = await createTicket(app, { kind: "oauth_flow", databaseId: database.schema.id, ttlSeconds: FLOW_TTL_SECONDS, payload });
  const url = oidc.buildAuthorizationUrl(provider.config, {
    redirect_uri: callback,
    scope: scopeOf(provider),
    state,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    ...(provider.openid ? { nonce } : {}),
  });
  const secure = base.startsWith("https:") ? "; Secure" : "";
  const cookie = `${cookieName(database)}=${browser}; Path=${cookiePath(database)}; Max-Age=${FLOW_TTL_SECONDS}; HttpOnly; SameSite=Lax${secure}`;
  return { status: 302, headers: { location: url.href, "set-cookie": cookie, ...NO_STORE } };
};

/** GET /auth/oauth/{provider}/callback: the code exchanged, the user found, linked or made; 302 to redirect_to?code=. */
const callback = async (app: App, req: CoreRequest, database: AuthDatabase, name: string): Promise<CoreResponse> => {
  const databaseId = database.schema.id;
  const attempt = oauthAttempt(database, req.clientAddress);
  await countAttempt(app, attempt);
  const state = req.query.get("state");
  const flow = await claimTicket(app, "oauth_flow", databaseId, state);
  const payload = flow?.payload as FlowPayload | undefined;
  if (!flow || !payload || payload.provider !== name) throw new ApiError("bad_request", STALE_FLOW);
  const browser = readCookie(req, cookieName(database));
  if (!browser || sha256(browser) !== payload.browser) {
    throw new ApiError("bad_request", "This sign-in was started in another browser (its cookie is missing); start it again here.");
  }
  const clear = { "set-cookie": `${cookieName(database)}=; Path=${cookiePath(database)}; Max-Age=0; HttpOnly; SameSite=Lax`, ...NO_STORE };
  const refused = req.query.get("error");
  if (refused) return { status: 302, headers: { location: withParam(payload.redirect_to, { error: refused.slice(0, 100) }), ...clear } };
  const provider = await resolveProvider(app, database.auth.providers, name);
  const callbackUrl = new URL(payload.callback);
  callbackUrl.search = req.rawQuery ?? req.query.toString();
  const profile = await readProfile(provider, { callbackUrl, verifier: payload.verifier, state: state!, nonce: payload.nonce });
  const user = await userForProfile(app, database, provider.key, profile);
  const code = await createTicket(app, { kind: "oauth_code", databaseId, userId: Number(user.id), ttlSeconds: CODE_TTL_SECONDS });
  await app.signInLimiter.forgive(attempt);
  await app.signInLimiter.forgive(oauthAttempt(database, payload.address));
  return { status: 302, headers: { location: withParam(payload.redirect_to, { code }), ...clear } };
};

/** POST /auth/oauth/exchange {code}: the one-time code for a session (or an MFA challenge). */
const exchange = async (app: App, req: CoreRequest, database: AuthDatabase): Promise<CoreResponse> => {
  const raw = parseJsonBody(req);
  const code = typeof raw === "object" && raw !== null ? (raw as Record<string, unknown>).code : undefined;
  if (typeof code !== "string" || code === "") throw validationFailed([{ field: "code", code: "required", message: '"code" is required: the one-time code the sign-in redirect carried' }]);
  // Codes carry 256 random bits; the limiter bounds what one address may try all the same.
  const attempt = { realm: `db:${database.schema.id}`, login: `oauth-code:${sha256(code).slice(0, 16)}`, address: req.clientAddress };
  const wait = await app.signInLimiter.count(attempt);
  if (wait) throw signInLimited(wait);
  const ticket = await claimTicket(app, "oauth_code", database.schema.id, code);
  if (!ticket?.userId) throw new ApiError("bad_request", BAD_CODE);
  await app.signInLimiter.forgive(attempt);
  const row = await findUserById(app, database, ticket.userId);
  if (!row) throw new ApiError("bad_request", BAD_CODE);
  if ((await readUserState(app, database.schema.id, ticket.userId)).disabled) throw new ApiError("forbidden", "This user is disabled.");
  return json(200, await finishSignIn(app, database, row, "oauth"), NO_STORE);
};

/** Serves /auth/oauth/*; `rest` is the path after /auth/oauth. */
export const handleOAuthRequest = async (app: App, req: CoreRequest, database: AuthDatabase, rest: string[]): Promise<CoreResponse> => {
  if (rest.length === 1 && rest[0] === "exchange") {
    if (req.method !== "POST") throw methodNotAllowed(["POST"]);
    return exchange(app, req, database);
  }
  if (rest.length === 0 || rest.length > 2 || (rest.length === 2 && rest[1] !== "callback")) {
    throw notFound("No such path; use /auth/oauth/{provider}, /auth/oauth/{provider}/callback or /auth/oauth/exchange.");
  }
  if (req.method !== "GET") throw methodNotAllowed(["GET"]);
  return rest.length === 1 ? start(app, req, database, rest[0]) : callback(app, req, database, rest[0]);
};
