import { runSql } from "../services/sql/run-sql";
import { CONSOLE_LIMITS } from "../sql-console/console-limits";
import { defineRoute } from "./route";
import { SqlInput, SqlResult } from "./schemas/sql";

export const SQL_ROUTES = [
  // Admin, not read: raw SQL passes no row-level policy and no hidden-column rule, so only owners and admins.
  defineRoute({
    method: "POST", path: "databases/:instance/sql", permission: "database:admin", tag: "SQL", operationId: "runSql",
    summary: "Run a read-only SQL query",
    description: `One SELECT in a read-only transaction over this database's tables only: at most ${CONSOLE_LIMITS.timeMs / 1000} s and ${CONSOLE_LIMITS.maxRows} rows. A write, DDL, several statements, another schema, files, locks, sleeps or variables are 422 on \`sql\` naming why; so is an engine error or the time limit.`,
    body: SqlInput, status: 200, response: SqlResult,
    run: (ctx, { instance, body }) => runSql(ctx, { instance, body }),
  }),
];
