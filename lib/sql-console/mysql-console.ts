// The SQL console's side of MariaDB: each database's reader account, made on first use (or when the database
// is made), and a small pool of connections as that reader. Pools are few (least recently used ones close)
// and their idle connections close soon, so the console never holds many of the server's connections.
import { createConnection, createPool, type Pool } from "mysql2";
import { mysqlConnectionOptions } from "../db/engine";
import { ApiError } from "../errors";
import { type ConsoleLimits, type ConsoleResult, MYSQL_CONSOLE_POOL } from "./console-limits";
import { runMysqlConsole } from "./run-mysql-console";
import { type AdminQuery, appAccountHost, consoleReaderName, consoleReaderPassword, createConsoleReader, type ReaderAccount, readerUnavailable } from "./mysql-console-reader";

const ER_DB_ACCESS_DENIED = 1044;
const ER_ACCESS_DENIED = 1045;
const ER_USER_LIMIT_REACHED = 1226;

export type MysqlConsole = {
  /** Makes the database's reader account if it is not made yet in this process's view. */
  prepare: (physical: string) => Promise<void>;
  /** Runs a statement, checked by the caller, as the database's reader (made first if needed). */
  run: (physical: string, statement: string) => Promise<ConsoleResult>;
  /** Closes the database's pool (its reader is dropped with the database, lib/db/engine.ts). */
  forget: (physical: string) => Promise<void>;
  close: () => Promise<void>;
};

type Entry = { pool: Pool; active: number };

export const createMysqlConsole = ({ url, secret, limits }: { url: string; secret: Buffer; limits: ConsoleLimits }): MysqlConsole => {
  const made = new Map<string, Promise<ReaderAccount>>();
  const pools = new Map<string, Entry>();
  const asAdmin = async <T>(fn: (admin: AdminQuery) => Promise<T>): Promise<T> => {
    const conn = createConnection(mysqlConnectionOptions(url)).promise();
    try {
      return await fn((sql, values) => conn.query(sql, values));
    } finally {
      conn.destroy();
    }
  };

  const reader = (physical: string): Promise<ReaderAccount> => {
    let pending = made.get(physical);
    if (!pending) {
      pending = asAdmin(async (admin) => {
        const account = { user: consoleReaderName(physical), host: await appAccountHost(admin), password: consoleReaderPassword(secret, physical) };
        await createConsoleReader(admin, account, physical, { connections: MYSQL_CONSOLE_POOL.accountConnections, timeSeconds: limits.timeMs / 1000 });
        return account;
      });
      made.set(physical, pending);
      pending.catch(() => made.delete(physical));
    }
    return pending;
  };

  const openPool = (physical: string, account: ReaderAccount): Pool => {
    const pool = createPool({
      ...mysqlConnectionOptions(url, physical),
      user: account.user,
      password: account.password,
      connectionLimit: MYSQL_CONSOLE_POOL.connections,
      maxIdle: MYSQL_CONSOLE_POOL.connections,
      idleTimeout: MYSQL_CONSOLE_POOL.idleMs,
    });
    // The tokenizer reads strings with backslash escapes and `"` as text: the session's sql_mode must agree.
    pool.on("connection", (conn) => {
      conn.query("SET SESSION sql_mode = 'STRICT_TRANS_TABLES,NO_ENGINE_SUBSTITUTION'");
      conn.query(`SET SESSION max_statement_time = ${limits.timeMs / 1000}, sql_select_limit = ${limits.maxRows + 1}`);
      conn.query("SET SESSION TRANSACTION READ ONLY");
    });
    return pool;
  };

  const evictIdle = () => {
    for (const [physical, entry] of pools) {
      if (pools.size <= MYSQL_CONSOLE_POOL.pools) return;
      if (entry.active > 0) continue;
      pools.delete(physical);
      entry.pool.end(() => {});
    }
  };

  const readerPool = async (physical: string): Promise<Entry> => {
    const account = await reader(physical);
    let entry = pools.get(physical);
    if (entry) pools.delete(physical);
    entry ??= { pool: openPool(physical, account), active: 0 };
    pools.set(physical, entry); // most recently used last
    evictIdle();
    return entry;
  };

  const forget = async (physical: string) => {
    made.delete(physical);
    const entry = pools.get(physical);
    pools.delete(physical);
    if (entry) await new Promise<void>((resolve) => entry.pool.end(() => resolve()));
  };

  return {
    prepare: async (physical) => void (await reader(physical)),
    run: async (physical, statement) => {
      const entry = await readerPool(physical);
      entry.active++;
      try {
        return await runMysqlConsole(entry.pool, statement, limits);
      } catch (err) {
        throw readerConnectionError(err, () => void forget(physical)) ?? err;
      } finally {
        entry.active--;
      }
    },
    forget,
    close: async () => {
      const all = [...pools.values()];
      pools.clear();
      await Promise.all(all.map((e) => new Promise<void>((resolve) => e.pool.end(() => resolve()))));
    },
  };
};

/** Connection refusals of the reader, as answers: its connection cap (429), or its password out of date (503). */
const readerConnectionError = (err: unknown, forget: () => void) => {
  const e = err as { errno?: number };
  if (e.errno === ER_USER_LIMIT_REACHED) {
    return new ApiError("rate_limited", "This database's SQL console already has as many connections as it may hold; retry in a moment.", { headers: { "Retry-After": "1" } });
  }
  if (e.errno === ER_ACCESS_DENIED || e.errno === ER_DB_ACCESS_DENIED) {
    forget();
    return readerUnavailable("MariaDB refused its login (it is made again on the next request)");
  }
  return undefined;
};
