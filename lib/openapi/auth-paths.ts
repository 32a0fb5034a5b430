// Database auth in the data API's OpenAPI document: /auth/login, /auth/signup (when on), /auth/me, sessions
// (/auth/refresh, /auth/logout), the mailed flows (verify, password reset, one-time codes and magic links) and
// the bearer-JWT scheme. Present only while the database has auth enabled.
import { recordColumns } from "../schema/types";
import type { LoadedDatabase } from "../meta/schema-cache";
import type { DatabaseAuth } from "../schema/types";
import { curlSample } from "./curl-sample";
import { type ErrorResponseName, errorRefs } from "./shared-components";
import { exampleValue, outputSchema } from "./table-schemas";
import { isSecret } from "../schema/type-traits";

type Json = Record<string, unknown>;
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** The users table record as auth replies show it: password columns left out. */
const userColumns = ({ schema }: LoadedDatabase, auth: DatabaseAuth) => recordColumns(schema.tables.get(auth.users_table)!).filter((c) => !isSecret(c));

export const authEnabled = ({ schema, auth }: LoadedDatabase) => Boolean(auth?.enabled && schema.tables.has(auth.users_table));

export const authSchemas = (database: LoadedDatabase): Record<string, Json> => {
  const auth = database.auth!;
  const columns = userColumns(database, auth);
  const user = Object.fromEntries(columns.map((c) => [c.name, exampleValue(c)]));
  return {
    "Auth.Credentials": {
      type: "object",
      description: `The login column \`${auth.login_column}\` and the password.`,
      properties: {
        [auth.login_column]: { type: "string", minLength: 1 },
        password: { type: "string", minLength: 1 },
        redirect_to: { type: "string", format: "uri", description: "Sign-up with verification required: where the mailed link opens (one of the database's `redirect_urls`)." },
      },
      required: [auth.login_column, "password"],
      additionalProperties: false,
      example: { [auth.login_column]: "ada@example.com", password: "correct horse battery" },
    },
    "Auth.User": {
      type: "object",
      description: `A record of \`${auth.users_table}\` without its password columns.`,
      properties: Object.fromEntries(columns.map((c) => [c.name, outputSchema(c)])),
      required: columns.map((c) => c.name),
      example: user,
    },
    "Auth.Token": {
      type: "object",
      description:
        "A session: an HS256 JWT (claims `sub` user id, `db`, `role: authenticated`, `iat`, `exp`, `sid` the session) for `Authorization: Bearer <token>`, and a single-use refresh token for `/auth/refresh`.",
      properties: {
        token: { type: "string" },
        token_type: { type: "string", const: "Bearer" },
        expires_in: { type: "integer", description: "Seconds until the access token expires.", minimum: 1 },
        refresh_token: { type: "string", description: `Spend it at \`/auth/refresh\` for a new pair (once; it lasts ${auth.refresh_ttl_seconds} seconds). Keep it out of URLs and logs.` },
        user: ref("Auth.User"),
      },
      required: ["token", "token_type", "expires_in", "refresh_token", "user"],
      example: { token: "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxIn0.signature", token_type: "Bearer", expires_in: auth.token_ttl_seconds, refresh_token: "rt_1lQ0yX3o8Vd2kKq9mWc4sT7bN5rJ6pA0eH2gU8zF4xY", user },
    },
    "Auth.Accepted": {
      type: "object",
      description: "The same answer whether or not the address belongs to an account.",
      properties: { accepted: { type: "boolean", const: true }, message: { type: "string" } },
      required: ["accepted", "message"],
      example: { accepted: true, message: "If the address belongs to an account, a mail is on its way." },
    },
    "Auth.EmailRequest": {
      type: "object",
      properties: {
        email: { type: "string", minLength: 1, maxLength: 320 },
        redirect_to: { type: "string", format: "uri", description: "Where the mailed link opens: one of the database's `redirect_urls` (same origin and path; its query is kept). The first of them when absent. Any other is a 422, and nothing is sent." },
      },
      required: ["email"],
      additionalProperties: false,
      example: { email: "ada@example.com", redirect_to: auth.redirect_urls[0] ?? "https://app.example.com/auth/callback" },
    },
    "Auth.TokenBody": {
      type: "object",
      properties: { token: { type: "string", minLength: 1, maxLength: 200, description: "The `token` query parameter of the mailed link." } },
      required: ["token"],
      additionalProperties: false,
      example: { token: "q3J8o0m0b7cW1w3V2yH9Zk6xR4tN5pL8dF2sA1gE7uI" },
    },
  };
};

/** Sign-up with verification required: the same answer for a new login and a taken one, so it holds only what was sent. */
const verificationSent = (loginColumn: string) => ({
  description:
    "A verification mail is on its way (for a new login), and login answers 403 `email_not_verified` until the link is followed. A login that is already taken gets this same answer and no session; its owner gets a new link when still unconfirmed. `user` holds only the login sent: no id until the address is confirmed.",
  content: {
    "application/json": {
      schema: {
        type: "object",
        properties: {
          user: { type: "object", properties: { [loginColumn]: { type: "string" } }, required: [loginColumn], additionalProperties: false },
          verification_sent: { type: "boolean", const: true },
        },
        required: ["user", "verification_sent"],
      },
      example: { user: { [loginColumn]: "ada@example.com" }, verification_sent: true },
    },
  },
});

export const authPaths = (database: LoadedDatabase, serverUrl: string): Record<string, Json> => {
  const auth = database.auth!;
  const credentials = { [auth.login_column]: "ada@example.com", password: "correct horse battery" };
  const body = { required: true, content: { "application/json": { schema: ref("Auth.Credentials") } } };
  const token = (description: string) => ({ description, content: { "application/json": { schema: ref("Auth.Token") } } });
  const open = (path: string, fields: Json, errors: ErrorResponseName[], status: string) => ({
    post: {
      tags: ["Auth"],
      security: [],
      ...fields,
      requestBody: body,
      responses: { [status]: status === "201" && auth.verification === "required" ? verificationSent(auth.login_column) : token(status === "201" ? "The new user and a session." : "A session for the user."), ...errorRefs(...errors) },
      "x-codeSamples": [{ lang: "curl", label: "cURL", source: `curl -X POST '${serverUrl}${path}' \\\n  -H "Content-Type: application/json" \\\n  -d '${JSON.stringify(credentials)}'` }],
    },
  });
  const paths: Record<string, Json> = {
    "/auth/login": open(
      "/auth/login",
      {
        operationId: "authLogin",
        summary: "Log a user in",
        description: `Checks \`${auth.login_column}\` and the password against \`${auth.users_table}\` and returns a JWT. A wrong password and an unknown user get the same 401. Rate limited per login and client address (429 with \`Retry-After\`). Needs no key.`,
      },
      ["Unauthorized", ...(auth.verification === "required" ? (["EmailNotVerified"] as const) : []), "ValidationFailed", "RateLimited", "NotFound", "InternalError"],
      "200",
    ),
  };
  if (auth.signup) {
    paths["/auth/signup"] = open(
      "/auth/signup",
      {
        operationId: "authSignup",
        summary: "Sign a new user up",
        description:
          auth.verification === "required"
            ? `Creates a row in \`${auth.users_table}\` from \`${auth.login_column}\` and a password (8 to 72 bytes) and mails a verification link. A taken login gets the same 201 after the same work, so the answer never tells whether an account exists. Needs no key.`
            : `Creates a row in \`${auth.users_table}\` from \`${auth.login_column}\` and a password (8 to 72 bytes) and returns a session. A taken login is a 409 (a session cannot be faked; turn verification on to hide which logins exist). Needs no key.`,
      },
      ["Forbidden", "Conflict", "ValidationFailed", "RateLimited", "NotFound", "InternalError"],
      "201",
    );
  }
  paths["/auth/me"] = {
    get: {
      tags: ["Auth"],
      operationId: "authMe",
      summary: "The logged-in user",
      description: "The user of the bearer JWT (a secret key gets 403).",
      security: [{ userJwt: [] }],
      responses: { "200": { description: "The user.", content: { "application/json": { schema: ref("Auth.User") } } }, ...errorRefs("Unauthorized", "Forbidden", "NotFound", "InternalError") },
      "x-codeSamples": curlSample("get", `${serverUrl}/auth/me`, { apiKey: "<JWT>" }),
    },
  };
  Object.assign(paths, sessionPaths(serverUrl), mailPaths(database, serverUrl));
  return paths;
};

const jsonBody = (schema: Json, required = true) => ({ required, content: { "application/json": { schema } } });
const sample = (serverUrl: string, path: string, body: Json, bearer = false) => [
  {
    lang: "curl",
    label: "cURL",
    source: `curl -X POST '${serverUrl}${path}' \\\n${bearer ? '  -H "Authorization: Bearer <JWT>" \\\n' : ""}  -H "Content-Type: application/json" \\\n  -d '${JSON.stringify(body)}'`,
  },
];
const sessionAnswer = (description: string) => ({ description, content: { "application/json": { schema: ref("Auth.Token") } } });
const accepted = { "202": { description: "Accepted: a mail is queued when the address belongs to an account (the same answer when it does not).", content: { "application/json": { schema: ref("Auth.Accepted") } } } };

const sessionPaths = (serverUrl: string): Record<string, Json> => ({
  "/auth/refresh": {
    post: {
      tags: ["Auth"],
      operationId: "authRefresh",
      summary: "Refresh a session",
      description: "Spends the refresh token (single use) and answers a new access token and refresh token of the same session. Presenting a token that was already spent ends the whole session (`refresh_token_reused`): a stolen token stops working for the thief and the owner alike. Needs no key.",
      security: [],
      requestBody: jsonBody({ type: "object", properties: { refresh_token: { type: "string", minLength: 1 } }, required: ["refresh_token"], additionalProperties: false, example: { refresh_token: "rt_…" } }),
      responses: { "200": sessionAnswer("A new pair."), ...errorRefs("SessionRejected", "ValidationFailed", "NotFound", "InternalError") },
      "x-codeSamples": sample(serverUrl, "/auth/refresh", { refresh_token: "<refresh_token>" }),
    },
  },
  "/auth/logout": {
    post: {
      tags: ["Auth"],
      operationId: "authLogout",
      summary: "End this session, or every session of the user",
      description: 'Ends the session of the bearer token (its access and refresh tokens stop working); `{"scope": "all"}` ends every session of the user, on every device.',
      security: [{ userJwt: [] }],
      requestBody: jsonBody({ type: "object", properties: { scope: { type: "string", enum: ["session", "all"], default: "session" } }, additionalProperties: false, example: { scope: "all" } }, false),
      responses: { "204": { description: "Ended." }, ...errorRefs("BadRequest", "Unauthorized", "Forbidden", "ValidationFailed", "NotFound", "InternalError") },
      "x-codeSamples": sample(serverUrl, "/auth/logout", { scope: "all" }, true),
    },
  },
});

const mailPaths = (database: LoadedDatabase, serverUrl: string): Record<string, Json> => {
  const limited = ["ValidationFailed", "RateLimited", "NotFound", "InternalError"] as ErrorResponseName[];
  const request = (operationId: string, summary: string, description: string, path: string) => ({
    post: {
      tags: ["Auth"],
      operationId,
      summary,
      description: `${description} Answers 202 whether or not the address belongs to an account. Rate limited per address and client (429). Needs no key.`,
      security: [],
      requestBody: jsonBody(ref("Auth.EmailRequest")),
      responses: { ...accepted, ...errorRefs(...limited) },
      "x-codeSamples": sample(serverUrl, path, { email: "ada@example.com" }),
    },
  });
  const password = { type: "string", minLength: 8, maxLength: 72, description: "8 to 72 bytes." };
  return {
    "/auth/verify": {
      post: {
        tags: ["Auth"],
        operationId: "authVerify",
        summary: "Confirm an email address",
        description: "Spends the token of a verification mail (24 hours, once), marks the address confirmed and signs the user in.",
        security: [],
        requestBody: jsonBody(ref("Auth.TokenBody")),
        responses: { "200": sessionAnswer("Confirmed, and a session."), ...errorRefs("TokenRejected", "Unauthorized", ...limited) },
        "x-codeSamples": sample(serverUrl, "/auth/verify", { token: "<token>" }),
      },
    },
    "/auth/verify/resend": request("authVerifyResend", "Mail a new verification link", "Mails a new verification link to an account whose address is not confirmed yet; earlier links stop working.", "/auth/verify/resend"),
    "/auth/password/forgot": request("authPasswordForgot", "Mail a password reset link", "Mails a link to choose a new password (1 hour, once).", "/auth/password/forgot"),
    "/auth/password/reset": {
      post: {
        tags: ["Auth"],
        operationId: "authPasswordReset",
        summary: "Choose a new password",
        description: "Spends the token of a reset mail and sets the password; every session of the user ends (sign in again with the new password).",
        security: [],
        requestBody: jsonBody({ type: "object", properties: { token: { type: "string", minLength: 1, maxLength: 200 }, password }, required: ["token", "password"], additionalProperties: false, example: { token: "<token>", password: "a new long password" } }),
        responses: {
          "200": { description: "The password is set.", content: { "application/json": { schema: { type: "object", properties: { user: ref("Auth.User") }, required: ["user"] } } } },
          ...errorRefs("TokenRejected", "Unauthorized", "Conflict", ...limited),
        },
        "x-codeSamples": sample(serverUrl, "/auth/password/reset", { token: "<token>", password: "a new long password" }),
      },
    },
    "/auth/otp": request("authOtp", "Mail a sign-in code and link", "Mails a 6-digit code and a magic link (10 minutes, once; the code takes 5 tries).", "/auth/otp"),
    "/auth/otp/verify": {
      post: {
        tags: ["Auth"],
        operationId: "authOtpVerify",
        summary: "Sign in with a mailed code or link",
        description: "`{email, code}` (the 6-digit code) or `{token}` (the magic link's) → a session. A wrong code uses one of its 5 tries.",
        security: [],
        requestBody: jsonBody({
          oneOf: [
            { type: "object", properties: { email: { type: "string", minLength: 1, maxLength: 320 }, code: { type: "string", pattern: "^\\d{6}$" } }, required: ["email", "code"], additionalProperties: false },
            ref("Auth.TokenBody"),
          ],
          example: { email: "ada@example.com", code: "123456" },
        }),
        responses: { "200": sessionAnswer("A session."), ...errorRefs("TokenRejected", "Unauthorized", ...limited) },
        "x-codeSamples": sample(serverUrl, "/auth/otp/verify", { email: "ada@example.com", code: "123456" }),
      },
    },
  };
};

export const USER_JWT_SCHEME = {
  type: "http",
  scheme: "bearer",
  bearerFormat: "JWT",
  description: "A database-auth JWT from `/auth/login` (HS256). Row Level Security policies decide which rows it may read and write; a table without a policy for an action refuses it (403).",
};
