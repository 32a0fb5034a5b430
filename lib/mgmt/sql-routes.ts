import { runSql } from "../services/sql/run-sql";
import { CONSOLE_CONCURRENCY, CONSOLE_LIMITS } from "../sql-console/console-limits";
import { defineRoute } from "./route";
import { SqlInput, SqlResult } from "../contract/schemas/sql";

export const SQL_ROUTES = [
  // Admin, not read: raw SQL passes no row-level policy and no hidden-column rule, so only owners and admins.
  defineRoute({
    method: "POST", path: "databases/:instance/sql", permission: "database:admin", tag: "SQL", operationId: "runSql",
    summary: "Run a read-only SQL query",
    description: `One SELECT in a read-only transaction over this database's tables only: at most ${CONSOLE_LIMITS.timeMs / 1000} s, ${CONSOLE_LIMITS.maxRows} rows and ${CONSOLE_LIMITS.maxBytes / 1024 / 1024} MiB of JSON cells (\`truncated\` past either). On MariaDB it runs as a read-only account of this database. A write, DDL, several statements, another schema, files, locks, sleeps or variables are 422 on \`sql\` naming why; so is an engine error or the time limit. More than ${CONSOLE_CONCURRENCY.perMember} at once per member, or ${CONSOLE_CONCURRENCY.perInstall} per server process, is 429 with \`Retry-After\`.`,
    body: SqlInput, status: 200, response: SqlResult,
    run: (ctx, { instance, body }) => runSql(ctx, { instance, body }),
  }),
];
