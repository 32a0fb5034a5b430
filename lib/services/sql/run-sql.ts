import { sql } from "kysely";
import type { ConsoleResult } from "../../sql-console/console-limits";
import type { DbCtx } from "../../meta/context";

export type RunSqlInput = { instance: string; body: { sql: string } };

/** MariaDB: the server's schemas other than this database's, which the checks refuse by name. */
const otherSchemas = async (ctx: DbCtx, physical: string) => {
  const { rows } = await sql<{ s: string }>`SELECT schema_name AS s FROM information_schema.schemata WHERE schema_name <> ${physical}`.execute(ctx.app.engine.meta);
  return rows.map((r) => r.s);
};

/** POST .../sql: one read-only SELECT over the database's tables (owners and admins; the route checks the role). */
export const runSql = async (ctx: DbCtx, { body }: RunSqlInput): Promise<ConsoleResult> => {
  const { physical } = ctx.database.schema;
  const { app, actor } = ctx;
  return app.sqlConsole.run({
    accountId: actor.accountId,
    physical,
    sql: body.sql,
    otherSchemas: app.engine.kind === "mysql" ? await otherSchemas(ctx, physical) : undefined,
  });
};
