// The user a provider identity signs in as: the one it was linked to before; else the user whose email the
// provider verified (linked now); else a new user. An email the provider has not verified is refused (403)
// whether or not a user has it: linking on it would hand that user to whoever typed the address, and a user
// created from it would be taken over by the address's real owner's later sign-in (or the reverse).
import { randomBytes } from "node:crypto";
import type { App } from "../../app-type";
import { runWrite } from "../../api/write/run-write";
import { isUniqueViolation } from "../../db/unique-violation";
import { ApiError } from "../../errors";
import { FULL_ACCESS } from "../../rls/access";
import { type AuthDatabase, emailColumn, findUserBy, findUserById, type UserRow, usersIndex } from "../auth-database";
import { markVerified } from "../user-state";
import type { Profile } from "./provider-profile";

const findIdentity = (app: App, databaseId: number, provider: string, subject: string) =>
  app.engine.meta
    .selectFrom("auth_identities")
    .select(["id", "user_id"])
    .where("database_id", "=", databaseId)
    .where("provider", "=", provider)
    .where("subject", "=", subject)
    .executeTakeFirst();

/** Links an identity to a user; when a concurrent sign-in linked it first, that user wins. */
const link = async (app: App, database: AuthDatabase, provider: string, profile: Profile, userId: number) => {
  const now = new Date().toISOString();
  try {
    await app.engine.meta
      .insertInto("auth_identities")
      .values({ database_id: database.schema.id, provider, subject: profile.subject, user_id: userId, email: profile.email?.slice(0, 255) ?? null, created_at: now, last_sign_in_at: now })
      .execute();
    return userId;
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    const winner = await findIdentity(app, database.schema.id, provider, profile.subject);
    if (!winner) throw err;
    return Number(winner.user_id);
  }
};

/** A new user from the provider's email: the email (and login) column set, an unusable random password when one is required. */
const createUser = async (app: App, database: AuthDatabase, email: string) => {
  const { auth, schema } = database;
  if (!auth.signup) throw new ApiError("forbidden", "Sign-up is closed for this database: no user has this provider's verified email.");
  const index = usersIndex(database);
  const record: Record<string, unknown> = { [emailColumn(database)]: email };
  const login = index.byName.get(auth.login_column);
  if (login && !(auth.login_column in record) && !login.nullable && login.default === undefined) record[auth.login_column] = email;
  const password = index.byName.get(auth.password_column);
  if (password && !password.nullable) record[auth.password_column] = randomBytes(24).toString("base64url");
  const [user] = await runWrite({ app, udb: app.engine.userDb(schema.physical), index, access: FULL_ACCESS, action: "create", body: record });
  return Number(user.id);
};

/** The user this profile signs in as (found, linked or created), as a row of the users table. */
export const userForProfile = async (app: App, database: AuthDatabase, provider: string, profile: Profile): Promise<UserRow> => {
  const databaseId = database.schema.id;
  const identity = await findIdentity(app, databaseId, provider, profile.subject);
  if (identity) {
    const row = await findUserById(app, database, Number(identity.user_id));
    if (row) {
      await app.engine.meta.updateTable("auth_identities").set({ last_sign_in_at: new Date().toISOString(), email: profile.email?.slice(0, 255) ?? null }).where("id", "=", identity.id).execute();
      return row;
    }
    // The user was deleted: the identity goes with it and the sign-in starts over as a new one.
    await app.engine.meta.deleteFrom("auth_identities").where("id", "=", identity.id).execute();
  }
  if (!profile.email) throw new ApiError("forbidden", "The provider shared no email address for this account; sign in another way.");
  if (!profile.emailVerified) throw new ApiError("forbidden", "The provider has not verified this account's email address; verify it there, or sign in another way.");
  const existing = await findUserBy(app, database, emailColumn(database), profile.email);
  const userId = await link(app, database, provider, profile, existing ? Number(existing.id) : await createUser(app, database, profile.email));
  await markVerified(app.engine.meta, databaseId, userId);
  return (await findUserById(app, database, userId))!;
};
