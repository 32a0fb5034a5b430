// /auth/signup: a user from the login column and a password. With verification required, a taken login gets
// the answer and the work of a new one (a password hashed, a verification token made, a mail rendered) and no
// session: an unconfirmed owner gets a new link, a confirmed or disabled one nothing. With verification off the
// answer is a session, which a taken login cannot fake, so it stays a 409 (docs/auth.md says why).
import type { App } from "../app-type";
import { runWrite } from "../api/write/run-write";
import { FULL_ACCESS } from "../rls/access";
import { ApiError, validationFailed } from "../errors";
import { type CoreRequest, type CoreResponse, json } from "../http/core-types";
import { bodyObject, checkPassword, limitAttempt, NO_STORE } from "./auth-input";
import { type AuthDatabase, emailColumn, findUserBy, findUserById, type UserRow, usersIndex } from "./auth-database";
import { linkBase, sendAuthMail } from "./auth-mails";
import { countHash, hashPassword } from "./equal-work";
import { newMailToken } from "./mail-tokens";
import { mailAfterAnswer } from "./mail-routes";
import { finishSignIn } from "./mfa/finish-sign-in";
import { readCredentials } from "./password-routes";
import { readUserState } from "./user-state";

/** Inserts the user through the write kernel (validation, hooks, the read-back); undefined when the login was taken meanwhile. */
const insertUser = async (app: App, database: AuthDatabase, login: string, password: string, hash: string): Promise<UserRow | undefined> => {
  const { auth, schema } = database;
  const body = { [auth.login_column]: login, [auth.password_column]: password };
  const hashes = [new Map([[auth.password_column, hash]])];
  try {
    const [user] = await runWrite({ app, udb: app.engine.userDb(schema.physical), index: usersIndex(database), access: FULL_ACCESS, action: "create", body, hashes });
    return user;
  } catch (err) {
    if (err instanceof ApiError && err.code === "conflict") return undefined;
    throw err;
  }
};

/** Verification required: the same 201 for a new login and a taken one, no session either way. */
const signupToVerify = async (app: App, req: CoreRequest, database: AuthDatabase, login: string, password: string, redirectTo: unknown) => {
  const { auth, schema } = database;
  // The mail's link is checked before anything is looked up or written: a refused redirect leaves nothing behind.
  const base = linkBase(req, database, "verify", redirectTo);
  const taken = await findUserBy(app, database, auth.login_column, login);
  const state = await readUserState(app, schema.id, taken ? Number(taken.id) : 0);
  const hash = await hashPassword(app, password);
  const made = newMailToken(app, "verify");
  countHash(app);
  const row = taken ?? (await insertUser(app, database, login, password, hash));
  const mailed = row && (!taken || (!state.verified && !state.disabled)) ? row : undefined;
  const mail = { kind: "verify" as const, to: String((mailed ?? taken)?.[emailColumn(database)] ?? login), base, token: made.token };
  if (mailed) mailAfterAnswer(app, database, Number(mailed.id), mail, made);
  else await sendAuthMail(app, database, mail, false);
  // Only what the caller sent: an id or any stored value would tell a new account from a taken one.
  return json(201, { user: { [auth.login_column]: login }, verification_sent: true }, NO_STORE);
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
  if (auth.verification === "required") {
    const answer = await signupToVerify(app, req, database, login, password, body.redirect_to);
    await app.signInLimiter.forgive(attempt);
    return answer;
  }
  const record = { [auth.login_column]: login, [auth.password_column]: password };
  // The same write kernel as POST /{table}: validation, the statement, reference checks and the read-back.
  const [user] = await runWrite({ app, udb: app.engine.userDb(schema.physical), index: usersIndex(database), access: FULL_ACCESS, action: "create", body: record });
  await app.signInLimiter.forgive(attempt);
  return json(201, await finishSignIn(app, database, (await findUserById(app, database, Number(user.id)))!, "signup"), NO_STORE);
};
