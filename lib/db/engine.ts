import fs from "node:fs";
import path from "node:path";
import { Kysely, MysqlDialect, MysqlDriver, sql } from "kysely";
import { createPool, type Pool } from "mysql2";
import type { Config, EngineKind } from "../config";
import type { MetaDb } from "./meta-schema";
import { defaultMaxOpen } from "./descriptor-budget";
import { DEFAULT_CACHE_MB, openSqlite, sqliteKysely } from "./open-sqlite";
import { BACKSTOP_CHECKPOINT_PAGES, DEFAULT_READERS, startReaderPool } from "./readers/reader-pool";
import { createSqliteHandles, DEFAULT_IDLE_SECONDS } from "./sqlite-handles";
import { joinNextRun } from "./join-next-run";
import { readOncePerTurn } from "./read-once-per-turn";
import { heldKysely, leasedKysely, runOn } from "./user-db-dialect";
import { createGroupCommit } from "./group-commit";
import { readPageJson } from "./page-json.mjs";
import { dropConsoleReader } from "../sql-console/mysql-console-reader";
import { logger } from "../ops/logger";
import type { UserDb } from "./user-db";

export type { UserDb } from "./user-db";

export type Engine = {
  kind: EngineKind;
  /** A MariaDB Galera node (wsrep_on): /readyz also asks whether it is Synced and ready. */
  galera: boolean;
  meta: Kysely<MetaDb>;
  /** Physical name for a new user database (MySQL schema or SQLite file name). */
  physicalName: (databaseId: number) => string;
  createUserDb: (physical: string) => Promise<void>;
  dropUserDb: (physical: string) => Promise<void>;
  userDb: (physical: string) => UserDb;
  /** Drops cached prepared statements of one user database; call after DDL on it (no-op on MySQL). */
  clearStatements: (physical: string) => void;
  /** Whether another process changed the metadata since the last check, read after the call (callers that come together share a read). */
  metaChanged: () => Promise<boolean>;
  /** What the process holds open: MySQL pool connections, or SQLite database handles (metrics). */
  poolStats: () => PoolStats;
  close: () => Promise<void>;
};

export type PoolStats =
  | { kind: "mysql"; total: number; free: number; queued: number }
  /** `commits`/`writes`: SQLite group commit's COMMITs that stored writes, and those writes, since start. */
  | { kind: "sqlite"; open: number; commits: number; writes: number };

const openSqliteEngine = (config: Config): Engine => {
  const dir = path.join(config.dataDir, "databases");
  fs.mkdirSync(dir, { recursive: true });
  const metaConn = openSqlite(path.join(config.dataDir, "tabula.db"));
  const meta = sqliteKysely<MetaDb>(metaConn);
  const readerCount = config.sqliteReaders ?? DEFAULT_READERS;
  const cacheMb = config.sqliteCacheMb ?? DEFAULT_CACHE_MB;
  const handles = createSqliteHandles({
    dir,
    maxOpen: config.sqliteMaxOpen ?? defaultMaxOpen(readerCount),
    idleMs: 1000 * (config.sqliteIdleSeconds ?? DEFAULT_IDLE_SECONDS),
    cacheMb,
  });
  const readers = startReaderPool({ size: readerCount, dir, handles, cacheMb });
  // With reader threads, they copy the WAL into the file after writes (not the COMMIT on this thread).
  if (readers) handles.setAutocheckpoint(BACKSTOP_CHECKPOINT_PAGES);
  const groupCommit = createGroupCommit(handles, (db, batch) => ({
    engine: "sqlite",
    db: heldKysely(db),
    table: (name) => sql.id(name),
    physical: db.physical,
    returning: true,
    afterCommit: batch.afterCommit,
    // The transaction holds the connection: its reads and statements need no lock and no Kysely round trip.
    readNow: (query) => runOn<Record<string, unknown>>(db, query).rows,
    runNow: (query) => runOn(db, query),
  }), readers?.checkpoint);
  const dataVersionStmt = metaConn.raw.prepare("PRAGMA data_version").pluck();
  let dataVersion = dataVersionStmt.get();

  // Handles hold no connection: each statement opens (or finds) the database through `handles`.
  const userDb = (physical: string): UserDb => {
    const open = handles.peek(physical);
    if (open?.handle) return open.handle;
    const handle: UserDb = { engine: "sqlite", db: leasedKysely(handles, physical), table: (name) => sql.id(name), physical, returning: true };
    if (readers) {
      handle.scan = (query) => readers.read(physical, query);
      handle.scanPage = (query, output, limit) => readers.page(physical, query, output, limit);
    } else {
      handle.scanPage = async (query, output, limit) => {
        const db = handles.retain(physical);
        try {
          await db.lock.acquire();
          try {
            return readPageJson(db.conn.prepare(query.sql), query.parameters, output, limit);
          } finally {
            db.lock.release();
          }
        } finally {
          handles.release(db);
        }
      };
    }
    handle.groupCommit = (fn) => groupCommit.write(physical, fn);
    handle.readNow = (query) => {
      const db = handles.retain(physical);
      try {
        if (!db.lock.tryAcquire()) return undefined;
        try {
          return runOn<Record<string, unknown>>(db, query).rows;
        } finally {
          db.lock.release();
        }
      } finally {
        handles.release(db);
      }
    };
    if (open) open.handle = handle;
    return handle;
  };

  return {
    kind: "sqlite",
    galera: false,
    meta,
    physicalName: (id) => `db_${id}.sqlite`,
    createUserDb: async (physical) => {
      handles.release(handles.retain(physical));
    },
    dropUserDb: async (physical) => {
      handles.close(physical);
      for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(path.join(dir, physical + suffix), { force: true });
    },
    userDb,
    clearStatements: (physical) => {
      handles.peek(physical)?.conn.clear();
      readers?.clear(physical);
    },
    // data_version moves when another connection (another process) commits to the file; the requests of one
    // event-loop turn share one read made after they all arrived.
    metaChanged: readOncePerTurn(() => {
      const current = dataVersionStmt.get();
      if (current === dataVersion) return false;
      dataVersion = current;
      for (const { conn } of handles.open()) conn.clear();
      readers?.clear();
      return true;
    }),
    poolStats: () => ({ kind: "sqlite", open: [...handles.open()].length + 1, ...groupCommit.stats }),
    close: async () => {
      await readers?.close();
      handles.closeAll();
      await meta.destroy();
    },
  };
};

/**
 * How every connection to MySQL/MariaDB reads values, whether pooled or (the SQL console) a connection of its own:
 * from the URL's credentials, into `database`.
 */
export const mysqlConnectionOptions = (url: string, database?: string) => {
  const u = new URL(url);
  return {
    host: u.hostname,
    port: Number(u.port || 3306),
    user: decodeURIComponent(u.username || "root"),
    password: decodeURIComponent(u.password || ""),
    database,
    charset: "utf8mb4",
    timezone: "Z",
    dateStrings: true,
    supportBigNumbers: true,
    bigNumberStrings: false,
    // JSON comes back as text on both engines (the column type's toJson parses it); parsed, a JSON string
    // value could not be told from its text.
    jsonStrings: true,
    multipleStatements: false,
  };
};

const mysqlPool = (url: string, database?: string): Pool =>
  createPool({ ...mysqlConnectionOptions(url, database), connectionLimit: Number(new URL(url).searchParams.get("connectionLimit") ?? 20) });

export const metaSchemaName = (url: string) => decodeURIComponent(new URL(url).pathname.replace(/^\//, "")) || "tabula";

/** MariaDB has had `INSERT … RETURNING` since 10.5 ("10.11.9-MariaDB-…"); MySQL has none. */
export const supportsInsertReturning = (version: string) => {
  const [major, minor] = version.split(".").map(Number);
  return /mariadb/i.test(version) && (major > 10 || (major === 10 && minor >= 5));
};

class ImplicitBeginDriver extends MysqlDriver {
  override async beginTransaction() {}
}

/**
 * Transactions on a pool of their own whose connections run with autocommit off: a transaction's first
 * statement begins it, so BEGIN costs no round trip (a write's statements are each one). Only transactions may
 * run here: a lone statement would leave its transaction, and its locks, open on a pooled connection.
 */
const implicitBeginKysely = (pool: Pool) => {
  pool.on("connection", (conn) => void conn.query("SET SESSION autocommit = 0"));
  return new Kysely<any>({
    dialect: new (class extends MysqlDialect {
      override createDriver() {
        return new ImplicitBeginDriver({ pool });
      }
    })({ pool }),
  });
};

const openMysqlEngine = async (config: Config): Promise<Engine> => {
  const url = config.databaseUrl!;
  const metaName = metaSchemaName(url);
  const bootstrap = mysqlPool(url).promise();
  await bootstrap.query(`CREATE DATABASE IF NOT EXISTS \`${metaName.replace(/`/g, "``")}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`);
  const [wsrep] = (await bootstrap.query("SHOW VARIABLES LIKE 'wsrep_on'")) as unknown as [{ Value: string }[]];
  const [server] = (await bootstrap.query("SELECT VERSION() AS v, @@max_allowed_packet AS packet")) as unknown as [{ v: string; packet: number }[]];
  await bootstrap.end();
  const galera = wsrep[0]?.Value === "ON";
  const returning = supportsInsertReturning(server[0]?.v ?? "");
  const maxPacketBytes = Number(server[0]?.packet ?? 4_194_304); // MySQL's smallest default when unread

  const pool = mysqlPool(url, metaName);
  // Read-your-writes across Galera nodes: a read waits until this node has applied every commit the cluster
  // acknowledged before it (a write through another node is then visible here). DB_SYNC_WAIT=0 turns it off.
  const syncWait = config.syncWait ?? 1;
  const writePool = mysqlPool(url, metaName);
  if (galera && syncWait > 0) for (const p of [pool, writePool]) p.on("connection", (conn) => void conn.query(`SET SESSION wsrep_sync_wait = ${syncWait}`));
  const meta = new Kysely<MetaDb>({ dialect: new MysqlDialect({ pool }) });
  const shared = new Kysely<any>({ dialect: new MysqlDialect({ pool }) });
  const writer = implicitBeginKysely(writePool);
  let lastVersion = -1;

  return {
    kind: "mysql",
    galera,
    meta,
    physicalName: (id) => `${metaName}__${id}`,
    createUserDb: async (physical) => {
      await sql`CREATE DATABASE ${sql.id(physical)} CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`.execute(shared);
    },
    dropUserDb: async (physical) => {
      await sql`DROP DATABASE IF EXISTS ${sql.id(physical)}`.execute(shared);
      // The SQL console's reader goes with its database; an app user without CREATE USER never made one.
      await dropConsoleReader((text, values) => pool.promise().query(text, values), physical).catch((err: unknown) =>
        logger.warn({ err, physical }, "SQL console reader not dropped"),
      );
    },
    userDb: (physical) => ({ engine: "mysql", db: shared, table: (name) => sql.id(physical, name), physical, returning, writer, maxPacketBytes }),
    clearStatements: () => {},
    metaChanged: joinNextRun(async () => {
      const row = await meta.selectFrom("meta_changes").select((eb) => eb.fn.max("id").as("version")).executeTakeFirst();
      const version = Number(row?.version ?? 0);
      if (version === lastVersion) return false;
      lastVersion = version;
      return true;
    }),
    poolStats: () => {
      // mysql2 keeps these lists private; they are the only view of a pool it offers. Both pools count.
      const lists = [pool, writePool] as unknown as { _allConnections: unknown[]; _freeConnections: unknown[]; _connectionQueue: unknown[] }[];
      const sum = (list: "_allConnections" | "_freeConnections" | "_connectionQueue") => lists.reduce((n, p) => n + p[list].length, 0);
      return { kind: "mysql", total: sum("_allConnections"), free: sum("_freeConnections"), queued: sum("_connectionQueue") };
    },
    close: async () => {
      await Promise.all([meta.destroy(), writer.destroy()]);
    },
  };
};

export const openEngine = async (config: Config): Promise<Engine> =>
  config.engine === "mysql" ? openMysqlEngine(config) : openSqliteEngine(config);
