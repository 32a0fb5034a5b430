// The last step of every way in (password, sign-up, one-time code, OAuth): a user with a second factor gets an
// MFA token to answer with a code instead of a session; with `mfa: "required"`, a user without one gets a
// token that can only enrol. Everyone else gets the session.
import type { App } from "../../app-type";
import type { AuthDatabase, UserRow } from "../auth-database";
import { createTicket } from "../auth-tickets";
import { issueSession, type Session, type SignInMethod } from "../sessions";
import { readFactor } from "./totp-factor";

/** Seconds an MFA token answers a challenge, and an enrolment token enrols. */
export const CHALLENGE_TTL_SECONDS = 300;
export const ENROL_TTL_SECONDS = 900;
/** Wrong codes one MFA token takes before it is spent. */
export const CHALLENGE_TRIES = 5;

export type MfaRequired = { mfa_required: true; mfa_token: string; expires_in: number; enrollment_required?: true };

export const finishSignIn = async (app: App, database: AuthDatabase, row: UserRow, method: SignInMethod): Promise<Session | MfaRequired> => {
  const mode = database.auth.mfa;
  if (mode === "off") return issueSession(app, database, row, method);
  const databaseId = database.schema.id;
  const userId = Number(row.id);
  const factor = await readFactor(app, databaseId, userId);
  if (factor?.confirmed) {
    const token = await createTicket(app, { kind: "mfa", databaseId, userId, ttlSeconds: CHALLENGE_TTL_SECONDS, payload: { method } });
    return { mfa_required: true, mfa_token: token, expires_in: CHALLENGE_TTL_SECONDS };
  }
  if (mode === "optional") return issueSession(app, database, row, method);
  const token = await createTicket(app, { kind: "mfa_enroll", databaseId, userId, ttlSeconds: ENROL_TTL_SECONDS, payload: { method } });
  return { mfa_required: true, enrollment_required: true, mfa_token: token, expires_in: ENROL_TTL_SECONDS };
};
