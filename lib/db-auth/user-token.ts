import { type JWTPayload, jwtVerify, SignJWT } from "jose";
import type { LoadedDatabase } from "../meta/schema-cache";
import type { DatabaseAuth } from "../schema/types";

/** A verified database-auth token: the user id (`sub`) and every claim. */
export type UserToken = { userId: number; claims: JWTPayload };

/**
 * Signs an HS256 token for one user of one database (claims sub, db, role, iat, exp, and `sid`, the session
 * family, when it belongs to a session: such a token dies with its session).
 */
export const signUserToken = async (
  { schema, auth }: Pick<LoadedDatabase, "schema"> & { auth: DatabaseAuth },
  userId: number,
  ttlSeconds = auth.token_ttl_seconds,
  sessionId?: number,
) => {
  const now = Math.floor(Date.now() / 1000);
  const token = await new SignJWT({ db: schema.instance, role: "authenticated", ...(sessionId === undefined ? {} : { sid: sessionId }) })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(String(userId))
    .setIssuedAt(now)
    .setExpirationTime(now + ttlSeconds)
    .sign(auth.secret);
  return { token, token_type: "Bearer" as const, expires_in: ttlSeconds };
};

/**
 * Verifies a token against this database's secret: HS256 only (alg none, HS512, RS256... are refused), a
 * valid signature, not expired, issued for this database, with a numeric `sub`. Undefined when any fails.
 */
export const verifyUserToken = async (database: LoadedDatabase | undefined, token: string): Promise<UserToken | undefined> => {
  const auth = database?.auth;
  if (!database || !auth?.enabled) return undefined;
  try {
    const { payload } = await jwtVerify(token, auth.secret, { algorithms: ["HS256"], requiredClaims: ["sub", "exp", "iat"] });
    if (payload.db !== database.schema.instance || payload.role !== "authenticated") return undefined;
    if (typeof payload.sub !== "string" || !/^[1-9]\d{0,15}$/.test(payload.sub)) return undefined;
    return { userId: Number(payload.sub), claims: payload };
  } catch {
    return undefined;
  }
};
