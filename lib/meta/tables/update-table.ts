import { renameTableSql } from "../../ddl/rename-table-sql";
import { conflict, type FieldError, validationFailed } from "../../errors";
import { checkTableName } from "../../schema/names";
import type { ColumnDef, TableDef } from "../../schema/types";
import { bumpMetaVersion, type Ctx } from "../context";
import { getDatabaseOrThrow } from "../databases/get-database-or-throw";
import { renameInJoins } from "../joins/follow-schema-change";
import { checkNameFree } from "../joins/read-join-input";
import { tableView } from "../serialize";
import { getTableOrThrow } from "./get-table-or-throw";

const TABLE_PATCH_KEYS = new Set(["name"]);

const parseTablePatch = (input: unknown): { name?: string } => {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw validationFailed([{ field: "body", code: "invalid_type", message: "the body must be a JSON object like {\"name\": \"orders\"}" }]);
  }
  const body = input as Record<string, unknown>;
  const errors: FieldError[] = [];
  for (const key of Object.keys(body)) {
    if (!TABLE_PATCH_KEYS.has(key)) errors.push({ field: key, code: "unknown_property", message: `unknown table property "${key}"` });
  }
  const nameError = body.name === undefined ? undefined : checkTableName(body.name);
  if (nameError) errors.push(nameError);
  if (errors.length) throw validationFailed(errors);
  return { name: body.name as string | undefined };
};

const retarget = (columns: ColumnDef[], from: string, to: string) =>
  columns.map((c) => (c.references === from ? { ...c, references: to } : c));

/** PATCH `{name}` renames a table; reference columns pointing at it (its own included) follow the new name. */
export type UpdateTableInput = { instance: string; table: string; body: unknown };

export const updateTable = async (ctx: Ctx, { instance, table: tableName, body: input }: UpdateTableInput) => {
  const schema = await getDatabaseOrThrow(ctx, instance);
  const table = getTableOrThrow(schema, tableName);
  const { name } = parseTablePatch(input);
  if (name === undefined || name === table.name) return tableView(table);
  if (schema.joins?.has(name)) checkNameFree(schema, name);
  if (schema.tables.has(name)) throw conflict(`Table "${name}" already exists in database "${schema.instance}".`);
  const { app } = ctx;
  const udb = app.engine.userDb(schema.physical);
  const pointing = [...schema.tables.values()].filter((t) => t.columns.some((c) => c.references === table.name));
  const renamed: TableDef = { ...table, name, columns: retarget(table.columns, table.name, name) };
  await app.engine.meta.transaction().execute(async (trx) => {
    await bumpMetaVersion(trx, schema.id);
    await trx.updateTable("tables").set({ name, columns: JSON.stringify(renamed.columns) }).where("id", "=", table.id).execute();
    for (const other of pointing.filter((t) => t.id !== table.id)) {
      const columns = JSON.stringify(retarget(other.columns, table.name, name));
      await trx.updateTable("tables").set({ columns }).where("id", "=", other.id).execute();
    }
    await renameInJoins(trx, schema, table.name, { table: name });
    try {
      await renameTableSql(udb, table.name, name).execute(udb.db);
    } finally {
      app.engine.clearStatements(schema.physical);
    }
  });
  app.events.publish({ kind: "schema", databaseId: schema.id, instance: schema.instance, physical: schema.physical });
  return tableView(renamed);
};
