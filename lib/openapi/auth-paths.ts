// Database auth in the data API's OpenAPI document: /auth/login, /auth/signup (when on), /auth/me, and the
// bearer-JWT scheme. Present only while the database has auth enabled.
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
      properties: { [auth.login_column]: { type: "string", minLength: 1 }, password: { type: "string", minLength: 1 } },
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
      description: "An HS256 JWT (claims `sub` user id, `db`, `role: authenticated`, `iat`, `exp`) for `Authorization: Bearer <token>`.",
      properties: {
        token: { type: "string" },
        token_type: { type: "string", const: "Bearer" },
        expires_in: { type: "integer", description: "Seconds until the token expires.", minimum: 1 },
        user: ref("Auth.User"),
      },
      required: ["token", "token_type", "expires_in", "user"],
      example: { token: "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxIn0.signature", token_type: "Bearer", expires_in: auth.token_ttl_seconds, user },
    },
  };
};

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
      responses: { [status]: token(status === "201" ? "The new user and a token." : "A token for the user."), ...errorRefs(...errors) },
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
      ["Unauthorized", "ValidationFailed", "RateLimited", "NotFound", "InternalError"],
      "200",
    ),
  };
  if (auth.signup) {
    paths["/auth/signup"] = open(
      "/auth/signup",
      { operationId: "authSignup", summary: "Sign a new user up", description: `Creates a row in \`${auth.users_table}\` from \`${auth.login_column}\` and a password (8 to 72 bytes) and returns a JWT. Needs no key.` },
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
  return paths;
};

export const USER_JWT_SCHEME = {
  type: "http",
  scheme: "bearer",
  bearerFormat: "JWT",
  description: "A database-auth JWT from `/auth/login` (HS256). Row Level Security policies decide which rows it may read and write; a table without a policy for an action refuses it (403).",
};
