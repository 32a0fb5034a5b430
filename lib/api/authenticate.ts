import type { App } from "../app-type";
import { unauthorized } from "../errors";
import type { CoreRequest } from "../http/core-types";
import { readCredential } from "../http/credentials";
import { verifyUserToken } from "../db-auth/user-token";
import { sessionLive } from "../db-auth/sessions";
import { refuseDisabled, resolveKey } from "../keys/resolve-key";
import type { LoadedDatabase } from "../meta/schema-cache";
import type { DatabaseRole } from "../teams/permissions";
import { cachedWorkspaceRole } from "../teams/roles";

/**
 * Who calls the data API. Secret keys act as the server role (no row policies) with their account's role on
 * the database (a viewer's key reads only); JWT users meet the policies.
 */
export type Caller =
  | { kind: "key"; keyId: number; accountId: number; role: DatabaseRole; dashboard?: boolean }
  | { kind: "user"; userId: number; claims: Record<string, unknown>; databaseId: number };

/**
 * Checks the credential against the database in the path. An invalid credential, or one not valid for this
 * database, is 401 whether or not the database exists; only a valid account key learns that it does not.
 */
export const authenticate = async (
  app: App,
  req: CoreRequest,
  database: LoadedDatabase | undefined,
): Promise<Caller> => {
  const schema = database?.schema;
  const credential = readCredential(req);
  if (!credential) throw unauthorized("Send your secret key in the x-api-key header or as Authorization: Bearer <key>.");
  if (!credential.startsWith("sk_")) {
    // Anything that is not a secret key is read as a database-auth JWT for the database in the path.
    const user = await verifyUserToken(database, credential);
    if (!user || !schema) throw unauthorized("The token is not valid (expired, signed with another secret, or for another database).");
    // A token of a session (sid) ends with it: logout, password reset, reuse of a refresh token.
    const sid = user.claims.sid;
    if (sid !== undefined && !(typeof sid === "number" && (await sessionLive(app, schema.id, sid)))) throw unauthorized("The session of this token has ended; sign in again.");
    return { kind: "user", userId: user.userId, claims: user.claims, databaseId: schema.id };
  }
  const key = await resolveKey(app, credential);
  if (!key) throw unauthorized("The secret key is not valid (it may have been regenerated or revoked).");
  if (key.databaseId !== null && key.databaseId !== schema?.id) throw unauthorized("This key is not valid for this database.");
  refuseDisabled(key);
  // A member's key acts with the member's role in the owner's workspace; a removed member's, at once, with none.
  const role = !schema || schema.ownerId === key.accountId ? "owner" : await cachedWorkspaceRole(app, schema.ownerId, key.accountId);
  if (!role) throw unauthorized("This key is not valid for this database.");
  return { kind: "key", keyId: key.id, accountId: key.accountId, role, ...(key.dashboard ? { dashboard: true } : {}) };
};

/**
 * The caller at once, without a promise, in the common case: the owner's secret key, already known to this
 * process (cached by resolveKey) and valid for the database. Undefined for anything else, which
 * `authenticate` then decides (and refuses) as always.
 */
export const knownOwnerKey = (app: App, req: CoreRequest, database: LoadedDatabase | undefined): Caller | undefined => {
  const schema = database?.schema;
  const credential = schema && readCredential(req);
  if (!credential || !credential.startsWith("sk_")) return undefined;
  const key = app.keys.get(credential);
  if (!key || key.disabled || key.accountId !== schema.ownerId || (key.databaseId !== null && key.databaseId !== schema.id)) return undefined;
  return { kind: "key", keyId: key.id, accountId: key.accountId, role: "owner", ...(key.dashboard ? { dashboard: true } : {}) };
};
