import type { QuotaInfo } from "@/lib/errors";
import type { FieldError } from "./field-error";
import { humanFieldError } from "./human-errors";

export type { FieldError, QuotaInfo };

type ErrorBody = { error?: string; message?: string; errors?: FieldError[]; quota?: QuotaInfo; [field: string]: unknown };

/** A non-2xx answer from the management or data API, carrying the API's error body. */
export class ApiRequestError extends Error {
  readonly status: number;
  readonly code: string;
  readonly errors: FieldError[];
  readonly source: "management" | "data" | "session";
  /** On a 402 quota_exceeded: which limit, its value, the use counted against it and the credits left. */
  readonly quota?: QuotaInfo;
  /** The body's other fields (a refused option change lists `options_in_use`). */
  readonly extra: Record<string, unknown>;

  constructor(status: number, body: ErrorBody | undefined, source: ApiRequestError["source"]) {
    super(body?.message ?? `The request failed with status ${status}.`);
    this.status = status;
    this.code = body?.error ?? "unknown";
    this.errors = body?.errors ?? [];
    this.source = source;
    this.quota = body?.quota;
    const { error: _error, message: _message, errors: _errors, quota: _quota, ...extra } = body ?? {};
    this.extra = extra;
  }
}

/** Reads a fetch response as JSON, or throws an ApiRequestError built from the API's error body. */
export const readResponse = async <T>(res: Response, source: ApiRequestError["source"]): Promise<T> => {
  const text = await res.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  if (!res.ok) throw new ApiRequestError(res.status, body as ErrorBody | undefined, source);
  return body as T;
};

/** `{field: message}` for the problems under one prefix, e.g. `tables[0].columns[1].` → `{name: "..."}`. */
export const fieldErrors = (error: unknown, prefix = ""): Record<string, string> => {
  if (!(error instanceof ApiRequestError)) return {};
  const out: Record<string, string> = {};
  for (const e of error.errors) {
    if (e.field.startsWith(prefix)) out[e.field.slice(prefix.length)] ??= error.source === "management" ? humanFieldError(e, true) : e.message;
  }
  return out;
};

/** The message to show for an error that no single field claims: its field errors in words when it has them. */
export const errorMessage = (error: unknown) => {
  if (error instanceof ApiRequestError && error.source === "management" && error.code === "validation_failed" && error.errors.length) return error.errors.map((e) => humanFieldError(e)).join(" ");
  return error instanceof Error ? error.message : "Something went wrong. Check your connection and try again.";
};

/** The limit a 402 refused, when the error is one. */
export const quotaOf = (error: unknown) =>
  error instanceof ApiRequestError && error.code === "quota_exceeded" ? error.quota : undefined;
