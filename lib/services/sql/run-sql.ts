import path from "node:path";
import { checkConsoleSql } from "../../sql-console/check-console-sql";
import { CONSOLE_LIMITS, type ConsoleResult } from "../../sql-console/console-limits";
import { runMysqlConsole } from "../../sql-console/run-mysql-console";
import { runSqliteConsole } from "../../sql-console/run-sqlite-console";
import type { DbCtx } from "../../meta/context";

export type RunSqlInput = { instance: string; body: { sql: string } };

/** POST .../sql: one read-only SELECT over the database's tables (owners and admins; the route checks the role). */
export const runSql = async (ctx: DbCtx, { body }: RunSqlInput): Promise<ConsoleResult> => {
  const { schema } = ctx.database;
  const { config } = ctx.app;
  if (config.engine === "mysql") return runMysqlConsole(config.databaseUrl!, schema.physical, body.sql, CONSOLE_LIMITS);
  const statement = checkConsoleSql(body.sql, { engine: "sqlite" });
  return runSqliteConsole(path.join(config.dataDir, "databases", schema.physical), statement, CONSOLE_LIMITS);
};
