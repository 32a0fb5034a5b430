// OAuth / OpenID Connect sign-in and TOTP two-factor paths in the data API's OpenAPI document: the OAuth
// paths while the database has providers, the MFA paths while `mfa` is not `off`.
import type { LoadedDatabase } from "../meta/schema-cache";
import { errorBody, errorRefs } from "./shared-components";

type Json = Record<string, unknown>;
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
/** What every way in answers: the session schema of the auth paths. */
const SESSION = "Auth.Token";

/** A cURL line for an operation that takes no secret key: the user's JWT where it needs one, the body as JSON. */
const sample = (method: string, url: string, { jwt, body }: { jwt?: boolean; body?: unknown } = {}) => {
  const lines = [`curl -X ${method} '${url}'`];
  if (jwt) lines.push('-H "Authorization: Bearer <JWT>"');
  if (body !== undefined) lines.push('-H "Content-Type: application/json"', `-d '${JSON.stringify(body)}'`);
  return [{ lang: "curl", label: "cURL", source: lines.join(" \\\n  ") }];
};

const jsonBody = (schema: Json, example: Json) => ({ required: true, content: { "application/json": { schema, example } } });
const answer = (description: string, schema: Json) => ({ description, content: { "application/json": { schema } } });
const sessionOrMfa = (description: string) => answer(description, { oneOf: [ref(SESSION), ref("Auth.MfaRequired")] });

const BAD_REQUEST = (message: string) => ({ "400": { description: "The sign-in step does not match (unknown, used or expired state or code, another browser, an ID token of another sign-in).", content: errorBody("bad_request", message) } });
const PROVIDER_UNAVAILABLE = {
  "502": {
    description: "The provider could not be reached or answered something unusable; nothing was created.",
    content: errorBody("provider_unavailable", 'The sign-in provider "google" could not be used: its discovery document could not be read. Try again later.'),
  },
};
const FOUND = (description: string) => ({
  "302": { description, headers: { Location: { description: "Where the browser goes next.", schema: { type: "string", format: "uri" } } } },
});

export const signInSchemas = (database: LoadedDatabase): Record<string, Json> => {
  const auth = database.auth!;
  if (!auth.providers?.length && (auth.mfa ?? "off") === "off") return {};
  return {
    "Auth.MfaRequired": {
      type: "object",
      description:
        "The user has a second factor: answer `POST /auth/mfa/challenge` with `mfa_token` and a code. With `enrollment_required` (the database requires MFA and the user has none), the token only enrols: `POST /auth/mfa/totp/enroll` then `/auth/mfa/totp/confirm` with it.",
      properties: {
        mfa_required: { type: "boolean", const: true },
        mfa_token: { type: "string", description: "Single use; expires after `expires_in` seconds." },
        expires_in: { type: "integer", minimum: 1 },
        enrollment_required: { type: "boolean", const: true },
      },
      required: ["mfa_required", "mfa_token", "expires_in"],
      example: { mfa_required: true, mfa_token: "V2hhdCBhIHRva2VuIGxvb2tzIGxpa2U", expires_in: 300 },
    },
  };
};

const oauthPaths = (database: LoadedDatabase, serverUrl: string): Record<string, Json> => {
  const auth = database.auth!;
  const ids = [...new Set(auth.providers.map((p) => p.id))];
  const provider = { name: "provider", in: "path", required: true, description: "A provider configured for this database.", schema: { type: "string", enum: ids } };
  return {
    "/auth/oauth/{provider}": {
      get: {
        tags: ["Auth"],
        operationId: "authOAuthStart",
        summary: "Sign in with a provider",
        description:
          "Open this in the browser: 302 to the provider (authorization code with PKCE, `state` and, for OpenID Connect, `nonce`), with a cookie tying the sign-in to this browser for 10 minutes. `redirect_to` must be one of the database's `redirect_urls` (compared without its query string), else 422 before anything happens. Starts and callbacks count against the sign-in limits of the client's address (429 with `Retry-After`); a sign-in that comes back gives both back.",
        security: [],
        parameters: [provider, { name: "redirect_to", in: "query", required: true, description: "Where the browser comes back with `?code=`.", schema: { type: "string", format: "uri" } }],
        responses: { ...FOUND("To the provider's sign-in page."), ...errorRefs("NotFound", "ValidationFailed", "RateLimited", "InternalError"), ...PROVIDER_UNAVAILABLE },
        "x-codeSamples": sample("GET", `${serverUrl}/auth/oauth/${ids[0]}?redirect_to=https%3A%2F%2Fapp.example.com%2Fauth%2Fcallback`),
      },
    },
    "/auth/oauth/{provider}/callback": {
      get: {
        tags: ["Auth"],
        operationId: "authOAuthCallback",
        summary: "Back from the provider",
        description:
          "The provider sends the browser here. The code is exchanged and the user is found (an identity seen before), linked (an existing user with the email the provider verified) or created; then 302 to `redirect_to?code=<one-time code>` (60 s, single use), or `redirect_to?error=<provider's error>` when the user declined. An email the provider has not verified is refused (403).",
        security: [],
        parameters: [
          provider,
          { name: "state", in: "query", required: true, schema: { type: "string" } },
          { name: "code", in: "query", required: false, schema: { type: "string" } },
          { name: "error", in: "query", required: false, schema: { type: "string" } },
        ],
        responses: {
          ...FOUND("To `redirect_to` with `code` (or `error`)."),
          ...BAD_REQUEST("This sign-in is unknown, expired or already finished; start it again."),
          ...errorRefs("Forbidden", "NotFound", "ValidationFailed", "RateLimited", "InternalError"),
          ...PROVIDER_UNAVAILABLE,
        },
        "x-codeSamples": sample("GET", `${serverUrl}/auth/oauth/${ids[0]}/callback?state=<state>&code=<code>`),
      },
    },
    "/auth/oauth/exchange": {
      post: {
        tags: ["Auth"],
        operationId: "authOAuthExchange",
        summary: "Trade the one-time code for a session",
        description: "Single use, within 60 s of the redirect. A user with a second factor gets `Auth.MfaRequired` instead of a session.",
        security: [],
        requestBody: jsonBody({ type: "object", properties: { code: { type: "string" } }, required: ["code"] }, { code: "<code from the redirect>" }),
        responses: {
          "200": sessionOrMfa("A session, or an MFA challenge."),
          ...BAD_REQUEST("The code is unknown, expired or already used; sign in again."),
          ...errorRefs("Forbidden", "NotFound", "ValidationFailed", "RateLimited", "InternalError"),
        },
        "x-codeSamples": sample("POST", `${serverUrl}/auth/oauth/exchange`, { body: { code: "<code>" } }),
      },
    },
  };
};

const mfaPaths = (serverUrl: string): Record<string, Json> => {
  const code = { type: "string", description: "A 6-digit code from the authenticator app.", pattern: "^\\d{6}$" };
  const mfaToken = { type: "string", description: "The enrolment token a sign-in answered (when the database requires MFA)." };
  return {
    "/auth/mfa/totp/enroll": {
      post: {
        tags: ["Auth"],
        operationId: "authMfaEnroll",
        summary: "Start enrolling an authenticator app",
        description:
          "For the user of the bearer JWT, or of an enrolment `mfa_token` in the body. Answers a new base32 secret and its `otpauth://` URL (for a QR code); nothing is on until `/auth/mfa/totp/confirm`. 409 when the user already has a confirmed authenticator; 403 when MFA is off for this database.",
        security: [{ userJwt: [] }, {}],
        requestBody: { required: false, content: { "application/json": { schema: { type: "object", properties: { mfa_token: mfaToken }, additionalProperties: false } } } },
        responses: {
          "200": answer("The secret to add to the app.", {
            type: "object",
            properties: { secret: { type: "string" }, otpauth_url: { type: "string" } },
            required: ["secret", "otpauth_url"],
            example: { secret: "JBSWY3DPEHPK3PXP", otpauth_url: "otpauth://totp/Shop:ada%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=Shop" },
          }),
          ...errorRefs("Unauthorized", "Forbidden", "NotFound", "Conflict", "ValidationFailed", "InternalError"),
        },
        "x-codeSamples": sample("POST", `${serverUrl}/auth/mfa/totp/enroll`, { jwt: true, body: {} }),
      },
    },
    "/auth/mfa/totp/confirm": {
      post: {
        tags: ["Auth"],
        operationId: "authMfaConfirm",
        summary: "Turn the authenticator on",
        description:
          "Checks a current code of the enrolled secret, turns MFA on and answers 10 single-use recovery codes (shown once). With an enrolment `mfa_token`, the answer also carries the session the sign-in was waiting for.",
        security: [{ userJwt: [] }, {}],
        requestBody: jsonBody({ type: "object", properties: { code, mfa_token: mfaToken }, required: ["code"], additionalProperties: false }, { code: "123456" }),
        responses: {
          "200": answer("The recovery codes (and, with an enrolment token, a session).", {
            type: "object",
            properties: { recovery_codes: { type: "array", items: { type: "string" }, minItems: 10, maxItems: 10 } },
            required: ["recovery_codes"],
            example: { recovery_codes: ["3f9a1-c07d2", "8b41e-5a9f0", "0c6d2-91b7e", "e4a08-3d5c1", "72f3b-a9e40", "5b1c9-0e8d7", "d90e2-4f6a3", "16a7f-c2b58", "a3e5d-7190c", "9c4b0-e6f21"] },
          }),
          ...errorRefs("Unauthorized", "Forbidden", "NotFound", "Conflict", "ValidationFailed", "RateLimited", "InternalError"),
        },
        "x-codeSamples": sample("POST", `${serverUrl}/auth/mfa/totp/confirm`, { jwt: true, body: { code: "123456" } }),
      },
    },
    "/auth/mfa/totp/remove": {
      post: {
        tags: ["Auth"],
        operationId: "authMfaRemove",
        summary: "Remove the authenticator app",
        description:
          "For the user of the bearer JWT: a current TOTP code or one of the recovery codes proves the factor, then the authenticator and every recovery code go (204). Wrong codes count against the sign-in limit (429). 409 when the user has no confirmed authenticator; 403 when MFA is off for this database or the caller is a secret key.",
        security: [{ userJwt: [] }],
        requestBody: jsonBody({ type: "object", properties: { code: { type: "string", description: "A current 6-digit code or a recovery code." } }, required: ["code"], additionalProperties: false }, { code: "123456" }),
        responses: { "204": { description: "Removed; sign-ins ask for no code (or, where MFA is required, enrol again)." }, ...errorRefs("Unauthorized", "Forbidden", "NotFound", "Conflict", "ValidationFailed", "RateLimited", "InternalError") },
        "x-codeSamples": sample("POST", `${serverUrl}/auth/mfa/totp/remove`, { jwt: true, body: { code: "123456" } }),
      },
    },
    "/auth/mfa/challenge": {
      post: {
        tags: ["Auth"],
        operationId: "authMfaChallenge",
        summary: "Finish a sign-in with a code",
        description:
          "`mfa_token` from the sign-in and a current TOTP code (each code once: a replay in its window is refused) or one of the recovery codes (each once). A token takes 5 wrong codes; wrong codes also count against the sign-in limit (429).",
        security: [],
        requestBody: jsonBody({ type: "object", properties: { mfa_token: { type: "string" }, code: { type: "string" } }, required: ["mfa_token", "code"], additionalProperties: false }, { mfa_token: "<mfa_token>", code: "123456" }),
        responses: { "200": answer("A session.", ref(SESSION)), ...errorRefs("Unauthorized", "Forbidden", "NotFound", "ValidationFailed", "RateLimited", "InternalError") },
        "x-codeSamples": sample("POST", `${serverUrl}/auth/mfa/challenge`, { body: { mfa_token: "<mfa_token>", code: "123456" } }),
      },
    },
  };
};

export const signInPaths = (database: LoadedDatabase, serverUrl: string): Record<string, Json> => {
  const auth = database.auth!;
  return { ...(auth.providers?.length ? oauthPaths(database, serverUrl) : {}), ...((auth.mfa ?? "off") !== "off" ? mfaPaths(serverUrl) : {}) };
};

// Ways in that answer a challenge instead of a session when the user has a second factor (refresh continues a
// session, and the MFA paths end one, so they always answer the session).
const NOT_GATED = new Set(["/auth/refresh", "/auth/mfa/challenge", "/auth/mfa/totp/confirm"]);

/** With MFA on, every way in that answers a session may answer `Auth.MfaRequired` instead: the documents say so. */
export const withMfaAnswers = (database: LoadedDatabase, built: Record<string, Json>) => {
  if ((database.auth?.mfa ?? "off") === "off") return built;
  // A copy: the auth paths may share response objects between documents.
  const paths = structuredClone(built);
  const session = `#/components/schemas/${SESSION}`;
  for (const [path, item] of Object.entries(paths)) {
    if (!path.startsWith("/auth/") || NOT_GATED.has(path)) continue;
    for (const op of Object.values(item) as { responses?: Record<string, { content?: Record<string, { schema?: Json }> }> }[]) {
      for (const status of ["200", "201"]) {
        const media = op.responses?.[status]?.content?.["application/json"];
        if (media?.schema?.$ref === session) media.schema = { oneOf: [ref(SESSION), ref("Auth.MfaRequired")] };
      }
    }
  }
  return paths;
};
