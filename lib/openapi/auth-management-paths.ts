// Database auth and row policies in the management API's OpenAPI document.
import type { ErrorResponseName } from "./shared-components";

type Json = Record<string, unknown>;
type Op = (method: string, path: string, spec: any) => Json;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const NULLABLE_POLICY = { type: ["string", "null"], maxLength: 2000, description: "An expression, `true` for every row, or null: denied to JWT users." };

export const AUTH_EXAMPLES = {
  auth: { enabled: true, users_table: "users", login_column: "email", password_column: "password", token_ttl_seconds: 3600, signup: false, cors_origins: ["https://app.example.com"] },
  policies: { select: "published = true or owner_id = auth.id", insert: "owner_id = auth.id", update: "owner_id = auth.id", delete: null },
};

export const AUTH_MANAGEMENT_SCHEMAS: Record<string, Json> = {
  AuthSettings: {
    type: "object",
    description: "Database auth settings. PUT replaces the whole object; omitted fields take their defaults.",
    properties: {
      enabled: { type: "boolean", default: false },
      users_table: { type: "string", default: "users" },
      login_column: { type: "string", default: "email", description: "A unique varchar or text column (email or username)." },
      password_column: { type: "string", default: "password", description: "A column of type password." },
      token_ttl_seconds: { type: "integer", minimum: 1, maximum: 2592000, default: 3600 },
      signup: { type: "boolean", default: false, description: "Whether `POST /v1/{instance}/auth/signup` is open." },
      cors_origins: { type: "array", items: { type: "string" }, default: [], description: 'Origins (scheme://host[:port]) or "*" allowed by CORS.' },
    },
    additionalProperties: false,
    example: AUTH_EXAMPLES.auth,
  },
  Policies: {
    type: "object",
    description: "Row Level Security policies of one table, per action. PUT replaces all four.",
    properties: { select: NULLABLE_POLICY, insert: NULLABLE_POLICY, update: NULLABLE_POLICY, delete: NULLABLE_POLICY },
    additionalProperties: false,
    example: AUTH_EXAMPLES.policies,
  },
  Impersonate: {
    type: "object",
    properties: { user_id: { type: "integer", minimum: 1 } },
    required: ["user_id"],
    additionalProperties: false,
    example: { user_id: 1 },
  },
  TestAsUserInput: {
    type: "object",
    properties: { user_id: { type: "integer", minimum: 1 }, table: { type: "string" } },
    required: ["user_id", "table"],
    additionalProperties: false,
    example: { user_id: 1, table: "notes" },
  },
  TestAsUserResult: {
    type: "object",
    properties: {
      actions: {
        type: "object",
        description: "Each action: `allowed` (on rows matching its policy) or `denied` (403).",
        properties: Object.fromEntries(["select", "insert", "update", "delete"].map((a) => [a, { type: "string", enum: ["allowed", "denied"] }])),
      },
      total: { type: "integer", description: "How many rows the user can see." },
      rows: {
        type: "array",
        description: "The first 100 visible rows, each with whether the user may update and delete it.",
        items: {
          type: "object",
          properties: { record: { type: "object", additionalProperties: true }, update: { type: "boolean" }, delete: { type: "boolean" } },
          required: ["record", "update", "delete"],
        },
      },
    },
    required: ["actions", "total", "rows"],
  },
  UserToken: {
    type: "object",
    properties: {
      token: { type: "string" },
      token_type: { type: "string", const: "Bearer" },
      expires_in: { type: "integer" },
      user: { type: "object", additionalProperties: true },
    },
    required: ["token", "token_type", "expires_in", "user"],
  },
};

export const authManagementPaths = (op: Op): Record<string, Json> => {
  const db = "/databases/{instance}";
  const scoped: ErrorResponseName[] = ["Forbidden", "NotFound"];
  return {
    [`${db}/auth`]: {
      parameters: [{ $ref: "#/components/parameters/Instance" }],
      get: op("get", `${db}/auth`, {
        tag: "Auth", operationId: "getAuth", summary: "Get the database auth settings",
        description: "The settings (never the signing secret).", status: "200", result: ref("AuthSettings"), errors: scoped,
      }),
      put: op("put", `${db}/auth`, {
        tag: "Auth", operationId: "updateAuth", summary: "Replace the database auth settings",
        description: "Validates the users table and its login and password columns when enabled.", status: "200",
        result: ref("AuthSettings"), body: { schema: "AuthSettings", example: AUTH_EXAMPLES.auth }, errors: [...scoped, "ValidationFailed"],
      }),
    },
    [`${db}/auth/rotate-secret`]: {
      parameters: [{ $ref: "#/components/parameters/Instance" }],
      post: op("post", `${db}/auth/rotate-secret`, {
        tag: "Auth", operationId: "rotateAuthSecret", summary: "Rotate the signing secret",
        description: "A new HS256 secret: every token issued so far stops working (all sessions end).", status: "200",
        result: ref("AuthSettings"), errors: scoped,
      }),
    },
    [`${db}/auth/impersonate`]: {
      parameters: [{ $ref: "#/components/parameters/Instance" }],
      post: op("post", `${db}/auth/impersonate`, {
        tag: "Auth", operationId: "impersonateUser", summary: "Get a short-lived token for one user",
        description: "A JWT for `user_id` valid at most 5 minutes, to see the data API as that user (\"test as user\").", status: "200",
        result: ref("UserToken"), body: { schema: "Impersonate", example: { user_id: 1 } }, errors: [...scoped, "Conflict", "ValidationFailed"],
      }),
    },
    [`${db}/auth/test-as-user`]: {
      parameters: [{ $ref: "#/components/parameters/Instance" }],
      post: op("post", `${db}/auth/test-as-user`, {
        tag: "Auth", operationId: "testAsUser", summary: "See a table as one user",
        description: "The actions open to the user on the table, the rows they can see, and per row whether they may update or delete it, from the same predicates the data API applies.",
        status: "200", result: ref("TestAsUserResult"), body: { schema: "TestAsUserInput", example: { user_id: 1, table: "notes" } },
        errors: [...scoped, "Conflict", "ValidationFailed"],
      }),
    },
    [`${db}/tables/{table}/policies`]: {
      parameters: [{ $ref: "#/components/parameters/Instance" }, { $ref: "#/components/parameters/Table" }],
      get: op("get", `${db}/tables/{table}/policies`, {
        tag: "Auth", operationId: "getPolicies", summary: "Get a table's row policies",
        description: "Every action with its policy; null where none (denied to JWT users).", status: "200", result: ref("Policies"), errors: scoped,
      }),
      put: op("put", `${db}/tables/{table}/policies`, {
        tag: "Auth", operationId: "updatePolicies", summary: "Replace a table's row policies",
        description: "Each policy is parsed against the table; a problem is a 422 entry with the action as `field` and the 1-based `position`.",
        status: "200", result: ref("Policies"), body: { schema: "Policies", example: AUTH_EXAMPLES.policies }, errors: [...scoped, "ValidationFailed"],
      }),
    },
  };
};
