// Pieces both OpenAPI documents (data API and management API) share: the error body and the error responses.
import { MAX_BODY_BYTES, mebibytes } from "../api/limits";

type Json = Record<string, unknown>;

export const TOO_LARGE = `The body is larger than ${mebibytes(MAX_BODY_BYTES)}.`;

export const ERROR_SCHEMAS: Record<string, Json> = {
  FieldError: {
    type: "object",
    description: "One problem with one field of the request.",
    properties: {
      field: { type: "string", description: "The column, parameter or body path at fault.", example: "price" },
      code: { type: "string", description: "Machine-readable problem code.", example: "invalid_type" },
      message: { type: "string", description: "What is wrong, in one sentence.", example: "must be a number" },
      position: { type: "integer", minimum: 1, description: "Only on a row policy's problem: the 1-based offset in its text." },
    },
    required: ["field", "code", "message"],
  },
  Error: {
    type: "object",
    description: "The body of every error response.",
    properties: {
      error: { type: "string", description: "Machine-readable error code, e.g. `not_found`.", example: "not_found" },
      message: { type: "string", description: "A sentence for humans.", example: "No record with id 1." },
      errors: {
        type: "array",
        description: "Every problem found; present on 422 and wherever several problems are reported.",
        items: { $ref: "#/components/schemas/FieldError" },
      },
      retryable: { type: "boolean", description: "Only on 409 `schema_changed` and `write_conflict`: true, nothing was written and the same request may be sent again." },
      quota: {
        type: "object",
        description: "Only on 402: the limit reached, the use counted against it, and the credits left that could raise it.",
        properties: {
          kind: { type: "string", example: "databases" },
          limit: { type: ["integer", "null"], example: 2 },
          used: { type: "integer", example: 2 },
          credits: { type: "integer", example: 0 },
        },
        required: ["kind", "limit", "used", "credits"],
      },
      workspace_with_room: {
        type: "object",
        description: "Only on a 402 for `databases`: another workspace where the caller may create the database now (its own, or one where it is an editor or admin, whose owner's plan has room); send its `id` as `workspace`.",
        properties: { id: { type: "integer", example: 7 }, owner: { type: "string", example: "ada@example.com" } },
        required: ["id", "owner"],
      },
    },
    required: ["error", "message"],
  },
};

/** The `content` of an error response: the shared Error schema with an example body. */
export const errorBody = (error: string, message: string, extra: Json = {}) => ({
  "application/json": {
    schema: { $ref: "#/components/schemas/Error" },
    example: { error, message, ...extra },
  },
});

const header = (description: string, schema: Json) => ({ description, schema });

/** The 409 a write answers when it lost a race to another write on the same rows and the server's retries ran out. */
export const WRITE_CONFLICT = {
  error: "write_conflict",
  message: "Another write to the same rows won a race; nothing was written. Send the request again.",
  retryable: true,
};

/** A 409 whose body is one of several codes: an example of each. */
const errorBodies = (examples: Record<string, Json>) => ({
  "application/json": {
    schema: { $ref: "#/components/schemas/Error" },
    examples: Object.fromEntries(Object.entries(examples).map(([name, value]) => [name, { value }])),
  },
});

const RETRYABLE_409 =
  "`schema_changed`: the table's schema changed while the request ran. `write_conflict` (writes): another write to the same rows won a race (a deadlock or lock timeout) and the server's own retries ran out. Both carry `retryable: true`: nothing was written, send the request again.";

const ERROR_RESPONSES = {
  TokenRejected: {
    status: "400",
    response: {
      description: "A mailed token or code that cannot be used: `invalid_token` (unknown, or of another database or purpose), `token_expired`, `token_used` (spent, or replaced by a newer mail), `invalid_code` (wrong, or out of its 5 tries).",
      content: errorBodies({
        invalid_token: { error: "invalid_token", message: "The token is not valid (unknown, or of another database or purpose)." },
        token_expired: { error: "token_expired", message: "The token has expired; ask for a new mail." },
        token_used: { error: "token_used", message: "The token was already used; ask for a new mail." },
        invalid_code: { error: "invalid_code", message: "The code is wrong." },
      }),
    },
  },
  BadRequest: {
    status: "400",
    response: {
      description: "The request cannot be done as asked (the message says why).",
      content: errorBody("bad_request", 'This token belongs to no session (an impersonation token); use {"scope": "all"} or let it expire.'),
    },
  },
  SessionRejected: {
    status: "401",
    response: {
      description: "`unauthorized`: the refresh token is unknown, expired, or its session ended. `refresh_token_reused`: it was already spent, so its whole session (family) has now ended.",
      headers: { "WWW-Authenticate": header("Always `Bearer`.", { type: "string", example: 'Bearer realm="tabula"' }) },
      content: errorBodies({
        unauthorized: { error: "unauthorized", message: "The refresh token is not valid (unknown, expired, or its session ended); sign in again." },
        refresh_token_reused: { error: "refresh_token_reused", message: "This refresh token was already used; its session has ended. Sign in again." },
      }),
    },
  },
  EmailNotVerified: {
    status: "403",
    response: {
      description: "The password is right but the email is not confirmed yet (verification is required): follow the mailed link, or ask for a new one at `/auth/verify/resend`.",
      content: errorBody("email_not_verified", "Confirm your email address first: follow the link we mailed, or ask for a new one at /auth/verify/resend."),
    },
  },
  Unauthorized: {
    status: "401",
    response: {
      description: "Missing, wrong, regenerated or revoked key, or a bad or expired token.",
      headers: { "WWW-Authenticate": header("Always `Bearer`.", { type: "string", example: 'Bearer realm="tabula"' }) },
      content: errorBody("unauthorized", "A valid secret key or token is required."),
    },
  },
  Forbidden: {
    status: "403",
    response: {
      description: "The caller is known but may not do this (role, key scope, or a Row Level Security policy).",
      content: errorBody("forbidden", "You may not do this."),
    },
  },
  NotFound: {
    status: "404",
    response: {
      description: "Unknown database, table, column or id (also a row hidden by Row Level Security).",
      content: errorBody("not_found", "Not found."),
    },
  },
  Conflict: {
    status: "409",
    response: {
      description: `A unique value is taken, or the row is still referenced by other rows (\`conflict\`). ${RETRYABLE_409}`,
      content: errorBodies({
        conflict: { error: "conflict", message: "A record with this value already exists.", errors: [{ field: "email", code: "duplicate", message: "is already taken" }] },
        write_conflict: WRITE_CONFLICT,
      }),
    },
  },
  SchemaChanged: {
    status: "409",
    response: {
      description: RETRYABLE_409,
      content: errorBodies({
        schema_changed: { error: "schema_changed", message: "The schema of this database changed while the request ran; nothing was written. Retry the request.", retryable: true },
        write_conflict: WRITE_CONFLICT,
      }),
    },
  },
  PayloadTooLarge: {
    status: "413",
    response: { description: TOO_LARGE, content: errorBody("payload_too_large", TOO_LARGE) },
  },
  ValidationFailed: {
    status: "422",
    response: {
      description: "The body or the query is invalid; `errors` lists every problem.",
      content: errorBody("validation_failed", "must be a number", {
        errors: [{ field: "price", code: "invalid_type", message: "must be a number" }],
      }),
    },
  },
  RateLimited: {
    status: "429",
    response: {
      description: "Too many requests; retry after the given number of seconds.",
      headers: { "Retry-After": header("Seconds to wait.", { type: "integer", minimum: 0, example: 1 }) },
      content: errorBody("rate_limited", "Too many requests; retry in 1 second."),
    },
  },
  PlanRateLimited: {
    status: "429",
    response: {
      description: "The database owner's plan rate (requests per second, all its databases together) is used up for this second.",
      headers: {
        "Retry-After": header("Seconds to wait.", { type: "integer", minimum: 1, example: 1 }),
        "RateLimit-Policy": header("The plan's quota `q` per window of `w` seconds (also sent on every answer).", { type: "string", example: '"plan";q=10;w=1' }),
        RateLimit: header("Requests left `r` and seconds `t` until the window resets (also sent on every answer).", { type: "string", example: '"plan";r=0;t=1' }),
      },
      content: errorBody("rate_limited", "This database's account allows 10 requests per second on its plan; retry in 1 s."),
    },
  },
  PreHookFailed: {
    status: "500",
    response: {
      description: "A pre hook of this table failed at run time (or ran past its 50 ms budget); nothing was written. `hook` and `step` say where; the hook logs say why. (An assert that fails is a 422 with its message.)",
      content: errorBody("pre_hook_failed", "The orders.insert hook failed at step 1: division by zero. See the hook logs.", { hook: "orders.insert", step: 1 }),
    },
  },
  InternalError: {
    status: "500",
    response: {
      description: "An internal error; the body never carries its details.",
      content: errorBody("internal", "The server failed to handle this request."),
    },
  },
  Unavailable: {
    status: "503",
    response: {
      description: "A database (the metadata store or this database) cannot be reached right now; retry after the given seconds.",
      headers: { "Retry-After": header("Seconds to wait.", { type: "integer", minimum: 1, example: 5 }) },
      content: errorBody("unavailable", "The database is unreachable right now; retry shortly."),
    },
  },
} satisfies Record<string, { status: string; response: Json }>;

export type ErrorResponseName = keyof typeof ERROR_RESPONSES;

/** `responses` entries that point at the shared error responses, keyed by status. */
export const errorRefs = (...names: ErrorResponseName[]): Json =>
  Object.fromEntries(names.map((n) => [ERROR_RESPONSES[n].status, { $ref: `#/components/responses/${n}` }]));

/** The shared error responses the operations of `paths` refer to, so none is left unused. */
export const usedErrorResponses = (paths: Record<string, Record<string, unknown>>): Json => {
  const used = new Set<string>();
  for (const item of Object.values(paths)) {
    for (const op of Object.values(item) as { responses?: Record<string, { $ref?: string }> }[]) {
      for (const res of Object.values(op.responses ?? {})) {
        if (res.$ref) used.add(res.$ref.split("/").pop()!);
      }
    }
  }
  return Object.fromEntries(Object.entries(ERROR_RESPONSES).filter(([n]) => used.has(n)).map(([n, r]) => [n, r.response]));
};
