// A database with auth on, and the reads of its users table every auth route shares.
import type { App } from "../app-type";
import { selectByIdSql, selectPageSql } from "../api/build-sql";
import { indexTable, type TableIndex, toRecord } from "../api/table-index";
import { notFound } from "../errors";
import type { LoadedDatabase } from "../meta/schema-cache";
import type { DatabaseAuth } from "../schema/types";
import { isSecret } from "../schema/type-traits";

/** A loaded database whose auth is on (its users table exists). */
export type AuthDatabase = LoadedDatabase & { auth: DatabaseAuth };

/** A row of the users table as the driver returns it. */
export type UserRow = Record<string, unknown>;

/** Unknown database and auth switched off read the same, so the path cannot probe for databases. */
export const requireAuth = (database: LoadedDatabase | undefined): AuthDatabase => {
  if (!database?.auth?.enabled || !database.schema.tables.has(database.auth.users_table)) throw notFound("Database auth is not enabled for this database.");
  return database as AuthDatabase;
};

export const usersIndex = ({ schema, auth }: AuthDatabase) => indexTable(schema.tables.get(auth.users_table)!);

/** The user as the auth endpoints show it: the record without its password columns. */
export const publicUser = (index: TableIndex, row: UserRow) => {
  const record = toRecord(index, row);
  for (const c of index.table.columns) if (isSecret(c)) delete record[c.name];
  return record;
};

/** The column mails go to. */
export const emailColumn = ({ auth }: AuthDatabase) => auth.email_column ?? auth.login_column;

/** The one user whose `column` equals `value` exactly (login and email columns are unique or read first). */
export const findUserBy = async (app: App, database: AuthDatabase, column: string, value: string): Promise<UserRow | undefined> => {
  const index = usersIndex(database);
  const udb = app.engine.userDb(database.schema.physical);
  const query = { filters: [{ column: index.byName.get(column)!, op: "eq" as const, value }], sort: [], limit: 1, offset: 0 };
  const { rows } = await selectPageSql(udb, index.table.name, index.all, query).execute(udb.db);
  return rows[0] as UserRow | undefined;
};

export const findUserById = async (app: App, database: AuthDatabase, id: number): Promise<UserRow | undefined> => {
  const index = usersIndex(database);
  const udb = app.engine.userDb(database.schema.physical);
  const { rows } = await selectByIdSql(udb, index.table.name, index.all, id).execute(udb.db);
  return rows[0] as UserRow | undefined;
};
