// The SQL console of this process (App.sqlConsole): the checks, the bounds on how many statements run at once,
// and where they run: SQLite's reusable child processes, or MariaDB's per-database reader accounts.
import path from "node:path";
import type { Config } from "../config";
import { logger } from "../ops/logger";
import { checkConsoleSql } from "./check-console-sql";
import { CONSOLE_CONCURRENCY, CONSOLE_LIMITS, type ConsoleLimits, type ConsoleResult, SQLITE_CONSOLE_CHILDREN } from "./console-limits";
import { type ConsoleSlots, createConsoleSlots } from "./console-slots";
import { createMysqlConsole, type MysqlConsole } from "./mysql-console";
import { createSqliteConsole, type SqliteConsole } from "./run-sqlite-console";

export type ConsoleRun = {
  accountId: number;
  physical: string;
  sql: string;
  /** MariaDB: the server's other schemas, refused by name before anything runs. */
  otherSchemas?: string[];
};

export type SqlConsole = {
  run: (input: ConsoleRun) => Promise<ConsoleResult>;
  /** MariaDB: makes a new database's reader account; a failure is logged (the console retries, then answers 503). */
  prepare: (physical: string) => Promise<void>;
  /** Lets go of what the console holds for a deleted database. */
  forget: (physical: string) => Promise<void>;
  slots: ConsoleSlots;
  sqlite?: SqliteConsole;
  close: () => Promise<void>;
};

export const createSqlConsole = (config: Config, secret: Buffer, limits: ConsoleLimits = CONSOLE_LIMITS): SqlConsole => {
  const slots = createConsoleSlots(CONSOLE_CONCURRENCY);
  const mysql: MysqlConsole | undefined = config.engine === "mysql" ? createMysqlConsole({ url: config.databaseUrl!, secret, limits }) : undefined;
  const sqlite: SqliteConsole | undefined = mysql ? undefined : createSqliteConsole({ children: SQLITE_CONSOLE_CHILDREN, limits });
  return {
    run: async ({ accountId, physical, sql, otherSchemas }) => {
      const statement = checkConsoleSql(sql, { engine: config.engine, otherSchemas });
      const release = slots.take(accountId);
      try {
        if (mysql) return await mysql.run(physical, statement);
        return await sqlite!.run(path.join(config.dataDir, "databases", physical), statement);
      } finally {
        release();
      }
    },
    prepare: async (physical) => {
      await mysql?.prepare(physical).catch((err: unknown) => logger.warn({ err, physical }, "SQL console reader not made"));
    },
    forget: async (physical) => mysql?.forget(physical),
    slots,
    sqlite,
    close: async () => {
      sqlite?.close();
      await mysql?.close();
    },
  };
};
