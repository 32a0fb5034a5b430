// Dashboard sessions are next-auth JWTs that carry `sv`, the account's session version when they were signed.
// Bumping the version ends every session signed before; the session that changed the password gets a new cookie.
import { encode } from "next-auth/jwt";
import type { Kysely, Transaction } from "kysely";
import type { MetaDb } from "../db/meta-schema";
import type { Ctx } from "../meta/context";
import { authSecret } from "./auth-secret";

export const SESSION_MAX_AGE_SECONDS = 7 * 24 * 3600;

/** A token signed before sessions had versions reads as version 0, the version every account starts at. */
export const sessionVersionOf = (claims: Record<string, unknown>) => (typeof claims.sv === "number" ? claims.sv : 0);

/** Ends every session of the account; returns the new version. */
export const bumpSessionVersion = async (db: Kysely<MetaDb> | Transaction<MetaDb>, accountId: number) => {
  await db.updateTable("accounts").set((eb) => ({ session_version: eb("session_version", "+", 1) })).where("id", "=", accountId).execute();
  const row = await db.selectFrom("accounts").select("session_version").where("id", "=", accountId).executeTakeFirstOrThrow();
  return row.session_version;
};

/** Keeps the caller's own session alive across a bump: its cookie again, signed with the new version. */
export const renewCallerSession = async (ctx: Ctx, version: number) => {
  const session = ctx.actor.session;
  if (!session) return;
  const token = await encode({ token: { ...session.claims, sv: version }, secret: authSecret(ctx.app), maxAge: SESSION_MAX_AGE_SECONDS });
  const secure = session.cookieName.startsWith("__Secure-") ? "; Secure" : "";
  ctx.responseHeaders = {
    ...ctx.responseHeaders,
    "set-cookie": `${session.cookieName}=${token}; Path=/; Max-Age=${SESSION_MAX_AGE_SECONDS}; HttpOnly; SameSite=Lax${secure}`,
  };
};
