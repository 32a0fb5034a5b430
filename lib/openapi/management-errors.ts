// The error responses of the management document, and which of them an operation can answer: derived from
// its route (permission, path params, input schemas, declared service errors), never listed by hand.
import { REFUSALS } from "../mgmt/authorize";
import { canRefuse, isDatabasePermission, isWorkspacePermission } from "../teams/permissions";
import type { Route } from "../mgmt/route";
import { COLUMN_TYPES } from "../schema/types";
import { errorBody, TOO_LARGE, WRITE_CONFLICT } from "./shared-components";

type Json = Record<string, unknown>;

const TYPE_PROBLEM = `tables[0].columns[1].type must be one of ${COLUMN_TYPES.join(", ")}`;

const RACE =
  "`write_conflict` (`retryable: true`): the change lost a race to another one on the same metadata (a deadlock or lock timeout) and the server's own retries ran out; nothing was saved, send the request again.";

const MANAGEMENT_ERRORS = {
  Unauthorized: {
    status: "401",
    description: "No session, or a missing, wrong, regenerated or revoked key.",
    headers: { "WWW-Authenticate": { description: "Always `Bearer`.", schema: { type: "string", example: 'Bearer realm="tabula"' } } },
    content: errorBody("unauthorized", "Sign in, or send an account secret key as Authorization: Bearer <key>."),
  },
  BadSignature: {
    status: "401",
    description: "The billing webhook's `X-Tabula-Signature` is missing or does not match the body (or BILLING_WEBHOOK_SECRET is not set).",
    content: errorBody("unauthorized", "X-Tabula-Signature does not match the body."),
  },
  QuotaExceeded: {
    status: "402",
    description: "The plan's limit is reached and no credit can raise it; `quota` says which limit, its value, the use and the credits left.",
    content: errorBody("quota_exceeded", "Your free plan allows 2 databases and this account has 2. Delete a database, add a database credit, or ask the operator of this install for a larger plan.", {
      quota: { kind: "databases", limit: 2, used: 2, credits: 0 },
    }),
  },
  ForbiddenAccount: {
    status: "403",
    description: "A database key on an account-wide route: it reaches its own database only.",
    content: errorBody("forbidden", REFUSALS.databaseKeyOutside),
  },
  ForbiddenOperator: {
    status: "403",
    description: "The caller is not the operator of this install (or uses a database key).",
    content: errorBody("forbidden", REFUSALS.operatorOnly),
  },
  ForbiddenWorkspace: {
    status: "403",
    description: "A database key, or a role in the workspace without the route's permission (a viewer inviting, an editor removing a member).",
    content: errorBody("forbidden", REFUSALS.workspaceRoleLacks("workspace:admin")),
  },
  ForbiddenDatabase: {
    status: "403",
    description: "A database key of another database, or a role on this database without the route's permission.",
    content: errorBody("forbidden", REFUSALS.databaseKeyElsewhere),
  },
  NotFound: {
    status: "404",
    description: "Unknown database (also one your account cannot reach: the same answer), table, column, join, key or account.",
    content: errorBody("not_found", REFUSALS.databaseNotFound("shop_7k2m9x")),
  },
  Conflict: {
    status: "409",
    description: `The name is taken, or something else still depends on it (a reference, a join, database auth) (\`conflict\`). ${RACE}`,
    content: {
      "application/json": {
        schema: { $ref: "#/components/schemas/Error" },
        examples: { conflict: { value: { error: "conflict", message: 'Table "products" already exists in database "shop_7k2m9x".' } }, write_conflict: { value: WRITE_CONFLICT } },
      },
    },
  },
  ReadConflict: {
    status: "409",
    description: "Not possible in the state the thing is in, e.g. a list of a database's users while its auth is off (`conflict`).",
    content: errorBody("conflict", 'Database auth is off for "shop_7k2m9x".'),
  },
  WriteConflict: {
    status: "409",
    description: RACE,
    content: errorBody(WRITE_CONFLICT.error, WRITE_CONFLICT.message, { retryable: true }),
  },
  InviteExpired: {
    status: "410",
    description: "The invite expired, was revoked, or has no uses left.",
    content: errorBody("invite_expired", "This invite has expired; ask for a new one."),
  },
  AiUnavailable: {
    status: "502",
    description: "The AI model (AI_BASE_URL) could not be reached or failed; the call's allowance or credit was released.",
    content: errorBody("ai_unavailable", "The AI model could not be reached (no answer: connect ECONNREFUSED 127.0.0.1:11434)."),
  },
  PayloadTooLarge: {
    status: "413",
    description: TOO_LARGE,
    content: errorBody("payload_too_large", TOO_LARGE),
  },
  ValidationFailed: {
    status: "422",
    description: "The body or the query is invalid; `errors` lists every problem. The AI builder also answers 422 `ai_plan_invalid` when no valid plan came out (with the plan's problems).",
    content: errorBody("validation_failed", TYPE_PROBLEM, { errors: [{ field: "tables[0].columns[1].type", code: "invalid_value", message: TYPE_PROBLEM }] }),
  },
  Unavailable: {
    status: "503",
    description: "The metadata store (or the database the route acts on) cannot be reached right now; retry after the given seconds.",
    headers: { "Retry-After": { description: "Seconds to wait.", schema: { type: "integer", minimum: 1, example: 5 } } },
    content: errorBody("unavailable", "The database is unreachable right now; retry shortly."),
  },
} satisfies Record<string, { status: string; description: string; content: Json; headers?: Json }>;

type ErrorName = keyof typeof MANAGEMENT_ERRORS;

const forbiddenFor = (route: Route): ErrorName =>
  isDatabasePermission(route.permission)
    ? "ForbiddenDatabase"
    : isWorkspacePermission(route.permission)
      ? "ForbiddenWorkspace"
      : route.permission === "operator"
        ? "ForbiddenOperator"
        : "ForbiddenAccount";

/** The error responses this route's code path can answer. */
export const routeErrors = (route: Route): ErrorName[] => {
  const names: ErrorName[] = [route.permission === "billing" ? "BadSignature" : "Unauthorized"];
  if (route.quota || route.errors?.includes("quota")) names.push("QuotaExceeded");
  if (canRefuse(route.permission)) names.push(forbiddenFor(route));
  if (route.path.includes(":") || route.errors?.includes("not_found") || isWorkspacePermission(route.permission)) names.push("NotFound");
  // Every write runs in a metadata transaction that can lose a race: 409 write_conflict, with `conflict` where the route has one.
  // A read changes nothing, so it cannot lose a race: its 409 is the state's alone.
  if (route.errors?.includes("conflict")) names.push(route.method === "GET" ? "ReadConflict" : "Conflict");
  else if (route.method !== "GET") names.push("WriteConflict");
  if (route.errors?.includes("gone")) names.push("InviteExpired");
  if (route.errors?.includes("ai")) names.push("AiUnavailable");
  if (route.body) names.push("PayloadTooLarge");
  if (route.body || route.query) names.push("ValidationFailed");
  names.push("Unavailable");
  return names;
};

/** `responses` entries pointing at the shared components, keyed by status. */
export const errorRefs = (names: ErrorName[]): Json =>
  Object.fromEntries(names.map((n) => [MANAGEMENT_ERRORS[n].status, { $ref: `#/components/responses/${n}` }]));

/** The response components the given routes use, so none is left unused. */
export const errorComponents = (routes: Route[]): Json => {
  const used = new Set(routes.flatMap(routeErrors));
  return Object.fromEntries(
    Object.entries(MANAGEMENT_ERRORS)
      .filter(([name]) => used.has(name as ErrorName))
      .map(([name, { status: _status, ...response }]) => [name, response]),
  );
};
