// A user's TOTP factor (RFC 6238, otplib): SHA-1, 6 digits, 30 s steps, one step of clock drift either way.
// An accepted code moves the factor's last step forward in one conditional UPDATE, so a code (or an older one)
// is never accepted twice, even by two processes at once.
import { createHash, randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import { generateSecret, generateURI, verify } from "otplib";
import type { App } from "../../app-type";
import type { MetaDb } from "../../db/meta-schema";
import { metaTransaction } from "../../db/meta-transaction";
import { decryptKey, encryptKey } from "../../keys/key-crypto";

export const RECOVERY_CODES = 10;
const DRIFT_SECONDS = 30;

export type Factor = { secret: string; confirmed: boolean; lastStep: number | null };

export const readFactor = async (app: App, databaseId: number, userId: number): Promise<Factor | undefined> => {
  const row = await app.engine.meta
    .selectFrom("auth_mfa_factors")
    .select(["secret_enc", "confirmed_at", "last_step"])
    .where("database_id", "=", databaseId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  if (!row) return undefined;
  return { secret: decryptKey(app.secret, row.secret_enc), confirmed: row.confirmed_at !== null, lastStep: row.last_step === null ? null : Number(row.last_step) };
};

/** A new pending secret for the user (replacing an unconfirmed one) and its otpauth:// URL for authenticator apps. */
export const startEnrolment = async (app: App, { databaseId, userId, issuer, label }: { databaseId: number; userId: number; issuer: string; label: string }) => {
  const secret = generateSecret();
  const values = { secret_enc: encryptKey(app.secret, secret), confirmed_at: null, last_step: null, created_at: new Date().toISOString() };
  await app.engine.meta.deleteFrom("auth_mfa_factors").where("database_id", "=", databaseId).where("user_id", "=", userId).where("confirmed_at", "is", null).execute();
  await app.engine.meta.insertInto("auth_mfa_factors").values({ database_id: databaseId, user_id: userId, ...values }).execute();
  return { secret, otpauth_url: generateURI({ issuer, label, secret }) };
};

/** Whether `code` is a current TOTP code of the factor not used before; accepting it spends its time step. */
export const acceptTotp = async (app: App, databaseId: number, userId: number, factor: Factor, code: string) => {
  if (!/^\d{6}$/.test(code)) return false;
  const result = await verify({ secret: factor.secret, token: code, epochTolerance: DRIFT_SECONDS, afterTimeStep: factor.lastStep ?? undefined });
  if (!result.valid) return false;
  const { timeStep } = result as { timeStep: number };
  const spent = await app.engine.meta
    .updateTable("auth_mfa_factors")
    .set({ last_step: timeStep })
    .where("database_id", "=", databaseId)
    .where("user_id", "=", userId)
    .where((eb) => eb.or([eb("last_step", "is", null), eb("last_step", "<", timeStep)]))
    .executeTakeFirst();
  return Number(spent.numUpdatedRows) === 1;
};

const hashRecoveryCode = (code: string) => createHash("sha256").update(code.toLowerCase().replace(/[^a-z0-9]/g, "")).digest("hex");

/** Turns the pending factor on and makes its recovery codes (any earlier ones go); the codes are shown once. */
export const confirmFactor = async (app: App, databaseId: number, userId: number) => {
  const codes = Array.from({ length: RECOVERY_CODES }, () => {
    const text = randomBytes(8).toString("hex").slice(0, 10);
    return `${text.slice(0, 5)}-${text.slice(5)}`;
  });
  await metaTransaction(app.engine.meta, async (trx) => {
    await trx.updateTable("auth_mfa_factors").set({ confirmed_at: new Date().toISOString() }).where("database_id", "=", databaseId).where("user_id", "=", userId).execute();
    await trx.deleteFrom("auth_recovery_codes").where("database_id", "=", databaseId).where("user_id", "=", userId).execute();
    await trx.insertInto("auth_recovery_codes").values(codes.map((code) => ({ database_id: databaseId, user_id: userId, code_hash: hashRecoveryCode(code) }))).execute();
  });
  return codes;
};

/** Spends a recovery code: true for the one request whose delete removed it. */
export const acceptRecoveryCode = async (app: App, databaseId: number, userId: number, code: string) => {
  if (!/^[0-9a-f]{5}-?[0-9a-f]{5}$/i.test(code)) return false;
  const result = await app.engine.meta
    .deleteFrom("auth_recovery_codes")
    .where("database_id", "=", databaseId)
    .where("user_id", "=", userId)
    .where("code_hash", "=", hashRecoveryCode(code))
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
};

/** Removes the user's authenticator (confirmed or pending) and its recovery codes; pass a transaction to join it. */
export const removeFactor = async (db: Kysely<MetaDb>, databaseId: number, userId: number) => {
  await db.deleteFrom("auth_mfa_factors").where("database_id", "=", databaseId).where("user_id", "=", userId).execute();
  await db.deleteFrom("auth_recovery_codes").where("database_id", "=", databaseId).where("user_id", "=", userId).execute();
};
