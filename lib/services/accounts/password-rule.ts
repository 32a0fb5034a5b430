import bcrypt from "bcrypt";
import type { App } from "../../app-type";
import type { FieldError } from "../../errors";

/** The one rule for account passwords (bcrypt reads 72 bytes at most): the problem with `value`, if any. */
export const passwordProblem = (field: string, value: unknown): FieldError | undefined =>
  typeof value !== "string" || value.length < 8 || Buffer.byteLength(value) > 72
    ? { field, code: "invalid_password", message: `${field} must be 8 to 72 bytes long` }
    : undefined;

export const hashPassword = (app: App, password: string) => bcrypt.hash(password, app.config.bcryptCost);
