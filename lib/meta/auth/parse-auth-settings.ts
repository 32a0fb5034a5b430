import { type FieldError, validationFailed } from "../../errors";
import type { AuthSettings, DatabaseSchema } from "../../schema/types";
import { DEFAULT_AUTH } from "./load-auth";

export const MAX_TOKEN_TTL = 30 * 24 * 3600;
const ORIGIN_RE = /^https?:\/\/[a-z0-9.-]+(:\d{1,5})?$|^https?:\/\/\[[0-9a-f:]+\](:\d{1,5})?$/;

/** PUT replaces the whole object: omitted fields take their defaults. Tables and columns are checked when enabled. */
export const parseAuthSettings = (schema: DatabaseSchema, input: unknown): AuthSettings => {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw validationFailed([{ field: "body", code: "invalid_type", message: "the body must be a JSON object of auth settings" }]);
  }
  const body = input as Record<string, unknown>;
  const errors: FieldError[] = [];
  const fail = (field: string, code: string, message: string) => errors.push({ field, code, message });
  for (const key of Object.keys(body)) if (!(key in DEFAULT_AUTH)) fail(key, "unknown_property", `unknown auth setting "${key}"`);
  const s: AuthSettings = { ...DEFAULT_AUTH, ...body } as AuthSettings;
  if (typeof s.enabled !== "boolean") fail("enabled", "invalid_type", "must be true or false");
  if (typeof s.signup !== "boolean") fail("signup", "invalid_type", "must be true or false");
  for (const key of ["users_table", "login_column", "password_column"] as const) {
    if (typeof s[key] !== "string" || !s[key]) fail(key, "invalid_type", "must be a name");
  }
  if (!Number.isInteger(s.token_ttl_seconds) || s.token_ttl_seconds < 1 || s.token_ttl_seconds > MAX_TOKEN_TTL) {
    fail("token_ttl_seconds", "out_of_range", `must be a whole number of seconds from 1 to ${MAX_TOKEN_TTL} (30 days)`);
  }
  if (!Array.isArray(s.cors_origins) || s.cors_origins.length > 100) {
    fail("cors_origins", "invalid_type", "must be a list of at most 100 origins");
  } else {
    s.cors_origins.forEach((o, i) => {
      if (typeof o !== "string" || (o !== "*" && !ORIGIN_RE.test(o))) {
        fail(`cors_origins[${i}]`, "invalid_format", 'must be an origin like "https://app.example.com" (scheme, host, optional port; no path) or "*"');
      }
    });
  }
  if (errors.length === 0 && s.enabled) {
    const table = schema.tables.get(s.users_table);
    if (!table) fail("users_table", "unknown_table", `table "${s.users_table}" does not exist`);
    else {
      const login = table.columns.find((c) => c.name === s.login_column);
      if (!login) fail("login_column", "unknown_column", `column "${s.login_column}" does not exist in "${table.name}"`);
      else if (login.type !== "varchar" && login.type !== "text") fail("login_column", "invalid_type", "the login column must be varchar or text (an email or a username)");
      else if (!login.unique) fail("login_column", "not_unique", "the login column must be unique, so a login names one user");
      const password = table.columns.find((c) => c.name === s.password_column);
      if (!password) fail("password_column", "unknown_column", `column "${s.password_column}" does not exist in "${table.name}"`);
      else if (password.type !== "password") fail("password_column", "invalid_type", "the password column must have type password (bcrypt)");
    }
  }
  if (errors.length) throw validationFailed(errors);
  return { enabled: s.enabled, users_table: s.users_table, login_column: s.login_column, password_column: s.password_column, token_ttl_seconds: s.token_ttl_seconds, signup: s.signup, cors_origins: [...new Set(s.cors_origins)] };
};
