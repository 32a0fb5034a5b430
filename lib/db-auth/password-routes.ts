// /auth/login, /auth/signup and /auth/me: sign-in with the login column and a password.
import bcrypt from "bcrypt";
import type { App } from "../app-type";
import { authenticate } from "../api/authenticate";
import { runWrite } from "../api/write/run-write";
import { FULL_ACCESS } from "../rls/access";
import { ApiError, type FieldError, unauthorized, validationFailed } from "../errors";
import { type CoreRequest, type CoreResponse, json } from "../http/core-types";
import { bodyObject, checkPassword, limitAttempt, NO_STORE } from "./auth-input";
import { type AuthDatabase, findUserBy, findUserById, publicUser, usersIndex } from "./auth-database";
import { finishSignIn } from "./mfa/finish-sign-in";
import { readUserState } from "./user-state";
import { countHash, dummyHash } from "./equal-work";
import { prepareVerification } from "./mail-routes";
import { recordUserSignIn } from "./record-user-sign-in";

// One message for an unknown login and a wrong password, so the reply cannot tell which it was.
const BAD_CREDENTIALS = "The login or password is wrong.";

const readCredentials = ({ auth }: AuthDatabase, b: Record<string, unknown>) => {
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

/** Sign-up takes the login and the password only; other columns take their defaults (profile data is a PATCH away). */
export const signup = async (app: App, req: CoreRequest, database: AuthDatabase): Promise<CoreResponse> => {
  const { schema, auth } = database;
  if (!auth.signup) throw new ApiError("forbidden", "Sign-up is closed for this database.");
  const body = bodyObject(req);
  const { login, password } = readCredentials(database, body);
  const attempt = await limitAttempt(app, req, database, login);
  const allowed = new Set([auth.login_column, "password", "redirect_to"]);
  const extra = Object.keys(body).filter((k) => !allowed.has(k));
  if (extra.length) throw validationFailed(extra.map((k) => ({ field: k, code: "unknown_property", message: `sign-up takes only "${auth.login_column}" and "password"` })));
  checkPassword(password);
  const index = usersIndex(database);
  const record = { [auth.login_column]: login, [auth.password_column]: password };
  // The verification mail's link is checked before the user is written: a refused redirect leaves nothing behind.
  const sendVerification = auth.verification === "required" ? prepareVerification(req, database, body.redirect_to) : undefined;
  // The same write kernel as POST /{table}: validation, the statement, reference checks and the read-back.
  const [user] = await runWrite({ app, udb: app.engine.userDb(schema.physical), index, access: FULL_ACCESS, action: "create", body: record });
  await app.signInLimiter.forgive(attempt);
  const row = (await findUserById(app, database, Number(user.id)))!;
  if (sendVerification) {
    await sendVerification(app, row);
    return json(201, { user: publicUser(index, row), verification_sent: true }, NO_STORE);
  }
  return json(201, await finishSignIn(app, database, row, "signup"), NO_STORE);
};

export const me = async (app: App, req: CoreRequest, database: AuthDatabase): Promise<CoreResponse> => {
  const caller = await authenticate(app, req, database);
  if (caller.kind !== "user") throw new ApiError("forbidden", "/auth/me needs a user's token, not a secret key.");
  const row = await findUserById(app, database, caller.userId);
  if (!row) throw unauthorized("The user of this token no longer exists.");
  return json(200, publicUser(usersIndex(database), row), NO_STORE);
};
