// Sessions of database users: every way in (password, sign-up, one-time code, magic link, OAuth, MFA) ends in
// issueSession, which answers an access JWT and a refresh token. A sign-in opens a family; each refresh spends
// its token (single use) and gives a new one in the same family; presenting a spent token revokes the family
// (OAuth 2.0 Security BCP, refresh token rotation). Refresh tokens are stored as sha256 only.
import { createHash, randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import type { App } from "../app-type";
import type { MetaDb } from "../db/meta-schema";
import { ApiError, unauthorized } from "../errors";
import { LruMap } from "../lru-map";
import { type AuthDatabase, findUserById, publicUser, type UserRow, usersIndex } from "./auth-database";
import { readUserState } from "./user-state";
import { signUserToken } from "./user-token";

/** What every way in answers. */
export type Session = {
  token: string;
  token_type: "Bearer";
  expires_in: number;
  refresh_token: string;
  user: Record<string, unknown>;
};

/** How the session began (kept on the family, for the admin and the audit). */
export type SignInMethod = "password" | "signup" | "otp" | "magic_link" | "oauth" | "mfa" | "verify";

/** Why a family ended. */
export type EndReason = "logout" | "logout_all" | "reuse" | "password_reset" | "disabled" | "secret_rotated" | "user_gone" | "admin";

export const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");
const newRefreshToken = () => `rt_${randomBytes(32).toString("base64url")}`;
const isoIn = (seconds: number) => new Date(Date.now() + seconds * 1000).toISOString();

const INVALID_REFRESH = "The refresh token is not valid (unknown, expired, or its session ended); sign in again.";

// A family's liveness as access tokens see it (their `sid` claim): revocations made here show at once, those of
// other processes within LIVE_CACHE_MS. A revoked family never comes back, so a "revoked" entry is final.
const LIVE_CACHE_MS = 2_000;
const MAX_CACHED_FAMILIES = 10_000;
const liveCaches = new WeakMap<App, LruMap<number, { live: boolean; at: number }>>();
const liveCache = (app: App) => {
  let cache = liveCaches.get(app);
  if (!cache) liveCaches.set(app, (cache = new LruMap(MAX_CACHED_FAMILIES)));
  return cache;
};

const mint = async (app: App, database: AuthDatabase, row: UserRow, familyId: number): Promise<Session> => {
  const refreshToken = newRefreshToken();
  const now = new Date().toISOString();
  await app.engine.meta
    .insertInto("auth_refresh_tokens")
    .values({ token_hash: hashToken(refreshToken), family_id: familyId, expires_at: isoIn(database.auth.refresh_ttl_seconds), used_at: null, created_at: now })
    .execute();
  const access = await signUserToken(database, Number(row.id), database.auth.token_ttl_seconds, familyId);
  return { ...access, refresh_token: refreshToken, user: publicUser(usersIndex(database), row) };
};

/**
 * THE way to sign a user in: opens a session family for `row` (a row of the users table, as read) and answers
 * `{token, token_type, expires_in, refresh_token, user}`. Every route that lets a user in must end here.
 */
export const issueSession = async (app: App, database: AuthDatabase, row: UserRow, method: SignInMethod = "password"): Promise<Session> => {
  const inserted = await app.engine.meta
    .insertInto("auth_families")
    .values({ database_id: database.schema.id, user_id: Number(row.id), method, created_at: new Date().toISOString(), revoked_at: null, revoked_reason: null })
    .executeTakeFirstOrThrow();
  return mint(app, database, row, Number(inserted.insertId));
};

const revokeFamily = async (db: Kysely<MetaDb>, familyId: number, reason: EndReason) => {
  await db.updateTable("auth_families").set({ revoked_at: new Date().toISOString(), revoked_reason: reason }).where("id", "=", familyId).where("revoked_at", "is", null).execute();
};

/**
 * POST /auth/refresh: spends the token and answers a new pair in its family. The spend is one conditional
 * UPDATE, so of any number of concurrent refreshes with one token exactly one wins; every other presentation
 * of a spent token is a reuse and revokes the whole family (the winner's new pair included).
 */
export const refreshSession = async (app: App, database: AuthDatabase, presented: string): Promise<Session> => {
  const meta = app.engine.meta;
  const hash = hashToken(presented);
  const found = await meta
    .selectFrom("auth_refresh_tokens as t")
    .innerJoin("auth_families as f", "f.id", "t.family_id")
    .select(["t.family_id", "t.expires_at", "t.used_at", "f.database_id", "f.user_id", "f.revoked_at"])
    .where("t.token_hash", "=", hash)
    .executeTakeFirst();
  if (!found || found.database_id !== database.schema.id || found.revoked_at || found.expires_at <= new Date().toISOString()) throw unauthorized(INVALID_REFRESH);
  const spent = await meta.updateTable("auth_refresh_tokens").set({ used_at: new Date().toISOString() }).where("token_hash", "=", hash).where("used_at", "is", null).executeTakeFirst();
  if (Number(spent.numUpdatedRows) !== 1) {
    await revokeFamily(meta, found.family_id, "reuse");
    liveCache(app).set(found.family_id, { live: false, at: Date.now() });
    throw new ApiError("refresh_token_reused", "This refresh token was already used; its session has ended. Sign in again.", {
      headers: { "WWW-Authenticate": 'Bearer realm="tabula"' },
    });
  }
  const row = await findUserById(app, database, Number(found.user_id));
  const state = row ? await readUserState(app, database.schema.id, Number(found.user_id)) : undefined;
  if (!row || state?.disabled) {
    await revokeFamily(meta, found.family_id, row ? "disabled" : "user_gone");
    throw unauthorized(INVALID_REFRESH);
  }
  return mint(app, database, row, found.family_id);
};

/** POST /auth/logout: ends the family of the caller's access token. */
export const endSession = async (app: App, databaseId: number, userId: number, familyId: number) => {
  await app.engine.meta
    .updateTable("auth_families")
    .set({ revoked_at: new Date().toISOString(), revoked_reason: "logout" })
    .where("id", "=", familyId)
    .where("database_id", "=", databaseId)
    .where("user_id", "=", userId)
    .where("revoked_at", "is", null)
    .execute();
  liveCache(app).set(familyId, { live: false, at: Date.now() });
};

/** Ends every session of one user (logout everywhere, password reset, disable); pass a transaction to join it. */
export const endUserSessions = async (app: App, databaseId: number, userId: number, reason: EndReason, db: Kysely<MetaDb> = app.engine.meta) => {
  const families = await db
    .selectFrom("auth_families")
    .select("id")
    .where("database_id", "=", databaseId)
    .where("user_id", "=", userId)
    .where("revoked_at", "is", null)
    .execute();
  await db
    .updateTable("auth_families")
    .set({ revoked_at: new Date().toISOString(), revoked_reason: reason })
    .where("database_id", "=", databaseId)
    .where("user_id", "=", userId)
    .where("revoked_at", "is", null)
    .execute();
  for (const { id } of families) liveCache(app).set(id, { live: false, at: Date.now() });
};

/** Ends every session of a database (its signing secret was rotated); runs inside the settings' transaction. */
export const endDatabaseSessions = async (db: Kysely<MetaDb>, databaseId: number, reason: EndReason) => {
  await db.updateTable("auth_families").set({ revoked_at: new Date().toISOString(), revoked_reason: reason }).where("database_id", "=", databaseId).where("revoked_at", "is", null).execute();
};

/** Whether the family an access token names (`sid`) is still live. */
export const sessionLive = async (app: App, databaseId: number, familyId: number): Promise<boolean> => {
  const cache = liveCache(app);
  const cached = cache.get(familyId);
  if (cached && (!cached.live || Date.now() - cached.at < LIVE_CACHE_MS)) return cached.live;
  const row = await app.engine.meta.selectFrom("auth_families").select(["database_id", "revoked_at"]).where("id", "=", familyId).executeTakeFirst();
  const live = !!row && row.database_id === databaseId && !row.revoked_at;
  cache.set(familyId, { live, at: Date.now() });
  return live;
};
