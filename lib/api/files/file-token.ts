// File tokens: `POST /v1/{db}/auth/file-token` gives a JWT user a token valid for two minutes that a download
// takes as `?token=` (an <img src> sends no header). It is signed with the database's auth secret and names
// the user and the database, so it reads exactly what that user may read there and nothing elsewhere.
import { jwtVerify, SignJWT } from "jose";
import type { App } from "../../app-type";
import { ApiError, methodNotAllowed, unauthorized } from "../../errors";
import { type CoreRequest, type CoreResponse, json } from "../../http/core-types";
import type { LoadedDatabase } from "../../meta/schema-cache";
import { authenticate, type Caller } from "../authenticate";

export const FILE_TOKEN_SECONDS = 120;
const ROLE = "file";

/** POST /auth/file-token: a JWT user's short-lived download token. */
export const issueFileToken = async (app: App, req: CoreRequest, database: LoadedDatabase | undefined): Promise<CoreResponse> => {
  if (req.method !== "POST") throw methodNotAllowed(["POST"]);
  const caller = await authenticate(app, req, database);
  if (caller.kind !== "user" || !database?.auth) {
    throw new ApiError("forbidden", "File tokens are for database users (send the user's token); a secret key downloads with its header.");
  }
  const now = Math.floor(Date.now() / 1000);
  const token = await new SignJWT({ db: database.schema.instance, role: ROLE })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(String(caller.userId))
    .setIssuedAt(now)
    .setExpirationTime(now + FILE_TOKEN_SECONDS)
    .sign(database.auth.secret);
  return json(200, { token, expires_in: FILE_TOKEN_SECONDS });
};

/** The user a `?token=` stands for; 401 when it is expired, forged, of another database or not a file token. */
export const fileTokenCaller = async (database: LoadedDatabase, token: string): Promise<Caller> => {
  const auth = database.auth;
  if (!auth?.enabled) throw unauthorized("File tokens need database auth.");
  try {
    const { payload } = await jwtVerify(token, auth.secret, { algorithms: ["HS256"], requiredClaims: ["sub", "exp", "iat"] });
    if (payload.db !== database.schema.instance || payload.role !== ROLE || typeof payload.sub !== "string" || !/^[1-9]\d{0,15}$/.test(payload.sub)) {
      throw new Error("not a file token of this database");
    }
    return { kind: "user", userId: Number(payload.sub), claims: payload, databaseId: database.schema.id };
  } catch {
    throw unauthorized("The file token is not valid (expired after two minutes, or for another database).");
  }
};
