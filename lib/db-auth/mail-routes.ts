// The routes that work by mail: /auth/verify, /auth/verify/resend, /auth/password/forgot, /auth/password/reset,
// /auth/otp and /auth/otp/verify. A route that takes an email answers the same status and body, after the same
// work (a token made and hashed, a mail rendered), whether or not the address belongs to a user; every route
// counts against the sign-in limits (429 with Retry-After).
import type { App } from "../app-type";
import { FULL_ACCESS } from "../rls/access";
import { logger } from "../ops/logger";
import { runWrite } from "../api/write/run-write";
import { ApiError, unauthorized, validationFailed } from "../errors";
import { type CoreRequest, type CoreResponse, json } from "../http/core-types";
import { type AuthDatabase, emailColumn, findUserBy, findUserById, publicUser, type UserRow, usersIndex } from "./auth-database";
import { type AuthMail, linkBase, sendAuthMail } from "./auth-mails";
import { countHash } from "./equal-work";
import { consumeCode, consumeMailToken, type MailTokenKind, newMailToken, saveMailToken } from "./mail-tokens";
import { bodyObject, checkPassword, limitAttempt, NO_STORE, onlyFields, requireText } from "./auth-input";
import { endUserSessions, hashToken, type SignInMethod } from "./sessions";
import { finishSignIn } from "./mfa/finish-sign-in";
import { markVerified, readUserState } from "./user-state";

const ACCEPTED = { accepted: true, message: "If the address belongs to an account, a mail is on its way." };

/**
 * Mails a token of `kind` to `email` when it names a user for whom `eligible` holds; otherwise makes and drops
 * the same mail. The redirect is checked before anything else, so a refused one sends nothing.
 */
const mailToken = async (app: App, req: CoreRequest, database: AuthDatabase, kind: MailTokenKind, body: Record<string, unknown>, eligible: (row: UserRow, verified: boolean) => boolean) => {
  const email = requireText(body, "email", 320);
  const base = linkBase(req, database, kind, body.redirect_to);
  await limitAttempt(app, req, database, email);
  const row = await findUserBy(app, database, emailColumn(database), email);
  const state = await readUserState(app, database.schema.id, row ? Number(row.id) : 0);
  const made = newMailToken(app, kind);
  countHash(app);
  const known = !!row && !state.disabled && eligible(row, state.verified);
  const mail = { kind, to: email, base, token: made.token, code: made.code };
  if (!known) return sendAuthMail(app, database, mail, false);
  mailAfterAnswer(app, database, Number(row.id), mail, made);
};

/**
 * Writes a user's token and queues its mail after the answer: waiting for them would make a known address
 * slower to answer than an unknown one, whose mail is dropped (bench/forgot-password.ts measures both).
 */
export const mailAfterAnswer = (app: App, database: AuthDatabase, userId: number, mail: AuthMail, made: ReturnType<typeof newMailToken>) => {
  void (async () => {
    await saveMailToken(app, database, userId, mail.kind, made);
    await sendAuthMail(app, database, mail, true);
  })().catch((err) => logger.warn({ database: database.schema.instance, kind: mail.kind, err: (err as Error).message }, "auth mail not written"));
};

/** Counts a token's use against the caller's address (and that token), forgiven when it works. */
const limitToken = (app: App, req: CoreRequest, database: AuthDatabase, token: string) => limitAttempt(app, req, database, `token:${hashToken(token).slice(0, 16)}`);

/** The user a spent token names, live and enabled, as a session. */
const signInUser = async (app: App, database: AuthDatabase, userId: number, method: SignInMethod) => {
  const row = await findUserById(app, database, userId);
  const state = await readUserState(app, database.schema.id, userId);
  if (!row || state.disabled) throw unauthorized("This account cannot sign in.");
  if (!state.verified) await markVerified(app.engine.meta, database.schema.id, userId);
  return finishSignIn(app, database, row, method);
};

/** POST /auth/verify {token}: confirms the email and signs the user in. */
export const verify = async (app: App, req: CoreRequest, database: AuthDatabase): Promise<CoreResponse> => {
  const body = bodyObject(req);
  onlyFields(body, ["token"]);
  const token = requireText(body, "token", 200);
  const attempt = await limitToken(app, req, database, token);
  const userId = await consumeMailToken(app, database, "verify", token);
  await app.signInLimiter.forgive(attempt);
  return json(200, await signInUser(app, database, userId, "verify"), NO_STORE);
};

/** POST /auth/verify/resend {email, redirect_to?}: a new verification mail to an unverified user. */
export const resendVerification = async (app: App, req: CoreRequest, database: AuthDatabase): Promise<CoreResponse> => {
  const body = bodyObject(req);
  onlyFields(body, ["email", "redirect_to"]);
  await mailToken(app, req, database, "verify", body, (_row, verified) => !verified);
  return json(202, ACCEPTED, NO_STORE);
};

/** POST /auth/password/forgot {email, redirect_to?}: a reset mail. */
export const forgotPassword = async (app: App, req: CoreRequest, database: AuthDatabase): Promise<CoreResponse> => {
  const body = bodyObject(req);
  onlyFields(body, ["email", "redirect_to"]);
  await mailToken(app, req, database, "reset", body, () => true);
  return json(202, ACCEPTED, NO_STORE);
};

/** POST /auth/password/reset {token, password}: sets the password; every session of the user ends. */
export const resetPassword = async (app: App, req: CoreRequest, database: AuthDatabase): Promise<CoreResponse> => {
  const body = bodyObject(req);
  onlyFields(body, ["token", "password"]);
  const token = requireText(body, "token", 200);
  const password = requireText(body, "password", 200);
  checkPassword(password);
  const attempt = await limitToken(app, req, database, token);
  const userId = await consumeMailToken(app, database, "reset", token);
  const index = usersIndex(database);
  const udb = app.engine.userDb(database.schema.physical);
  const [row] = await runWrite({ app, udb, index, access: FULL_ACCESS, action: "update", id: userId, body: { [database.auth.password_column]: password } }).catch((err) => {
    if (err instanceof ApiError && err.code === "not_found") throw unauthorized("This account no longer exists.");
    throw err;
  });
  await endUserSessions(app, database.schema.id, userId, "password_reset");
  // The mail reached its owner: the address is proven.
  await markVerified(app.engine.meta, database.schema.id, userId);
  await app.signInLimiter.forgive(attempt);
  return json(200, { user: publicUser(index, (await findUserById(app, database, Number(row.id))) ?? row) }, NO_STORE);
};

/** POST /auth/otp {email, redirect_to?}: a mail with a 6-digit code and a magic link. */
export const requestOtp = async (app: App, req: CoreRequest, database: AuthDatabase): Promise<CoreResponse> => {
  const body = bodyObject(req);
  onlyFields(body, ["email", "redirect_to"]);
  await mailToken(app, req, database, "otp", body, () => true);
  return json(202, ACCEPTED, NO_STORE);
};

/** POST /auth/otp/verify {email, code} or {token}: a session. */
export const verifyOtp = async (app: App, req: CoreRequest, database: AuthDatabase): Promise<CoreResponse> => {
  const body = bodyObject(req);
  if (body.token !== undefined) {
    onlyFields(body, ["token"]);
    const token = requireText(body, "token", 200);
    const attempt = await limitToken(app, req, database, token);
    const userId = await consumeMailToken(app, database, "otp", token);
    await app.signInLimiter.forgive(attempt);
    return json(200, await signInUser(app, database, userId, "magic_link"), NO_STORE);
  }
  onlyFields(body, ["email", "code"]);
  const email = requireText(body, "email", 320);
  const code = requireText(body, "code", 6);
  if (!/^\d{6}$/.test(code)) throw validationFailed([{ field: "code", code: "invalid_format", message: "the code is six digits" }]);
  const attempt = await limitAttempt(app, req, database, email);
  const row = await findUserBy(app, database, emailColumn(database), email);
  const userId = await consumeCode(app, database, row ? Number(row.id) : undefined, code);
  await app.signInLimiter.forgive(attempt);
  return json(200, await signInUser(app, database, userId, "otp"), NO_STORE);
};
