// /auth/login and /auth/me: sign-in with the login column and a password.
import bcrypt from "bcrypt";
import type { App } from "../app-type";
import { authenticate } from "../api/authenticate";
import { ApiError, type FieldError, unauthorized, validationFailed } from "../errors";
import { type CoreRequest, type CoreResponse, json } from "../http/core-types";
import { bodyObject, limitAttempt, NO_STORE } from "./auth-input";
import { type AuthDatabase, findUserBy, findUserById, publicUser, usersIndex } from "./auth-database";
import { finishSignIn } from "./mfa/finish-sign-in";
import { readUserState } from "./user-state";
import { countHash, dummyHash } from "./equal-work";
import { recordUserSignIn } from "./record-user-sign-in";

// One message for an unknown login and a wrong password, so the reply cannot tell which it was.
const BAD_CREDENTIALS = "The login or password is wrong.";

export const readCredentials = ({ auth }: AuthDatabase, b: Record<string, unknown>) => {
  const { login_column: loginColumn } = auth;
  const errors: FieldError[] = [];
  if (typeof b[loginColumn] !== "string" || b[loginColumn] === "") errors.push({ field: loginColumn, code: "required", message: `"${loginColumn}" is required` });
  if (typeof b.password !== "string" || b.password === "") errors.push({ field: "password", code: "required", message: '"password" is required' });
  if (errors.length) throw validationFailed(errors);
  return { login: b[loginColumn] as string, password: b.password as string };
};

export const login = async (app: App, req: CoreRequest, database: AuthDatabase): Promise<CoreResponse> => {
  const { auth } = database;
  const { login, password } = readCredentials(database, bodyObject(req));
  const attempt = await limitAttempt(app, req, database, login);
  const refuse = async (reason: "credentials" | "disabled" | "unverified", err: Error) => {
    await recordUserSignIn(app, database, attempt, { reason });
    return err;
  };
  const row = await findUserBy(app, database, auth.login_column, login);
  const hash = row?.[auth.password_column];
  countHash(app);
  const matches = await bcrypt.compare(password, typeof hash === "string" && hash.startsWith("$2") ? hash : dummyHash(app.config.bcryptCost));
  if (!row || !matches || typeof hash !== "string") throw await refuse("credentials", unauthorized(BAD_CREDENTIALS));
  const state = await readUserState(app, database.schema.id, Number(row.id));
  // Only once the password is right: a wrong one learns nothing about the account's state.
  if (state.disabled) throw await refuse("disabled", unauthorized(BAD_CREDENTIALS));
  if (auth.verification === "required" && !state.verified) {
    throw await refuse("unverified", new ApiError("email_not_verified", "Confirm your email address first: follow the link we mailed, or ask for a new one at /auth/verify/resend."));
  }
  await app.signInLimiter.forgive(attempt);
  await recordUserSignIn(app, database, attempt, { userId: Number(row.id) });
  return json(200, await finishSignIn(app, database, row, "password"), NO_STORE);
};

export const me = async (app: App, req: CoreRequest, database: AuthDatabase): Promise<CoreResponse> => {
  const caller = await authenticate(app, req, database);
  if (caller.kind !== "user") throw new ApiError("forbidden", "/auth/me needs a user's token, not a secret key.");
  const row = await findUserById(app, database, caller.userId);
  if (!row) throw unauthorized("The user of this token no longer exists.");
  return json(200, publicUser(usersIndex(database), row), NO_STORE);
};
