// The MariaDB account the SQL console runs as, one per user database: SELECT on that schema and nothing else
// (no FILE, no PROCESS, no other schema), a cap on its connections and on a statement's time. Its password is
// an HMAC of the install secret and the schema's name: derived again by every process, never stored or shown.
import { createHash, createHmac } from "node:crypto";
import { ApiError } from "../errors";

/** Runs one statement as the app's own database user (values bound client-side). */
export type AdminQuery = (sql: string, values?: unknown[]) => Promise<unknown>;

export type ReaderAccount = { user: string; host: string; password: string };

/** 30 characters whatever the schema's name: within MariaDB's 80 (and MySQL's 32). */
export const consoleReaderName = (physical: string) => `tabula_ro_${createHash("sha256").update(physical).digest("hex").slice(0, 20)}`;

export const consoleReaderPassword = (secret: Buffer, physical: string) =>
  createHmac("sha256", secret).update(`tabula:sql-console-reader:${physical}`).digest("base64url");

/**
 * The host part of the app's own account (CURRENT_USER(), e.g. `127.0.0.1`, `localhost`, `10.0.%` or `%`):
 * the reader is made for the same host, so it connects from wherever the app does, and from nowhere else.
 */
export const appAccountHost = async (admin: AdminQuery): Promise<string> => {
  const [rows] = (await admin("SELECT CURRENT_USER() AS u")) as [{ u: string }[]];
  const account = rows[0]?.u ?? "";
  return account.slice(account.lastIndexOf("@") + 1) || "%";
};

/** A schema name for GRANT … ON `db`.*, where `_` and `%` are wildcards unless escaped (`a_b` would match `aXb`). */
const grantSchema = (name: string) => `\`${name.replace(/`/g, "``").replace(/[\\_%]/g, "\\$&")}\``;

/** Makes (or brings back in line) the reader of `physical`: its password, its limits, its one grant. */
export const createConsoleReader = async (admin: AdminQuery, reader: ReaderAccount, physical: string, limits: { connections: number; timeSeconds: number }) => {
  const options = `WITH MAX_USER_CONNECTIONS ${limits.connections} MAX_STATEMENT_TIME ${limits.timeSeconds}`;
  const account = [reader.user, reader.host];
  try {
    await admin(`CREATE USER IF NOT EXISTS ?@? IDENTIFIED BY ? ${options}`, [...account, reader.password]);
    await admin(`ALTER USER ?@? IDENTIFIED BY ? ${options}`, [...account, reader.password]);
    await admin(`GRANT SELECT ON ${grantSchema(physical)}.* TO ?@?`, account);
  } catch (err) {
    const e = err as { errno?: number; sqlMessage?: string };
    if (!e.errno) throw err;
    throw readerUnavailable(`the database user Tabula connects as could not create it (it needs the CREATE USER privilege and GRANT OPTION on the user databases; MariaDB: ${e.sqlMessage})`);
  }
};

export const dropConsoleReader = async (admin: AdminQuery, physical: string) => {
  const host = await appAccountHost(admin);
  await admin("DROP USER IF EXISTS ?@?", [consoleReaderName(physical), host]);
};

/** 503: the console runs only as its reader, never falls back to the app's own user. */
export const readerUnavailable = (why: string) =>
  new ApiError("unavailable", `The SQL console runs as a read-only MariaDB account of this database, and ${why}.`);
