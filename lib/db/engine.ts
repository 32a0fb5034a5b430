import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { Kysely, MysqlDialect, type RawBuilder, SqliteDialect, sql } from "kysely";
import { createPool, type Pool } from "mysql2";
import type { Config, EngineKind } from "../config";
import type { MetaDb } from "./meta-schema";

/** A user database: its Kysely handle and how to name one of its tables in SQL. */
export type UserDb = {
  engine: EngineKind;
  db: Kysely<any>;
  table: (name: string) => RawBuilder<unknown>;
};

export type Engine = {
  kind: EngineKind;
  meta: Kysely<MetaDb>;
  /** Physical name for a new user database (MySQL schema or SQLite file name). */
  physicalName: (databaseId: number) => string;
  createUserDb: (physical: string) => Promise<void>;
  dropUserDb: (physical: string) => Promise<void>;
  userDb: (physical: string) => UserDb;
  /** Drops cached prepared statements of one user database; call after DDL on it (no-op on MySQL). */
  clearStatements: (physical: string) => void;
  /** Cheap check whether another process changed the metadata since the last call (sync on SQLite). */
  metaChanged: () => boolean | Promise<boolean>;
  /** What the process holds open: MySQL pool connections, or SQLite database handles (metrics). */
  poolStats: () => PoolStats;
  close: () => Promise<void>;
};

export type PoolStats = { kind: "mysql"; total: number; free: number; queued: number } | { kind: "sqlite"; open: number };

const STATEMENT_CACHE_SIZE = 200;

/** better-sqlite3 with tuned pragmas and a small prepared-statement cache (Kysely prepares per query). */
const openSqlite = (file: string) => {
  const raw = new Database(file);
  raw.pragma("journal_mode = WAL");
  raw.pragma("synchronous = NORMAL");
  raw.pragma("foreign_keys = ON");
  raw.pragma("busy_timeout = 5000");
  // SQLite's lower() folds ASCII only; _ilike with non-ASCII text uses this Unicode-aware one.
  raw.function("unicode_lower", { deterministic: true }, (v: unknown) => (typeof v === "string" ? v.toLowerCase() : v));
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
  // Schema changes invalidate prepared statements; the caller clears the cache after DDL.
  return { raw, prepare, clear: () => cache.clear(), close: () => raw.close() };
};

const sqliteKysely = <T>(conn: ReturnType<typeof openSqlite>) =>
  new Kysely<T>({ dialect: new SqliteDialect({ database: { prepare: conn.prepare, close: conn.close } as never }) });

const openSqliteEngine = (config: Config): Engine => {
  const dir = path.join(config.dataDir, "databases");
  fs.mkdirSync(dir, { recursive: true });
  const metaConn = openSqlite(path.join(config.dataDir, "tabula.db"));
  const meta = sqliteKysely<MetaDb>(metaConn);
  const users = new Map<string, { conn: ReturnType<typeof openSqlite>; handle: UserDb }>();
  const dataVersionStmt = metaConn.raw.prepare("PRAGMA data_version").pluck();
  let dataVersion = dataVersionStmt.get();

  const userDb = (physical: string): UserDb => {
    let entry = users.get(physical);
    if (!entry) {
      const conn = openSqlite(path.join(dir, physical));
      entry = { conn, handle: { engine: "sqlite", db: sqliteKysely(conn), table: (name) => sql.id(name) } };
      users.set(physical, entry);
    }
    return entry.handle;
  };

  return {
    kind: "sqlite",
    meta,
    physicalName: (id) => `db_${id}.sqlite`,
    createUserDb: async (physical) => {
      userDb(physical);
    },
    dropUserDb: async (physical) => {
      const entry = users.get(physical);
      if (entry) {
        await entry.handle.db.destroy();
        users.delete(physical);
      }
      for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(path.join(dir, physical + suffix), { force: true });
    },
    userDb,
    clearStatements: (physical) => users.get(physical)?.conn.clear(),
    metaChanged: () => {
      // data_version moves when another connection (another process) commits to the file.
      const current = dataVersionStmt.get();
      if (current === dataVersion) return false;
      dataVersion = current;
      for (const { conn } of users.values()) conn.clear();
      return true;
    },
    poolStats: () => ({ kind: "sqlite", open: users.size + 1 }),
    close: async () => {
      for (const { handle } of users.values()) await handle.db.destroy();
      users.clear();
      await meta.destroy();
    },
  };
};

const mysqlPool = (url: string, database?: string): Pool => {
  const u = new URL(url);
  return createPool({
    host: u.hostname,
    port: Number(u.port || 3306),
    user: decodeURIComponent(u.username || "root"),
    password: decodeURIComponent(u.password || ""),
    database,
    connectionLimit: Number(u.searchParams.get("connectionLimit") ?? 20),
    charset: "utf8mb4",
    timezone: "Z",
    dateStrings: true,
    supportBigNumbers: true,
    bigNumberStrings: false,
    // JSON comes back as text on both engines (the column type's toJson parses it); parsed, a JSON string
    // value could not be told from its text.
    jsonStrings: true,
    multipleStatements: false,
  });
};

export const metaSchemaName = (url: string) => decodeURIComponent(new URL(url).pathname.replace(/^\//, "")) || "tabula";

const openMysqlEngine = async (config: Config): Promise<Engine> => {
  const url = config.databaseUrl!;
  const metaName = metaSchemaName(url);
  const bootstrap = mysqlPool(url).promise();
  await bootstrap.query(`CREATE DATABASE IF NOT EXISTS \`${metaName.replace(/`/g, "``")}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`);
  await bootstrap.end();

  const pool = mysqlPool(url, metaName);
  const meta = new Kysely<MetaDb>({ dialect: new MysqlDialect({ pool }) });
  const shared = new Kysely<any>({ dialect: new MysqlDialect({ pool }) });
  let lastVersion = -1;

  return {
    kind: "mysql",
    meta,
    physicalName: (id) => `${metaName}__${id}`,
    createUserDb: async (physical) => {
      await sql`CREATE DATABASE ${sql.id(physical)} CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`.execute(shared);
    },
    dropUserDb: async (physical) => {
      await sql`DROP DATABASE IF EXISTS ${sql.id(physical)}`.execute(shared);
    },
    userDb: (physical) => ({ engine: "mysql", db: shared, table: (name) => sql.id(physical, name) }),
    clearStatements: () => {},
    metaChanged: async () => {
      const row = await meta.selectFrom("meta_state").select("version").where("id", "=", 1).executeTakeFirst();
      const version = row?.version ?? 0;
      if (version === lastVersion) return false;
      lastVersion = version;
      return true;
    },
    poolStats: () => {
      // mysql2 keeps these lists private; they are the only view of the pool it offers.
      const p = pool as unknown as { _allConnections: { length: number }; _freeConnections: { length: number }; _connectionQueue: { length: number } };
      return { kind: "mysql", total: p._allConnections.length, free: p._freeConnections.length, queued: p._connectionQueue.length };
    },
    close: async () => {
      await meta.destroy();
    },
  };
};

export const openEngine = async (config: Config): Promise<Engine> =>
  config.engine === "mysql" ? openMysqlEngine(config) : openSqliteEngine(config);
