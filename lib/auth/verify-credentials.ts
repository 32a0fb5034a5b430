import bcrypt from "bcrypt";
import type { App } from "../app-type";

export type SignedInAccount = { id: number; email: string; isOperator: boolean; disabled: boolean; sessionVersion: number };

// Compared against when the email is unknown, so a wrong email costs as long as a wrong password.
const DUMMY_HASH = "$2b$10$fwpEvYq0XSuMb9EaNcN3J./lvUq7a9NpMZDqztmBx/bP5ANljSo6O";

/** An email as sign-in reads it, for the password check and for the limiter's count alike. */
export const normaliseEmail = (email: unknown) => (typeof email === "string" ? email.trim().toLowerCase() : "");

/**
 * The account for an email and password, or null: one answer for a wrong email and a wrong password. Whether
 * the account is disabled is told only to someone who knows its password.
 */
export const verifyCredentials = async (app: App, input: { email?: unknown; password?: unknown }): Promise<SignedInAccount | null> => {
  const email = normaliseEmail(input.email);
  const password = typeof input.password === "string" ? input.password : "";
  if (!email || !password) return null;
  const row = await app.engine.meta
    .selectFrom("accounts")
    .select(["id", "email", "password_hash", "is_operator", "disabled_at", "session_version"])
    .where("email", "=", email)
    .executeTakeFirst();
  const matches = await bcrypt.compare(password, row?.password_hash ?? DUMMY_HASH);
  if (!row || !matches) return null;
  return { id: row.id, email: row.email, isOperator: row.is_operator === 1, disabled: row.disabled_at !== null, sessionVersion: row.session_version };
};
