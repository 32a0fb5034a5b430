// What the auth routes share in reading a request: the JSON body, required fields, the sign-in limits.
import type { App } from "../app-type";
import { signInLimited } from "../auth/sign-in-limiter";
import { type FieldError, validationFailed } from "../errors";
import type { CoreRequest } from "../http/core-types";
import { parseJsonBody } from "../http/parse-json-body";
import type { AuthDatabase } from "./auth-database";

export const NO_STORE = { "cache-control": "no-store" };

/** The JSON object body, or {} (each route names its missing fields). */
export const bodyObject = (req: CoreRequest) => {
  const body = parseJsonBody(req);
  return (typeof body === "object" && body !== null && !Array.isArray(body) ? body : {}) as Record<string, unknown>;
};

/** Counts an attempt of `login` from the caller's address against the sign-in limits (429 past them). */
export const limitAttempt = async (app: App, req: CoreRequest, database: AuthDatabase, login: string) => {
  const attempt = { realm: `db:${database.schema.id}`, login, address: req.clientAddress };
  const wait = await app.signInLimiter.count(attempt);
  if (wait) throw signInLimited(wait);
  return attempt;
};

/** 8 to 72 bytes, the span bcrypt takes whole. */
export const checkPassword = (password: string, field = "password") => {
  if ([...password].length < 8 || Buffer.byteLength(password) > 72) throw validationFailed([{ field, code: "out_of_range", message: "the password must be 8 to 72 bytes long" }]);
};

export const requireText = (body: Record<string, unknown>, field: string, max = 2048): string => {
  const v = body[field];
  if (typeof v !== "string" || v === "") throw validationFailed([{ field, code: "required", message: `"${field}" is required` }]);
  if (v.length > max) throw validationFailed([{ field, code: "too_long", message: `"${field}" is at most ${max} characters` }]);
  return v;
};

/** Refuses properties a route does not take, so a typo is a 422 rather than a silent default. */
export const onlyFields = (body: Record<string, unknown>, allowed: string[]) => {
  const extra = Object.keys(body).filter((k) => !allowed.includes(k));
  if (extra.length) throw validationFailed(extra.map((k): FieldError => ({ field: k, code: "unknown_property", message: `this path takes only ${allowed.map((a) => `"${a}"`).join(", ")}` })));
};
