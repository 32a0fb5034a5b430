import { applyTables, dropTableSql } from "../../ddl/apply-tables";
import { conflict, validationFailed } from "../../errors";
import { parseTable } from "../../schema/parse-table";
import { bumpMetaVersion, type Ctx, nowIso } from "../context";
import { getDatabaseOrThrow } from "../databases/get-database-or-throw";
import { checkNameFree } from "../joins/read-join-input";
import { tableView } from "../serialize";

/** Creates one table `{name, columns}`; its references may point at existing tables or at itself. */
export type CreateTableInput = { instance: string; body: unknown };

export const createTable = async (ctx: Ctx, { instance, body: input }: CreateTableInput) => {
  const schema = await getDatabaseOrThrow(ctx, instance);
  const ownName = (input as { name?: unknown } | null)?.name;
  const { table, errors } = parseTable(input, "", (name) => schema.tables.has(name) || name === ownName);
  if (!table) throw validationFailed(errors);
  if (schema.joins?.has(table.name)) checkNameFree(schema, table.name);
  if (schema.tables.has(table.name)) throw conflict(`Table "${table.name}" already exists in database "${schema.instance}".`);
  const { app } = ctx;
  const udb = app.engine.userDb(schema.physical);
  let id = 0;
  await app.engine.meta.transaction().execute(async (trx) => {
    await bumpMetaVersion(trx, schema.id);
    const row = await trx
      .insertInto("tables")
      .values({ database_id: schema.id, name: table.name, columns: JSON.stringify(table.columns), created_at: nowIso() })
      .executeTakeFirstOrThrow();
    id = Number(row.insertId);
    try {
      await applyTables(udb, [{ id, ...table }]);
    } catch (err) {
      // MySQL DDL commits on its own: take back a table whose foreign keys failed.
      if (udb.engine === "mysql") await dropTableSql(udb, table.name).execute(udb.db).catch(() => undefined);
      throw err;
    } finally {
      app.engine.clearStatements(schema.physical);
    }
  });
  app.events.publish({ kind: "schema", databaseId: schema.id, instance: schema.instance, physical: schema.physical });
  return tableView({ id, ...table });
};
