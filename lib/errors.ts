// One error class, one code→status table, one body shape for the data and management APIs.
import { UNAVAILABLE_RETRY_SECONDS, unavailability } from "./db/unavailable";
import { logger } from "./ops/logger";

export type FieldError = { field: string; code: string; message: string; /** 1-based offset in the field's text (policies). */ position?: number };

const STATUS_BY_CODE = {
  bad_request: 400,
  invalid_token: 400,
  invalid_code: 400,
  token_expired: 400,
  token_used: 400,
  unauthorized: 401,
  refresh_token_reused: 401,
  quota_exceeded: 402,
  forbidden: 403,
  email_not_verified: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  schema_changed: 409,
  write_conflict: 409,
  invite_expired: 410,
  payload_too_large: 413,
  range_not_satisfiable: 416,
  unsupported_media_type: 415,
  validation_failed: 422,
  ai_plan_invalid: 422,
  rate_limited: 429,
  pre_hook_failed: 500,
  internal: 500,
  ai_unavailable: 502,
  provider_unavailable: 502,
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof STATUS_BY_CODE;

/** On a 402: which limit was hit, its value, the use counted against it, and the credits that could raise it. */
export type QuotaInfo = { kind: string; limit: number | null; used: number; credits: number };

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly errors?: FieldError[];
  readonly headers?: Record<string, string>;
  readonly quota?: QuotaInfo;
  /** More fields of the body (a failed pre hook names its hook and step). */
  readonly extra?: Record<string, unknown>;

  constructor(
    code: ErrorCode,
    message: string,
    options: { errors?: FieldError[]; headers?: Record<string, string>; quota?: QuotaInfo; extra?: Record<string, unknown> } = {},
  ) {
    super(message);
    this.code = code;
    this.errors = options.errors;
    this.headers = options.headers;
    this.quota = options.quota;
    this.extra = options.extra;
  }

  get status(): number {
    return STATUS_BY_CODE[this.code];
  }
}

export const notFound = (message: string) => new ApiError("not_found", message);

export const unauthorized = (message = "A valid secret key or token is required.") =>
  new ApiError("unauthorized", message, { headers: { "WWW-Authenticate": 'Bearer realm="tabula"' } });

export const conflict = (message: string, errors?: FieldError[]) =>
  new ApiError("conflict", message, { errors });

/** A 422 listing every problem; `message` summarises the first. */
export const validationFailed = (errors: FieldError[]) =>
  new ApiError(
    "validation_failed",
    errors.length === 1 ? errors[0].message : `${errors.length} problems: ${errors[0].message} (and more)`,
    { errors },
  );

export const invalidField = (field: string, code: string, message: string) =>
  validationFailed([{ field, code, message }]);

export const methodNotAllowed = (allow: string[]) =>
  new ApiError("method_not_allowed", `This path accepts ${allow.join(", ")}.`, {
    headers: { Allow: allow.join(", ") },
  });

/**
 * 503 with Retry-After: a database (metadata or user) cannot be reached, or the server is short of a resource
 * (descriptors, connections) for a moment (`SHORTAGE_RETRY_SECONDS` in db/unavailable); the request may succeed later.
 */
export const unavailable = (message = "The database is unreachable right now; retry shortly.", retryAfter = UNAVAILABLE_RETRY_SECONDS) =>
  new ApiError("unavailable", message, { headers: { "Retry-After": String(retryAfter) } });


/** MySQL refusals of a definition it cannot hold (row size, column length, key length): the user's to fix. */
const MYSQL_DEFINITION_LIMITS = new Set([1059, 1071, 1074, 1117, 1118]);

const engineLimitError = (err: unknown): ApiError | undefined => {
  const e = err as { errno?: number; sqlMessage?: string } | null;
  if (!e || typeof e.errno !== "number" || !MYSQL_DEFINITION_LIMITS.has(e.errno)) return undefined;
  const detail = (e.sqlMessage ?? "").split(". ")[0];
  return invalidField("columns", "engine_limit", `MySQL cannot hold this table definition: ${detail}`);
};

export type ErrorBody = { error: string; message: string; errors?: FieldError[]; quota?: QuotaInfo; [field: string]: unknown };

/** Maps anything thrown to a status and a body; a non-ApiError never leaks its details (it is logged with the request id). */
export const toErrorResponse = (
  err: unknown,
  requestId?: string,
): { status: number; body: ErrorBody; headers: Record<string, string> } => {
  if (err instanceof ApiError) {
    const body: ErrorBody = { error: err.code, message: err.message };
    if (err.errors) body.errors = err.errors;
    if (err.quota) body.quota = err.quota;
    if (err.extra) Object.assign(body, err.extra);
    return { status: err.status, body, headers: err.headers ?? {} };
  }
  const limit = engineLimitError(err);
  if (limit) return toErrorResponse(limit);
  const down = unavailability(err);
  if (down) {
    if (down.kind === "unreachable") logger.warn({ reqId: requestId, err }, "database unreachable");
    return toErrorResponse(unavailable(down.message, down.retryAfter));
  }
  logger.error({ reqId: requestId, err }, "internal error");
  return {
    status: 500,
    body: { error: "internal", message: "The server failed to handle this request." },
    headers: {},
  };
};
