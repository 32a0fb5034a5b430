import Database from "better-sqlite3";
import { Kysely, SqliteDialect } from "kysely";
import { addSqlFunctions } from "./sqlite-functions.mjs";

const STATEMENT_CACHE_SIZE = 200;

export type SqliteConn = {
  raw: Database.Database;
  prepare: (text: string) => Database.Statement;
  /** Drops the cached statements (after DDL, which invalidates them). */
  clear: () => void;
  close: () => void;
};

/** SQLITE_CACHE_MB's default, better-sqlite3's: a scan of a table larger than the cache rereads every page from the OS. */
export const DEFAULT_CACHE_MB = 16;

/**
 * better-sqlite3 with tuned pragmas and a small prepared-statement cache (Kysely prepares per query).
 * `autocheckpointPages`: the WAL size at which a COMMIT checkpoints on this connection (SQLite's default 1,000;
 * larger where the reader threads copy the WAL, readers/reader-pool.ts).
 */
export const openSqlite = (file: string, cacheMb = DEFAULT_CACHE_MB, autocheckpointPages?: number): SqliteConn => {
  const raw = new Database(file);
  try {
    raw.pragma(`cache_size = ${-1024 * cacheMb}`);
    raw.pragma("journal_mode = WAL");
    if (autocheckpointPages !== undefined) raw.pragma(`wal_autocheckpoint = ${autocheckpointPages}`);
    raw.pragma("synchronous = NORMAL");
    raw.pragma("foreign_keys = ON");
    raw.pragma("busy_timeout = 5000");
    addSqlFunctions(raw);
  } catch (err) {
    raw.close();
    throw err;
  }
  const cache = new Map<string, Database.Statement>();
  const prepare = (text: string) => {
    let stmt = cache.get(text);
    if (!stmt) {
      stmt = raw.prepare(text);
      if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
      cache.set(text, stmt);
    }
    return stmt;
  };
  return { raw, prepare, clear: () => cache.clear(), close: () => raw.close() };
};

/** A Kysely over one connection for its whole life (the metadata file). */
export const sqliteKysely = <T>(conn: SqliteConn) =>
  new Kysely<T>({ dialect: new SqliteDialect({ database: { prepare: conn.prepare, close: conn.close } as never }) });
