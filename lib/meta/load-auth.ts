import type { Kysely } from "kysely";
import type { MetaDb } from "../db/meta-schema";
import { decryptKey } from "../keys/key-crypto";
import type { AuthSettings, DatabaseAuth, DatabaseSchema } from "../schema/types";

export const DEFAULT_AUTH: AuthSettings = {
  enabled: false,
  users_table: "users",
  login_column: "email",
  password_column: "password",
  token_ttl_seconds: 3600,
  signup: false,
  cors_origins: [],
  email_column: null,
  verification: "off",
  redirect_urls: [],
  providers: [],
  mfa: "off",
  refresh_ttl_seconds: 30 * 24 * 3600,
  emails: {},
};

/** The auth settings (with the decrypted secret) of one database, the users table named from `schema`; undefined = never configured. */
export const loadAuth = async (meta: Kysely<MetaDb>, appSecret: Buffer, schema: DatabaseSchema): Promise<DatabaseAuth | undefined> => {
  const row = await meta.selectFrom("database_auth").selectAll().where("database_id", "=", schema.id).executeTakeFirst();
  if (!row) return undefined;
  const stored = JSON.parse(row.settings) as Omit<AuthSettings, "users_table"> & { users_table?: string };
  const usersTable = row.users_table_id === null ? undefined : [...schema.tables.values()].find((t) => t.id === row.users_table_id);
  const settings: AuthSettings = { ...DEFAULT_AUTH, ...stored, users_table: usersTable?.name ?? stored.users_table ?? DEFAULT_AUTH.users_table };
  // A users table dropped under the settings leaves auth unusable until it is set again.
  if (settings.enabled && !usersTable) settings.enabled = false;
  return { ...settings, secret: new Uint8Array(Buffer.from(decryptKey(appSecret, row.secret_enc), "base64url")) };
};
