// The users admin's view of database users: each row of the users table with the state the install keeps beside
// it (verified, disabled, linked providers, MFA, live sessions), read in one query per meta table for a page.
import type { Kysely } from "kysely";
import type { App } from "../../app-type";
import { type AuthDatabase, emailColumn, findUserById, type UserRow } from "../../db-auth/auth-database";
import type { MetaDb } from "../../db/meta-schema";
import { ApiError, notFound } from "../../errors";
import type { DbCtx } from "../../meta/context";
import type { AuthUser } from "../../contract/schemas/auth-users";

/** The database of the route, with auth on (a 409 otherwise, as "test as user" answers). */
export const authDatabaseOf = (ctx: DbCtx): AuthDatabase => {
  const { schema, auth } = ctx.database;
  if (!auth?.enabled || !schema.tables.has(auth.users_table)) throw new ApiError("conflict", "Database auth is not enabled for this database; turn it on first.");
  return ctx.database as AuthDatabase;
};

export const getAuthUserRowOrThrow = async (app: App, database: AuthDatabase, userId: number): Promise<UserRow> => {
  const row = await findUserById(app, database, userId);
  if (!row) throw notFound(`No user with id ${userId} in ${database.auth.users_table}.`);
  return row;
};

const text = (value: unknown) => (value === null || value === undefined ? null : String(value));
const iso = (value: unknown) => (value instanceof Date ? value.toISOString() : String(value ?? ""));

export const describeUsers = async (meta: Kysely<MetaDb>, database: AuthDatabase, rows: UserRow[]): Promise<AuthUser[]> => {
  if (rows.length === 0) return [];
  const databaseId = database.schema.id;
  const ids = rows.map((r) => Number(r.id));
  const [states, identities, factors, sessions] = await Promise.all([
    meta.selectFrom("auth_user_state").select(["user_id", "verified_at", "disabled_at"]).where("database_id", "=", databaseId).where("user_id", "in", ids).execute(),
    meta.selectFrom("auth_identities").select(["user_id", "provider"]).where("database_id", "=", databaseId).where("user_id", "in", ids).execute(),
    meta.selectFrom("auth_mfa_factors").select("user_id").where("database_id", "=", databaseId).where("user_id", "in", ids).where("confirmed_at", "is not", null).execute(),
    meta
      .selectFrom("auth_families")
      .select(["user_id", (eb) => eb.fn.countAll<number>().as("n")])
      .where("database_id", "=", databaseId)
      .where("user_id", "in", ids)
      .where("revoked_at", "is", null)
      .groupBy("user_id")
      .execute(),
  ]);
  const state = new Map(states.map((s) => [Number(s.user_id), s]));
  const mfa = new Set(factors.map((f) => Number(f.user_id)));
  const live = new Map(sessions.map((s) => [Number(s.user_id), Number(s.n)]));
  return rows.map((row) => {
    const id = Number(row.id);
    return {
      id,
      login: String(row[database.auth.login_column] ?? ""),
      email: text(row[emailColumn(database)]),
      verified: !!state.get(id)?.verified_at,
      disabled: !!state.get(id)?.disabled_at,
      providers: [...new Set(identities.filter((i) => Number(i.user_id) === id).map((i) => i.provider))].sort(),
      mfa: mfa.has(id),
      sessions: live.get(id) ?? 0,
      created_at: iso(row.created_at),
    };
  });
};
