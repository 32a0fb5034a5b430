// One-time tokens mailed to database users: random, single use, stored as sha256 (the 6-digit code as an HMAC
// under the install secret), and expiring: verify 24 h, reset 1 h, otp 10 min with 5 tries for its code.
import { createHmac, randomBytes, randomInt, timingSafeEqual } from "node:crypto";
import type { App } from "../app-type";
import { ApiError } from "../errors";
import type { AuthDatabase } from "./auth-database";
import { hashToken } from "./sessions";

export type MailTokenKind = "verify" | "reset" | "otp";

export const TOKEN_TTL_SECONDS: Record<MailTokenKind, number> = { verify: 24 * 3600, reset: 3600, otp: 600 };
export const CODE_TRIES = 5;

/** A fresh token (and, for otp, a code) with what is stored of it; made the same way for unknown addresses. */
export const newMailToken = (app: App, kind: MailTokenKind) => {
  const token = randomBytes(32).toString("base64url");
  const code = kind === "otp" ? String(randomInt(0, 1_000_000)).padStart(6, "0") : undefined;
  return { token, code, tokenHash: hashToken(token), codeHash: code === undefined ? null : codeHash(app, code) };
};

const codeHash = (app: App, code: string) => createHmac("sha256", app.secret).update(`otp:${code}`).digest("hex");

/** Stores a token for a user; earlier unused tokens of the same kind stop working (only the newest mail counts). */
export const saveMailToken = async (app: App, database: AuthDatabase, userId: number, kind: MailTokenKind, made: ReturnType<typeof newMailToken>) => {
  const now = new Date();
  const meta = app.engine.meta;
  await meta
    .updateTable("auth_mail_tokens")
    .set({ used_at: now.toISOString() })
    .where("database_id", "=", database.schema.id)
    .where("user_id", "=", userId)
    .where("kind", "=", kind)
    .where("used_at", "is", null)
    .execute();
  await meta
    .insertInto("auth_mail_tokens")
    .values({
      database_id: database.schema.id,
      user_id: userId,
      kind,
      token_hash: made.tokenHash,
      code_hash: made.codeHash,
      tries: 0,
      expires_at: new Date(now.getTime() + TOKEN_TTL_SECONDS[kind] * 1000).toISOString(),
      used_at: null,
      created_at: now.toISOString(),
    })
    .execute();
};

const invalidToken = () => new ApiError("invalid_token", "The token is not valid (unknown, or of another database or purpose).");
const expired = () => new ApiError("token_expired", "The token has expired; ask for a new mail.");
const used = () => new ApiError("token_used", "The token was already used; ask for a new mail.");
export const invalidCode = (message = "The code is wrong.") => new ApiError("invalid_code", message);

/** Spends the row once: of concurrent spends exactly one succeeds. */
const spend = async (app: App, id: number) => {
  const done = await app.engine.meta.updateTable("auth_mail_tokens").set({ used_at: new Date().toISOString() }).where("id", "=", id).where("used_at", "is", null).executeTakeFirst();
  if (Number(done.numUpdatedRows) !== 1) throw used();
};

/** Spends a mailed link's token of `kind`; returns its user id. invalid_token, token_expired, token_used otherwise. */
export const consumeMailToken = async (app: App, database: AuthDatabase, kind: MailTokenKind, token: string): Promise<number> => {
  const row = await app.engine.meta.selectFrom("auth_mail_tokens").selectAll().where("token_hash", "=", hashToken(token)).executeTakeFirst();
  if (!row || row.database_id !== database.schema.id || row.kind !== kind) throw invalidToken();
  if (row.used_at) throw used();
  if (row.expires_at <= new Date().toISOString()) throw expired();
  await spend(app, row.id);
  return Number(row.user_id);
};

/**
 * Checks a one-time code of a user (undefined: the address is unknown, which costs the same work and fails
 * the same way). Every try counts before the comparison; the fifth wrong one ends the code.
 */
export const consumeCode = async (app: App, database: AuthDatabase, userId: number | undefined, code: string): Promise<number> => {
  const presented = Buffer.from(codeHash(app, code), "hex");
  const row =
    userId === undefined
      ? undefined
      : await app.engine.meta
          .selectFrom("auth_mail_tokens")
          .selectAll()
          .where("database_id", "=", database.schema.id)
          .where("user_id", "=", userId)
          .where("kind", "=", "otp")
          .orderBy("id", "desc")
          .limit(1)
          .executeTakeFirst();
  const stored = Buffer.from(row?.code_hash ?? "0".repeat(64), "hex");
  const matches = timingSafeEqual(presented, stored);
  if (!row || row.used_at) throw invalidCode("The code is wrong, or it was used or replaced; ask for a new one.");
  if (row.expires_at <= new Date().toISOString()) throw expired();
  const counted = await app.engine.meta
    .updateTable("auth_mail_tokens")
    .set((eb) => ({ tries: eb("tries", "+", 1) }))
    .where("id", "=", row.id)
    .where("tries", "<", CODE_TRIES)
    .where("used_at", "is", null)
    .executeTakeFirst();
  if (Number(counted.numUpdatedRows) !== 1) throw invalidCode("Too many wrong tries for this code; ask for a new one.");
  if (!matches) {
    if (row.tries + 1 >= CODE_TRIES) await spend(app, row.id).catch(() => {});
    throw invalidCode(row.tries + 1 >= CODE_TRIES ? "The code is wrong, and that was its last try; ask for a new one." : "The code is wrong.");
  }
  await spend(app, row.id);
  return Number(row.user_id);
};
