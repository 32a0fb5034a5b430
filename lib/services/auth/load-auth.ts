import type { App } from "../../app";
import { decryptKey } from "../../keys/key-crypto";
import type { AuthSettings, DatabaseSchema, TableDef } from "../../schema/types";

export const DEFAULT_AUTH: AuthSettings = {
  enabled: false,
  users_table: "users",
  login_column: "email",
  password_column: "password",
  token_ttl_seconds: 3600,
  signup: false,
  cors_origins: [],
};

/** Loads policies onto the tables and the auth settings (with the decrypted secret) of one database. */
export const loadAuth = async (app: App, databaseId: number, tables: Map<string, TableDef>): Promise<DatabaseSchema["auth"]> => {
  const meta = app.engine.meta;
  const byId = new Map([...tables.values()].map((t) => [t.id, t]));
  const policyRows = await meta.selectFrom("table_policies").selectAll().where("database_id", "=", databaseId).execute();
  for (const row of policyRows) {
    const table = byId.get(row.table_id);
    if (table) table.policies = JSON.parse(row.policies);
  }
  const row = await meta.selectFrom("database_auth").selectAll().where("database_id", "=", databaseId).executeTakeFirst();
  if (!row) return undefined;
  const stored = JSON.parse(row.settings) as Omit<AuthSettings, "users_table"> & { users_table?: string };
  const usersTable = row.users_table_id === null ? undefined : byId.get(row.users_table_id);
  const settings: AuthSettings = { ...DEFAULT_AUTH, ...stored, users_table: usersTable?.name ?? stored.users_table ?? DEFAULT_AUTH.users_table };
  // A users table dropped under the settings leaves auth unusable until it is set again.
  if (settings.enabled && !usersTable) settings.enabled = false;
  return { ...settings, secret: new Uint8Array(Buffer.from(decryptKey(app.secret, row.secret_enc), "base64url")) };
};
