// /v1/{db}/auth/mfa/totp/enroll, /auth/mfa/totp/confirm, /auth/mfa/totp/remove and /auth/mfa/challenge (docs/auth.md, "Two-factor
// authentication"). Wrong codes count against the sign-in limiter (per user and per address) and against the
// MFA token's own tries.
import type { App } from "../../app-type";
import { authenticate } from "../../api/authenticate";
import { signInLimited } from "../../auth/sign-in-limiter";
import { ApiError, type FieldError, methodNotAllowed, notFound, unauthorized, validationFailed } from "../../errors";
import { type CoreRequest, type CoreResponse, json } from "../../http/core-types";
import { parseJsonBody } from "../../http/parse-json-body";
import { type AuthDatabase, emailColumn, findUserById, type UserRow } from "../auth-database";
import { consumeTicket, findTicket, spendTry, type Ticket } from "../auth-tickets";
import { issueSession } from "../sessions";
import { readUserState } from "../user-state";
import { CHALLENGE_TRIES } from "./finish-sign-in";
import { acceptRecoveryCode, acceptTotp, confirmFactor, readFactor, removeFactor, startEnrolment } from "./totp-factor";

export const MFA_PATHS = ["totp/enroll", "totp/confirm", "totp/remove", "challenge"];

const NO_STORE = { "cache-control": "no-store" };
const BAD_TOKEN = "The MFA token is unknown, expired or already used; sign in again.";
const WRONG_CODE = "The code is wrong or was already used.";

type Body = Record<string, unknown>;

const readBody = (req: CoreRequest, fields: { name: string; required: boolean }[]): Body => {
  // Enrolling with a bearer token needs no body at all.
  const raw = req.body === undefined || req.body.trim() === "" ? {} : parseJsonBody(req);
  const body = (typeof raw === "object" && raw !== null && !Array.isArray(raw) ? raw : {}) as Body;
  const errors: FieldError[] = [];
  for (const { name, required } of fields) {
    const value = body[name];
    if (value === undefined ? required : typeof value !== "string" || value === "") errors.push({ field: name, code: "required", message: `"${name}" must be a non-empty string` });
  }
  for (const name of Object.keys(body)) {
    if (!fields.some((f) => f.name === name)) errors.push({ field: name, code: "unknown_property", message: `unknown property "${name}"` });
  }
  if (errors.length) throw validationFailed(errors);
  return body;
};

const requireMfaOn = (database: AuthDatabase) => {
  if (database.auth.mfa === "off") throw new ApiError("forbidden", "Two-factor authentication is off for this database.");
};

/** Counts a code attempt against the user and the address first, so parallel guesses cannot pass the limit. */
const countAttempt = async (app: App, req: CoreRequest, database: AuthDatabase, userId: number) => {
  const attempt = { realm: `db:${database.schema.id}`, login: `mfa:${userId}`, address: req.clientAddress };
  const wait = await app.signInLimiter.count(attempt);
  if (wait) throw signInLimited(wait);
  return attempt;
};

/** The enrolling user: the one of an enrolment token in the body (`mfa: "required"`), else of the bearer JWT. */
const enrolee = async (app: App, req: CoreRequest, database: AuthDatabase, body: Body): Promise<{ row: UserRow; ticket?: Ticket }> => {
  if (body.mfa_token !== undefined) {
    const ticket = await findTicket(app, "mfa_enroll", database.schema.id, body.mfa_token);
    const row = ticket?.userId ? await findUserById(app, database, ticket.userId) : undefined;
    if (!ticket || !row) throw unauthorized(BAD_TOKEN);
    return { row, ticket };
  }
  const caller = await authenticate(app, req, database);
  if (caller.kind !== "user") throw new ApiError("forbidden", "Enrolling a second factor needs a user's token (or an enrolment MFA token), not a secret key.");
  const row = await findUserById(app, database, caller.userId);
  if (!row) throw unauthorized("The user of this token no longer exists.");
  return { row };
};

const enroll = async (app: App, req: CoreRequest, database: AuthDatabase) => {
  requireMfaOn(database);
  const { row } = await enrolee(app, req, database, readBody(req, [{ name: "mfa_token", required: false }]));
  const userId = Number(row.id);
  if ((await readFactor(app, database.schema.id, userId))?.confirmed) throw new ApiError("conflict", "This user already has a confirmed authenticator.");
  const label = String(row[emailColumn(database)] ?? row[database.auth.login_column] ?? userId);
  return json(200, await startEnrolment(app, { databaseId: database.schema.id, userId, issuer: database.schema.name, label }), NO_STORE);
};

const confirm = async (app: App, req: CoreRequest, database: AuthDatabase) => {
  requireMfaOn(database);
  const body = readBody(req, [{ name: "code", required: true }, { name: "mfa_token", required: false }]);
  const { row, ticket } = await enrolee(app, req, database, body);
  const userId = Number(row.id);
  const factor = await readFactor(app, database.schema.id, userId);
  if (!factor || factor.confirmed) throw new ApiError("conflict", factor ? "This user's authenticator is already confirmed." : "Nothing to confirm: start with POST /auth/mfa/totp/enroll.");
  const attempt = await countAttempt(app, req, database, userId);
  if (!(await acceptTotp(app, database.schema.id, userId, factor, String(body.code)))) {
    if (ticket) await spendTry(app, ticket, CHALLENGE_TRIES);
    throw validationFailed([{ field: "code", code: "invalid", message: WRONG_CODE }]);
  }
  await app.signInLimiter.forgive(attempt);
  const recoveryCodes = await confirmFactor(app, database.schema.id, userId);
  if (!ticket) return json(200, { recovery_codes: recoveryCodes }, NO_STORE);
  // Enrolled at sign-in (`mfa: "required"`): password and code are both proven, so the session follows.
  if (!(await consumeTicket(app, ticket.id))) throw unauthorized(BAD_TOKEN);
  if ((await readUserState(app, database.schema.id, userId)).disabled) throw new ApiError("forbidden", "This user is disabled.");
  return json(200, { recovery_codes: recoveryCodes, ...(await issueSession(app, database, row, "mfa")) }, NO_STORE);
};

/** Whether `code` is a current TOTP code (each once) or one of the user's recovery codes (spent). */
const acceptCode = async (app: App, databaseId: number, userId: number, code: string) => {
  const factor = await readFactor(app, databaseId, userId);
  const trimmed = code.trim();
  if (!factor?.confirmed) return false;
  return /^\d{6}$/.test(trimmed) ? acceptTotp(app, databaseId, userId, factor, trimmed) : acceptRecoveryCode(app, databaseId, userId, trimmed);
};

/** POST /auth/mfa/totp/remove {code} with the user's JWT: a current or recovery code proves the factor, then it goes. */
const remove = async (app: App, req: CoreRequest, database: AuthDatabase) => {
  requireMfaOn(database);
  const body = readBody(req, [{ name: "code", required: true }]);
  const caller = await authenticate(app, req, database);
  if (caller.kind !== "user") throw new ApiError("forbidden", "Removing a second factor needs the user's token, not a secret key.");
  const databaseId = database.schema.id;
  if (!(await readFactor(app, databaseId, caller.userId))?.confirmed) throw new ApiError("conflict", "This user has no confirmed authenticator.");
  const attempt = await countAttempt(app, req, database, caller.userId);
  if (!(await acceptCode(app, databaseId, caller.userId, String(body.code)))) throw validationFailed([{ field: "code", code: "invalid", message: WRONG_CODE }]);
  await app.signInLimiter.forgive(attempt);
  await removeFactor(app.engine.meta, databaseId, caller.userId);
  return { status: 204, headers: NO_STORE };
};

const challenge = async (app: App, req: CoreRequest, database: AuthDatabase) => {
  const body = readBody(req, [{ name: "mfa_token", required: true }, { name: "code", required: true }]);
  const databaseId = database.schema.id;
  const ticket = await findTicket(app, "mfa", databaseId, body.mfa_token);
  if (!ticket?.userId) throw unauthorized(BAD_TOKEN);
  const userId = ticket.userId;
  const attempt = await countAttempt(app, req, database, userId);
  if (!(await acceptCode(app, databaseId, userId, String(body.code)))) {
    const left = await spendTry(app, ticket, CHALLENGE_TRIES);
    throw unauthorized(left ? WRONG_CODE : `${WRONG_CODE} This MFA token has no tries left; sign in again.`);
  }
  if (!(await consumeTicket(app, ticket.id))) throw unauthorized(BAD_TOKEN);
  await app.signInLimiter.forgive(attempt);
  const row = await findUserById(app, database, userId);
  if (!row) throw unauthorized("The user no longer exists.");
  if ((await readUserState(app, databaseId, userId)).disabled) throw new ApiError("forbidden", "This user is disabled.");
  return json(200, await issueSession(app, database, row, "mfa"), NO_STORE);
};

/** Serves /auth/mfa/*; `rest` is the path after /auth/mfa. */
export const handleMfaRequest = async (app: App, req: CoreRequest, database: AuthDatabase, rest: string[]): Promise<CoreResponse> => {
  const path = rest.join("/");
  if (!MFA_PATHS.includes(path)) throw notFound("No such path; use /auth/mfa/totp/enroll, /auth/mfa/totp/confirm, /auth/mfa/totp/remove or /auth/mfa/challenge.");
  if (req.method !== "POST") throw methodNotAllowed(["POST"]);
  if (path === "totp/enroll") return enroll(app, req, database);
  if (path === "totp/confirm") return confirm(app, req, database);
  if (path === "totp/remove") return remove(app, req, database);
  return challenge(app, req, database);
};
